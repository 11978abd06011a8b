/** Variant flag evaluation, reference §6.2: reasons, default variant, rules, distributions. */
import test from 'ava';
import { compileSnapshot, evaluateVariant } from '@ensign/engine';
import type { HashMode, SnapshotFlag, VariantResult } from '@ensign/engine';
import { ENV, constraint, dist, doc, rule, segment, variantFlag } from './snapshot-builders.js';

const planIs = (plan: string) => constraint('STRING_CONSTRAINT_COMPARISON_TYPE', 'plan', 'eq', plan);
const countryIs = (country: string) => constraint('STRING_CONSTRAINT_COMPARISON_TYPE', 'country', 'eq', country);
const pro = segment('pro', [planIs('pro')]);
const german = segment('german', [countryIs('de')]);
const everyone = segment('everyone');

function evaluate(flag: SnapshotFlag, entityId: string, context: Record<string, string> = {}, hash: HashMode = 'crc32') {
  return evaluateVariant(compileSnapshot(doc(flag), { hash }), { flagKey: flag.key, entityId, context }, ENV);
}

function expectResult(t: { deepEqual: (a: unknown, b: unknown) => void }, actual: unknown, expected: VariantResult) {
  t.deepEqual(actual, expected);
}

test('no rules and no default variant: UNKNOWN, no match, empty variant', (t) => {
  expectResult(t, evaluate(variantFlag('f', []), 'e'), {
    match: false,
    reason: 'UNKNOWN_EVALUATION_REASON',
    variantKey: '',
    variantAttachment: '',
    segmentKeys: [],
  });
});

test('no rules with a default variant: DEFAULT with the default variant and its attachment', (t) => {
  const flag = variantFlag('f', [], { defaultVariant: { key: 'red', attachment: '{"c":1}' } });
  expectResult(t, evaluate(flag, 'e'), {
    match: false,
    reason: 'DEFAULT_EVALUATION_REASON',
    variantKey: 'red',
    variantAttachment: '{"c":1}',
    segmentKeys: [],
  });
});

test('a disabled flag is FLAG_DISABLED before any rule, keeping the default variant', (t) => {
  const flag = variantFlag('f', [rule(1, [everyone], [dist('blue', 100)])], {
    enabled: false,
    defaultVariant: { key: 'red', attachment: 'att' },
  });
  expectResult(t, evaluate(flag, 'e'), {
    match: false,
    reason: 'FLAG_DISABLED_EVALUATION_REASON',
    variantKey: 'red',
    variantAttachment: 'att',
    segmentKeys: [],
  });
  const bare = variantFlag('f', [rule(1, [everyone], [dist('blue', 100)])], { enabled: false });
  expectResult(t, evaluate(bare, 'e'), {
    match: false,
    reason: 'FLAG_DISABLED_EVALUATION_REASON',
    variantKey: '',
    variantAttachment: '',
    segmentKeys: [],
  });
});

test('no rule matches: DEFAULT with the default variant, or UNKNOWN without', (t) => {
  const rules = [rule(1, [pro], [dist('blue', 100)])];
  expectResult(t, evaluate(variantFlag('f', rules, { defaultVariant: { key: 'red' } }), 'e', { plan: 'free' }), {
    match: false,
    reason: 'DEFAULT_EVALUATION_REASON',
    variantKey: 'red',
    variantAttachment: '',
    segmentKeys: [],
  });
  expectResult(t, evaluate(variantFlag('f', rules), 'e', { plan: 'free' }), {
    match: false,
    reason: 'UNKNOWN_EVALUATION_REASON',
    variantKey: '',
    variantAttachment: '',
    segmentKeys: [],
  });
});

test('a matched rule with a 100% distribution returns that variant and attachment with MATCH', (t) => {
  const flag = variantFlag('f', [rule(1, [pro], [dist('blue', 100, '{"x":true}')])], { defaultVariant: { key: 'red' } });
  expectResult(t, evaluate(flag, 'e', { plan: 'pro' }), {
    match: true,
    reason: 'MATCH_EVALUATION_REASON',
    variantKey: 'blue',
    variantAttachment: '{"x":true}',
    segmentKeys: ['pro'],
  });
});

test('a matched rule without distributions is a MATCH that keeps the default variant (or "")', (t) => {
  const withDefault = variantFlag('f', [rule(1, [pro])], { defaultVariant: { key: 'red', attachment: 'a' } });
  expectResult(t, evaluate(withDefault, 'e', { plan: 'pro' }), {
    match: true,
    reason: 'MATCH_EVALUATION_REASON',
    variantKey: 'red',
    variantAttachment: 'a',
    segmentKeys: ['pro'],
  });
  expectResult(t, evaluate(variantFlag('f', [rule(1, [pro])]), 'e', { plan: 'pro' }), {
    match: true,
    reason: 'MATCH_EVALUATION_REASON',
    variantKey: '',
    variantAttachment: '',
    segmentKeys: ['pro'],
  });
});

