/**
 * The Node provider's answers against `POST /evaluate/v1/batch` on the same server: entities whose
 * contexts are drawn from the namespace's own constraints (so rules match, and miss), every flag
 * asked of each, both sides written as one line per answer (value, reason as Flipt's wire says it,
 * segments) and compared.
 */
import type { JsonClient, JsonResponse } from '@ensign/testkit';
import type { Client, EvaluationDetails, FlagValue } from '@openfeature/server-sdk';
import { ok } from './api.js';

export interface ParityFlag {
  key: string;
  type: 'VARIANT_FLAG_TYPE' | 'BOOLEAN_FLAG_TYPE';
}

interface SnapshotConstraint {
  property: string;
  value: string;
}

interface SnapshotShape {
  flags: Array<ParityFlag & { rules: Array<{ segments: Array<{ constraints: SnapshotConstraint[] }> }>; rollouts: Array<{ segment?: { segments: Array<{ constraints: SnapshotConstraint[] }> } }> }>;
}

export interface ParityEntity {
  entityId: string;
  context: Record<string, string>;
}

interface WireAnswer {
  variantResponse?: { variantKey: string; variantAttachment: string; reason: string; segmentKeys?: string[] };
  booleanResponse?: { enabled: boolean; reason: string; segmentKeys?: string[] };
  errorResponse?: { errorCode: string };
}

/** A small seeded PRNG (mulberry32): every run asks the same questions. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The namespace's flags and the (property, value) pairs its constraints test, from the snapshot in Ensign's format. */
export async function namespaceShape(api: JsonClient, namespaceKey: string): Promise<{ flags: ParityFlag[]; pairs: SnapshotConstraint[] }> {
  const snapshot = ok<SnapshotShape>(await api.get(`/internal/v1/evaluation/snapshot/namespace/${namespaceKey}?format=ensign`));
  const pairs = new Map<string, SnapshotConstraint>();
  for (const flag of snapshot.flags) {
    const segments = [...flag.rules.flatMap((r) => r.segments), ...flag.rollouts.flatMap((r) => r.segment?.segments ?? [])];
    for (const c of segments.flatMap((s) => s.constraints)) pairs.set(`${c.property}=${c.value}`, { property: c.property, value: c.value });
  }
  return { flags: snapshot.flags.map(({ key, type }) => ({ key, type })), pairs: [...pairs.values()] };
}

/** `count` entities, each with up to three of `pairs` in its context and a value no constraint tests. */
export function parityEntities(count: number, pairs: readonly SnapshotConstraint[], seed: number): ParityEntity[] {
  const next = prng(seed);
  return Array.from({ length: count }, (_, i) => {
    const context: Record<string, string> = { other: String(Math.floor(next() * 1000)) };
    const picks = Math.floor(next() * 4);
    for (let p = 0; p < picks && pairs.length > 0; p++) {
      const pair = pairs[Math.floor(next() * pairs.length)]!;
      context[pair.property] = pair.value;
    }
    return { entityId: `entity-${seed}-${i}-${Math.floor(next() * 1e9).toString(36)}`, context };
  });
}

/** Flipt's reasons as they reach OpenFeature: a match (targeting or split), a default, a disabled flag. */
const WIRE_REASONS: Readonly<Record<string, string>> = {
  MATCH_EVALUATION_REASON: 'MATCH',
  DEFAULT_EVALUATION_REASON: 'DEFAULT',
  UNKNOWN_EVALUATION_REASON: 'DEFAULT',
  FLAG_DISABLED_EVALUATION_REASON: 'DISABLED',
};

const PROVIDER_REASONS: Readonly<Record<string, string>> = {
  TARGETING_MATCH: 'MATCH',
  SPLIT: 'MATCH',
  DEFAULT: 'DEFAULT',
  PREREQUISITE_FAILED: 'DEFAULT',
  DISABLED: 'DISABLED',
};

