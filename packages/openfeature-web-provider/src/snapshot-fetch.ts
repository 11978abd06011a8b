/** One read of the namespace's snapshot, conditional on the entity tag held. */
import type { HashMode, SnapshotDocument } from '@ensign/engine';
import { authorizationOf, snapshotUrl } from './ensign-routes.js';

/** The document as Ensign serves it to its own clients: the namespace's, plus the server's hash. */
export interface ServedDocument extends SnapshotDocument {
  hash?: HashMode;
}

export type SnapshotFetch =
  /** A new document; no tag for a namespace that does not exist (yet). */
  | { kind: 'document'; document: ServedDocument; etag: string | undefined }
  | { kind: 'unchanged' }
  /** 401 or 403: the credential will not do, retrying is pointless. */
  | { kind: 'refused'; status: number; message: string }
  | { kind: 'failed'; message: string };

export interface FetchTarget {
  base: string;
  namespace: string;
  token: string | undefined;
  fetch: typeof fetch;
}

/** What a refusal's body says (Flipt's `{code, message}`), else its status line. */
async function messageOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown };
    if (typeof body.message === 'string') return body.message;
  } catch {
    // Not JSON: the status says enough.
  }
  return `HTTP ${response.status}`;
}

export async function fetchSnapshot(target: FetchTarget, etag: string | undefined, signal: AbortSignal): Promise<SnapshotFetch> {
  let response: Response;
  try {
    response = await target.fetch(snapshotUrl(target.base, target.namespace), {
      headers: { Accept: 'application/json', ...authorizationOf(target.token), ...(etag === undefined ? {} : { 'If-None-Match': etag }) },
      // The tag is compared here; the browser's cache must neither answer nor revalidate for us.
      cache: 'no-store',
      signal,
    });
  } catch (err) {
    return { kind: 'failed', message: `Ensign unreachable: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (response.status === 304) return { kind: 'unchanged' };
  if (response.status === 401 || response.status === 403) return { kind: 'refused', status: response.status, message: await messageOf(response) };
  if (response.status !== 200) return { kind: 'failed', message: `snapshot: ${await messageOf(response)}` };
  try {
    const document = (await response.json()) as ServedDocument;
    return { kind: 'document', document, etag: response.headers.get('ETag') ?? undefined };
  } catch (err) {
    return { kind: 'failed', message: `snapshot: ${err instanceof Error ? err.message : String(err)}` };
  }
}
