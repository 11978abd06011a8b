/**
 * The two routes the provider reads, both asked for Ensign's own format (`?format=ensign`): the
 * document as held (schedules, windows, ramps and prerequisites unfolded, evaluated on the page's
 * clock) with the server's bucketing hash, and the namespace's stream as Server-Sent Events, each
 * event naming the entity tag of the snapshot to fetch.
 */

/** Ensign has one environment; Flipt v2's stream route names one anyway. */
const ENVIRONMENT = 'default';

export const snapshotUrl = (base: string, namespace: string): string =>
  `${base}/internal/v1/evaluation/snapshot/namespace/${encodeURIComponent(namespace)}?format=ensign`;

/** With `digest` (the tag held), the stream announces the current snapshot on connect only when it is another. */
export function streamUrl(base: string, namespace: string, digest: string | undefined): string {
  const url = `${base}/client/v2/environments/${ENVIRONMENT}/namespaces/${encodeURIComponent(namespace)}/stream?format=ensign`;
  return digest === undefined ? url : `${url}&digest=${digest}`;
}

export const authorizationOf = (token: string | undefined): Record<string, string> => (token === undefined ? {} : { Authorization: `Bearer ${token}` });
