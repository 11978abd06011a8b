import { decodeFliptDocuments, type Flag, type Namespace, type Segment, type Variant } from '@ensign/core';
import test from 'ava';
import { copiedText, copyDocument, copyTargets, existsMessage, previewIsCopyOnly, refusedAsExisting } from '../src/lib/copy-document.js';
import type { ImportSummary, KeyChanges } from '../src/lib/document-import.js';

const T = '2024-05-01T10:00:00Z';

const variant = (key: string, attachment = ''): Variant => ({ id: `id-${key}`, namespaceKey: 'staging', flagKey: 'checkout', key, name: key.toUpperCase(), description: `about ${key}`, attachment, createdAt: T, updatedAt: T });

const blue = variant('blue', '{"z":1,"a":[true,null]}');
const green = variant('green');
const FLAG: Flag = {
  namespaceKey: 'staging',
  key: 'checkout',
  name: 'Checkout',
  description: 'The new checkout',
  enabled: false,
  type: 'VARIANT_FLAG_TYPE',
  createdAt: T,
  updatedAt: T,
  variants: [blue, green],
  defaultVariant: green,
  metadata: { team: 'payments', owners: ['ana'] },
};

const SEGMENT: Segment = {
  namespaceKey: 'staging',
  key: 'beta',
  name: 'Beta testers',
  description: 'Asked to try things first',
  matchType: 'ANY_MATCH_TYPE',
  createdAt: T,
  updatedAt: T,
  constraints: [
    { id: 'c1', namespaceKey: 'staging', segmentKey: 'beta', type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'isoneof', value: '["pro","team"]', description: 'Paying', createdAt: T, updatedAt: T },
    { id: 'c2', namespaceKey: 'staging', segmentKey: 'beta', type: 'BOOLEAN_COMPARISON_TYPE', property: 'staff', operator: 'true', value: '', description: '', createdAt: T, updatedAt: T },
  ],
};

/** The document as the import route reads it, imported into `production`. */
const decoded = (text: string) => decodeFliptDocuments([{ ...(JSON.parse(text) as Record<string, unknown>), namespace: 'production' }], { segmentExists: () => false })[0]!;

test('a flag is copied with its variants, default variant, state and metadata, and nothing else', (t) => {
  const text = copyDocument({ kind: 'flag', flag: FLAG });
  const value = JSON.parse(text) as Record<string, unknown>;
  t.false('namespace' in value, 'names no namespace, so it imports into the one it is sent to');
  t.is(value['version'], '1.4', 'a version that has default variants and metadata');
  t.false('segments' in value);
  const doc = decoded(text);
  t.deepEqual(doc.segments, []);
  t.deepEqual(doc.flags, [
    {
      key: 'checkout',
      name: 'Checkout',
      type: 'VARIANT_FLAG_TYPE',
      description: 'The new checkout',
      enabled: false,
      metadata: { owners: ['ana'], team: 'payments' },
      variants: [
        { key: 'blue', name: 'BLUE', description: 'about blue', default: false, attachment: { a: [true, null], z: 1 } },
        { key: 'green', name: 'GREEN', description: 'about green', default: true, attachment: undefined },
      ],
      rules: [],
      rollouts: [],
    },
  ]);
});

test('a flag without a default variant or metadata, and a boolean flag, copy as they are', (t) => {
  const { defaultVariant: _, metadata: __, ...plain } = FLAG;
  const doc = decoded(copyDocument({ kind: 'flag', flag: { ...plain, enabled: true } }));
  t.true(doc.flags[0]!.enabled);
  t.deepEqual(doc.flags[0]!.metadata, {});
  t.deepEqual(doc.flags[0]!.variants.map((v) => v.default), [false, false]);

  const boolean = decoded(copyDocument({ kind: 'flag', flag: { ...plain, key: 'banner', type: 'BOOLEAN_FLAG_TYPE', variants: [] } }));
  t.is(boolean.flags[0]!.type, 'BOOLEAN_FLAG_TYPE');
  t.deepEqual(boolean.flags[0]!.rollouts, [], 'rollouts are not copied');
});

