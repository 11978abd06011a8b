/** compileSnapshot: rejects malformed documents with paths, builds nothing partial, freezes the result. */
import test from 'ava';
import { SnapshotCompilation, SnapshotInvalidError, compileSnapshot, emptySnapshot, evaluateVariant, patchSnapshot, validateSnapshot } from '@ensign/engine';
import type { SnapshotDocument, SnapshotFlag } from '@ensign/engine';
import { ENV, booleanFlag, constraint, dist, doc, rule, segment, segmentRollout, threshold, variantFlag } from './snapshot-builders.js';

function pathsOf(document: unknown): string[] {
  const error = (() => {
    try {
      compileSnapshot(document as SnapshotDocument, { hash: 'murmur3' });
    } catch (e) {
      return e;
    }
    return undefined;
  })();
  if (!(error instanceof SnapshotInvalidError)) throw new Error('expected SnapshotInvalidError');
  return error.paths;
}

const good = () =>
  doc(
    variantFlag('v', [rule(1, [segment('s', [constraint('STRING_CONSTRAINT_COMPARISON_TYPE', 'p', 'eq', 'x')])], [dist('a', 100)])]),
    booleanFlag('b', [threshold(1, 50), segmentRollout(2, [segment('s')])]),
  );

test('a well-formed document compiles and has no problems', (t) => {
  t.deepEqual(validateSnapshot(good()), []);
  const compiled = compileSnapshot(good(), { hash: 'crc32' });
  t.is(compiled.namespaceKey, 'default');
  t.deepEqual([...compiled.flags.keys()], ['v', 'b']);
  t.like(compiled.flags.get('b'), { key: 'b', type: 'BOOLEAN_FLAG_TYPE', enabled: true });
});

const malformed: Array<[string, (d: any) => unknown, string[]]> = [
  ['not an object', () => 'nope', ['$']],
  ['missing flags', (d) => ({ namespace: d.namespace }), ['$.flags']],
  ['missing namespace key', (d) => ({ ...d, namespace: {} }), ['$.namespace.key']],
  ['unknown flag type', (d) => (d.flags[0].type = 'FANCY_FLAG_TYPE', d), ['$.flags[0].type']],
  ['enabled as a string', (d) => (d.flags[1].enabled = 'true', d), ['$.flags[1].enabled']],
  ['missing rules array', (d) => (delete d.flags[0].rules, d), ['$.flags[0].rules']],
  ['rollouts not an array', (d) => (d.flags[1].rollouts = {}, d), ['$.flags[1].rollouts']],
  ['rank not a number', (d) => (d.flags[0].rules[0].rank = '1', d), ['$.flags[0].rules[0].rank']],
  ['unknown segment operator', (d) => (d.flags[0].rules[0].segmentOperator = 'XOR', d), ['$.flags[0].rules[0].segmentOperator']],
  ['segment without constraints', (d) => (delete d.flags[0].rules[0].segments[0].constraints, d), ['$.flags[0].rules[0].segments[0].constraints']],
  ['bad match type', (d) => (d.flags[0].rules[0].segments[0].matchType = 'ALL', d), ['$.flags[0].rules[0].segments[0].matchType']],
  ['constraint value a number', (d) => (d.flags[0].rules[0].segments[0].constraints[0].value = 5, d), ['$.flags[0].rules[0].segments[0].constraints[0].value']],
  ['unknown comparison type name', (d) => (d.flags[0].rules[0].segments[0].constraints[0].type = 'REGEX', d), ['$.flags[0].rules[0].segments[0].constraints[0].type']],
  ['rollout percentage missing', (d) => (delete d.flags[1].rollouts[0].threshold.percentage, d), ['$.flags[1].rollouts[0].threshold.percentage']],
  ['distribution rollout not finite', (d) => (d.flags[0].rules[0].distributions[0].rollout = null, d), ['$.flags[0].rules[0].distributions[0].rollout']],
  ['segment rollout without segments', (d) => (delete d.flags[1].rollouts[1].segment.segments, d), ['$.flags[1].rollouts[1].segment.segments']],
  ['default variant without key', (d) => (d.flags[0].defaultVariant = { attachment: '' }, d), ['$.flags[0].defaultVariant.key']],
  ['duplicate flag key', (d) => (d.flags[1].key = 'v', d), ['$.flags[1].key']],
  [
    'several problems at once',
    (d) => ((d.flags[0].enabled = 1), (d.flags[1].type = 2), d),
    ['$.flags[0].enabled', '$.flags[1].type'],
  ],
];

