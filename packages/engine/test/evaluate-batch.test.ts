/** Batch evaluation, reference §6.4. */
import test from 'ava';
import { compileSnapshot, emptySnapshot, evaluateBatch } from '@ensign/engine';
import type { BatchInput, CompiledSnapshot } from '@ensign/engine';
import { ENV, booleanFlag, constraint, dist, doc, rule, segment, segmentRollout, threshold, variantFlag } from './snapshot-builders.js';

const everyone = segment('everyone');
const defaultNs = compileSnapshot(
  doc(variantFlag('color', [rule(1, [everyone], [dist('blue', 100)])]), booleanFlag('dark', [threshold(1, 100)], false)),
  { hash: 'murmur3' },
);
const teamNs = compileSnapshot(
  { namespace: { key: 'team' }, flags: [booleanFlag('dark', [], true)] },
  { hash: 'murmur3' },
);
const namespaces = new Map<string, CompiledSnapshot>([
  ['default', defaultNs],
  ['team', teamNs],
]);

function input(flagKey: string, namespaceKey = '', entityId = 'e'): BatchInput {
  return { namespaceKey, flagKey, entityId, context: {} };
}

test('dispatches on each flag\'s type, in request order, across namespaces', (t) => {
  const items = evaluateBatch((ns) => namespaces.get(ns), [input('dark'), input('color', 'default'), input('dark', 'team')], ENV);
  t.deepEqual(items, [
    { kind: 'boolean', flagKey: 'dark', result: { enabled: true, reason: 'MATCH_EVALUATION_REASON', segmentKeys: [] } },
    {
      kind: 'variant',
      flagKey: 'color',
      result: { match: true, reason: 'MATCH_EVALUATION_REASON', variantKey: 'blue', variantAttachment: '', segmentKeys: ['everyone'] },
    },
    { kind: 'boolean', flagKey: 'dark', result: { enabled: true, reason: 'DEFAULT_EVALUATION_REASON', segmentKeys: [] } },
  ]);
});

test('resolve receives the namespace defaulted; notFound items carry the raw namespace', (t) => {
  const asked: string[] = [];
  const items = evaluateBatch(
    (ns) => {
      asked.push(ns);
      return namespaces.get(ns);
    },
    [input('nope'), input('nope', 'team'), input('color', 'ghost')],
    ENV,
  );
  t.deepEqual(asked, ['default', 'team', 'ghost']);
  t.deepEqual(items, [
    { kind: 'notFound', flagKey: 'nope', namespaceKey: '' },
    { kind: 'notFound', flagKey: 'nope', namespaceKey: 'team' },
    { kind: 'notFound', flagKey: 'color', namespaceKey: 'ghost' },
  ]);
});

test('an empty batch is an empty list', (t) => {
  t.deepEqual(evaluateBatch(() => undefined, [], ENV), []);
});

test('any evaluation failure other than not-found fails the whole batch', (t) => {
  const broken = compileSnapshot(
    doc(booleanFlag('bad', [segmentRollout(1, [segment('u', [constraint('UNKNOWN_CONSTRAINT_COMPARISON_TYPE', 'p', 'eq', 'x')])])])),
    { hash: 'murmur3' },
  );
  const result = evaluateBatch(
    (ns) => (ns === 'default' ? broken : emptySnapshot(ns)),
    [input('missing'), input('bad')],
    ENV,
  );
  t.deepEqual(result, { errorCode: 'PARSE_ERROR', message: 'unknown constraint type' });
});

test('a batch of 10,000 items evaluates each one', (t) => {
  const inputs = Array.from({ length: 10_000 }, (_, i) => input(i % 2 === 0 ? 'color' : 'dark', '', `e${i}`));
  const items = evaluateBatch((ns) => namespaces.get(ns), inputs, ENV);
  t.true(Array.isArray(items));
  t.is((items as unknown[]).length, 10_000);
});
