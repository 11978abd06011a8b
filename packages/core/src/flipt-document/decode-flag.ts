/**
 * A document's flags with their variants, rules, distributions and rollouts, checked on their own;
 * the segments they name are checked against the document by `decodeFliptDocuments`.
 */
import { FlagType, SegmentOperator } from '../enums.js';
import { MAX_KEY_LENGTH } from '../validation/common.validation.js';
import { MAX_ATTACHMENT_BYTES } from '../validation/variant.validation.js';
import { checkKey, readEnumName } from './decode-names.js';
import { decodePrerequisites, decodeRamp, decodeSchedules, decodeWindow } from './decode-timing.js';
import {
  eachObject,
  has,
  isObject,
  readAny,
  readFlag,
  readList,
  readNumber,
  readObject,
  readText,
  type DocumentObject,
  type Place,
} from './document-fields.js';
import type { DocumentDistribution, DocumentFlag, DocumentRollout, DocumentRule, DocumentVariant } from './document-types.js';
import { requireVersion, type DocumentVersion } from './document-version.js';
import { isJsonValue } from './json-value.js';

/** A percentage: a number within 0..100. */
function percentage(value: number | undefined, at: Place): number {
  if (value === undefined) return 0;
  if (value < 0 || value > 100) return at.fail('must be within 0 and 100');
  return value;
}

/** Segment keys of a rule or rollout: at least one, each a text, duplicates folded in order. */
function segmentKeys(items: readonly unknown[], at: Place): string[] {
  if (items.length === 0) at.fail('must name at least one segment');
  const keys = items.map((item, i) => (typeof item === 'string' && item !== '' ? item : at.item(i).fail('must be a segment key')));
  return [...new Set(keys)];
}

/** With a single segment the operator means nothing; the store keeps OR, as Flipt's does. */
const operatorFor = (keys: readonly string[], operator: SegmentOperator): SegmentOperator =>
  keys.length === 1 ? 'OR_SEGMENT_OPERATOR' : operator;

function decodeVariant(obj: DocumentObject, at: Place, version: DocumentVersion): DocumentVariant {
  const key = readText(obj, 'key', at);
  if (key === '') at.field('key').fail('must not be empty');
  if (key.length > MAX_KEY_LENGTH) at.field('key').fail(`must be at most ${MAX_KEY_LENGTH} characters`);
  const isDefault = readFlag(obj, 'default', at);
  if (isDefault) requireVersion(version, 3, at.field('default'));
  const attachment = readAny(obj, 'attachment');
  if (attachment !== undefined) {
    if (!isJsonValue(attachment)) at.field('attachment').fail('must be a JSON value');
    if (new TextEncoder().encode(JSON.stringify(attachment)).byteLength > MAX_ATTACHMENT_BYTES) {
      at.field('attachment').fail('must be less than 1000 KB');
    }
  }
  return { key, name: readText(obj, 'name', at), description: readText(obj, 'description', at), default: isDefault, attachment };
}

function decodeDistribution(obj: DocumentObject, at: Place, variants: ReadonlySet<string>, flagKey: string): DocumentDistribution {
  const variantKey = readText(obj, 'variant', at);
  if (variantKey === '') at.field('variant').fail('must not be empty');
  if (!variants.has(variantKey)) at.field('variant').fail(`no variant ${JSON.stringify(variantKey)} in flag ${JSON.stringify(flagKey)}`);
  return { variantKey, rollout: percentage(readNumber(obj, 'rollout', at), at.field('rollout')) };
}

/** `segment: key` or `segment: {keys: [...], operator: ...}`. */
function ruleSegment(obj: DocumentObject, at: Place): { segmentKeys: string[]; segmentOperator: SegmentOperator } {
  const value = readAny(obj, 'segment');
  const segmentAt = at.field('segment');
  if (typeof value === 'string' && value !== '') return { segmentKeys: [value], segmentOperator: 'OR_SEGMENT_OPERATOR' };
  if (!isObject(value)) return segmentAt.fail('must be a segment key or {keys, operator}');
  const keys = segmentKeys(readList(value, 'keys', segmentAt), segmentAt.field('keys'));
  const operator = readEnumName(value, 'operator', SegmentOperator, segmentAt, 'OR_SEGMENT_OPERATOR');
  return { segmentKeys: keys, segmentOperator: operatorFor(keys, operator) };
}

function decodeRule(obj: DocumentObject, at: Place, position: number, variants: ReadonlySet<string>, flagKey: string): DocumentRule {
  const rank = readNumber(obj, 'rank', at);
  if (rank !== undefined && (!Number.isInteger(rank) || rank < 0)) at.field('rank').fail('must be a whole number of 0 or more');
  const distributionsAt = at.field('distributions');
  return {
    ...ruleSegment(obj, at),
    // Flipt ranks an unranked rule by its position from version 1.1; every version does here, since rank 0 cannot be stored.
    rank: rank === undefined || rank === 0 ? position + 1 : rank,
    distributions: eachObject(readList(obj, 'distributions', at), distributionsAt).map((d) => decodeDistribution(d.obj, d.at, variants, flagKey)),
    ...decodeWindow(obj, at),
  };
}

