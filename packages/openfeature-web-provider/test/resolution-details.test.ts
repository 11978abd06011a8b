/** The answers for one context as OpenFeature reads them: values, variants, reasons, metadata and errors. */
import { compileSnapshot, type SnapshotDocument } from '@ensign/engine';
import test from 'ava';
import { answersFor, changedFlags } from '../src/context-answers.js';
import { entityOf } from '../src/evaluation-entity.js';
import { booleanDetails, numberDetails, objectDetails, stringDetails } from '../src/resolution-details.js';
import { distribution, EVERYONE, flag, PRO, rule, shopDocument, withFlag } from './helpers/documents.js';

const SOURCE = { namespace: 'shop', version: 'tag-1' };

function answers(document: SnapshotDocument, context: Record<string, string>, now = Date.now()) {
  return answersFor(compileSnapshot(document, { hash: 'murmur3' }), document, entityOf(context), now);
}

/** An entity whose 50 % threshold on `beta` says false. */
function outsideBeta(): string {
  for (let i = 0; ; i++) {
    const answer = answers(shopDocument(), { targetingKey: `user-${i}` }).get('beta');
    if (answer?.kind === 'boolean' && !answer.result.enabled) return `user-${i}`;
  }
}

test('a targeted variant: its key, its attachment, TARGETING_MATCH and the matched segments', (t) => {
  const pro = answers(shopDocument(), { targetingKey: 'user-1', plan: 'pro' });
  t.deepEqual(stringDetails(pro.get('color'), 'none', SOURCE, 'color'), { value: 'blue', variant: 'blue', reason: 'TARGETING_MATCH', flagMetadata: { segments: 'pro', version: 'tag-1' } });
  t.like(objectDetails(pro.get('color'), {}, SOURCE, 'color'), { value: { hex: '#00f' }, variant: 'blue', reason: 'TARGETING_MATCH' });
});

test('a split over two variants says SPLIT', (t) => {
  const details = stringDetails(answers(shopDocument(), { targetingKey: 'user-1' }).get('split'), 'none', SOURCE, 'split');
  t.is(details.reason, 'SPLIT');
  t.true(details.value === 'a' || details.value === 'b');
});

test('no match serves the default variant (DEFAULT), or the caller\'s default when there is none', (t) => {
  const free = answers(shopDocument(), { targetingKey: 'user-1', plan: 'free' });
  t.like(stringDetails(free.get('color'), 'none', SOURCE, 'color'), { value: 'red', variant: 'red', reason: 'DEFAULT' });
  t.like(objectDetails(free.get('color'), {}, SOURCE, 'color'), { value: { hex: '#f00' }, reason: 'DEFAULT' });
  const plain = stringDetails(free.get('plain'), 'none', SOURCE, 'plain');
  t.deepEqual(plain, { value: 'none', reason: 'DEFAULT', flagMetadata: { version: 'tag-1' } });
});

test('a disabled variant flag says DISABLED and serves its default variant', (t) => {
  t.like(stringDetails(answers(shopDocument(), {}).get('off'), 'none', SOURCE, 'off'), { value: 'red', reason: 'DISABLED' });
});

test('boolean flags: a segment rollout is TARGETING_MATCH, a threshold SPLIT, the fall-through DEFAULT', (t) => {
  t.like(booleanDetails(answers(shopDocument(), { targetingKey: 'user-1', plan: 'pro' }).get('beta'), false, SOURCE, 'beta'), { value: true, variant: 'true', reason: 'TARGETING_MATCH', flagMetadata: { segments: 'pro', version: 'tag-1' } });
  const outside = outsideBeta();
  t.like(booleanDetails(answers(shopDocument(), { targetingKey: outside }).get('beta'), true, SOURCE, 'beta'), { value: false, reason: 'DEFAULT' });
  const threshold = withFlag(shopDocument(), 'beta', (f) => ({ ...f, rollouts: [{ type: 'THRESHOLD_ROLLOUT_TYPE', rank: 1, threshold: { percentage: 100, value: true } }] }));
  t.like(booleanDetails(answers(threshold, {}).get('beta'), false, SOURCE, 'beta'), { value: true, reason: 'SPLIT' });
});

