/** What the server published to NATS so far, from its `/metrics`; diff two readings to cost a window. */
import type { KeepAliveClient } from '../propagation/keep-alive-client.js';

export interface PublishTotals {
  deltas: number;
  hydrations: number;
  deltaBytes: number;
  hydrationBytes: number;
}

function counter(metrics: string, name: string, kind: string): number {
  const line = new RegExp(`^${name}\\{kind="${kind}"\\} (\\S+)$`, 'm').exec(metrics);
  return line === null ? 0 : Number(line[1]);
}

/** Reads the publish counters; all 0 when the server does not export them. */
export async function readPublishTotals(client: KeepAliveClient): Promise<PublishTotals> {
  const reply = await client.send('GET', '/metrics');
  if (reply.status !== 200) throw new Error(`GET /metrics → ${reply.status}`);
  return {
    deltas: counter(reply.text, 'ensign_snapshot_published_total', 'delta'),
    hydrations: counter(reply.text, 'ensign_snapshot_published_total', 'hydration'),
    deltaBytes: counter(reply.text, 'ensign_snapshot_published_bytes_total', 'delta'),
    hydrationBytes: counter(reply.text, 'ensign_snapshot_published_bytes_total', 'hydration'),
  };
}

/** `after - before`, counter by counter. */
export function publishedBetween(before: PublishTotals, after: PublishTotals): PublishTotals {
  return {
    deltas: after.deltas - before.deltas,
    hydrations: after.hydrations - before.hydrations,
    deltaBytes: after.deltaBytes - before.deltaBytes,
    hydrationBytes: after.hydrationBytes - before.hydrationBytes,
  };
}
