import type { NamespaceState, SqlStore } from '@ensign/store';
import { pino, type Logger } from 'pino';
import type { SnapshotStateReader } from '../src/index.js';
import type { LogLine } from './harness.js';

/** A logger whose lines the test can read. */
export function capturingLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  return { logger, lines };
}

/**
 * The store's reader with a gate: while closed, reads wait (after counting themselves) until it
 * opens; `delayMs` slows every read down; `failNext` makes the next read reject.
 */
export class GatedReader implements SnapshotStateReader {
  reads = 0;
  /** Added to every read, so a rebuild is still running when an unwaited response would go out. */
  delayMs = 0;
  private gate: Promise<void> = Promise.resolve();
  private open: () => void = () => {};
  private failures = 0;

  constructor(private readonly store: SqlStore) {}

  close(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.open();
  }

  failNext(): void {
    this.failures += 1;
  }

  async readNamespaceState(namespaceKey: string): Promise<NamespaceState | undefined> {
    this.reads += 1;
    await this.gate;
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (this.failures > 0) {
      this.failures -= 1;
      throw new Error('connection lost');
    }
    return this.store.readNamespaceState(namespaceKey);
  }

  listNamespaceRevisions() {
    return this.store.listNamespaceRevisions();
  }
}

/** Lets pending promise callbacks and I/O callbacks run. */
export const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
