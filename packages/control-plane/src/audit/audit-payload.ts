/**
 * The `payload` of an audit event: Flipt's own audit projection of the resource, snake_case,
 * exactly the fields of Flipt's audit types (internal/server/audit/types.go) and, for deletes and
 * order requests, the fields of Flipt's request messages (rpc/flipt/flipt.pb.go json tags).
 */
import type { ChangeRecord, Constraint, Distribution, Flag, FlagSchedule, Namespace, Rollout, Rule, Segment, Variant } from '@ensign/core';

type Fields = Record<string, unknown>;

/** A resource as the API returns it, any field possibly missing (records carry `unknown`). */
type Loose<T> = Partial<T> | undefined;

const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** Flipt joins a multi-segment rule's keys into `segment_key` and only then names the operator. */
function segmentRef(segmentKey: unknown, segmentKeys: unknown, operator: unknown): Fields {
  const single = text(segmentKey);
  if (single !== '' || !Array.isArray(segmentKeys) || segmentKeys.length === 0) return { key: single };
  return { key: segmentKeys.join(','), operator: text(operator) };
}

export function flagPayload(f: Loose<Flag>): Fields {
  const out: Fields = { key: text(f?.key), name: text(f?.name), description: text(f?.description), enabled: f?.enabled === true, namespace_key: text(f?.namespaceKey) };
  // `default_variant` is omitempty in Flipt.
  if (f?.defaultVariant?.key) out.default_variant = f.defaultVariant.key;
  return out;
}

export function variantPayload(v: Loose<Variant>): Fields {
  return { id: text(v?.id), flag_key: text(v?.flagKey), key: text(v?.key), name: text(v?.name), description: text(v?.description), attachment: text(v?.attachment), namespace_key: text(v?.namespaceKey) };
}

export function constraintPayload(c: Loose<Constraint>): Fields {
  return { id: text(c?.id), segment_key: text(c?.segmentKey), type: text(c?.type), property: text(c?.property), operator: text(c?.operator), value: text(c?.value), namespace_key: text(c?.namespaceKey) };
}

export function namespacePayload(n: Loose<Namespace>): Fields {
  return { key: text(n?.key), name: text(n?.name), description: text(n?.description), protected: n?.protected === true };
}

export function distributionPayload(d: Loose<Distribution>): Fields {
  return { id: text(d?.id), rule_id: text(d?.ruleId), variant_id: text(d?.variantId), rollout: num(d?.rollout) };
}

export function segmentPayload(s: Loose<Segment>): Fields {
  const constraints = (s?.constraints ?? []).map(constraintPayload);
  return { key: text(s?.key), name: text(s?.name), description: text(s?.description), constraints, match_type: text(s?.matchType), namespace_key: text(s?.namespaceKey) };
}

export function rulePayload(r: Loose<Rule>): Fields {
  const { key, operator } = segmentRef(r?.segmentKey, r?.segmentKeys, r?.segmentOperator);
  const out: Fields = { id: text(r?.id), flag_key: text(r?.flagKey), segment_key: key, distributions: (r?.distributions ?? []).map(distributionPayload), rank: num(r?.rank), namespace_key: text(r?.namespaceKey) };
  if (operator !== undefined) out.segment_operator = operator;
  return out;
}

export function rolloutPayload(r: Loose<Rollout>): Fields {
  const out: Fields = { namespace_key: text(r?.namespaceKey), flag_key: text(r?.flagKey), rank: num(r?.rank), description: text(r?.description) };
  if (r?.threshold) out.threshold = { percentage: num(r.threshold.percentage), value: r.threshold.value === true };
  if (r?.segment) {
    const { key, operator } = segmentRef(r.segment.segmentKey, r.segment.segmentKeys, r.segment.segmentOperator);
    out.segment = { key, value: r.segment.value === true, ...(operator === undefined ? {} : { operator }) };
  }
  if (r?.id) out.id = r.id;
  return out;
}

/** Ensign's scheduled flag changes; Flipt has no such event. */
export function schedulePayload(s: Loose<FlagSchedule>): Fields {
  return { id: text(s?.id), flag_key: text(s?.flagKey), at: text(s?.at), enabled: s?.enabled === true, status: text(s?.status), namespace_key: text(s?.namespaceKey) };
}

const PROJECTIONS: Record<ChangeRecord['resource'], (resource: never) => Fields> = {
  namespace: namespacePayload,
  flag: flagPayload,
  variant: variantPayload,
  segment: segmentPayload,
  constraint: constraintPayload,
  rule: rulePayload,
  distribution: distributionPayload,
  rollout: rolloutPayload,
  schedule: schedulePayload,
};

/** Go's omitempty on the request messages: empty strings are left out. */
function omitEmpty(fields: Fields): Fields {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== ''));
}

/** The fields of Flipt's `Delete<Resource>Request` for this record (Flipt's delete payload). */
function deleteRequest(record: ChangeRecord): Fields {
  const ns = record.namespaceKey;
  const parent = record.parentKey ?? '';
  const before = record.before as Partial<Distribution> | undefined;
  switch (record.resource) {
    case 'namespace':
      return omitEmpty({ key: record.key });
    case 'flag':
    case 'segment':
      return omitEmpty({ key: record.key, namespace_key: ns });
    case 'constraint':
      return omitEmpty({ id: record.key, segment_key: parent, namespace_key: ns });
    case 'distribution':
      return omitEmpty({ id: record.key, flag_key: parent, rule_id: text(before?.ruleId), variant_id: text(before?.variantId), namespace_key: ns });
    case 'variant':
    case 'rule':
    case 'rollout':
    case 'schedule':
      return omitEmpty({ id: record.key, flag_key: parent, namespace_key: ns });
  }
}

/** Flipt's `OrderRulesRequest` / `OrderRolloutsRequest`: the flag and the new order of ids. */
function orderRequest(record: ChangeRecord): Fields {
  const ids = Array.isArray(record.after) ? record.after : [];
  return { flag_key: record.parentKey ?? record.key, namespace_key: record.namespaceKey, [`${record.resource}_ids`]: ids };
}

/**
 * The payload Flipt's audit interceptor (internal/server/middleware/grpc/middleware.go) attaches:
 * the projection of the written resource; for a delete the delete request, except rules and
 * rollouts, whose deleted record Flipt loads first; for an order request, the request.
 */
export function auditPayload(record: ChangeRecord): Fields {
  switch (record.action) {
    case 'reordered':
      return orderRequest(record);
    case 'deleted':
      if ((record.resource === 'rule' || record.resource === 'rollout') && record.before !== undefined) return PROJECTIONS[record.resource](record.before as never);
      return deleteRequest(record);
    default:
      return record.after === undefined ? deleteRequest(record) : PROJECTIONS[record.resource](record.after as never);
  }
}
