/** The part of a pino logger the engine host uses. */
export interface HostLogger {
  debug(details: object, message: string): void;
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** Discards everything (unit tests). */
export const silentLogger: HostLogger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
};
