import { tmpdir } from 'node:os';
import { type Config, configFromEnv } from '../config.js';

/** A valid configuration for tests (no environment read, no files written), with overrides. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...configFromEnv({
      NODE_ENV: 'test',
      DATA_DIR: tmpdir(),
      SECRET_KEY: 'test-secret-key-of-at-least-32-characters',
    }),
    ...overrides,
  };
}
