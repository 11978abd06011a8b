/**
 * When a write is visible on an evaluator: its `GET /health` lists the revision at which it holds each
 * namespace, and every write moves the revision by one, so a write at revision N is visible once that
 * list reaches N. This works for every kind of write, whatever it changes.
 */
import { performance } from 'node:perf_hooks';
import type { KeepAliveClient } from '../propagation/keep-alive-client.js';

/** The revision at which the evaluator holds `ns`; undefined while it is not ready or does not hold it. */
export async function heldRevision(client: KeepAliveClient, ns: string): Promise<number | undefined> {
  const reply = await client.send('GET', '/health');
  if (reply.status !== 200) return undefined;
  const body = JSON.parse(reply.text) as { namespaces?: Record<string, { revision?: number }> };
  return body.namespaces?.[ns]?.revision;
}

/**
 * Polls back to back over the keep-alive connection until `ns` is held at `revision` or later; resolves
 * the performance.now() of the answer that showed it, or undefined after `timeoutMs`.
 */
export async function untilRevision(client: KeepAliveClient, ns: string, revision: number, timeoutMs: number, gapMs = 0): Promise<number | undefined> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const held = await heldRevision(client, ns).catch(() => undefined);
    if (held !== undefined && held >= revision) return performance.now();
    if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  return undefined;
}
