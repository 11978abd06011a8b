/**
 * Prerequisites: chains, variant parents, missing parents, cycles a document may carry, the time a
 * chain is evaluated at, and patched snapshots that replace a parent without touching its children.
 */
import test from 'ava';
import { compileSnapshot, evaluateBatch, evaluateBoolean, evaluateVariant, patchSnapshot } from '@ensign/engine';
import type { CompiledSnapshot, SnapshotFlag, SnapshotPrerequisite } from '@ensign/engine';
import { ENV, at, booleanFlag, constraint, dist, doc, iso, rule, segment, threshold, variantFlag } from './snapshot-builders.js';

const everyone = segment('everyone');
const pro = segment('pro', [constraint('STRING_CONSTRAINT_COMPARISON_TYPE', 'plan', 'eq', 'pro')]);
const T = Date.parse('2026-03-01T09:00:00.000Z');

const requiring = (flag: SnapshotFlag, ...prerequisites: SnapshotPrerequisite[]): SnapshotFlag => ({ ...flag, prerequisites });
const compile = (...flags: SnapshotFlag[]): CompiledSnapshot => compileSnapshot(doc(...flags), { hash: 'crc32' });
const boolean = (compiled: CompiledSnapshot, flagKey: string, context: Record<string, string> = {}, env = ENV) =>
  evaluateBoolean(compiled, { flagKey, entityId: 'e', context }, env);
const variant = (compiled: CompiledSnapshot, flagKey: string, context: Record<string, string> = {}, env = ENV) =>
  evaluateVariant(compiled, { flagKey, entityId: 'e', context }, env);

const failedOn = (prerequisite: string) => ({ enabled: false, reason: 'DEFAULT_EVALUATION_REASON', segmentKeys: [], prerequisite });

/** a → b → c, boolean flags, each requiring the next to be on. */
const chain = (c: SnapshotFlag) =>
  compile(
    requiring(booleanFlag('a', [threshold(1, 100, true)], false), { flagKey: 'b', enabled: true }),
    requiring(booleanFlag('b', [], true), { flagKey: 'c', enabled: true }),
    c,
  );

test('a chain a → b → c that holds: a answers as it would without prerequisites', (t) => {
  t.deepEqual(boolean(chain(booleanFlag('c', [], true)), 'a'), { enabled: true, reason: 'MATCH_EVALUATION_REASON', segmentKeys: [] });
});

test('a chain broken at its far end: a fails naming its own parent, b its own', (t) => {
  const broken = chain(booleanFlag('c', [], false));
  t.deepEqual(boolean(broken, 'a'), failedOn('b'));
  t.deepEqual(boolean(broken, 'b'), failedOn('c'));
  t.deepEqual(boolean(broken, 'c'), { enabled: false, reason: 'DEFAULT_EVALUATION_REASON', segmentKeys: [] });
});

for (const [ms, holds] of [
  [T - 1, false],
  [T, true],
  [T + 1, true],
] as const) {
  test(`a chain whose far end is scheduled on at T, at ${iso(ms)}`, (t) => {
    const compiled = chain({ ...booleanFlag('c', [], false), schedules: [{ at: iso(T), enabled: true }] });
    t.deepEqual(boolean(compiled, 'a', {}, at(ms)), holds ? { enabled: true, reason: 'MATCH_EVALUATION_REASON', segmentKeys: [] } : failedOn('b'));
  });
}

test('a chain whose middle has a window closing at T fails from T on', (t) => {
  const compiled = compile(
    requiring(booleanFlag('a', [], true), { flagKey: 'b', enabled: true }),
    booleanFlag('b', [{ ...threshold(1, 100, true), validUntil: iso(T) }], false),
  );
  t.like(boolean(compiled, 'a', {}, at(T - 1)), { enabled: true });
  t.deepEqual(boolean(compiled, 'a', {}, at(T)), failedOn('b'));
});

test('enabled: false holds when the parent is off, also when its own prerequisite fails', (t) => {
  const compiled = compile(
    requiring(booleanFlag('a', [], true), { flagKey: 'b', enabled: false }),
    requiring(booleanFlag('b', [], true), { flagKey: 'c', enabled: true }),
    booleanFlag('c', [], false),
  );
  t.like(boolean(compiled, 'a'), { enabled: true, reason: 'DEFAULT_EVALUATION_REASON' });
  t.false('prerequisite' in (boolean(compiled, 'a') as object));
});

