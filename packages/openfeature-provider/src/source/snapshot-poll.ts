/**
 * One poll of the client-side snapshot (`GET /internal/v1/evaluation/snapshot/namespace/{ns}` in
 * Ensign's format) with `If-None-Match`: a new snapshot, the same one, or why there is none.
 */
import { type EnsignEndpoint, sendRequest } from './ensign-endpoint.js';

export type PollOutcome =
  | { kind: 'changed'; body: unknown; etag: string | undefined }
  | { kind: 'unchanged' }
  | { kind: 'refused'; status: number; body: string }
  | { kind: 'failed'; error: Error };

export const snapshotPath = (namespaceKey: string): string => `/internal/v1/evaluation/snapshot/namespace/${encodeURIComponent(namespaceKey)}?format=ensign`;

export async function pollSnapshot(endpoint: EnsignEndpoint, namespaceKey: string, digest: string | undefined, timeoutMs: number): Promise<PollOutcome> {
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Flipt-Accept-Server-Version': '1.61.0' };
  if (digest !== undefined) headers['If-None-Match'] = digest;
  let reply;
  try {
    reply = await sendRequest(endpoint, snapshotPath(namespaceKey), { headers, timeoutMs });
  } catch (error) {
    return { kind: 'failed', error: error instanceof Error ? error : new Error(String(error)) };
  }
  if (reply.status === 304) return { kind: 'unchanged' };
  if (reply.status !== 200) return { kind: 'refused', status: reply.status, body: reply.body };
  try {
    const etag = reply.headers.etag;
    return { kind: 'changed', body: JSON.parse(reply.body), etag: typeof etag === 'string' ? etag : undefined };
  } catch (error) {
    return { kind: 'failed', error: new Error(`the snapshot is not JSON: ${(error as Error).message}`) };
  }
}
