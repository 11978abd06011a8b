/** `flipt.evaluation` over a real grpc-js server and client: evaluation, batch, snapshot, errors, scoped tokens. */
import { status } from '@grpc/grpc-js';
import { InProcessSnapshotSource } from '@ensign/evaluator';
import test from 'ava';
import { fromTimestamp } from '../src/proto-values.js';
import { defaultDocument, FetchingSource, FIXED_NOW, messageOf, otherDocument, readySource, startEvaluationGrpc, UUID } from './evaluation-harness.js';

const FIXED_TIME = new Date(FIXED_NOW).toISOString();

test('Variant answers the matched variant with its attachment, segments and the request id', async (t) => {
  const client = await startEvaluationGrpc(t, { source: readySource() });
  const reply = messageOf(
    t,
    await client.call('EvaluationService', 'Variant', { requestId: 'req-1', namespaceKey: 'default', flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } }),
  );
  t.like(reply, {
    match: true,
    segmentKeys: ['pro-users'],
    reason: 'MATCH_EVALUATION_REASON',
    variantKey: 'blue',
    variantAttachment: '{"hex":"#00f"}',
    requestId: 'req-1',
    flagKey: 'color',
  });
  t.is(fromTimestamp(reply.timestamp), FIXED_TIME);
  t.true(reply.requestDurationMillis >= 0);
});

test('Variant: no rule matches gives the default variant; a disabled flag says so; no request id gets a fresh one', async (t) => {
  const client = await startEvaluationGrpc(t, { source: readySource() });
  const fallback = messageOf(t, await client.call('EvaluationService', 'Variant', { flagKey: 'color', entityId: 'u1', context: { plan: 'free' } }));
  t.like(fallback, { match: false, segmentKeys: [], reason: 'DEFAULT_EVALUATION_REASON', variantKey: 'red', variantAttachment: '{"hex":"#f00"}' });
  t.regex(fallback.requestId, UUID);

  const disabled = messageOf(t, await client.call('EvaluationService', 'Variant', { flagKey: 'off', entityId: 'u1' }));
  t.like(disabled, { match: false, reason: 'FLAG_DISABLED_EVALUATION_REASON', variantKey: 'red' });

  const vip = messageOf(t, await client.call('EvaluationService', 'Variant', { flagKey: 'ids', entityId: 'vip' }));
  t.like(vip, { match: true, variantKey: 'gold', segmentKeys: ['vips'] });
});

test('Boolean: a matching segment rollout, a threshold, and an empty namespace meaning default', async (t) => {
  const client = await startEvaluationGrpc(t, { source: readySource() });
  const staff = messageOf(t, await client.call('EvaluationService', 'Boolean', { flagKey: 'new-ui', entityId: 'u1', context: { email: 'ann@corp.example' }, requestId: 'b1' }));
  t.like(staff, { enabled: true, reason: 'MATCH_EVALUATION_REASON', segmentKeys: ['internal'], flagKey: 'new-ui', requestId: 'b1' });
  t.is(fromTimestamp(staff.timestamp), FIXED_TIME);

  // 70% threshold: u2 is inside it; u1 is not and falls through to the (enabled) flag's value.
  const inside = messageOf(t, await client.call('EvaluationService', 'Boolean', { namespaceKey: 'default', flagKey: 'test-flag', entityId: 'u2' }));
  t.like(inside, { enabled: true, reason: 'MATCH_EVALUATION_REASON', segmentKeys: [] });
  const outside = messageOf(t, await client.call('EvaluationService', 'Boolean', { namespaceKey: '', flagKey: 'test-flag', entityId: 'u1' }));
  t.like(outside, { enabled: true, reason: 'DEFAULT_EVALUATION_REASON' });
  const unnamed = messageOf(t, await client.call('EvaluationService', 'Boolean', { namespaceKey: '', flagKey: 'test-flag', entityId: 'u2' }));
  t.like(unnamed, { enabled: true, reason: 'MATCH_EVALUATION_REASON' });
});

test('the namespace key picks the namespace', async (t) => {
  const client = await startEvaluationGrpc(t, { source: readySource() });
  const other = messageOf(t, await client.call('EvaluationService', 'Variant', { namespaceKey: 'other', flagKey: 'color', entityId: 'u1' }));
  t.like(other, { match: true, variantKey: 'green', segmentKeys: ['all'] });
});

