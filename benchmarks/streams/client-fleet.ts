/**
 * The client processes (stream-client.ts) as one: streams are split evenly over them, and their
 * answers joined in process order, so stream i of the fleet is the same stream in every reply.
 */
import { fileURLToPath } from 'node:url';
import { pin, stop } from '../engine/child-processes.js';
import type { RunScope } from '../writes/run-scope.js';
import { forkTracked, type IpcPeer } from './ipc.js';
import type { CloseReply, CollectReply, OpenReply } from './stream-client.js';

const CLIENT = fileURLToPath(new URL('./stream-client.js', import.meta.url));

export interface Opened {
  /** First connect → last stream's first message, ms. */
  spanMs: number;
  /** Per stream: connect → first message, ms (-1: none). */
  perStreamMs: number[];
  withFirstMessage: number;
  firstMessageBytes: number;
  errors: string[];
}

export interface Closed {
  endedByServer: number;
  messages: number;
  errors: string[];
}

export class ClientFleet {
  private shares: number[] = [];

  private constructor(readonly peers: IpcPeer[]) {}

  static async start(scope: RunScope, processes: number, cpu: number | undefined): Promise<ClientFleet> {
    const peers = await Promise.all(
      Array.from({ length: processes }, async (_, i) => {
        const { peer } = await forkTracked(CLIENT, `stream client ${i + 1}`);
        scope.add(() => stop(peer.child, 3000));
        pin(peer.pid, cpu);
        return peer;
      }),
    );
    return new ClientFleet(peers);
  }

  get pids(): Array<number | undefined> {
    return this.peers.map((p) => p.pid);
  }

  /** Opens `count` streams of `path` on 127.0.0.1:`port`, split over the processes. */
  async open(port: number, path: string, count: number, options: { concurrency: number; timeoutMs: number; accept?: string }): Promise<Opened> {
    const n = this.peers.length;
    this.shares = this.peers.map((_, i) => Math.floor(count / n) + (i < count % n ? 1 : 0));
    const replies = await Promise.all(
      this.peers.map((peer, i) =>
        peer.ask<OpenReply>(
          { type: 'open', port, path, accept: options.accept ?? 'application/json', count: this.shares[i], concurrency: options.concurrency, timeoutMs: options.timeoutMs },
          options.timeoutMs + 10_000,
        ),
      ),
    );
    const startedAt = replies.flatMap((r) => r.startedAt);
    const firstAt = replies.flatMap((r) => r.firstAt);
    const start = Math.min(...startedAt);
    const withFirst = firstAt.filter((t) => t >= 0);
    return {
      spanMs: withFirst.length === 0 ? NaN : Math.max(...withFirst) - start,
      perStreamMs: firstAt.map((t, i) => (t < 0 ? -1 : t - startedAt[i]!)),
      withFirstMessage: withFirst.length,
      firstMessageBytes: replies.find((r) => r.firstMessageBytes > 0)?.firstMessageBytes ?? 0,
      errors: replies.flatMap((r) => r.errors),
    };
  }

  /** Per stream, when the message of `seq` arrived (-1: not within `timeoutMs`). */
  async collect(seq: number, timeoutMs: number): Promise<number[]> {
    const replies = await Promise.all(this.peers.map((peer) => peer.ask<CollectReply>({ type: 'collect', seq, timeoutMs }, timeoutMs + 10_000)));
    return replies.flatMap((r) => r.at);
  }

  async close(): Promise<Closed> {
    const replies = await Promise.all(this.peers.map((peer) => peer.ask<CloseReply>({ type: 'close' }, 30_000)));
    return {
      endedByServer: replies.reduce((sum, r) => sum + r.endedByServer, 0),
      messages: replies.reduce((sum, r) => sum + r.messages, 0),
      errors: replies.flatMap((r) => r.errors),
    };
  }
}