test('distributions with rollout 0 (or below) are dropped, so a lone 0% distribution means MATCH without variant', (t) => {
  const flag = variantFlag('f', [rule(1, [everyone], [dist('never', 0), dist('neg', -5)])]);
  expectResult(t, evaluate(flag, 'e'), {
    match: true,
    reason: 'MATCH_EVALUATION_REASON',
    variantKey: '',
    variantAttachment: '',
    segmentKeys: ['everyone'],
  });
  // crc32("foo1") % 1000 = 244: with the 0% distribution dropped, bounds are [500, 1000].
  const foo = variantFlag('foo', [rule(1, [everyone], [dist('zero', 0), dist('boz', 50), dist('booz', 50)])]);
  t.like(evaluate(foo, '1'), { match: true, variantKey: 'boz' });
  t.like(evaluate(foo, '2'), { match: true, variantKey: 'booz' });
});

test('a bucket above a sum below 100% ends the evaluation: no match, reason unchanged, no further rule', (t) => {
  // crc32("foo2") % 1000 = 934, above the 10% (100-bucket) distribution; rule 2 would match everything.
  const flag = variantFlag(
    'foo',
    [rule(1, [everyone], [dist('tenth', 10)]), rule(2, [everyone], [dist('all', 100)])],
    { defaultVariant: { key: 'red', attachment: 'r' } },
  );
  expectResult(t, evaluate(flag, '2'), {
    match: false,
    reason: 'DEFAULT_EVALUATION_REASON',
    variantKey: 'red',
    variantAttachment: 'r',
    segmentKeys: ['everyone'],
  });
  const noDefault = variantFlag('foo', [rule(1, [everyone], [dist('tenth', 10)]), rule(2, [everyone], [dist('all', 100)])]);
  t.like(evaluate(noDefault, '2'), { match: false, reason: 'UNKNOWN_EVALUATION_REASON', variantKey: '' });
  // The bucket inside the sum still matches: crc32("foo1") % 1000 = 244 < 250.
  t.like(evaluate(variantFlag('foo', [rule(1, [everyone], [dist('quarter', 25)])]), '1'), { match: true, variantKey: 'quarter' });
});

test('bucket bounds use float32 arithmetic, as Flipt does', (t) => {
  // float32(14.99999999) is 15, so the first distribution covers buckets 0..149 (float64 would give 149).
  // Entity e60 lands in bucket 149 of flag `split` under crc32; e2646 in bucket 150.
  const split = variantFlag('split', [rule(1, [everyone], [dist('a', 14.99999999), dist('b', 85.00000001)])]);
  t.like(evaluate(split, 'e60'), { variantKey: 'a' });
  t.like(evaluate(split, 'e2646'), { variantKey: 'b' });
  // float32(0.7) * float32(10) rounds to 7 in float32 (6.99999… in float64 of the float32 input).
  // Entity e2453 lands in bucket 6, e757 in bucket 7.
  const small = variantFlag('split', [rule(1, [everyone], [dist('a', 0.7), dist('b', 99.3)])]);
  t.like(evaluate(small, 'e2453'), { variantKey: 'a' });
  t.like(evaluate(small, 'e757'), { variantKey: 'b' });
});

test('rules are tried in rank order, whatever their order in the document', (t) => {
  const flag = variantFlag('f', [rule(2, [everyone], [dist('second', 100)]), rule(1, [pro], [dist('first', 100)])]);
  t.like(evaluate(flag, 'e', { plan: 'pro' }), { variantKey: 'first', segmentKeys: ['pro'] });
  t.like(evaluate(flag, 'e', { plan: 'free' }), { variantKey: 'second', segmentKeys: ['everyone'] });
});

test('OR needs one matching segment; segmentKeys lists the matched ones in rule order', (t) => {
  const flag = variantFlag('f', [rule(1, [pro, german, everyone], [dist('v', 100)], 'OR')]);
  t.like(evaluate(flag, 'e', { plan: 'pro', country: 'fr' }), { match: true, segmentKeys: ['pro', 'everyone'] });
  t.like(evaluate(flag, 'e', { plan: 'pro', country: 'de' }), { segmentKeys: ['pro', 'german', 'everyone'] });
  const strict = variantFlag('f', [rule(1, [pro, german], [dist('v', 100)], 'OR')]);
  t.like(evaluate(strict, 'e', { country: 'de' }), { match: true, segmentKeys: ['german'] });
  t.like(evaluate(strict, 'e', { plan: 'free', country: 'fr' }), { match: false, segmentKeys: [] });
});

test('AND needs every segment; segmentKeys lists them all', (t) => {
  const flag = variantFlag('f', [rule(1, [pro, german], [dist('v', 100)], 'AND')]);
  t.like(evaluate(flag, 'e', { plan: 'pro', country: 'de' }), { match: true, segmentKeys: ['pro', 'german'] });
  t.like(evaluate(flag, 'e', { plan: 'pro', country: 'fr' }), { match: false, reason: 'UNKNOWN_EVALUATION_REASON', segmentKeys: [] });
  t.like(evaluate(flag, 'e', { plan: 'free', country: 'de' }), { match: false, segmentKeys: [] });
});

