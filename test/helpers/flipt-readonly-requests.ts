/**
 * The requests of Flipt's integration suites as Flipt's Go SDK sends them over HTTP
 * (sdk/go/http at v1.61.1), so the ported cases ask exactly what Flipt's suite asked.
 */
import type { JsonClient } from '@ensign/testkit';
import { ok } from './api.js';

/** Flipt's `integration.Namespaces`: the key a client sends and the namespace it means. */
export const NAMESPACES = [
  { key: '', expected: 'default' },
  { key: 'default', expected: 'default' },
  { key: 'production', expected: 'production' },
] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** The query of a list: the SDK always sends every field (rollouts have no `offset`). */
export const listQuery = (limit = 0, pageToken = '', withOffset = true): string =>
  new URLSearchParams({ limit: String(limit), ...(withOffset ? { offset: '0' } : {}), pageToken, reference: '' }).toString();

/** Management and legacy evaluate routes: an empty key takes Flipt's routes without the namespace segment. */
export const routesOf = (ns: Namespace): string => (ns.key === '' ? '/api/v1' : `/api/v1/namespaces/${ns.key}`);

/** Rollouts have namespaced routes only; the SDK sends `default` for an empty key. */
export const rolloutsOf = (ns: Namespace, flag: string): string => `/api/v1/namespaces/${ns.key || 'default'}/flags/${flag}/rollouts`;

/** An evaluation request as the SDK marshals it: an empty namespace key is left out. */
export const evaluationIn = (ns: Namespace, request: Record<string, unknown>): Record<string, unknown> =>
  ns.key === '' ? request : { namespaceKey: ns.key, ...request };

/** Every page of a list, following `nextPageToken` from the first page on. */
export async function pages<T extends { nextPageToken: string }>(api: JsonClient, path: (pageToken: string) => string): Promise<T[]> {
  const all: T[] = [];
  let token = '';
  do {
    const page = ok<T>(await api.get(path(token)), `page after "${token}"`);
    all.push(page);
    token = page.nextPageToken;
    if (all.length > 100) throw new Error('pagination does not end');
  } while (token !== '');
  return all;
}