/** The paths a compile one flag at a time refuses the document with (its flags must be an array). */
function pathsInSteps(document: unknown): string[] {
  const d = document as SnapshotDocument;
  const compilation = new SnapshotCompilation(d, { hash: 'murmur3' });
  for (const flag of d.flags) compilation.add(flag);
  const error = caught(() => compilation.finish());
  if (!(error instanceof SnapshotInvalidError)) throw new Error('expected SnapshotInvalidError');
  return error.paths;
}

function caught(run: () => unknown): unknown {
  try {
    run();
  } catch (e) {
    return e;
  }
  return undefined;
}

for (const [name, mutate, paths] of malformed) {
  test(`rejects a document with ${name}, naming ${paths.join(', ')}`, (t) => {
    t.deepEqual(pathsOf(mutate(structuredClone(good()))), paths);
    const document = mutate(structuredClone(good())) as { flags?: unknown };
    if (Array.isArray(document.flags)) t.deepEqual(pathsInSteps(document), paths, 'compiled one flag at a time');
  });
}

test('compiled one flag at a time, a document is what compileSnapshot makes of it, kept flags included', (t) => {
  const whole = compileSnapshot(good(), { hash: 'crc32' });
  const compilation = new SnapshotCompilation(good(), { hash: 'crc32' });
  const [first, second] = good().flags as [SnapshotFlag, SnapshotFlag];
  compilation.add(first);
  compilation.keep(second.key, whole.flags.get(second.key)!);
  const stepped = compilation.finish();
  t.deepEqual([...stepped.flags.keys()], [...whole.flags.keys()]);
  t.is(stepped.flags.get('b'), whole.flags.get('b'));
  t.deepEqual(stepped.flags.get('v'), whole.flags.get('v'));
  const input = { flagKey: 'v', entityId: 'e1', context: { p: 'x' } };
  t.deepEqual(evaluateVariant(stepped, input, ENV), evaluateVariant(whole, input, ENV));
  t.true(Object.isFrozen(stepped));
});

test('a kept flag whose key repeats an earlier one is refused as a duplicate', (t) => {
  const whole = compileSnapshot(good(), { hash: 'crc32' });
  const compilation = new SnapshotCompilation(good(), { hash: 'crc32' });
  compilation.add(good().flags[0]!);
  compilation.keep('v', whole.flags.get('v')!);
  const error = t.throws(() => compilation.finish(), { instanceOf: SnapshotInvalidError });
  t.deepEqual(error?.paths, ['$.flags[1].key']);
});

test('the error message names each problem', (t) => {
  const d: any = structuredClone(good());
  d.flags[0].type = 'X';
  const error = t.throws(() => compileSnapshot(d, { hash: 'murmur3' }), { instanceOf: SnapshotInvalidError });
  t.regex(error?.message ?? '', /\$\.flags\[0\]\.type: must be one of VARIANT_FLAG_TYPE, BOOLEAN_FLAG_TYPE/);
});

test('an unknown hash mode is refused', (t) => {
  t.throws(() => compileSnapshot(good(), { hash: 'sha1' as never }), { instanceOf: RangeError });
});

