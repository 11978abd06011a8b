import type { CompiledSnapshot, NamespaceSnapshot } from '@ensign/engine';
import type { NamespaceState, SqlStore } from '@ensign/store';
import { pino, type Logger } from 'pino';
import type { SnapshotSink, SnapshotStateReader } from '../src/index.js';
import type { LogLine } from './harness.js';

/** What a sink was handed, in order. */
export type SinkEvent =
  | { kind: 'put'; namespaceKey: string; revision: number; snapshot: NamespaceSnapshot; compiled: CompiledSnapshot }
  | { kind: 'remove'; namespaceKey: string; revision: number };

/** A sink that records every call and holds the newest snapshot per namespace. */
export class RecordingSink implements SnapshotSink {
  readonly events: SinkEvent[] = [];
  readonly held = new Map<string, NamespaceSnapshot>();
  /** Called on each put, e.g. to note what the test had seen by then. */
  onPut: (snapshot: NamespaceSnapshot) => void = () => {};

  put(snapshot: NamespaceSnapshot, compiled: CompiledSnapshot): void {
    this.events.push({ kind: 'put', namespaceKey: snapshot.namespaceKey, revision: snapshot.revision, snapshot, compiled });
    this.held.set(snapshot.namespaceKey, snapshot);
    this.onPut(snapshot);
  }

  remove(namespaceKey: string, revision: number): void {
    this.events.push({ kind: 'remove', namespaceKey, revision });
    this.held.delete(namespaceKey);
  }

  /** Revisions handed over for one namespace, puts and removes alike. */
  revisionsOf(namespaceKey: string): number[] {
    return this.events.filter((e) => e.namespaceKey === namespaceKey).map((e) => e.revision);
  }

  flagKeysOf(namespaceKey: string): string[] | undefined {
    return this.held.get(namespaceKey)?.document.flags.map((f) => f.key);
  }
}

/** A pino logger whose lines land in an array. */
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
