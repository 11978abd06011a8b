/** The snapshot streams' metrics, read from their counts when scraped. */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { StreamCounts } from './snapshot-streams.js';

export function registerStreamMetrics(registry: Registry, counts: StreamCounts): void {
  const registers = [registry];
  new Gauge({
    name: 'ensign_streams_open',
    help: 'Snapshot streams open, by framing: ndjson (SDKs) or sse (browsers, OFREP providers).',
    labelNames: ['framing'],
    registers,
    collect() {
      for (const [framing, open] of Object.entries(counts.open)) this.set({ framing }, open);
    },
  });
  new Counter({
    name: 'ensign_stream_messages_total',
    help: 'Snapshot stream messages sent, by framing.',
    labelNames: ['framing'],
    registers,
    collect() {
      this.reset();
      for (const [framing, sent] of Object.entries(counts.messages)) this.inc({ framing }, sent);
    },
  });
  new Counter({
    name: 'ensign_streams_dropped_total',
    help: 'Snapshot streams dropped because the client did not take a message in time.',
    registers,
    collect() {
      this.reset();
      this.inc(counts.dropped);
    },
  });
}
