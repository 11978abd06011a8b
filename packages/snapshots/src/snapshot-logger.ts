/** The logging the snapshot pipeline needs (pino's Logger has it). */
export interface SnapshotLogger {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}