test('stored values that do not parse are not structural problems', (t) => {
  const d = doc(
    variantFlag('v', [
      rule(1, [
        segment('s', [
          constraint('NUMBER_CONSTRAINT_COMPARISON_TYPE', 'n', 'gt', 'twelve'),
          constraint('DATETIME_CONSTRAINT_COMPARISON_TYPE', 'd', 'lt', 'soon'),
          constraint('STRING_CONSTRAINT_COMPARISON_TYPE', 's', 'isoneof', '[broken'),
          constraint('STRING_CONSTRAINT_COMPARISON_TYPE', 's', 'sounds-like', 'x'),
        ], 'ANY'),
      ]),
    ]),
  );
  const compiled = compileSnapshot(d, { hash: 'murmur3' });
  t.like(evaluateVariant(compiled, { flagKey: 'v', entityId: 'e', context: { n: '13', d: '2020-01-01', s: 'x' } }, ENV), {
    match: false,
  });
});

test('the compiled snapshot is immutable', (t) => {
  const compiled = compileSnapshot(good(), { hash: 'murmur3' });
  t.true(Object.isFrozen(compiled));
  t.true(Object.isFrozen(compiled.flags.get('v')));
  const flags = compiled.flags as Map<string, unknown>;
  t.throws(() => flags.set('x', {}), { instanceOf: TypeError });
  t.throws(() => flags.delete('v'), { instanceOf: TypeError });
  t.throws(() => flags.clear(), { instanceOf: TypeError });
  t.is(compiled.flags.size, 2);
});

test('compiling does not keep references into the document: later edits do not leak in', (t) => {
  const d = good();
  const compiled = compileSnapshot(d, { hash: 'murmur3' });
  d.flags[0]!.rules[0]!.distributions[0]!.variantKey = 'edited';
  d.flags[0]!.rules[0]!.segments[0]!.constraints[0]!.value = 'y';
  t.like(evaluateVariant(compiled, { flagKey: 'v', entityId: 'e', context: { p: 'x' } }, ENV), { match: true, variantKey: 'a' });
});

test('emptySnapshot answers FLAG_NOT_FOUND for any key, naming its namespace', (t) => {
  t.deepEqual(evaluateVariant(emptySnapshot('ghost'), { flagKey: 'f', entityId: 'e', context: {} }, ENV), {
    errorCode: 'FLAG_NOT_FOUND',
    message: 'flag "ghost/f" not found',
  });
});

test('a namespace of 10,000 flags compiles', (t) => {
  const flags = Array.from({ length: 10_000 }, (_, i) =>
    i % 2 === 0
      ? variantFlag(`v${i}`, [rule(1, [segment('s', [constraint('NUMBER_CONSTRAINT_COMPARISON_TYPE', 'n', 'gte', String(i))])], [dist('a', 50), dist('b', 50)])])
      : booleanFlag(`b${i}`, [threshold(1, i % 100)]),
  );
  const compiled = compileSnapshot(doc(...flags), { hash: 'murmur3' });
  t.is(compiled.flags.size, 10_000);
  t.like(evaluateVariant(compiled, { flagKey: 'v9998', entityId: 'e', context: { n: '9998' } }, ENV), { match: true });
});

test('patching compiles only the changed flags and keeps the others as the same objects', (t) => {
  const compiled = compileSnapshot(good(), { hash: 'murmur3' });
  const b = compiled.flags.get('b');
  const replaced = variantFlag('v', [rule(1, [segment('s')], [dist('z', 100)])]);
  const added = booleanFlag('n', [threshold(1, 100)]);
  const patched = patchSnapshot(compiled, [replaced, added], [], { hash: 'murmur3' });
  t.is(patched.flags.get('b'), b);
  t.deepEqual([...patched.flags.keys()].sort(), ['b', 'n', 'v']);
  t.like(evaluateVariant(patched, { flagKey: 'v', entityId: 'e', context: {} }, ENV), { match: true, variantKey: 'z' });
  t.like(evaluateVariant(compiled, { flagKey: 'v', entityId: 'e', context: {} }, ENV), { match: false });
  const removed = patchSnapshot(patched, [], ['v'], { hash: 'murmur3' });
  t.false(removed.flags.has('v'));
  t.is(removed.flags.size, 2);
  t.true(Object.isFrozen(removed));
});

