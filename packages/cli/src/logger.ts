/** The process logger: pino JSON lines on stdout (stderr for commands whose stdout is data) at the configured level. */
import { pino, type Logger } from 'pino';
import type { EnsignConfig } from './config/config.schema.js';

/** Creates the one logger of the process; packages receive it (or a child of it), never build their own. */
export function createLogger(config: EnsignConfig, output: 'stdout' | 'stderr' = 'stdout'): Logger {
  const options = { level: config.log.level, timestamp: pino.stdTimeFunctions.isoTime };
  return output === 'stdout' ? pino(options) : pino(options, pino.destination(2));
}
