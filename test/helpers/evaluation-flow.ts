/**
 * The core evaluation flow against a real server: seed through /api/v1, then evaluate. Registered
 * by the evaluation test file of each database.
 */
import type { JsonClient } from '@ensign/testkit';
import { assertNotFound, ok, TIMESTAMP, UUID, assertInvalid } from './api.js';
import type { EvalTest } from './evaluation-harness.js';
import { seedShop } from './evaluation-seed.js';

const variant = (api: JsonClient, body: Record<string, unknown>) => api.post('/evaluate/v1/variant', body);
const boolean = (api: JsonClient, body: Record<string, unknown>) => api.post('/evaluate/v1/boolean', body);

/** Entity ids `e0`…`e<n-1>`. */
const entities = (n: number): string[] => Array.from({ length: n }, (_, i) => `e${i}`);

export function registerCoreFlow(test: EvalTest): void {
  test('variant: match, default, disabled and unknown reasons with Flipt\'s response shape', async (t) => {
    const { api } = t.context;
    const { ns } = await seedShop(api);

    const match = await variant(api, { requestId: 'r-1', namespaceKey: ns, flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } });
    t.is(match.status, 200, match.text);
    t.deepEqual(Object.keys(match.body), ['match', 'segmentKeys', 'reason', 'variantKey', 'variantAttachment', 'requestId', 'requestDurationMillis', 'timestamp', 'flagKey']);
    t.like(match.body, { match: true, segmentKeys: ['pro-users'], reason: 'MATCH_EVALUATION_REASON', variantKey: 'blue', variantAttachment: '{"hex":"#00f"}', requestId: 'r-1', flagKey: 'color' });
    t.regex(match.body.timestamp, TIMESTAMP);
    t.is(typeof match.body.requestDurationMillis, 'number');

    const fallback = await variant(api, { namespaceKey: ns, flagKey: 'color', entityId: 'u1', context: { plan: 'free' } });
    t.like(fallback.body, { match: false, reason: 'DEFAULT_EVALUATION_REASON', variantKey: 'red', variantAttachment: '{"hex":"#f00"}', segmentKeys: [] });
    t.regex(fallback.body.requestId, UUID);

    t.like((await variant(api, { namespaceKey: ns, flagKey: 'off', entityId: 'u1' })).body, { match: false, reason: 'FLAG_DISABLED_EVALUATION_REASON', variantKey: 'red' });
    t.like((await variant(api, { namespaceKey: ns, flagKey: 'plain', entityId: 'u1' })).body, { match: false, reason: 'UNKNOWN_EVALUATION_REASON', variantKey: '' });
    t.like((await variant(api, { namespaceKey: ns, flagKey: 'ids', entityId: 'vip' })).body, { match: true, variantKey: 'gold', segmentKeys: ['vips'] });
    t.like((await variant(api, { namespaceKey: ns, flagKey: 'ids', entityId: 'nobody' })).body, { match: false, reason: 'UNKNOWN_EVALUATION_REASON' });

    assertNotFound(t, await variant(api, { namespaceKey: ns, flagKey: 'nope', entityId: 'u1' }), `flag "${ns}/nope" not found`);
    assertInvalid(t, await variant(api, { namespaceKey: ns, flagKey: 'new-ui', entityId: 'u1' }), 'flag type BOOLEAN_FLAG_TYPE invalid');
    assertInvalid(t, await boolean(api, { namespaceKey: ns, flagKey: 'color', entityId: 'u1' }), 'flag type VARIANT_FLAG_TYPE invalid');
  });

  test('variant: a 50/50 distribution splits entities and never moves one', async (t) => {
    const { api } = t.context;
    const { ns } = await seedShop(api);
    const first = new Map<string, string>();
    for (const entityId of entities(60)) {
      const reply = await variant(api, { namespaceKey: ns, flagKey: 'split', entityId });
      t.like(reply.body, { match: true, reason: 'MATCH_EVALUATION_REASON', segmentKeys: ['everyone'] });
      first.set(entityId, reply.body.variantKey);
    }
    t.deepEqual(new Set(first.values()), new Set(['blue', 'red']));
    for (const entityId of entities(20)) {
      t.is((await variant(api, { namespaceKey: ns, flagKey: 'split', entityId })).body.variantKey, first.get(entityId));
    }
  });

  test('boolean: segment rollout, threshold rollout and fall-through on a disabled flag', async (t) => {
    const { api } = t.context;
    const { ns } = await seedShop(api);
    const bySegment = await boolean(api, { requestId: 'b-1', namespaceKey: ns, flagKey: 'new-ui', entityId: 'ann', context: { email: 'ann@corp.example' } });
    t.is(bySegment.status, 200, bySegment.text);
    t.deepEqual(Object.keys(bySegment.body), ['enabled', 'reason', 'requestId', 'requestDurationMillis', 'timestamp', 'flagKey', 'segmentKeys']);
    t.like(bySegment.body, { enabled: true, reason: 'MATCH_EVALUATION_REASON', requestId: 'b-1', flagKey: 'new-ui', segmentKeys: ['internal'] });

    // The 50% threshold lets some entities in (MATCH, true); the rest fall through to the disabled flag (DEFAULT, false).
    const seen = new Set<string>();
    for (const entityId of entities(60)) {
      const reply = await boolean(api, { namespaceKey: ns, flagKey: 'new-ui', entityId });
      t.deepEqual(reply.body.segmentKeys, []);
      seen.add(`${reply.body.reason}:${reply.body.enabled}`);
    }
    t.deepEqual([...seen].sort(), ['DEFAULT_EVALUATION_REASON:false', 'MATCH_EVALUATION_REASON:true']);
  });

  test('batch: mixed types and a not-found item, in order', async (t) => {
    const { api } = t.context;
    const { ns } = await seedShop(api);
    const reply = await api.post('/evaluate/v1/batch', {
      requestId: 'batch-1',
      requests: [
        { requestId: 'a', namespaceKey: ns, flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } },
        { namespaceKey: ns, flagKey: 'new-ui', entityId: 'ann', context: { email: 'ann@corp.example' } },
        { namespaceKey: ns, flagKey: 'missing', entityId: 'u1' },
        { flagKey: 'missing-too', entityId: 'u1' },
      ],
    });
    t.is(reply.status, 200, reply.text);
    t.is(reply.body.requestId, 'batch-1');
    const [color, newUi, missing, missingDefault] = reply.body.responses;
    t.is(color.type, 'VARIANT_EVALUATION_RESPONSE_TYPE');
    t.like(color.variantResponse, { requestId: 'a', variantKey: 'blue', match: true, flagKey: 'color', requestDurationMillis: reply.body.requestDurationMillis });
    t.is(newUi.type, 'BOOLEAN_EVALUATION_RESPONSE_TYPE');
    t.like(newUi.booleanResponse, { requestId: '', enabled: true, flagKey: 'new-ui' });
    t.is(color.variantResponse.timestamp, newUi.booleanResponse.timestamp);
    t.deepEqual(missing, { type: 'ERROR_EVALUATION_RESPONSE_TYPE', errorResponse: { flagKey: 'missing', namespaceKey: ns, reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' } });
    t.deepEqual(missingDefault.errorResponse, { flagKey: 'missing-too', namespaceKey: '', reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' });
  });

  test('namespaced forms: the path namespace wins over the body\'s', async (t) => {
    const { api } = t.context;
    const { ns } = await seedShop(api);
    const other = await seedShop(api, 'other');
    ok(await api.put(`${other.base}/flags/color`, { name: 'Color', enabled: false, defaultVariantId: other.variants.red }));

    const reply = await api.post(`/evaluate/v1/namespaces/${ns}/variant`, { namespaceKey: other.ns, flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } });
    t.is(reply.status, 200, reply.text);
    t.like(reply.body, { match: true, variantKey: 'blue' });
    t.like((await api.post(`/evaluate/v1/namespaces/${other.ns}/variant`, { namespaceKey: ns, flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } })).body, { reason: 'FLAG_DISABLED_EVALUATION_REASON' });
    const bool = await api.post(`/evaluate/v1/namespaces/${ns}/boolean`, { flagKey: 'new-ui', entityId: 'ann', context: { email: 'ann@corp.example' } });
    t.like(bool.body, { enabled: true, reason: 'MATCH_EVALUATION_REASON' });
    assertNotFound(t, await api.post('/evaluate/v1/namespaces/ghost-ns/boolean', { namespaceKey: ns, flagKey: 'new-ui', entityId: 'u1' }), 'flag "ghost-ns/new-ui" not found');
  });

  test('a write is visible to the very next evaluation', async (t) => {
    const { api } = t.context;
    const { ns, base, variants, colorRuleId } = await seedShop(api);
    const ask = () => variant(api, { namespaceKey: ns, flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } });
    t.is((await ask()).body.variantKey, 'blue');

    // Move the whole distribution to red.
    const rule = ok(await api.get(`${base}/flags/color/rules/${colorRuleId}`));
    const distributionId = rule.distributions[0].id as string;
    ok(await api.put(`${base}/flags/color/rules/${colorRuleId}/distributions/${distributionId}`, { variantId: variants.red, rollout: 100 }));
    t.like((await ask()).body, { variantKey: 'red', match: true });

    // Disable the flag.
    ok(await api.put(`${base}/flags/color`, { name: 'Color', enabled: false, defaultVariantId: variants.red }));
    t.like((await ask()).body, { reason: 'FLAG_DISABLED_EVALUATION_REASON' });

    // Create a flag and evaluate it at once; delete it and it is gone at once.
    ok(await api.post(`${base}/flags`, { key: 'fresh', name: 'Fresh', type: 'BOOLEAN_FLAG_TYPE', enabled: true }));
    t.like((await boolean(api, { namespaceKey: ns, flagKey: 'fresh', entityId: 'u1' })).body, { enabled: true, reason: 'DEFAULT_EVALUATION_REASON' });
    ok(await api.del(`${base}/flags/fresh`));
    assertNotFound(t, await boolean(api, { namespaceKey: ns, flagKey: 'fresh', entityId: 'u1' }), `flag "${ns}/fresh" not found`);

    // A constraint added to a segment changes who matches.
    ok(await api.put(`${base}/flags/color`, { name: 'Color', enabled: true, defaultVariantId: variants.red }));
    ok(await api.post(`${base}/segments/pro-users/constraints`, { type: 'NUMBER_COMPARISON_TYPE', property: 'seats', operator: 'gte', value: '10' }));
    t.like((await ask()).body, { match: false, reason: 'DEFAULT_EVALUATION_REASON' });
    t.like((await variant(api, { namespaceKey: ns, flagKey: 'color', entityId: 'u1', context: { plan: 'pro', seats: '12' } })).body, { match: true });
  });

  test('snapshot: gated by the client version, ETag/304, a new ETag after a write', async (t) => {
    const { api } = t.context;
    const { ns, base, variants } = await seedShop(api);
    const path = `/internal/v1/evaluation/snapshot/namespace/${ns}`;
    const current = { 'X-Flipt-Accept-Server-Version': '1.61.1' };

    const full = await api.get(path, current);
    t.is(full.status, 200, full.text);
    t.is(full.body.namespace.key, ns);
    t.deepEqual(full.body.flags.map((f: { key: string }) => f.key), ['color', 'off', 'plain', 'new-ui', 'ids', 'split']);
    const color = full.body.flags[0];
    t.like(color, { key: 'color', name: 'Color', enabled: true, type: 'VARIANT_FLAG_TYPE', defaultVariant: { id: variants.red, key: 'red', attachment: '{"hex":"#f00"}' } });
    t.like(color.rules[0], { rank: 1, segmentOperator: 'OR_SEGMENT_OPERATOR' });
    t.like(color.rules[0].segments[0], { key: 'pro-users', matchType: 'ALL_SEGMENT_MATCH_TYPE' });
    t.like(color.rules[0].segments[0].constraints[0], { type: 'STRING_CONSTRAINT_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' });
    t.like(color.rules[0].distributions[0], { id: '', ruleId: '', variantId: variants.blue, variantKey: 'blue', rollout: 100 });
    const newUi = full.body.flags[3];
    t.like(newUi.rollouts[0], { type: 'SEGMENT_ROLLOUT_TYPE', rank: 1, segment: { value: true, segmentOperator: 'OR_SEGMENT_OPERATOR' } });
    t.like(newUi.rollouts[1], { type: 'THRESHOLD_ROLLOUT_TYPE', rank: 2, threshold: { percentage: 50, value: true } });
    t.is(full.body.flags[4].rules[0].segments[0].constraints[0].type, 'ENTITY_ID_CONSTRAINT_COMPARISON_TYPE');

    // No version header: treated as 1.37.1 — no default variants, entity-id constraints as UNKNOWN.
    const old = await api.get(path);
    t.false('defaultVariant' in old.body.flags[0]);
    t.is(old.body.flags[4].rules[0].segments[0].constraints[0].type, 'UNKNOWN_CONSTRAINT_COMPARISON_TYPE');
    const mid = await api.get(path, { 'X-Flipt-Accept-Server-Version': '1.40.0' });
    t.false('defaultVariant' in mid.body.flags[0]);
    t.is(mid.body.flags[4].rules[0].segments[0].constraints[0].type, 'ENTITY_ID_CONSTRAINT_COMPARISON_TYPE');

    const etag = full.headers.get('etag') as string;
    t.truthy(etag);
    t.not(old.headers.get('etag'), etag);
    const notModified = await api.get(path, { ...current, 'If-None-Match': etag });
    t.is(notModified.status, 304);
    t.is(notModified.text, '');
    t.is(notModified.headers.get('etag'), etag);

    ok(await api.put(`${base}/flags/plain`, { name: 'Plain', description: 'now described', enabled: true }));
    const changed = await api.get(path, { ...current, 'If-None-Match': etag });
    t.is(changed.status, 200);
    t.is(changed.body.flags[2].description, 'now described');
    const newEtag = changed.headers.get('etag') as string;
    t.not(newEtag, etag);
    t.is((await api.get(path, { ...current, 'If-None-Match': newEtag })).status, 304);

    const ghost = await api.get('/internal/v1/evaluation/snapshot/namespace/no-such-namespace');
    t.deepEqual(ghost.body, { namespace: { key: 'no-such-namespace' }, flags: [] });
    t.is(ghost.headers.get('etag'), null);
  });
}
