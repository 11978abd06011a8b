/**
 * Consistent bucketing: Flipt's crc32 vectors, pinned murmur3 vectors, the spread of 100,000 random
 * entities over a 30/70 split, and stability of one entity's answer.
 */
import test from 'ava';
import CRC32 from 'crc-32';
import murmurhash from 'murmurhash';
import { compileSnapshot, evaluateBoolean, evaluateVariant } from '@ensign/engine';
import type { HashMode, VariantResult } from '@ensign/engine';
import { ENV, booleanFlag, dist, doc, prng, randomId, rule, segment, threshold, variantFlag } from './snapshot-builders.js';

const everyone = segment('everyone');
/** One 1000-way split per bucket range: variant `b<i>` covers buckets [10i, 10i+10). */
const hundredths = Array.from({ length: 100 }, (_, i) => dist(`b${i}`, 1));

/** The variant bucket of (flag, entity), read back through a 100-way 1% split (bucket / 10). */
function bucketDecile(hash: HashMode, flagKey: string, entityId: string): string {
  const compiled = compileSnapshot(doc(variantFlag(flagKey, [rule(1, [everyone], hundredths)])), { hash });
  return (evaluateVariant(compiled, { flagKey, entityId, context: {} }, ENV) as VariantResult).variantKey;
}

/** Whether the threshold bucket of (flag, entity) is below `percentage`. */
function thresholdHit(hash: HashMode, flagKey: string, entityId: string, percentage: number): boolean {
  const compiled = compileSnapshot(doc(booleanFlag(flagKey, [threshold(1, percentage)], false)), { hash });
  return (evaluateBoolean(compiled, { flagKey, entityId, context: {} }, ENV) as { enabled: boolean }).enabled;
}

/** The exact threshold bucket, found as the smallest integer percentage that matches. */
function thresholdBucket(hash: HashMode, flagKey: string, entityId: string): number {
  for (let p = 1; p <= 100; p++) if (thresholdHit(hash, flagKey, entityId, p)) return p - 1;
  return -1;
}

test('crc32 reproduces Flipt\'s variant vector: foo/1 → bucket 244 → boz, foo/2 → 934 → booz', (t) => {
  const compiled = compileSnapshot(doc(variantFlag('foo', [rule(1, [everyone], [dist('boz', 50), dist('booz', 50)])])), {
    hash: 'crc32',
  });
  const variant = (entityId: string) => (evaluateVariant(compiled, { flagKey: 'foo', entityId, context: {} }, ENV) as VariantResult).variantKey;
  t.is(variant('1'), 'boz');
  t.is(variant('2'), 'booz');
  t.is(bucketDecile('crc32', 'foo', '1'), 'b24');
  t.is(bucketDecile('crc32', 'foo', '2'), 'b93');
});

test('crc32 reproduces Flipt\'s threshold vector: test-entity/test-flag → 65', (t) => {
  t.is(thresholdBucket('crc32', 'test-flag', 'test-entity'), 65);
});

/** [flag, entity, variant bucket, threshold bucket], computed with the murmurhash package (v3, seed 0). */
const MURMUR3_VECTORS: Array<[string, string, number, number]> = [
  ['foo', '1', 367, 33],
  ['foo', '2', 902, 20],
  ['checkout', 'user-1', 728, 45],
  ['checkout', 'user-2', 983, 49],
  ['test-flag', 'test-entity', 803, 57],
  ['flag', 'ünïcødé-😀', 930, 67],
];

/** The same pairs under crc32, for the non-ASCII case in particular. */
const CRC32_VECTORS: Array<[string, string, number, number]> = [
  ['foo', '1', 244, 63],
  ['foo', '2', 934, 5],
  ['checkout', 'user-1', 118, 69],
  ['test-flag', 'test-entity', 745, 65],
  ['flag', 'ünïcødé-😀', 896, 77],
];

for (const [hash, vectors] of [['murmur3', MURMUR3_VECTORS], ['crc32', CRC32_VECTORS]] as const) {
  for (const [flagKey, entityId, bucket, thresholdN] of vectors) {
    test(`${hash} vector ${flagKey}/${entityId}: variant bucket ${bucket}, threshold bucket ${thresholdN}`, (t) => {
      t.is(bucketDecile(hash, flagKey, entityId), `b${Math.floor(bucket / 10)}`);
      t.is(thresholdBucket(hash, flagKey, entityId), thresholdN);
    });
  }
}

test('murmur3 and crc32 place the same entity differently (the mode really switches the hash)', (t) => {
  t.not(bucketDecile('murmur3', 'foo', '1'), bucketDecile('crc32', 'foo', '1'));
});

test('long entity ids (beyond the scratch buffer) hash like short ones would', (t) => {
  const long = 'x'.repeat(5000) + 'ü'.repeat(3000);
  const a = bucketDecile('murmur3', 'foo', long);
  t.is(bucketDecile('murmur3', 'foo', long), a);
  t.is(bucketDecile('murmur3', 'foo', '1'), 'b36');
});