/** What the server answered, one line per request. */
function wireLine(answer: WireAnswer, withAttachment: boolean): string {
  const variant = answer.variantResponse;
  if (variant !== undefined) {
    const line = `${variant.variantKey}|${WIRE_REASONS[variant.reason] ?? variant.reason}|${(variant.segmentKeys ?? []).join(',')}`;
    return withAttachment ? `${line}|${variant.variantAttachment === '' ? 'none' : JSON.stringify(JSON.parse(variant.variantAttachment))}` : line;
  }
  const boolean = answer.booleanResponse;
  if (boolean !== undefined) return `${boolean.enabled}|${WIRE_REASONS[boolean.reason] ?? boolean.reason}|${(boolean.segmentKeys ?? []).join(',')}`;
  return `ERROR ${answer.errorResponse?.errorCode ?? 'unknown'}`;
}

const NO_VALUE = '\u0000none';

function providerLine(details: EvaluationDetails<FlagValue>): string {
  if (details.errorCode !== undefined) return `ERROR ${details.errorCode}`;
  const value = details.value === NO_VALUE ? '' : String(details.value);
  return `${value}|${PROVIDER_REASONS[details.reason ?? ''] ?? details.reason}|${details.flagMetadata.segments ?? ''}`;
}

async function providerLines(client: Client, flag: ParityFlag, entity: ParityEntity, withAttachment: boolean): Promise<string> {
  const context = { targetingKey: entity.entityId, ...entity.context };
  if (flag.type === 'BOOLEAN_FLAG_TYPE') return providerLine(await client.getBooleanDetails(flag.key, false, context));
  const line = providerLine(await client.getStringDetails(flag.key, NO_VALUE, context));
  if (!withAttachment) return line;
  const missing = { missing: true };
  const attachment = await client.getObjectValue(flag.key, missing, context);
  return `${line}|${attachment === missing ? 'none' : JSON.stringify(attachment)}`;
}

export interface ParityReport {
  compared: number;
  /** The server's answers by reason (MATCH, DEFAULT, DISABLED), so a run shows it asked more than defaults. */
  reasons: Record<string, number>;
  differences: string[];
}

/**
 * `POST /evaluate/v1/batch`, sent again once when the connection failed before an answer: an
 * evaluation changes nothing, and on a loaded machine the comparison between two batches can
 * outlast the server's keep-alive, so a request may meet the socket the server is closing.
 */
async function evaluateBatch(api: JsonClient, requests: unknown[]): Promise<JsonResponse<{ responses: WireAnswer[] }>> {
  try {
    return await api.post('/evaluate/v1/batch', { requests });
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    return api.post('/evaluate/v1/batch', { requests });
  }
}

/**
 * Every flag of `flags` for every entity, `perBatch` entities to a `POST /evaluate/v1/batch`, the
 * provider asked the same through `client`; attachments are compared for every tenth entity.
 */
export async function compareWithServer(api: JsonClient, client: Client, namespaceKey: string, flags: readonly ParityFlag[], entities: readonly ParityEntity[], perBatch = 40): Promise<ParityReport> {
  const report: ParityReport = { compared: 0, reasons: {}, differences: [] };
  for (let start = 0; start < entities.length; start += perBatch) {
    const group = entities.slice(start, start + perBatch);
    const requests = group.flatMap((entity) => flags.map((flag) => ({ namespaceKey, flagKey: flag.key, entityId: entity.entityId, context: entity.context })));
    const answers = ok<{ responses: WireAnswer[] }>(await evaluateBatch(api, requests)).responses;
    for (let e = 0; e < group.length; e++) {
      const entity = group[e]!;
      const withAttachment = (start + e) % 10 === 0;
      for (let f = 0; f < flags.length; f++) {
        const flag = flags[f]!;
        const want = wireLine(answers[e * flags.length + f]!, withAttachment);
        const got = await providerLines(client, flag, entity, withAttachment);
        report.compared++;
        const reason = want.split('|')[1] ?? want;
        report.reasons[reason] = (report.reasons[reason] ?? 0) + 1;
        if (got !== want && report.differences.length < 20) report.differences.push(`${flag.key} for ${entity.entityId} ${JSON.stringify(entity.context)}: server ${want}, provider ${got}`);
      }
    }
  }
  return report;
}