test('Batch: variant and boolean items in request order, a missing flag as an error item, one time for all', async (t) => {
  const client = await startEvaluationGrpc(t, { source: readySource() });
  const reply = messageOf(
    t,
    await client.call('EvaluationService', 'Batch', {
      requestId: 'batch-1',
      requests: [
        { requestId: 'i1', flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } },
        { flagKey: 'new-ui', entityId: 'u1', context: { email: 'ann@corp.example' } },
        { flagKey: 'nope', entityId: 'u1' },
        { namespaceKey: 'other', flagKey: 'missing', entityId: 'u1' },
        { namespaceKey: 'other', flagKey: 'color', entityId: 'u1' },
      ],
    }),
  );
  t.is(reply.requestId, 'batch-1');
  t.true(reply.requestDurationMillis >= 0);
  t.deepEqual(
    reply.responses.map((r: any) => [r.type, r.response]),
    [
      ['VARIANT_EVALUATION_RESPONSE_TYPE', 'variantResponse'],
      ['BOOLEAN_EVALUATION_RESPONSE_TYPE', 'booleanResponse'],
      ['ERROR_EVALUATION_RESPONSE_TYPE', 'errorResponse'],
      ['ERROR_EVALUATION_RESPONSE_TYPE', 'errorResponse'],
      ['VARIANT_EVALUATION_RESPONSE_TYPE', 'variantResponse'],
    ],
  );
  const [color, newUi, nope, missing, other] = reply.responses;
  t.like(color.variantResponse, { match: true, variantKey: 'blue', requestId: 'i1', flagKey: 'color', requestDurationMillis: reply.requestDurationMillis });
  t.is(fromTimestamp(color.variantResponse.timestamp), FIXED_TIME);
  t.like(newUi.booleanResponse, { enabled: true, segmentKeys: ['internal'], requestId: '', flagKey: 'new-ui' });
  // COMPAT(flipt): the error item names the namespace as it was sent ("" when omitted).
  t.deepEqual(nope.errorResponse, { flagKey: 'nope', namespaceKey: '', reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' });
  t.deepEqual(missing.errorResponse, { flagKey: 'missing', namespaceKey: 'other', reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' });
  t.is(other.variantResponse.variantKey, 'green');
});

test('Batch: no requests answers no responses with a fresh request id', async (t) => {
  const client = await startEvaluationGrpc(t, { source: readySource() });
  const reply = messageOf(t, await client.call('EvaluationService', 'Batch', {}));
  t.deepEqual(reply.responses, []);
  t.regex(reply.requestId, UUID);
});

test('an unknown flag is NOT_FOUND; a flag of the other type is INVALID_ARGUMENT', async (t) => {
  const client = await startEvaluationGrpc(t, { source: readySource() });
  const unknown = await client.call('EvaluationService', 'Variant', { flagKey: 'nope', entityId: 'u1' });
  t.false(unknown.ok);
  if (!unknown.ok) {
    t.is(unknown.error.code, status.NOT_FOUND);
    t.is(unknown.error.details, 'flag "default/nope" not found');
  }
  const inOther = await client.call('EvaluationService', 'Boolean', { namespaceKey: 'other', flagKey: 'nope', entityId: 'u1' });
  t.true(!inOther.ok && inOther.error.code === status.NOT_FOUND && inOther.error.details === 'flag "other/nope" not found');

  const wrongType = await client.call('EvaluationService', 'Boolean', { flagKey: 'color', entityId: 'u1' });
  t.true(!wrongType.ok && wrongType.error.code === status.INVALID_ARGUMENT && wrongType.error.details === 'flag type VARIANT_FLAG_TYPE invalid');
});

test('a key of 100 KB or 300 KB is answered NOT_FOUND at once, quoting the key cut to its first 256 characters and its length', async (t) => {
  const client = await startEvaluationGrpc(t, { source: readySource() });
  for (const size of [100_000, 300_000]) {
    const key = 'k'.repeat(size);
    for (const method of ['Boolean', 'Variant'] as const) {
      const reply = await client.call('EvaluationService', method, { flagKey: key, entityId: 'u1' });
      t.false(reply.ok);
      if (!reply.ok) {
        t.is(reply.error.code, status.NOT_FOUND, `${method} ${size}`);
        t.is(reply.error.details, `flag "default/${'k'.repeat(256)}… (${size} characters)" not found`);
      }
    }
  }
});

test('COMPAT(flipt): no request validation, as over HTTP: an empty flag key is not found, an empty entity id is evaluated', async (t) => {
  const client = await startEvaluationGrpc(t, { source: readySource() });
  const noFlag = await client.call('EvaluationService', 'Variant', { entityId: 'u1' });
  t.true(!noFlag.ok && noFlag.error.code === status.NOT_FOUND && noFlag.error.details === 'flag "default/" not found');
  const noEntity = messageOf(t, await client.call('EvaluationService', 'Variant', { flagKey: 'color', context: { plan: 'pro' } }));
  t.like(noEntity, { match: true, variantKey: 'blue' });
});

test('a batch larger than the limit is INVALID_ARGUMENT naming the requests field', async (t) => {
  const client = await startEvaluationGrpc(t, { source: readySource(), maxBatchSize: 2 });
  const item = { flagKey: 'color', entityId: 'u1' };
  const reply = await client.call('EvaluationService', 'Batch', { requests: [item, item, item] });
  t.false(reply.ok);
  if (!reply.ok) {
    t.is(reply.error.code, status.INVALID_ARGUMENT);
    t.is(reply.error.details, 'invalid field requests: must contain at most 2 items');
  }
  t.true((await client.call('EvaluationService', 'Batch', { requests: [item, item] })).ok);
});

test('every method is UNAVAILABLE until the source has its snapshots', async (t) => {
  const source = new InProcessSnapshotSource();
  const client = await startEvaluationGrpc(t, { source });
  const calls = [
    client.call('EvaluationService', 'Variant', { flagKey: 'color', entityId: 'u1' }),
    client.call('EvaluationService', 'Boolean', { flagKey: 'new-ui', entityId: 'u1' }),
    client.call('EvaluationService', 'Batch', { requests: [{ flagKey: 'color', entityId: 'u1' }] }),
    client.call('DataService', 'EvaluationSnapshotNamespace', { key: 'default' }),
  ];
  for (const reply of await Promise.all(calls)) {
    t.false(reply.ok);
    if (!reply.ok) {
      t.is(reply.error.code, status.UNAVAILABLE);
      t.is(reply.error.details, 'snapshots are not loaded yet');
    }
  }
});

test('a namespace the source does not hold yet is fetched, once, and then answered', async (t) => {
  const source = new FetchingSource(new Map([['default', defaultDocument()], ['other', otherDocument()]]));
  const client = await startEvaluationGrpc(t, { source });
  const variant = messageOf(t, await client.call('EvaluationService', 'Variant', { flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } }));
  t.is(variant.variantKey, 'blue');
  const batch = messageOf(
    t,
    await client.call('EvaluationService', 'Batch', {
      requests: [
        { namespaceKey: 'other', flagKey: 'color', entityId: 'u1' },
        { namespaceKey: 'gone', flagKey: 'color', entityId: 'u1' },
        { flagKey: 'test-flag', entityId: 'u1' },
      ],
    }),
  );
  t.deepEqual(
    batch.responses.map((r: any) => r.type),
    ['VARIANT_EVALUATION_RESPONSE_TYPE', 'ERROR_EVALUATION_RESPONSE_TYPE', 'BOOLEAN_EVALUATION_RESPONSE_TYPE'],
  );
  t.deepEqual(source.loads, ['default', 'other']);
});

test('EvaluationSnapshotNamespace answers the snapshot document as messages, as a client without a version header sees it', async (t) => {
  const client = await startEvaluationGrpc(t, { source: readySource() });
  const reply = messageOf(t, await client.call('DataService', 'EvaluationSnapshotNamespace', { key: 'default', reference: 'ignored' }));
  t.deepEqual(reply.namespace, { key: 'default' });
  t.deepEqual(
    reply.flags.map((f: any) => [f.key, f.type, f.enabled]),
    [
      ['color', 'VARIANT_FLAG_TYPE', true],
      ['foo', 'VARIANT_FLAG_TYPE', true],
      ['off', 'VARIANT_FLAG_TYPE', false],
      ['plain', 'VARIANT_FLAG_TYPE', true],
      ['new-ui', 'BOOLEAN_FLAG_TYPE', false],
      ['test-flag', 'BOOLEAN_FLAG_TYPE', true],
      ['five', 'BOOLEAN_FLAG_TYPE', true],
      ['ids', 'VARIANT_FLAG_TYPE', true],
    ],
  );
  const byKey = new Map(reply.flags.map((f: any) => [f.key, f]));
  const [color, off, newUi, ids] = ['color', 'off', 'new-ui', 'ids'].map((key) => byKey.get(key) as any);
  t.is(fromTimestamp(color.createdAt), '2025-01-01T00:00:00.000Z');
  t.is(fromTimestamp(color.updatedAt), '2025-01-01T00:00:00.000Z');
  t.like(color.rules[0], { id: 'r-color', rank: 1, segmentOperator: 'OR_SEGMENT_OPERATOR' });
  t.like(color.rules[0].segments[0], { key: 'pro-users', matchType: 'ALL_SEGMENT_MATCH_TYPE' });
  t.like(color.rules[0].segments[0].constraints[0], { type: 'STRING_CONSTRAINT_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' });
  t.deepEqual(color.rules[0].distributions, [{ id: '', ruleId: '', variantId: 'v-blue', variantKey: 'blue', variantAttachment: '{"hex":"#00f"}', rollout: 100 }]);
  // COMPAT(flipt): a client that names no version sees no default variants and no entity-id constraint type.
  t.is(color.defaultVariant, null);
  t.is(off.defaultVariant, null);
  t.is(ids.rules[0].segments[0].constraints[0].type, 'UNKNOWN_CONSTRAINT_COMPARISON_TYPE');
  t.is(ids.rules[0].segments[0].matchType, 'ALL_SEGMENT_MATCH_TYPE');

  t.like(newUi.rollouts[0], { type: 'SEGMENT_ROLLOUT_TYPE', rank: 1, rule: 'segment' });
  t.like(newUi.rollouts[0].segment, { value: true, segmentOperator: 'OR_SEGMENT_OPERATOR' });
  t.is(newUi.rollouts[0].segment.segments[0].key, 'internal');
  t.like(newUi.rollouts[1], { type: 'THRESHOLD_ROLLOUT_TYPE', rank: 2, rule: 'threshold', threshold: { percentage: 50, value: true } });
});

test('EvaluationSnapshotNamespace: a namespace that does not exist is an empty document', async (t) => {
  const client = await startEvaluationGrpc(t, { source: readySource() });
  const reply = messageOf(t, await client.call('DataService', 'EvaluationSnapshotNamespace', { key: 'nowhere' }));
  t.deepEqual(reply, { namespace: { key: 'nowhere' }, flags: [] });
});

test('a token scoped to a namespace evaluates there only; a batch must stay within it', async (t) => {
  const client = await startEvaluationGrpc(t, { source: readySource(), caller: { method: 'METHOD_TOKEN', namespace: 'other', via: 'bearer' } });
  const refused = (reply: { ok: boolean; error?: { code: number } }) => !reply.ok && reply.error?.code === status.UNAUTHENTICATED;

  t.true(refused(await client.call('EvaluationService', 'Variant', { namespaceKey: 'other', flagKey: 'color', entityId: 'u1' })), 'no credential');
  t.is(messageOf(t, await client.call('EvaluationService', 'Variant', { namespaceKey: 'other', flagKey: 'color', entityId: 'u1' }, 'tok')).variantKey, 'green');
  t.true(refused(await client.call('EvaluationService', 'Variant', { flagKey: 'color', entityId: 'u1' }, 'tok')), 'empty namespace is default');
  t.true(refused(await client.call('EvaluationService', 'Boolean', { namespaceKey: 'default', flagKey: 'test-flag', entityId: 'u1' }, 'tok')));

  const inside = { namespaceKey: 'other', flagKey: 'color', entityId: 'u1' };
  t.true((await client.call('EvaluationService', 'Batch', { requests: [inside, inside] }, 'tok')).ok);
  t.true(refused(await client.call('EvaluationService', 'Batch', { requests: [inside, { flagKey: 'color', entityId: 'u1' }] }, 'tok')));

  t.true((await client.call('DataService', 'EvaluationSnapshotNamespace', { key: 'other' }, 'tok')).ok);
  t.true(refused(await client.call('DataService', 'EvaluationSnapshotNamespace', { key: 'default' }, 'tok')));
});