for (const hash of ['murmur3', 'crc32'] as const) {
  test(`${hash}: 100,000 random entities split 30/70 within ±1%`, (t) => {
    const compiled = compileSnapshot(doc(variantFlag('split', [rule(1, [everyone], [dist('thirty', 30), dist('seventy', 70)])])), {
      hash,
    });
    const next = prng(hash === 'crc32' ? 3 : 30);
    let thirty = 0;
    const total = 100_000;
    for (let i = 0; i < total; i++) {
      const r = evaluateVariant(compiled, { flagKey: 'split', entityId: randomId(next), context: {} }, ENV) as VariantResult;
      if (r.variantKey === 'thirty') thirty++;
    }
    const share = thirty / total;
    t.true(share > 0.29 && share < 0.31, `share of "thirty" was ${share}`);
  });

  test(`${hash}: one entity gets the same answer on 1,000 evaluations and from a fresh compile`, (t) => {
    const build = () =>
      compileSnapshot(doc(variantFlag('split', [rule(1, [everyone], [dist('a', 33.3), dist('b', 33.3), dist('c', 33.4)])])), { hash });
    const compiled = build();
    const input = { flagKey: 'split', entityId: 'stable-entity-42', context: {} };
    const first = evaluateVariant(compiled, input, ENV) as VariantResult;
    for (let i = 0; i < 1000; i++) {
      // Interleave other entities so that any state kept between calls would show.
      evaluateVariant(compiled, { ...input, entityId: `other-${i}-${'ü'.repeat(i % 5)}` }, ENV);
      t.deepEqual(evaluateVariant(compiled, input, ENV), first);
    }
    t.deepEqual(evaluateVariant(build(), input, ENV), first);
  });
}

test('two compiles of the same document agree on many entities, for variant and boolean flags', (t) => {
  const document = doc(
    variantFlag('v', [rule(1, [everyone], [dist('a', 20), dist('b', 30), dist('c', 50)])]),
    booleanFlag('b', [threshold(1, 37)], false),
  );
  for (const hash of ['murmur3', 'crc32'] as const) {
    const one = compileSnapshot(document, { hash });
    const two = compileSnapshot(structuredClone(document), { hash });
    const next = prng(11);
    for (let i = 0; i < 5000; i++) {
      const entityId = randomId(next);
      t.deepEqual(evaluateVariant(one, { flagKey: 'v', entityId, context: {} }, ENV), evaluateVariant(two, { flagKey: 'v', entityId, context: {} }, ENV));
      t.deepEqual(evaluateBoolean(one, { flagKey: 'b', entityId, context: {} }, ENV), evaluateBoolean(two, { flagKey: 'b', entityId, context: {} }, ENV));
    }
  }
});

/** 1000 distributions of 0.1%: the variant key names the exact bucket. */
const perBucket = Array.from({ length: 1000 }, (_, i) => dist(`k${i}`, 0.1));

test('buckets equal the hash of the UTF-8 concatenation, for short, long, non-ASCII and malformed ids', (t) => {
  const encode = (s: string) => new TextEncoder().encode(s);
  const ids = ['', 'a', '12345', 'user-123456789012', 'x'.repeat(17), 'x'.repeat(600), 'ünï', 'ü'.repeat(40), '😀', 'a\ud800b', '\udc00', 'é'.repeat(300)];
  for (const hash of ['murmur3', 'crc32'] as const) {
    const compiled = compileSnapshot(doc(variantFlag('flag-ü', [rule(1, [everyone], perBucket)])), { hash });
    for (const entityId of ids) {
      const bytes = encode(`flag-ü${entityId}`);
      const expected = hash === 'murmur3' ? murmurhash(bytes, 0) % 1000 : (CRC32.buf(bytes, 0) >>> 0) % 1000;
      const got = (evaluateVariant(compiled, { flagKey: 'flag-ü', entityId, context: {} }, ENV) as VariantResult).variantKey;
      t.is(got, `k${expected}`, `${hash} ${JSON.stringify(entityId)}`);
    }
  }
});

test('one entity hashed for several flags in a row, variant and threshold interleaved, buckets as if hashed alone', (t) => {
  const encode = (s: string) => new TextEncoder().encode(s);
  const flagKeys = ['a', 'flag-ü', 'x'.repeat(40)];
  const ids = ['e', 'user-123456789012', 'x'.repeat(600), 'ü'.repeat(40), 'a\ud800b'];
  for (const hash of ['murmur3', 'crc32'] as const) {
    const sum = (bytes: Uint8Array) => (hash === 'murmur3' ? murmurhash(bytes, 0) : CRC32.buf(bytes, 0) >>> 0);
    const variants = compileSnapshot(doc(...flagKeys.map((key) => variantFlag(key, [rule(1, [everyone], perBucket)]))), { hash });
    const atPercentage = new Map<number, ReturnType<typeof compileSnapshot>>();
    /** Whether (flag, entity) is in a threshold rollout of `p` %: its bucket is below `p`. */
    const inAt = (flagKey: string, entityId: string, p: number): boolean => {
      let compiled = atPercentage.get(p);
      if (compiled === undefined) {
        compiled = compileSnapshot(doc(...flagKeys.map((key) => booleanFlag(key, [threshold(1, p)], false))), { hash });
        atPercentage.set(p, compiled);
      }
      return (evaluateBoolean(compiled, { flagKey, entityId, context: {} }, ENV) as { enabled: boolean }).enabled;
    };
    for (const entityId of ids) {
      for (const flagKey of flagKeys) {
        const what = `${hash} ${flagKey}/${JSON.stringify(entityId)}`;
        const variant = (evaluateVariant(variants, { flagKey, entityId, context: {} }, ENV) as VariantResult).variantKey;
        t.is(variant, `k${sum(encode(`${flagKey}${entityId}`)) % 1000}`, what);
        const bucket = sum(encode(`${entityId}${flagKey}`)) % 100;
        t.true(inAt(flagKey, entityId, bucket + 1), what);
        t.false(inAt(flagKey, entityId, bucket), what);
      }
    }
  }
});
