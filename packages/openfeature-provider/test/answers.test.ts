/**
 * What the provider answers through OpenFeature's client, from a bootstrap snapshot: Flipt's
 * values (variant key, attachment, boolean), the default variant honoured, OpenFeature's reasons
 * and error codes, and the flag metadata.
 */
import test from 'ava';
import { defaultDocument, flag, segment } from '@ensign/testkit/snapshot-fixtures';
import type { SnapshotDocument } from '@ensign/engine';
import { ErrorCode, OpenFeature } from '@openfeature/server-sdk';
import { EnsignProvider, PREREQUISITE_FAILED } from '../src/index.js';

/** The tests' document: testkit's `default` namespace, a flag behind a prerequisite, and a variant flag with a number key. */
function document(): SnapshotDocument {
  const doc = defaultDocument();
  doc.flags.push(
    flag('gated', { prerequisites: [{ flagKey: 'test-flag', enabled: false }], defaultVariant: { id: 'v-off', key: 'off', attachment: '' } }),
    flag('limit', {
      rules: [{ id: 'r-limit', rank: 1, segmentOperator: 'OR_SEGMENT_OPERATOR', segments: [segment('everyone')], distributions: [{ id: '', ruleId: '', variantId: 'v-10', variantKey: '10', variantAttachment: '', rollout: 100 }] }],
    }),
  );
  return doc;
}

let domains = 0;
async function client(bootstrap: SnapshotDocument | object = document()) {
  const domain = `answers-${++domains}`;
  await OpenFeature.setProviderAndWait(domain, new EnsignProvider({ bootstrap: bootstrap as SnapshotDocument, hash: 'crc32' }));
  return OpenFeature.getClient(domain);
}

test('a variant flag: the variant key, its attachment, the matched segments; a single 100 % distribution is TARGETING_MATCH', async (t) => {
  const features = await client();
  const details = await features.getStringDetails('color', 'none', { targetingKey: 'u1', plan: 'pro' });
  t.like(details, { value: 'blue', variant: 'blue', reason: 'TARGETING_MATCH', flagMetadata: { segments: 'pro-users' } });
  t.is(details.errorCode, undefined);
  t.deepEqual(await features.getObjectValue('color', {}, { targetingKey: 'u1', plan: 'pro' }), { hex: '#00f' });
});

test('the default variant is honoured: no rule matched is DEFAULT with it, a disabled flag is DISABLED with it', async (t) => {
  const features = await client();
  t.like(await features.getStringDetails('color', 'none', { targetingKey: 'u1', plan: 'free' }), { value: 'red', variant: 'red', reason: 'DEFAULT' });
  t.deepEqual(await features.getObjectValue('color', {}, { targetingKey: 'u1' }), { hex: '#f00' });
  t.like(await features.getStringDetails('off', 'none', { targetingKey: 'u1' }), { value: 'red', variant: 'red', reason: 'DISABLED' });
});

test('a variant flag without a variant to serve answers the caller\'s default value', async (t) => {
  const features = await client();
  const details = await features.getStringDetails('plain', 'fallback', { targetingKey: 'u1' });
  t.like(details, { value: 'fallback', reason: 'DEFAULT' });
  t.is(details.variant, undefined);
  t.deepEqual(await features.getObjectValue('foo', { none: true }, { targetingKey: '1' }), { none: true }, 'a variant without an attachment');
});

test('a split over several variants is SPLIT, with Flipt\'s buckets under crc32', async (t) => {
  const features = await client();
  t.like(await features.getStringDetails('foo', 'none', { targetingKey: '1' }), { value: 'boz', reason: 'SPLIT', flagMetadata: { segments: 'everyone' } });
  t.like(await features.getStringDetails('foo', 'none', { targetingKey: '2' }), { value: 'booz', reason: 'SPLIT' });
});