test('a segment is copied with its constraints in order, and no flag', (t) => {
  const doc = decoded(copyDocument({ kind: 'segment', segment: SEGMENT }));
  t.deepEqual(doc.flags, []);
  t.deepEqual(doc.segments, [
    {
      key: 'beta',
      name: 'Beta testers',
      description: 'Asked to try things first',
      matchType: 'ANY_MATCH_TYPE',
      constraints: [
        { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'isoneof', value: '["pro","team"]', description: 'Paying' },
        { type: 'BOOLEAN_COMPARISON_TYPE', property: 'staff', operator: 'true', value: '', description: '' },
      ],
    },
  ]);
});

const ns = (key: string, name = key): Namespace => ({ key, name, description: '', protected: false, createdAt: T, updatedAt: T });

test('the source is not offered as a target', (t) => {
  t.deepEqual(
    copyTargets([ns('default'), ns('staging'), ns('production')], 'staging').map((n) => n.key),
    ['default', 'production'],
  );
  t.deepEqual(copyTargets([ns('staging')], 'staging'), [], 'nowhere to copy to');
});

const none: KeyChanges = { created: [], updated: [], deleted: [], unchanged: [] };
const summary = (flags: Partial<KeyChanges>, segments: Partial<KeyChanges> = {}): ImportSummary => ({ namespace: 'production', flags: { ...none, ...flags }, segments: { ...none, ...segments } });

test('only a preview that creates the one key and touches nothing else is written', (t) => {
  t.true(previewIsCopyOnly(summary({ created: ['checkout'] }), 'flag', 'checkout'));
  t.true(previewIsCopyOnly(summary({}, { created: ['beta'] }), 'segment', 'beta'));
  t.false(previewIsCopyOnly(summary({ created: ['checkout'] }), 'segment', 'checkout'), 'the wrong kind');
  t.false(previewIsCopyOnly(summary({ created: ['other'] }), 'flag', 'checkout'));
  t.false(previewIsCopyOnly(summary({ created: ['checkout'], deleted: ['old'] }), 'flag', 'checkout'), 'something deleted');
  t.false(previewIsCopyOnly(summary({ unchanged: ['checkout'] }), 'flag', 'checkout'), 'skipped, not created');
  t.false(previewIsCopyOnly(summary({ created: ['checkout'] }, { updated: ['beta'] }), 'flag', 'checkout'), 'a segment changed');
  t.false(previewIsCopyOnly(summary({}), 'flag', 'checkout'), 'nothing created');
});

test('the import refusing a key that is already there is told apart from other refusals', (t) => {
  const refusal = 'document 1 (namespace "production"): flags[0].key: flag "checkout" already exists in namespace "production"';
  t.true(refusedAsExisting(refusal, 'flag', 'checkout'));
  t.false(refusedAsExisting(refusal, 'flag', 'check'), 'another key');
  t.false(refusedAsExisting(refusal, 'segment', 'checkout'), 'another kind');
  t.true(refusedAsExisting('document 1 (namespace "p"): segments[0].key: segment "beta" already exists in namespace "p"', 'segment', 'beta'));
  t.false(refusedAsExisting('document 1: flags[0].name: must not be empty', 'flag', 'checkout'));
});

test('a taken key names the namespace and the key, and links to what holds it', (t) => {
  t.deepEqual(existsMessage('flag', 'checkout', ns('production', 'Production')), [
    'The namespace “Production” already has a flag with the key “checkout”, so nothing was copied. ',
    { text: 'Open the existing flag', to: { kind: 'flag', ns: 'production', key: 'checkout' } },
    ', or choose another namespace.',
  ]);
  const segment = existsMessage('segment', 'beta', ns('qa', ''));
  t.is(segment[0], 'The namespace “qa” already has a segment with the key “beta”, so nothing was copied. ');
  t.deepEqual(segment[1], { text: 'Open the existing segment', to: { kind: 'segment', ns: 'qa', key: 'beta' } });
  t.is(copiedText('segment', 'beta', ns('qa', 'QA')), 'Segment “beta” was copied to the namespace “QA”.');
});