test('a segment used twice in a rule counts once (Flipt keys a rule\'s segments by key)', (t) => {
  const flag = variantFlag('f', [rule(1, [pro, pro], [dist('v', 100)], 'AND')]);
  t.like(evaluate(flag, 'e', { plan: 'pro' }), { match: true, segmentKeys: ['pro'] });
});

test('ALL needs every constraint, ANY needs one; both match with no constraints', (t) => {
  const both = [planIs('pro'), countryIs('de')];
  const all = variantFlag('f', [rule(1, [segment('s', both, 'ALL')], [dist('v', 100)])]);
  const any = variantFlag('f', [rule(1, [segment('s', both, 'ANY')], [dist('v', 100)])]);
  t.like(evaluate(all, 'e', { plan: 'pro', country: 'de' }), { match: true });
  t.like(evaluate(all, 'e', { plan: 'pro', country: 'fr' }), { match: false });
  t.like(evaluate(any, 'e', { plan: 'pro', country: 'fr' }), { match: true });
  t.like(evaluate(any, 'e', { plan: 'free', country: 'de' }), { match: true });
  t.like(evaluate(any, 'e', { plan: 'free', country: 'fr' }), { match: false });
  for (const match of ['ALL', 'ANY'] as const) {
    const empty = variantFlag('f', [rule(1, [segment('s', [], match)], [dist('v', 100)])]);
    t.like(evaluate(empty, 'e'), { match: true, variantKey: 'v' }, match);
  }
});

test('a rule without segments is ignored', (t) => {
  const flag = variantFlag('f', [rule(1, [], [dist('ghost', 100)]), rule(2, [everyone], [dist('real', 100)])]);
  t.like(evaluate(flag, 'e'), { variantKey: 'real' });
});

test('a constraint of unknown type fails the evaluation with PARSE_ERROR when reached', (t) => {
  const unknown = constraint('UNKNOWN_CONSTRAINT_COMPARISON_TYPE', 'p', 'eq', 'x');
  const flag = variantFlag('f', [rule(1, [segment('s', [unknown])], [dist('v', 100)])]);
  t.deepEqual(evaluate(flag, 'e', { p: 'x' }), { errorCode: 'PARSE_ERROR', message: 'unknown constraint type' });
  // In an ALL segment, a failing constraint before it stops the segment first (as in Flipt).
  const shielded = variantFlag('f', [rule(1, [segment('s', [planIs('pro'), unknown])], [dist('v', 100)])]);
  t.like(evaluate(shielded, 'e', { plan: 'free' }), { match: false });
  t.like(evaluate(shielded, 'e', { plan: 'pro' }), { errorCode: 'PARSE_ERROR' });
  // Every segment of a rule is evaluated, so an AND rule whose first segment fails still reaches it.
  const later = variantFlag('f', [rule(1, [pro, segment('u', [unknown])], [dist('v', 100)], 'AND')]);
  t.like(evaluate(later, 'e', { plan: 'free' }), { errorCode: 'PARSE_ERROR' });
  // A disabled flag never reaches its rules.
  const disabled = variantFlag('f', [rule(1, [segment('s', [unknown])])], { enabled: false });
  t.like(evaluate(disabled, 'e'), { reason: 'FLAG_DISABLED_EVALUATION_REASON' });
});

test('unknown flag is FLAG_NOT_FOUND naming the namespace; a boolean flag is TYPE_MISMATCH', (t) => {
  const compiled = compileSnapshot(
    {
      namespace: { key: 'team' },
      flags: [
        {
          ...variantFlag('b', []),
          type: 'BOOLEAN_FLAG_TYPE',
        },
      ],
    },
    { hash: 'murmur3' },
  );
  t.deepEqual(evaluateVariant(compiled, { flagKey: 'nope', entityId: 'e', context: {} }, ENV), {
    errorCode: 'FLAG_NOT_FOUND',
    message: 'flag "team/nope" not found',
  });
  t.deepEqual(evaluateVariant(compiled, { flagKey: 'b', entityId: 'e', context: {} }, ENV), {
    errorCode: 'TYPE_MISMATCH',
    message: 'flag type BOOLEAN_FLAG_TYPE invalid',
  });
});

test('segmentKeys arrays handed out are frozen, so a caller cannot corrupt a later result', (t) => {
  const compiled = compileSnapshot(doc(variantFlag('f', [rule(1, [everyone], [dist('v', 100)])])), { hash: 'murmur3' });
  const first = evaluateVariant(compiled, { flagKey: 'f', entityId: 'e', context: {} }, ENV) as VariantResult;
  t.throws(() => first.segmentKeys.push('x'));
  t.deepEqual((evaluateVariant(compiled, { flagKey: 'f', entityId: 'e', context: {} }, ENV) as VariantResult).segmentKeys, ['everyone']);
});