test('boolean flags: a segment rollout is TARGETING_MATCH, a threshold SPLIT, the fall-through DEFAULT', async (t) => {
  const features = await client();
  t.like(await features.getBooleanDetails('new-ui', false, { targetingKey: 'u1', email: 'ann@corp.example' }), { value: true, variant: 'true', reason: 'TARGETING_MATCH', flagMetadata: { segments: 'internal' } });
  const reasons = new Set<string | undefined>();
  for (let i = 0; i < 40; i++) {
    const details = await features.getBooleanDetails('new-ui', true, { targetingKey: `user-${i}` });
    reasons.add(`${details.value}:${details.reason}`);
  }
  t.deepEqual([...reasons].sort(), ['false:DEFAULT', 'true:SPLIT']);
});

test('a failed prerequisite is PREREQUISITE_FAILED, naming the parent in the metadata', async (t) => {
  const features = await client();
  const details = await features.getStringDetails('gated', 'none', { targetingKey: '1' });
  t.like(details, { value: 'off', variant: 'off', reason: PREREQUISITE_FAILED, flagMetadata: { failedPrerequisite: 'test-flag' } });
});

test('numbers: a numeric variant key is a number; any other is TYPE_MISMATCH', async (t) => {
  const features = await client();
  t.like(await features.getNumberDetails('limit', 1, { targetingKey: 'u1' }), { value: 10, variant: '10', reason: 'TARGETING_MATCH' });
  t.like(await features.getNumberDetails('color', 1, { targetingKey: 'u1', plan: 'pro' }), { value: 1, reason: 'ERROR', errorCode: ErrorCode.TYPE_MISMATCH });
});

test('errors: FLAG_NOT_FOUND, TYPE_MISMATCH both ways, PARSE_ERROR for a constraint of unknown type, with the caller\'s default', async (t) => {
  const doc = document();
  doc.flags.push(
    flag('odd', {
      rules: [
        {
          id: 'r-odd',
          rank: 1,
          segmentOperator: 'OR_SEGMENT_OPERATOR',
          segments: [{ key: 'odd', name: '', description: '', matchType: 'ALL_SEGMENT_MATCH_TYPE', constraints: [{ id: 'c', type: 'UNKNOWN_CONSTRAINT_COMPARISON_TYPE', property: 'x', operator: 'eq', value: 'y' }] }],
          distributions: [],
        },
      ],
    }),
  );
  const features = await client(doc);
  t.like(await features.getBooleanDetails('missing', true, { targetingKey: 'u1' }), { value: true, reason: 'ERROR', errorCode: ErrorCode.FLAG_NOT_FOUND });
  t.like(await features.getBooleanDetails('color', true, { targetingKey: 'u1' }), { value: true, errorCode: ErrorCode.TYPE_MISMATCH });
  t.like(await features.getStringDetails('five', 'x', { targetingKey: 'u1' }), { value: 'x', errorCode: ErrorCode.TYPE_MISMATCH });
  t.like(await features.getStringDetails('odd', 'x', { targetingKey: 'u1' }), { value: 'x', errorCode: ErrorCode.PARSE_ERROR });
  const attachment = document();
  attachment.flags.push(flag('broken', { defaultVariant: { id: 'v', key: 'v', attachment: '{not json' } }));
  t.like(await (await client(attachment)).getObjectDetails('broken', {}, { targetingKey: 'u1' }), { value: {}, errorCode: ErrorCode.PARSE_ERROR });
});

test('the snapshot\'s revision and digest are in every answer\'s metadata when the snapshot says them', async (t) => {
  const features = await client({ ...document(), revision: 12, hash: 'crc32', digest: 'a'.repeat(40) });
  t.like(await features.getBooleanDetails('five', false, { targetingKey: 'u1' }), { flagMetadata: { revision: 12, version: 'a'.repeat(40) } });
});

test('without a targetingKey the entity is "": the same answer every time, as POST /evaluate/v1 gives for it', async (t) => {
  const features = await client();
  const values = new Set<string>();
  for (let i = 0; i < 20; i++) values.add(await features.getStringValue('foo', 'none'));
  t.is(values.size, 1);
});