test('a boolean parent is evaluated for the same entity and context', (t) => {
  const compiled = compile(
    requiring(booleanFlag('a', [], true), { flagKey: 'beta', enabled: true }),
    booleanFlag('beta', [{ type: 'SEGMENT_ROLLOUT_TYPE', rank: 1, segment: { value: true, segmentOperator: 'OR_SEGMENT_OPERATOR', segments: [pro] } }], false),
  );
  t.like(boolean(compiled, 'a', { plan: 'pro' }), { enabled: true });
  t.deepEqual(boolean(compiled, 'a', { plan: 'free' }), failedOn('beta'));
});

const colour = variantFlag('colour', [rule(1, [pro], [dist('blue', 100)])], { defaultVariant: { key: 'red' } });

test('variants: the variant the parent serves this entity, its default variant included', (t) => {
  const compiled = compile(
    colour,
    requiring(booleanFlag('blue-only', [], true), { flagKey: 'colour', variants: ['blue'] }),
    requiring(booleanFlag('red-only', [], true), { flagKey: 'colour', variants: ['red'] }),
  );
  t.like(boolean(compiled, 'blue-only', { plan: 'pro' }), { enabled: true });
  t.deepEqual(boolean(compiled, 'blue-only', { plan: 'free' }), failedOn('colour'));
  t.deepEqual(boolean(compiled, 'red-only', { plan: 'pro' }), failedOn('colour'));
  t.like(boolean(compiled, 'red-only', { plan: 'free' }), { enabled: true });
});

test('variants fail on a disabled variant parent and on a boolean parent', (t) => {
  const compiled = compile(
    { ...colour, enabled: false },
    booleanFlag('on', [], true),
    requiring(booleanFlag('a', [], true), { flagKey: 'colour', variants: ['red'] }),
    requiring(booleanFlag('b', [], true), { flagKey: 'on', variants: ['true'] }),
  );
  t.deepEqual(boolean(compiled, 'a'), failedOn('colour'));
  t.deepEqual(boolean(compiled, 'b'), failedOn('on'));
});

test('enabled on a variant parent is its enabled state, whatever it serves', (t) => {
  const on = compile(colour, requiring(booleanFlag('a', [], true), { flagKey: 'colour', enabled: true }));
  t.like(boolean(on, 'a', { plan: 'free' }), { enabled: true });
  const off = compile({ ...colour, enabled: false }, requiring(booleanFlag('a', [], true), { flagKey: 'colour', enabled: true }));
  t.deepEqual(boolean(off, 'a'), failedOn('colour'));
});

test('a variant flag whose prerequisite fails serves its default variant without a match, naming the parent', (t) => {
  const compiled = compile(
    booleanFlag('gate', [], false),
    requiring(variantFlag('v', [rule(1, [everyone], [dist('new', 100)])], { defaultVariant: { key: 'old', attachment: '{"a":1}' } }), { flagKey: 'gate', enabled: true }),
    requiring(variantFlag('bare', [rule(1, [everyone], [dist('new', 100)])]), { flagKey: 'gate', enabled: true }),
  );
  t.deepEqual(variant(compiled, 'v'), {
    match: false,
    reason: 'DEFAULT_EVALUATION_REASON',
    variantKey: 'old',
    variantAttachment: '{"a":1}',
    segmentKeys: [],
    prerequisite: 'gate',
  });
  t.like(variant(compiled, 'bare'), { match: false, reason: 'DEFAULT_EVALUATION_REASON', variantKey: '', prerequisite: 'gate' });
});

test('a disabled variant flag is FLAG_DISABLED whatever its prerequisites', (t) => {
  const compiled = compile(booleanFlag('gate', [], false), requiring({ ...colour, enabled: false }, { flagKey: 'gate', enabled: true }));
  t.deepEqual(variant(compiled, 'colour'), { match: false, reason: 'FLAG_DISABLED_EVALUATION_REASON', variantKey: 'red', variantAttachment: '', segmentKeys: [] });
});

test('a missing parent fails the prerequisite', (t) => {
  const compiled = compile(requiring(booleanFlag('a', [], true), { flagKey: 'ghost', enabled: false }));
  t.deepEqual(boolean(compiled, 'a'), failedOn('ghost'));
});

test('all must hold; the first that fails is named', (t) => {
  const compiled = compile(
    booleanFlag('on', [], true),
    booleanFlag('off', [], false),
    requiring(booleanFlag('a', [], true), { flagKey: 'on', enabled: true }, { flagKey: 'off', enabled: true }, { flagKey: 'ghost', enabled: true }),
  );
  t.deepEqual(boolean(compiled, 'a'), failedOn('off'));
});