test('a failed prerequisite says PREREQUISITE_FAILED and names the flag', (t) => {
  const outside = outsideBeta();
  t.like(stringDetails(answers(shopDocument(), { targetingKey: outside }).get('gated'), 'none', SOURCE, 'gated'), { value: 'red', reason: 'PREREQUISITE_FAILED', flagMetadata: { failedPrerequisite: 'beta' } });
  t.like(stringDetails(answers(shopDocument(), { targetingKey: 'user-1', plan: 'pro' }).get('gated'), 'none', SOURCE, 'gated'), { value: 'blue', reason: 'TARGETING_MATCH' });
});

test('errors: an unknown flag, the other type, a number, an attachment that is not JSON', (t) => {
  const all = answers(shopDocument(), {});
  t.like(booleanDetails(all.get('nope'), true, SOURCE, 'nope'), { value: true, reason: 'ERROR', errorCode: 'FLAG_NOT_FOUND', errorMessage: 'flag "shop/nope" not found' });
  t.like(booleanDetails(all.get('color'), true, SOURCE, 'color'), { value: true, errorCode: 'TYPE_MISMATCH', errorMessage: 'flag type VARIANT_FLAG_TYPE invalid' });
  t.like(stringDetails(all.get('beta'), 'x', SOURCE, 'beta'), { value: 'x', errorCode: 'TYPE_MISMATCH', errorMessage: 'flag type BOOLEAN_FLAG_TYPE invalid' });
  t.like(numberDetails(3), { value: 3, errorCode: 'TYPE_MISMATCH' });
  const broken = withFlag(shopDocument(), 'color', (f) => ({ ...f, rules: [rule(1, [EVERYONE], [distribution('blue', 100, '{not json')])] }));
  t.like(objectDetails(answers(broken, {}).get('color'), { fallback: true }, SOURCE, 'color'), { value: { fallback: true }, errorCode: 'PARSE_ERROR' });
});

test('a constraint of unknown type is a PARSE_ERROR, as on the server', (t) => {
  const odd = { ...PRO, constraints: [{ ...PRO.constraints[0]!, type: 'UNKNOWN_CONSTRAINT_COMPARISON_TYPE' as const }] };
  const document: SnapshotDocument = { namespace: { key: 'shop' }, flags: [flag('color', { rules: [rule(1, [odd], [distribution('blue', 100)])] })] };
  t.like(stringDetails(answers(document, {}).get('color'), 'none', SOURCE, 'color'), { value: 'none', errorCode: 'PARSE_ERROR', errorMessage: 'unknown constraint type' });
});

test('only flags whose answer for this context moved count as changed', (t) => {
  const before = answers(shopDocument(), { targetingKey: 'user-1', plan: 'free' });
  const elsewhere = withFlag(shopDocument(), 'color', (f) => ({ ...f, rules: [rule(1, [PRO], [distribution('green', 100)])] }));
  t.deepEqual(changedFlags(before, answers(elsewhere, { targetingKey: 'user-1', plan: 'free' })), [], 'a change for pro users does not move a free user');
  const moved = withFlag(shopDocument(), 'off', (f) => ({ ...f, enabled: true }));
  t.deepEqual(changedFlags(before, answers(moved, { targetingKey: 'user-1', plan: 'free' })), ['off']);
  const removed: SnapshotDocument = { ...shopDocument(), flags: shopDocument().flags.filter((f) => f.key !== 'plain') };
  t.deepEqual(changedFlags(before, answers(removed, { targetingKey: 'user-1', plan: 'free' })), ['plain']);
});

test('a rule outside its window does not decide whether a match was a split', (t) => {
  const now = Date.parse('2026-06-01T00:00:00Z');
  const document = withFlag(shopDocument(), 'split', (f) => ({
    ...f,
    rules: [
      rule(1, [EVERYONE], [distribution('a', 50), distribution('b', 50)], { validUntil: '2026-05-01T00:00:00Z' }),
      rule(2, [EVERYONE], [distribution('a', 100)]),
    ],
  }));
  t.like(stringDetails(answers(document, {}, now).get('split'), 'none', SOURCE, 'split'), { value: 'a', reason: 'TARGETING_MATCH' });
});
