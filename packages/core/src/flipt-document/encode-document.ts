/**
 * A document as `flipt export` writes it (version "1.4"): Flipt's field order and omissions
 * (internal/ext/common.go, internal/ext/exporter.go), as a plain value for the caller to stringify
 * as YAML or JSON. Rules are written in rank order without ranks; mappings of metadata and
 * attachments have their keys sorted, as Go writes a decoded map. Ensign's extension comes after
 * Flipt's fields of the same mapping, and only when set.
 */
import type { ValidityWindow } from '../resources.js';
import type { DocumentFlag, DocumentRollout, DocumentRule, DocumentSegment, DocumentVariant, FliptDocument } from './document-types.js';
import { LATEST_DOCUMENT_VERSION, versionText } from './document-version.js';
import { sortKeysDeep } from './json-value.js';

export interface EncodeDocumentOptions {
  /** Flags, segments and each flag's variants by key (`--sort-by-key`) instead of creation order. */
  sortByKey?: boolean;
  /** Whether to write `version`; true unless set. Flipt writes it on the first document of a stream only. */
  withVersion?: boolean;
}

type Out = Record<string, unknown>;

const byKey = <T extends { key: string }>(items: readonly T[]): T[] =>
  [...items].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

/** Sets `name` only when the value is not Go's zero value, as `omitempty` does. */
function put(out: Out, name: string, value: unknown): void {
  if (value === '' || value === false || value === undefined) return;
  if (Array.isArray(value) && value.length === 0) return;
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0) return;
  out[name] = value;
}

function encodeVariant(v: DocumentVariant): Out {
  const out: Out = {};
  put(out, 'default', v.default);
  out.key = v.key;
  put(out, 'name', v.name);
  put(out, 'description', v.description);
  // Go's omitempty drops only a nil attachment; an empty mapping or list is kept.
  if (v.attachment !== undefined && v.attachment !== null) out.attachment = sortKeysDeep(v.attachment);
  return out;
}

/** A rule's or rollout's window (Ensign's). */
function putWindow(out: Out, window: ValidityWindow): void {
  put(out, 'valid_from', window.validFrom);
  put(out, 'valid_until', window.validUntil);
}

function encodeRule(rule: DocumentRule): Out {
  const out: Out = {
    segment: rule.segmentKeys.length === 1 ? rule.segmentKeys[0] : { keys: [...rule.segmentKeys], operator: rule.segmentOperator },
  };
  put(out, 'distributions', rule.distributions.map((d) => ({ variant: d.variantKey, rollout: d.rollout })));
  putWindow(out, rule);
  return out;
}

function encodeRollout(rollout: DocumentRollout): Out {
  const out: Out = {};
  put(out, 'description', rollout.description);
  if (rollout.segment !== undefined) {
    const { segmentKeys, segmentOperator, value } = rollout.segment;
    const segment: Out = segmentKeys.length === 1 ? { key: segmentKeys[0] } : { keys: [...segmentKeys] };
    // COMPAT(flipt): the exporter writes the operator only when it is AND.
    if (segmentOperator === 'AND_SEGMENT_OPERATOR') segment.operator = segmentOperator;
    put(segment, 'value', value);
    out.segment = segment;
  } else {
    const threshold: Out = { percentage: rollout.threshold.percentage };
    put(threshold, 'value', rollout.threshold.value);
    put(threshold, 'ramp', rollout.threshold.ramp?.map((step) => ({ at: step.at, percentage: step.percentage })));
    out.threshold = threshold;
  }
  putWindow(out, rollout);
  return out;
}

const byRank = (rules: readonly DocumentRule[]): DocumentRule[] => [...rules].sort((a, b) => a.rank - b.rank);

function encodeFlag(flag: DocumentFlag, sortByKey: boolean): Out {
  const out: Out = { key: flag.key, name: flag.name, type: flag.type };
  put(out, 'description', flag.description);
  out.enabled = flag.enabled;
  put(out, 'metadata', sortKeysDeep(flag.metadata));
  put(out, 'variants', (sortByKey ? byKey(flag.variants) : flag.variants).map(encodeVariant));
  put(out, 'rules', byRank(flag.rules).map(encodeRule));
  put(out, 'rollouts', flag.rollouts.map(encodeRollout));
  // `enabled: false` is meant here, so it is written, unlike Flipt's zero values.
  put(out, 'prerequisites', flag.prerequisites?.map((p) => (p.variants === undefined ? { flag: p.flagKey, enabled: p.enabled ?? false } : { flag: p.flagKey, variants: [...p.variants] })));
  put(out, 'schedules', flag.schedules?.map((s) => ({ at: s.at, enabled: s.enabled })));
  return out;
}

function encodeSegment(segment: DocumentSegment): Out {
  const out: Out = { key: segment.key, name: segment.name };
  put(out, 'description', segment.description);
  put(
    out,
    'constraints',
    segment.constraints.map((c) => {
      const constraint: Out = { type: c.type, property: c.property, operator: c.operator };
      put(constraint, 'value', c.value);
      put(constraint, 'description', c.description);
      return constraint;
    }),
  );
  out.match_type = segment.matchType;
  return out;
}

export function encodeFliptDocument(doc: FliptDocument, options: EncodeDocumentOptions = {}): Record<string, unknown> {
  const sortByKey = options.sortByKey ?? false;
  const out: Out = {};
  if (options.withVersion ?? true) out.version = versionText(LATEST_DOCUMENT_VERSION);
  const namespace: Out = { key: doc.namespace.key };
  put(namespace, 'name', doc.namespace.name);
  put(namespace, 'description', doc.namespace.description);
  out.namespace = namespace;
  put(out, 'flags', (sortByKey ? byKey(doc.flags) : doc.flags).map((f) => encodeFlag(f, sortByKey)));
  put(out, 'segments', (sortByKey ? byKey(doc.segments) : doc.segments).map(encodeSegment));
  return out;
}
