import type { CompiledSnapshot, NamespaceSnapshot } from '@ensign/engine';
import type { Logger } from 'pino';
import type { SnapshotSink } from './snapshot-sink.js';

/**
 * Hands every snapshot to several sinks (the in-process source and the bus when scaled out). A sink
 * that throws is logged and does not keep the others from getting the snapshot.
 */
export class CompositeSnapshotSink implements SnapshotSink {
  constructor(
    private readonly sinks: readonly SnapshotSink[],
    private readonly logger: Logger,
  ) {}

  put(snapshot: NamespaceSnapshot, compiled: CompiledSnapshot): void {
    this.each((sink) => sink.put(snapshot, compiled), snapshot.namespaceKey, snapshot.revision);
  }

  remove(namespaceKey: string, revision: number): void {
    this.each((sink) => sink.remove(namespaceKey, revision), namespaceKey, revision);
  }

  private each(give: (sink: SnapshotSink) => void, namespace: string, revision: number): void {
    for (const sink of this.sinks) {
      try {
        give(sink);
      } catch (err) {
        this.logger.error({ err, namespace, revision }, 'a snapshot sink failed');
      }
    }
  }
}
