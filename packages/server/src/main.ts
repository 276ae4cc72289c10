import { buildApp } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { openPreparedDatabase } from './startup.js';

// Starts the server: configuration, database, app, listen. Everything else lives in app.ts.

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

const database = await openPreparedDatabase(config);
const app = await buildApp(config, { db: database.db, dialect: database.dialect });

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, 'stopping');
  await app.close();
  await database.close();
  process.exit(0);
}
process.once('SIGINT', () => void stop('SIGINT'));
process.once('SIGTERM', () => void stop('SIGTERM'));

try {
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  app.log.info(
    { database: database.dialect, dataDir: config.dataDir, devTools: config.devTools },
    `Lattice Exchange is running at http://localhost:${port}`,
  );
} catch (error) {
  app.log.fatal({ err: error }, 'could not listen');
  await database.close();
  process.exit(1);
}