test('a parent whose evaluation fails fails the prerequisite, not the evaluation', (t) => {
  const odd = segment('odd', [constraint('UNKNOWN_CONSTRAINT_COMPARISON_TYPE', 'x', 'eq', 'y')]);
  const compiled = compile(
    booleanFlag('broken', [{ type: 'SEGMENT_ROLLOUT_TYPE', rank: 1, segment: { value: true, segmentOperator: 'OR_SEGMENT_OPERATOR', segments: [odd] } }], true),
    requiring(booleanFlag('a', [], true), { flagKey: 'broken', enabled: true }),
  );
  t.like(boolean(compiled, 'broken'), { errorCode: 'PARSE_ERROR' });
  t.deepEqual(boolean(compiled, 'a'), failedOn('broken'));
});

test('a cycle in a document fails the prerequisites of every flag on it, whatever they ask', (t) => {
  const compiled = compile(
    requiring(booleanFlag('a', [], true), { flagKey: 'b', enabled: true }),
    requiring(booleanFlag('b', [], true), { flagKey: 'a', enabled: false }),
    requiring(booleanFlag('self', [], true), { flagKey: 'self', enabled: true }),
    requiring(booleanFlag('outside', [], true), { flagKey: 'a', enabled: false }),
  );
  t.deepEqual(boolean(compiled, 'a'), failedOn('b'));
  t.deepEqual(boolean(compiled, 'b'), failedOn('a'));
  t.deepEqual(boolean(compiled, 'self'), failedOn('self'));
  t.deepEqual(boolean(compiled, 'outside'), failedOn('a'));
});

test('a document of diamonds is evaluated without walking every path', (t) => {
  // 40 levels of two flags each requiring both flags of the next level: 2^40 paths.
  const flags: SnapshotFlag[] = [];
  for (let level = 0; level < 40; level++) {
    for (const side of ['l', 'r']) {
      const next = level + 1 < 40 ? [{ flagKey: `l${level + 1}`, enabled: true }, { flagKey: `r${level + 1}`, enabled: true }] : [];
      flags.push(requiring(booleanFlag(`${side}${level}`, [], true), ...next));
    }
  }
  const compiled = compile(...flags);
  // Every parent is looked up by key in the snapshot's flags: count the lookups.
  let lookups = 0;
  const counted = new Proxy(compiled.flags, {
    get(target, property) {
      if (property === 'get') return (key: string) => (lookups++, target.get(key));
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  t.like(boolean({ ...compiled, flags: counted }, 'l0'), { enabled: false, prerequisite: 'l1' });
  t.log(`${lookups} lookups`);
  t.true(lookups <= 4 * flags.length, `${lookups} lookups for ${flags.length} flags`);
});

test('a patch that replaces a parent changes its children\'s answers without recompiling them', (t) => {
  const compiled = compile(requiring(booleanFlag('a', [], true), { flagKey: 'b', enabled: true }), booleanFlag('b', [], true));
  t.like(boolean(compiled, 'a'), { enabled: true });
  const off = patchSnapshot(compiled, [booleanFlag('b', [], false)], [], { hash: 'crc32' });
  t.is(off.flags.get('a'), compiled.flags.get('a'));
  t.deepEqual(boolean(off, 'a'), failedOn('b'));
  const gone = patchSnapshot(compiled, [], ['b'], { hash: 'crc32' });
  t.deepEqual(boolean(gone, 'a'), failedOn('b'));
  const back = patchSnapshot(gone, [booleanFlag('b', [], true)], [], { hash: 'crc32' });
  t.like(boolean(back, 'a'), { enabled: true });
});

test('a batch resolves prerequisites within each item\'s namespace', (t) => {
  const team = compileSnapshot({ namespace: { key: 'team' }, flags: [booleanFlag('b', [], false)] }, { hash: 'crc32' });
  const byKey = new Map([
    ['default', compile(requiring(booleanFlag('a', [], true), { flagKey: 'b', enabled: true }), booleanFlag('b', [], true))],
    ['team', team],
  ]);
  const items = evaluateBatch((ns) => byKey.get(ns), [
    { namespaceKey: '', flagKey: 'a', entityId: 'e', context: {} },
    { namespaceKey: 'team', flagKey: 'b', entityId: 'e', context: {} },
  ], ENV);
  t.like(items, [{ kind: 'boolean', result: { enabled: true } }, { kind: 'boolean', result: { enabled: false } }]);
});
