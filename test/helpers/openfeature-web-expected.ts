/**
 * What the server answers, written as the page's harness writes an OpenFeature answer (one line:
 * value, Flipt's reason, segments, and for variant flags the attachment), so the provider in the
 * page and `POST /evaluate/v1/*` can be compared flag by flag, entity by entity.
 */
import type { JsonClient } from '@ensign/testkit';
import { ok } from './api.js';
import type { PageFlag } from './openfeature-web-page.js';

/** An entity as the page's context holds it: `targetingKey` and string values. */
export type EntityContext = { targetingKey: string } & Record<string, string>;

interface VariantAnswer {
  variantKey: string;
  variantAttachment: string;
  reason: string;
  segmentKeys?: string[];
}

interface BooleanAnswer {
  enabled: boolean;
  reason: string;
  segmentKeys?: string[];
}

interface BatchAnswer {
  type: string;
  variantResponse?: VariantAnswer;
  booleanResponse?: BooleanAnswer;
  errorResponse?: { errorCode: string };
}

/** Flipt's reasons as OpenFeature's reduce to them: no match, with or without a default variant, is a default. */
const REASONS: Readonly<Record<string, string>> = {
  MATCH_EVALUATION_REASON: 'MATCH',
  DEFAULT_EVALUATION_REASON: 'DEFAULT',
  UNKNOWN_EVALUATION_REASON: 'DEFAULT',
  FLAG_DISABLED_EVALUATION_REASON: 'DISABLED',
};

const attachmentOf = (text: string): string => JSON.stringify(text === '' ? null : JSON.parse(text));

export function variantLine(answer: VariantAnswer): string {
  return [answer.variantKey, REASONS[answer.reason] ?? answer.reason, (answer.segmentKeys ?? []).join(','), attachmentOf(answer.variantAttachment)].join('|');
}

export function booleanLine(answer: BooleanAnswer): string {
  return [String(answer.enabled), REASONS[answer.reason] ?? answer.reason, (answer.segmentKeys ?? []).join(',')].join('|');
}

const requestOf = (namespaceKey: string, flagKey: string, entity: EntityContext) => {
  const { targetingKey, ...context } = entity;
  return { namespaceKey, flagKey, entityId: targetingKey, context };
};

/** Each flag through `POST /evaluate/v1/boolean` or `/variant`, one request per flag. */
export async function singleLines(api: JsonClient, namespaceKey: string, flags: PageFlag[], entity: EntityContext): Promise<string[]> {
  const lines: string[] = [];
  for (const flag of flags) {
    const request = requestOf(namespaceKey, flag.key, entity);
    if (flag.type === 'BOOLEAN_FLAG_TYPE') lines.push(booleanLine(ok<BooleanAnswer>(await api.post('/evaluate/v1/boolean', request))));
    else lines.push(variantLine(ok<VariantAnswer>(await api.post('/evaluate/v1/variant', request))));
  }
  return lines;
}

/** Every flag for one entity in one `POST /evaluate/v1/batch`. */
export async function batchLines(api: JsonClient, namespaceKey: string, flags: PageFlag[], entity: EntityContext): Promise<string[]> {
  const body = ok<{ responses: BatchAnswer[] }>(await api.post('/evaluate/v1/batch', { requests: flags.map((flag) => requestOf(namespaceKey, flag.key, entity)) }));
  return body.responses.map((response) => {
    if (response.variantResponse !== undefined) return variantLine(response.variantResponse);
    if (response.booleanResponse !== undefined) return booleanLine(response.booleanResponse);
    return `ERROR:${response.errorResponse?.errorCode ?? response.type}`;
  });
}

/** The namespace's flags, in document order, from the snapshot Ensign's providers read. */
export async function flagsOf(api: JsonClient, namespaceKey: string): Promise<PageFlag[]> {
  const document = ok<{ flags: PageFlag[] }>(await api.get(`/internal/v1/evaluation/snapshot/namespace/${namespaceKey}?format=ensign`));
  return document.flags.map(({ key, type }) => ({ key, type }));
}