function decodeRollout(obj: DocumentObject, at: Place, version: DocumentVersion): DocumentRollout {
  const description = readText(obj, 'description', at);
  const segment = readObject(obj, 'segment', at);
  const threshold = readObject(obj, 'threshold', at);
  if (segment !== undefined && threshold !== undefined) return at.fail('cannot have both segment and threshold');
  const window = decodeWindow(obj, at);
  if (threshold !== undefined) {
    const thresholdAt = at.field('threshold');
    const base = percentage(readNumber(threshold, 'percentage', thresholdAt), thresholdAt.field('percentage'));
    const ramp = decodeRamp(threshold, thresholdAt, base);
    return {
      description,
      threshold: { percentage: base, value: readFlag(threshold, 'value', thresholdAt), ...(ramp === undefined ? {} : { ramp }) },
      ...window,
    };
  }
  if (segment === undefined) return at.fail('needs a segment or a threshold');
  const segmentAt = at.field('segment');
  const single = readText(segment, 'key', segmentAt);
  const hasKeys = has(segment, 'keys');
  if (single !== '' && hasKeys) segmentAt.fail('cannot have both key and keys');
  if (hasKeys) requireVersion(version, 2, segmentAt.field('keys'));
  if (single === '' && !hasKeys) segmentAt.field('key').fail('must not be empty');
  const keys = single !== '' ? [single] : segmentKeys(readList(segment, 'keys', segmentAt), segmentAt.field('keys'));
  const operator = readEnumName(segment, 'operator', SegmentOperator, segmentAt, 'OR_SEGMENT_OPERATOR');
  return { description, segment: { segmentKeys: keys, segmentOperator: operatorFor(keys, operator), value: readFlag(segment, 'value', segmentAt) }, ...window };
}

/** Fails at the second of two items of a list with the same key. */
export function refuseDuplicates(keys: readonly string[], at: Place, noun: string): void {
  const first = new Map<string, number>();
  keys.forEach((key, i) => {
    const seen = first.get(key);
    if (seen !== undefined) at.item(i).field('key').fail(`${noun} ${JSON.stringify(key)} appears twice (also at [${seen}])`);
    first.set(key, i);
  });
}

export function decodeFlag(obj: DocumentObject, at: Place, version: DocumentVersion): DocumentFlag {
  const key = checkKey(readText(obj, 'key', at), at.field('key'));
  const name = readText(obj, 'name', at);
  if (name === '') at.field('name').fail('must not be empty');
  if (has(obj, 'type')) requireVersion(version, 1, at.field('type'));
  const type = readEnumName(obj, 'type', FlagType, at, 'VARIANT_FLAG_TYPE');
  const metadata = readObject(obj, 'metadata', at);
  if (metadata !== undefined) {
    requireVersion(version, 3, at.field('metadata'));
    if (!isJsonValue(metadata)) at.field('metadata').fail('must be a mapping of JSON values');
  }

  const variantsAt = at.field('variants');
  const variants = eachObject(readList(obj, 'variants', at), variantsAt).map((v) => decodeVariant(v.obj, v.at, version));
  refuseDuplicates(variants.map((v) => v.key), variantsAt, 'variant');
  // COMPAT(flipt): the last variant marked default is the flag's default.
  const lastDefault = variants.findLastIndex((v) => v.default);
  variants.forEach((v, i) => (v.default = i === lastDefault));

  const rulesAt = at.field('rules');
  const ruleItems = eachObject(readList(obj, 'rules', at), rulesAt);
  if (ruleItems.length > 0 && type !== 'VARIANT_FLAG_TYPE') rulesAt.fail(`a ${type} has rollouts, not rules`);
  const variantKeys = new Set(variants.map((v) => v.key));
  const rules = ruleItems.map((r, i) => decodeRule(r.obj, r.at, i, variantKeys, key));

  const rolloutsAt = at.field('rollouts');
  const rolloutItems = eachObject(readList(obj, 'rollouts', at), rolloutsAt);
  if (rolloutItems.length > 0) {
    requireVersion(version, 1, rolloutsAt);
    if (type !== 'BOOLEAN_FLAG_TYPE') rolloutsAt.fail(`a ${type} has rules, not rollouts`);
  }
  const rollouts = rolloutItems.map((r) => decodeRollout(r.obj, r.at, version));
  const prerequisites = decodePrerequisites(obj, at, key);
  const schedules = decodeSchedules(obj, at);

  return {
    key,
    name,
    type,
    description: readText(obj, 'description', at),
    enabled: readFlag(obj, 'enabled', at),
    metadata: metadata === undefined ? {} : structuredClone(metadata as Record<string, unknown>),
    variants,
    rules,
    rollouts,
    ...(prerequisites === undefined ? {} : { prerequisites }),
    ...(schedules === undefined ? {} : { schedules }),
  };
}
