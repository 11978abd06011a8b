/**
 * A namespace read through the management API's lists (`/api/v1`), as Flipt's exporter reads it
 * over its client, so `ensign export --address` works against Ensign and against Flipt alike.
 */
import {
  ComparisonType,
  documentOfResources,
  FlagType,
  MatchType,
  SegmentOperator,
  type Constraint,
  type Distribution,
  type Flag,
  type FliptDocument,
  type Rollout,
  type Rule,
  type Segment,
  type Variant,
} from '@ensign/core';
import { RemoteError, type RemoteApi } from './remote-api.js';

type Json = Readonly<Record<string, unknown>>;

const PAGE = 100;

const obj = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});
const str = (o: Json, name: string): string => (typeof o[name] === 'string' ? (o[name] as string) : '');
const num = (o: Json, name: string): number => (typeof o[name] === 'number' ? (o[name] as number) : Number(o[name] ?? 0) || 0);
const list = (o: Json, name: string): Json[] => (Array.isArray(o[name]) ? (o[name] as unknown[]).map(obj) : []);
const keys = (o: Json, name: string): string[] => (Array.isArray(o[name]) ? (o[name] as unknown[]).filter((k): k is string => typeof k === 'string') : []);
const operatorOf = (o: Json, name: string) => SegmentOperator.parse(o[name]) ?? 'OR_SEGMENT_OPERATOR';

/** Only the fields an export reads are filled; the rest take their zero values. */
const STAMPS = { createdAt: '', updatedAt: '' };

function variantOf(v: Json, ns: string, flagKey: string): Variant {
  return { id: str(v, 'id'), namespaceKey: ns, flagKey, key: str(v, 'key'), name: str(v, 'name'), description: str(v, 'description'), attachment: str(v, 'attachment'), ...STAMPS };
}

function flagOf(f: Json, ns: string): Flag {
  const key = str(f, 'key');
  const flag: Flag = {
    namespaceKey: ns, key, name: str(f, 'name'), description: str(f, 'description'), enabled: f['enabled'] === true,
    type: FlagType.parse(f['type']) ?? 'VARIANT_FLAG_TYPE', variants: list(f, 'variants').map((v) => variantOf(v, ns, key)), ...STAMPS,
  };
  const defaultVariant = obj(f['defaultVariant']);
  if (str(defaultVariant, 'id') !== '') flag.defaultVariant = variantOf(defaultVariant, ns, key);
  const metadata = obj(f['metadata']);
  if (Object.keys(metadata).length > 0) flag.metadata = { ...metadata };
  return flag;
}

function ruleOf(r: Json, ns: string, flagKey: string): Rule {
  const distributions: Distribution[] = list(r, 'distributions').map((d) => ({ id: str(d, 'id'), ruleId: str(r, 'id'), variantId: str(d, 'variantId'), rollout: num(d, 'rollout'), ...STAMPS }));
  return {
    id: str(r, 'id'), namespaceKey: ns, flagKey, segmentKey: str(r, 'segmentKey'), segmentKeys: keys(r, 'segmentKeys'),
    segmentOperator: operatorOf(r, 'segmentOperator'), distributions, rank: num(r, 'rank'), ...STAMPS,
  };
}

function rolloutOf(r: Json, ns: string, flagKey: string): Rollout {
  const rollout: Rollout = { id: str(r, 'id'), namespaceKey: ns, flagKey, type: 'THRESHOLD_ROLLOUT_TYPE', rank: num(r, 'rank'), description: str(r, 'description'), ...STAMPS };
  const segment = r['segment'];
  if (segment !== undefined && segment !== null) {
    const s = obj(segment);
    rollout.type = 'SEGMENT_ROLLOUT_TYPE';
    rollout.segment = { segmentKey: str(s, 'segmentKey'), segmentKeys: keys(s, 'segmentKeys'), segmentOperator: operatorOf(s, 'segmentOperator'), value: s['value'] === true };
  } else {
    const t = obj(r['threshold']);
    rollout.threshold = { percentage: num(t, 'percentage'), value: t['value'] === true };
  }
  return rollout;
}

function segmentOf(s: Json, ns: string): Segment {
  const key = str(s, 'key');
  const constraints: Constraint[] = list(s, 'constraints').map((c) => ({
    id: str(c, 'id'), namespaceKey: ns, segmentKey: key, type: ComparisonType.parse(c['type']) ?? 'UNKNOWN_COMPARISON_TYPE',
    property: str(c, 'property'), operator: str(c, 'operator'), value: str(c, 'value'), description: str(c, 'description'), ...STAMPS,
  }));
  return { namespaceKey: ns, key, name: str(s, 'name'), description: str(s, 'description'), matchType: MatchType.parse(s['matchType']) ?? 'ALL_MATCH_TYPE', constraints, ...STAMPS };
}

/** Every item of a paged list (`{<field>: [...], nextPageToken}`). */
async function everyPage(api: RemoteApi, path: string, field: string): Promise<Json[]> {
  const items: Json[] = [];
  let token = '';
  do {
    const page = obj(await api.get(`${path}?limit=${PAGE}${token === '' ? '' : `&pageToken=${encodeURIComponent(token)}`}`));
    items.push(...list(page, field));
    token = str(page, 'nextPageToken');
  } while (token !== '');
  return items;
}

/** Every namespace's key, in the server's order (creation). */
export async function remoteNamespaceKeys(api: RemoteApi): Promise<string[]> {
  return (await everyPage(api, '/api/v1/namespaces', 'namespaces')).map((n) => str(n, 'key'));
}

/** Each item's `createdAt` by key, as the server wrote it (the import checks and normalises it). */
const createdAtByKey = (items: readonly Json[]): Map<string, string> =>
  new Map(items.filter((item) => str(item, 'createdAt') !== '').map((item) => [str(item, 'key'), str(item, 'createdAt')]));

/**
 * The namespace as one document, with when each flag and segment was created (Flipt and Ensign
 * both answer `createdAt` in their lists); undefined when the server has no such namespace.
 */
export async function remoteExportNamespace(api: RemoteApi, key: string): Promise<FliptDocument | undefined> {
  const base = `/api/v1/namespaces/${encodeURIComponent(key)}`;
  let namespace: Json;
  try {
    namespace = obj(await api.get(base));
  } catch (err) {
    if (err instanceof RemoteError && err.status === 404) return undefined;
    throw err;
  }
  const flagItems = await everyPage(api, `${base}/flags`, 'flags');
  const flags = flagItems.map((f) => flagOf(f, key));
  const rules: Rule[] = [];
  const rollouts: Rollout[] = [];
  for (const flag of flags) {
    const flagPath = `${base}/flags/${encodeURIComponent(flag.key)}`;
    if (flag.type === 'VARIANT_FLAG_TYPE') rules.push(...(await everyPage(api, `${flagPath}/rules`, 'rules')).map((r) => ruleOf(r, key, flag.key)));
    // COMPAT(flipt): a rollout list names its items `rules`.
    else rollouts.push(...(await everyPage(api, `${flagPath}/rollouts`, 'rules')).map((r) => rolloutOf(r, key, flag.key)));
  }
  const segmentItems = await everyPage(api, `${base}/segments`, 'segments');
  const segments = segmentItems.map((s) => segmentOf(s, key));
  const doc = documentOfResources({ namespace: { key, name: str(namespace, 'name'), description: str(namespace, 'description') }, flags, rules, rollouts, segments });
  return { ...doc, createdAt: { flags: createdAtByKey(flagItems), segments: createdAtByKey(segmentItems) } };
}
