/**
 * toAuditEvent: every resource and action against the JSON Flipt v1 sends, written out from
 * Flipt's internal/server/audit/types.go (projections), events.go (envelope),
 * middleware/grpc/middleware.go (delete and order payloads) and rpc/flipt/flipt.pb.go (request fields).
 */
import test from 'ava';
import type { Actor, ChangeRecord } from '@ensign/core';
import { toAuditEvent } from '../../src/audit/index.js';
import { AT } from './audit-helpers.js';

const TOKEN: Actor = { authenticationId: 'a1', method: 'METHOD_TOKEN', name: 'ci' };
const stamp = { createdAt: AT, updatedAt: AT };

const blue = { id: 'v1', namespaceKey: 'default', flagKey: 'color', key: 'blue', name: 'Blue', description: 'the sky', attachment: '{"hex":"#00f"}', ...stamp };
const flag = { namespaceKey: 'default', key: 'color', name: 'Color', description: 'Colors', enabled: true, type: 'VARIANT_FLAG_TYPE', ...stamp, variants: [blue], defaultVariant: blue, metadata: {} };
const { defaultVariant: _dv, ...flagWithoutDefault } = { ...flag, enabled: false };
const namespace = { key: 'team-a', name: 'Team A', description: '', protected: false, ...stamp };
const constraint = { id: 'c1', namespaceKey: 'default', segmentKey: 'beta', type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro', description: 'paying', ...stamp };
const segment = { namespaceKey: 'default', key: 'beta', name: 'Beta', description: '', matchType: 'ALL_MATCH_TYPE', constraints: [constraint], ...stamp };
const distribution = { id: 'd1', ruleId: 'r1', variantId: 'v1', rollout: 33.3, ...stamp };
const rule = { id: 'r1', namespaceKey: 'default', flagKey: 'color', segmentKey: 'beta', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR', distributions: [distribution], rank: 1, ...stamp };
const multiRule = { ...rule, id: 'r2', segmentKey: '', segmentKeys: ['beta', 'staff'], segmentOperator: 'AND_SEGMENT_OPERATOR', distributions: [], rank: 2 };
const threshold = { id: 'ro1', namespaceKey: 'default', flagKey: 'dark', type: 'THRESHOLD_ROLLOUT_TYPE', rank: 1, description: 'half', ...stamp, threshold: { percentage: 50, value: true } };
const multiSegmentRollout = { id: 'ro2', namespaceKey: 'default', flagKey: 'dark', type: 'SEGMENT_ROLLOUT_TYPE', rank: 2, description: '', ...stamp, segment: { segmentKey: '', segmentKeys: ['beta', 'staff'], segmentOperator: 'OR_SEGMENT_OPERATOR', value: false } };
const oneSegmentRollout = { ...multiSegmentRollout, segment: { segmentKey: 'beta', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR', value: true } };

type Part = Pick<ChangeRecord, 'resource' | 'action' | 'key'> & Partial<Pick<ChangeRecord, 'parentKey' | 'before' | 'after'>>;
const change = (part: Part): ChangeRecord => ({ namespaceKey: 'default', revision: 7, actor: TOKEN, at: AT, ...part });

// Expected payloads, snake_case and keys sorted (Flipt round-trips the payload through a Go map).
const flagPayload = { default_variant: 'blue', description: 'Colors', enabled: true, key: 'color', name: 'Color', namespace_key: 'default' };
const variantPayload = { attachment: '{"hex":"#00f"}', description: 'the sky', flag_key: 'color', id: 'v1', key: 'blue', name: 'Blue', namespace_key: 'default' };
const constraintPayload = { id: 'c1', namespace_key: 'default', operator: 'eq', property: 'plan', segment_key: 'beta', type: 'STRING_COMPARISON_TYPE', value: 'pro' };
const distributionPayload = { id: 'd1', rollout: 33.3, rule_id: 'r1', variant_id: 'v1' };
const rulePayload = { distributions: [distributionPayload], flag_key: 'color', id: 'r1', namespace_key: 'default', rank: 1, segment_key: 'beta' };
const thresholdPayload = { description: 'half', flag_key: 'dark', id: 'ro1', namespace_key: 'default', rank: 1, threshold: { percentage: 50, value: true } };

const CASES: Array<{ title: string; record: ChangeRecord; type: string; action: string; payload: Record<string, unknown> }> = [
  { title: 'namespace created', record: change({ resource: 'namespace', action: 'created', key: 'team-a', after: namespace }), type: 'namespace', action: 'created', payload: { description: '', key: 'team-a', name: 'Team A', protected: false } },
  { title: 'namespace updated', record: change({ resource: 'namespace', action: 'updated', key: 'team-a', before: namespace, after: { ...namespace, description: 'new' } }), type: 'namespace', action: 'updated', payload: { description: 'new', key: 'team-a', name: 'Team A', protected: false } },
  { title: 'namespace deleted: DeleteNamespaceRequest', record: change({ resource: 'namespace', action: 'deleted', key: 'team-a', before: namespace }), type: 'namespace', action: 'deleted', payload: { key: 'team-a' } },
  { title: 'flag created, with its default variant key', record: change({ resource: 'flag', action: 'created', key: 'color', after: flag }), type: 'flag', action: 'created', payload: flagPayload },
  { title: 'flag updated, default_variant omitted when unset', record: change({ resource: 'flag', action: 'updated', key: 'color', before: flag, after: flagWithoutDefault }), type: 'flag', action: 'updated', payload: { description: 'Colors', enabled: false, key: 'color', name: 'Color', namespace_key: 'default' } },
  { title: 'flag deleted: DeleteFlagRequest', record: change({ resource: 'flag', action: 'deleted', key: 'color', before: flag }), type: 'flag', action: 'deleted', payload: { key: 'color', namespace_key: 'default' } },
  { title: 'variant created', record: change({ resource: 'variant', action: 'created', key: 'v1', parentKey: 'color', after: blue }), type: 'variant', action: 'created', payload: variantPayload },
  { title: 'variant updated', record: change({ resource: 'variant', action: 'updated', key: 'v1', parentKey: 'color', before: blue, after: { ...blue, name: 'Navy' } }), type: 'variant', action: 'updated', payload: { ...variantPayload, name: 'Navy' } },
  { title: 'variant deleted: DeleteVariantRequest', record: change({ resource: 'variant', action: 'deleted', key: 'v1', parentKey: 'color', before: blue }), type: 'variant', action: 'deleted', payload: { flag_key: 'color', id: 'v1', namespace_key: 'default' } },
  {
    title: 'segment created, constraints projected',
    record: change({ resource: 'segment', action: 'created', key: 'beta', after: segment }),
    type: 'segment',
    action: 'created',
    payload: { constraints: [constraintPayload], description: '', key: 'beta', match_type: 'ALL_MATCH_TYPE', name: 'Beta', namespace_key: 'default' },
  },
  {
    title: 'segment updated',
    record: change({ resource: 'segment', action: 'updated', key: 'beta', before: segment, after: { ...segment, matchType: 'ANY_MATCH_TYPE', constraints: [] } }),
    type: 'segment',
    action: 'updated',
    payload: { constraints: [], description: '', key: 'beta', match_type: 'ANY_MATCH_TYPE', name: 'Beta', namespace_key: 'default' },
  },
  { title: 'segment deleted: DeleteSegmentRequest', record: change({ resource: 'segment', action: 'deleted', key: 'beta', before: segment }), type: 'segment', action: 'deleted', payload: { key: 'beta', namespace_key: 'default' } },
  { title: 'constraint created (no description: Flipt leaves it out)', record: change({ resource: 'constraint', action: 'created', key: 'c1', parentKey: 'beta', after: constraint }), type: 'constraint', action: 'created', payload: constraintPayload },
  { title: 'constraint updated', record: change({ resource: 'constraint', action: 'updated', key: 'c1', parentKey: 'beta', before: constraint, after: { ...constraint, value: 'team' } }), type: 'constraint', action: 'updated', payload: { ...constraintPayload, value: 'team' } },
  { title: 'constraint deleted: DeleteConstraintRequest', record: change({ resource: 'constraint', action: 'deleted', key: 'c1', parentKey: 'beta', before: constraint }), type: 'constraint', action: 'deleted', payload: { id: 'c1', namespace_key: 'default', segment_key: 'beta' } },
  { title: 'rule created, one segment', record: change({ resource: 'rule', action: 'created', key: 'r1', parentKey: 'color', after: rule }), type: 'rule', action: 'created', payload: rulePayload },
  {
    title: 'rule updated, segments joined and operator named',
    record: change({ resource: 'rule', action: 'updated', key: 'r2', parentKey: 'color', before: rule, after: multiRule }),
    type: 'rule',
    action: 'updated',
    payload: { distributions: [], flag_key: 'color', id: 'r2', namespace_key: 'default', rank: 2, segment_key: 'beta,staff', segment_operator: 'AND_SEGMENT_OPERATOR' },
  },
  { title: 'rule deleted: the deleted rule', record: change({ resource: 'rule', action: 'deleted', key: 'r1', parentKey: 'color', before: rule }), type: 'rule', action: 'deleted', payload: rulePayload },
  { title: 'rules reordered: OrderRulesRequest, an update', record: change({ resource: 'rule', action: 'reordered', key: 'color', parentKey: 'color', before: ['r1', 'r2'], after: ['r2', 'r1'] }), type: 'rule', action: 'updated', payload: { flag_key: 'color', namespace_key: 'default', rule_ids: ['r2', 'r1'] } },
  { title: 'distribution created', record: change({ resource: 'distribution', action: 'created', key: 'd1', parentKey: 'color', after: distribution }), type: 'distribution', action: 'created', payload: distributionPayload },
  { title: 'distribution updated', record: change({ resource: 'distribution', action: 'updated', key: 'd1', parentKey: 'color', before: distribution, after: { ...distribution, rollout: 50 } }), type: 'distribution', action: 'updated', payload: { ...distributionPayload, rollout: 50 } },
  {
    title: 'distribution deleted: DeleteDistributionRequest',
    record: change({ resource: 'distribution', action: 'deleted', key: 'd1', parentKey: 'color', before: distribution }),
    type: 'distribution',
    action: 'deleted',
    payload: { flag_key: 'color', id: 'd1', namespace_key: 'default', rule_id: 'r1', variant_id: 'v1' },
  },
  { title: 'threshold rollout created', record: change({ resource: 'rollout', action: 'created', key: 'ro1', parentKey: 'dark', after: threshold }), type: 'rollout', action: 'created', payload: thresholdPayload },
  {
    title: 'segment rollout updated, segments joined and operator named',
    record: change({ resource: 'rollout', action: 'updated', key: 'ro2', parentKey: 'dark', before: oneSegmentRollout, after: multiSegmentRollout }),
    type: 'rollout',
    action: 'updated',
    payload: { description: '', flag_key: 'dark', id: 'ro2', namespace_key: 'default', rank: 2, segment: { key: 'beta,staff', operator: 'OR_SEGMENT_OPERATOR', value: false } },
  },
  {
    title: 'one-segment rollout created, no operator',
    record: change({ resource: 'rollout', action: 'created', key: 'ro2', parentKey: 'dark', after: oneSegmentRollout }),
    type: 'rollout',
    action: 'created',
    payload: { description: '', flag_key: 'dark', id: 'ro2', namespace_key: 'default', rank: 2, segment: { key: 'beta', value: true } },
  },
  { title: 'rollout deleted: the deleted rollout', record: change({ resource: 'rollout', action: 'deleted', key: 'ro1', parentKey: 'dark', before: threshold }), type: 'rollout', action: 'deleted', payload: thresholdPayload },
  { title: 'rollouts reordered: OrderRolloutsRequest, an update', record: change({ resource: 'rollout', action: 'reordered', key: 'dark', parentKey: 'dark', before: ['ro1', 'ro2'], after: ['ro2', 'ro1'] }), type: 'rollout', action: 'updated', payload: { flag_key: 'dark', namespace_key: 'default', rollout_ids: ['ro2', 'ro1'] } },
];

for (const c of CASES) {
  test(`event: ${c.title}`, (t) => {
    const event = toAuditEvent(c.record);
    const ensign = { revision: 7, ...(c.record.before === undefined ? {} : { before: c.record.before }), ...(c.record.after === undefined ? {} : { after: c.record.after }) };
    t.deepEqual(event, {
      version: '0.2',
      type: c.type,
      action: c.action,
      metadata: { actor: { authentication: 'token', name: 'ci' } },
      payload: c.payload,
      timestamp: '2026-03-01T12:00:00Z',
      status: 'success',
      ensign,
    } as unknown as typeof event);
    // Flipt's field order on the wire, and the payload's keys in Go map order.
    t.deepEqual(Object.keys(event), ['version', 'type', 'action', 'metadata', 'payload', 'timestamp', 'status', 'ensign']);
    t.deepEqual(Object.keys(event.payload), Object.keys(c.payload).sort());
  });
}

test('a deleted rule whose record is missing carries DeleteRuleRequest, as Flipt does when it cannot load it', (t) => {
  const event = toAuditEvent(change({ resource: 'rule', action: 'deleted', key: 'r9', parentKey: 'color' }));
  t.deepEqual(event.payload, { flag_key: 'color', id: 'r9', namespace_key: 'default' });
  t.deepEqual(event.ensign, { revision: 7 });
});

test('actor: Flipt spelling of every method, the name when known, none without an actor', (t) => {
  const methods: Array<[string, string]> = [
    ['METHOD_TOKEN', 'token'],
    ['METHOD_OIDC', 'oidc'],
    ['METHOD_JWT', 'jwt'],
    ['METHOD_KUBERNETES', 'kubernetes'],
    ['METHOD_GITHUB', 'github'],
    ['METHOD_CLOUD', 'cloud'],
  ];
  for (const [method, authentication] of methods) {
    const event = toAuditEvent({ ...change({ resource: 'flag', action: 'created', key: 'color', after: flag }), actor: { authenticationId: 'x', method } });
    t.deepEqual(event.metadata, { actor: { authentication } }, method);
  }
  const named = toAuditEvent({ ...change({ resource: 'flag', action: 'created', key: 'color', after: flag }), actor: { authenticationId: 'x', method: 'METHOD_OIDC', name: 'ada@example.com' } });
  t.deepEqual(named.metadata, { actor: { authentication: 'oidc', name: 'ada@example.com' } });
  const { actor: _none, ...anonymous } = change({ resource: 'flag', action: 'created', key: 'color', after: flag });
  t.deepEqual(toAuditEvent(anonymous).metadata, { actor: { authentication: 'none' } });
});

test('timestamp: RFC 3339 UTC in whole seconds; an unreadable time is stamped with now', (t) => {
  const record = change({ resource: 'flag', action: 'created', key: 'color', after: flag });
  t.is(toAuditEvent({ ...record, at: '2026-03-01T23:59:59.999Z' }).timestamp, '2026-03-01T23:59:59Z');
  t.is(toAuditEvent({ ...record, at: 'not a time' }, () => new Date('2026-05-05T05:05:05.500Z')).timestamp, '2026-05-05T05:05:05Z');
});

test('the event JSON reads as Flipt writes it, with Ensign details under one extra key', (t) => {
  const json = JSON.stringify(toAuditEvent(change({ resource: 'variant', action: 'deleted', key: 'v1', parentKey: 'color', before: blue })));
  t.is(
    json,
    '{"version":"0.2","type":"variant","action":"deleted","metadata":{"actor":{"authentication":"token","name":"ci"}},' +
      '"payload":{"flag_key":"color","id":"v1","namespace_key":"default"},"timestamp":"2026-03-01T12:00:00Z","status":"success",' +
      `"ensign":{"revision":7,"before":${JSON.stringify(blue)}}}`,
  );
});