test('a patch with an invalid flag throws with its path and changes nothing', (t) => {
  const compiled = compileSnapshot(good(), { hash: 'murmur3' });
  const broken = { ...booleanFlag('b', []), type: 'FANCY_FLAG_TYPE' } as unknown as SnapshotFlag;
  const error = t.throws(() => patchSnapshot(compiled, [broken], [], { hash: 'murmur3' }), { instanceOf: SnapshotInvalidError });
  t.deepEqual(error?.paths, ['$.flags[0].type']);
  t.like(compiled.flags.get('b'), { type: 'BOOLEAN_FLAG_TYPE' });
});

test('a segment used by many flags is compiled once per document, and a patch compiles the segment it carries', (t) => {
  const pro = () => segment('pro', [constraint('STRING_CONSTRAINT_COMPARISON_TYPE', 'plan', 'eq', 'pro')]);
  const flags = ['a', 'b', 'c'].map((key) => variantFlag(key, [rule(1, [pro()], [dist('on', 100)])]));
  const compiled = compileSnapshot(doc(...flags), { hash: 'crc32' });
  const planOf = (c: typeof compiled, key: string) => (c.flags.get(key) as any).rules[0].group.segments[0];
  t.is(planOf(compiled, 'a'), planOf(compiled, 'b'));
  t.is(planOf(compiled, 'b'), planOf(compiled, 'c'));

  // The segment changed (plan = team): the delta carries every flag using it, compiled with the new segment.
  const team = segment('pro', [constraint('STRING_CONSTRAINT_COMPARISON_TYPE', 'plan', 'eq', 'team')]);
  const patched = patchSnapshot(compiled, ['a', 'b', 'c'].map((key) => variantFlag(key, [rule(1, [team], [dist('on', 100)])])), [], { hash: 'crc32' });
  for (const key of ['a', 'b', 'c']) {
    t.like(evaluateVariant(patched, { flagKey: key, entityId: 'u', context: { plan: 'team' } }, ENV), { match: true, variantKey: 'on' });
    t.like(evaluateVariant(patched, { flagKey: key, entityId: 'u', context: { plan: 'pro' } }, ENV), { match: false });
  }
});

test('a variant result is built once per compiled outcome and shared by the evaluations that end in it', (t) => {
  const pro = segment('pro', [constraint('STRING_CONSTRAINT_COMPARISON_TYPE', 'plan', 'eq', 'pro')]);
  const beta = segment('beta', [constraint('STRING_CONSTRAINT_COMPARISON_TYPE', 'beta', 'eq', 'yes')]);
  const compiled = compileSnapshot(
    doc(
      variantFlag('one', [rule(1, [pro], [dist('on', 100)])]),
      variantFlag('either', [rule(1, [pro, beta], [dist('on', 100)], 'OR')]),
      { ...variantFlag('off', [rule(1, [pro], [dist('on', 100)])]), enabled: false },
    ),
    { hash: 'crc32' },
  );
  const run = (flagKey: string, entityId: string, context: Record<string, string>) => evaluateVariant(compiled, { flagKey, entityId, context }, ENV);
  const first = run('one', 'u1', { plan: 'pro' });
  t.is(run('one', 'u2', { plan: 'pro' }), first);
  t.true(Object.isFrozen(first));
  t.like(first, { match: true, variantKey: 'on', segmentKeys: ['pro'] });
  t.is(run('off', 'u1', {}), run('off', 'u2', {}));
  // Only some segments of an OR group matched: a result of its own, with just those keys.
  const partial = run('either', 'u1', { plan: 'pro' });
  t.like(partial, { match: true, segmentKeys: ['pro'] });
  t.not(run('either', 'u2', { plan: 'pro' }), partial);
  t.like(run('either', 'u3', { plan: 'pro', beta: 'yes' }), { segmentKeys: ['pro', 'beta'] });
});
