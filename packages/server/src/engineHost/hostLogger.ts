/** The part of a pino logger the engine host uses. */
export interface HostLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** Discards everything (unit tests). */
export const silentLogger: HostLogger = {
  info: () => {},
  warn: () => {},
  error: () => {},
};
