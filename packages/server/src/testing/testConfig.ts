import { tmpdir } from 'node:os';
import { type Config, configFromEnv } from '../config.js';

/**
 * A valid configuration for tests (no environment read, no files written), with overrides.
 * Nothing runs on its own: no demo liquidity, no simulated blocks (tests mine them).
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...configFromEnv({
      NODE_ENV: 'test',
      DATA_DIR: tmpdir(),
      SECRET_KEY: 'test-secret-key-of-at-least-32-characters',
      DEMO_MAKER: '0',
      CHAIN_BLOCK_MS: '0',
    }),
    ...overrides,
  };
}
