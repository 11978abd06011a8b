/**
 * The streamed namespace and the writes to it. `streams` holds the watched flag (`aa-watched`, a
 * boolean flag whose description carries the seq of the last write, see seq-marker.ts) and filler
 * boolean flags, each with a segment rollout on `pro-users` (two constraints) and a threshold
 * rollout, so that each message is a snapshot of a namespace of some size, not a one-flag toy. A
 * write is one `PUT` of the watched flag through the server's management API.
 */
import { request } from 'node:http';
import type { KeepAliveClient } from '../propagation/keep-alive-client.js';
import { clock, seqDescription, seqIn } from './seq-marker.js';

export const NAMESPACE = 'streams';
export const STREAM_PATH = `/client/v2/environments/default/namespaces/${NAMESPACE}/stream`;
const BASE = `/api/v1/namespaces/${NAMESPACE}`;
const WATCHED = 'aa-watched';

const watchedBody = (seq: number) => ({ key: WATCHED, name: 'Watched', enabled: true, description: seqDescription(seq) });

/** Creates the namespace with `flags` flags in all, the watched one at seq 0. */
export async function seedNamespace(api: KeepAliveClient, flags: number): Promise<void> {
  await api.json('POST', '/api/v1/namespaces', { key: NAMESPACE, name: 'Stream benchmark' });
  await api.json('POST', `${BASE}/segments`, { key: 'pro-users', name: 'Pro users', matchType: 'ALL_MATCH_TYPE' });
  await api.json('POST', `${BASE}/segments/pro-users/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' });
  await api.json('POST', `${BASE}/segments/pro-users/constraints`, { type: 'NUMBER_COMPARISON_TYPE', property: 'seats', operator: 'gte', value: '10' });
  await api.json('POST', `${BASE}/flags`, { ...watchedBody(0), type: 'BOOLEAN_FLAG_TYPE' });
  for (let i = 1; i < flags; i++) {
    const key = `filler-${String(i).padStart(3, '0')}`;
    await api.json('POST', `${BASE}/flags`, { key, name: `Filler ${i}`, description: 'A flag of the benchmark namespace', enabled: i % 2 === 0, type: 'BOOLEAN_FLAG_TYPE' });
    await api.json('POST', `${BASE}/flags/${key}/rollouts`, { rank: 1, segment: { segmentKey: 'pro-users', value: true } });
    await api.json('POST', `${BASE}/flags/${key}/rollouts`, { rank: 2, threshold: { percentage: (i * 7) % 100, value: true } });
  }
}

/** One write setting the watched flag to `seq`; resolves with when it was sent and when its answer arrived (committed). */
export async function writeSeq(api: KeepAliveClient, seq: number): Promise<{ sentAt: number; committedAt: number }> {
  const sentAt = clock();
  await api.json('PUT', `${BASE}/flags/${WATCHED}`, watchedBody(seq));
  return { sentAt, committedAt: clock() };
}

/**
 * Opens one stream on `port` and resolves with the first message carrying `seq` (a whole line,
 * with its `\n`), then closes it: that the process holds the namespace at that write, and the
 * message the bare ceiling repeats.
 */
export function messageWithSeq(port: number, seq: number, timeoutMs = 30_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: STREAM_PATH, headers: { accept: 'application/json' } }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`GET ${STREAM_PATH} → ${res.statusCode}`));
        res.destroy();
        return;
      }
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        let nl: number;
        while ((nl = text.indexOf('\n')) >= 0) {
          const line = text.slice(0, nl + 1);
          text = text.slice(nl + 1);
          if (seqIn(line) === seq) {
            clearTimeout(timer);
            req.destroy();
            resolve(line);
            return;
          }
        }
      });
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no message with seq ${seq} on port ${port} within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end();
  });
}
