import type { NamespaceSnapshot } from '@ensign/engine';
import type { BusLogger } from './bus-logger.js';
import type { SnapshotBus } from './snapshot-bus.js';

type Operation = { kind: 'put'; snapshot: NamespaceSnapshot } | { kind: 'remove'; revision: number };

/** One namespace's publishing: at most one operation in flight and the newest one waiting. */
interface Lane {
  running: Promise<void> | undefined;
  next: Operation | undefined;
}

/**
 * The control plane's snapshot sink when scaled out: hands each snapshot to the bus without
 * blocking or failing the write that produced it. Operations of one namespace run one at a time
 * in the order received (a queued one is replaced by a newer one); a failure is logged and leaves
 * the namespace in `lagging()` until a later operation of it succeeds, for the reconcile loop.
 */
export class KvSnapshotSink {
  private readonly lanes = new Map<string, Lane>();
  private readonly failed = new Set<string>();

  constructor(
    private readonly bus: Pick<SnapshotBus, 'publish' | 'remove'>,
    private readonly logger?: BusLogger,
  ) {}

  put(snapshot: NamespaceSnapshot): void {
    this.enqueue(snapshot.namespaceKey, { kind: 'put', snapshot });
  }

  remove(namespaceKey: string, revision: number): void {
    this.enqueue(namespaceKey, { kind: 'remove', revision });
  }

  /** Namespaces whose latest operation failed: the bucket may be behind the database for them. */
  lagging(): string[] {
    return [...this.failed];
  }

  /** Resolves once every operation handed over so far has finished (or failed and been logged). */
  async settled(): Promise<void> {
    for (;;) {
      const running = [...this.lanes.values()].flatMap((lane) => (lane.running === undefined ? [] : [lane.running]));
      if (running.length === 0) return;
      await Promise.all(running);
    }
  }

  private enqueue(namespaceKey: string, operation: Operation): void {
    let lane = this.lanes.get(namespaceKey);
    if (lane === undefined) {
      lane = { running: undefined, next: undefined };
      this.lanes.set(namespaceKey, lane);
    }
    lane.next = operation;
    lane.running ??= this.drain(namespaceKey, lane);
  }

  private async drain(namespaceKey: string, lane: Lane): Promise<void> {
    while (lane.next !== undefined) {
      const operation = lane.next;
      lane.next = undefined;
      try {
        if (operation.kind === 'put') await this.bus.publish(operation.snapshot);
        else await this.bus.remove(namespaceKey, operation.revision);
        this.failed.delete(namespaceKey);
      } catch (err) {
        this.failed.add(namespaceKey);
        this.logger?.error({ err, namespaceKey, operation: operation.kind }, 'snapshot publish failed; reconcile will retry');
      }
    }
    lane.running = undefined;
    this.lanes.delete(namespaceKey);
  }
}
