/**
 * Evaluation never throws on bad stored data or odd input: random contexts against constraints with
 * junk values, of every type and operator, in both hash modes.
 */
import test from 'ava';
import { compileSnapshot, evaluateBatch, evaluateBoolean, evaluateVariant } from '@ensign/engine';
import type { FlagInput, SnapshotComparisonType, SnapshotConstraint } from '@ensign/engine';
import { ENV, booleanFlag, dist, doc, prng, rule, segment, segmentRollout, threshold, variantFlag } from './snapshot-builders.js';

const TYPES: SnapshotComparisonType[] = [
  'STRING_CONSTRAINT_COMPARISON_TYPE',
  'NUMBER_CONSTRAINT_COMPARISON_TYPE',
  'BOOLEAN_CONSTRAINT_COMPARISON_TYPE',
  'DATETIME_CONSTRAINT_COMPARISON_TYPE',
  'ENTITY_ID_CONSTRAINT_COMPARISON_TYPE',
];
const OPERATORS = ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'empty', 'notempty', 'true', 'false', 'present', 'notpresent',
  'prefix', 'suffix', 'isoneof', 'isnotoneof', 'contains', 'notcontains', 'EQ', 'bogus', ''];
const JUNK = ['', ' ', '1', '-0', '1e999', '0x1p-2', 'NaN', 'inf', '[', '[]', 'null', '["a",1]', '[1,"a"]', '{"a":1}',
  '2025-01-01', '2025-02-30T00:00:00Z', '9999-12-31T23:59:59.999999999+24:00', 'true', 'T', '\u0000', '\ud800', '😀',
  '"quoted"', '[null]', '1_000', '__proto__', 'constructor', 'x'.repeat(2000)];
const KEYS = ['a', 'b', 'c', '__proto__', 'constructor', 'toString', 'entityId', ''];

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)]!;
}

function junkConstraint(next: () => number, i: number): SnapshotConstraint {
  return { id: `c${i}`, type: pick(next, TYPES), property: pick(next, KEYS), operator: pick(next, OPERATORS), value: pick(next, JUNK) };
}

/** A context as JSON.parse builds it: own properties, `__proto__` included. */
function junkContext(next: () => number): Record<string, string> {
  const pairs = Array.from({ length: Math.floor(next() * 6) }, () => [pick(next, KEYS), pick(next, JUNK)] as const);
  return JSON.parse(JSON.stringify(Object.fromEntries(pairs))) as Record<string, string>;
}

for (const hash of ['murmur3', 'crc32'] as const) {
  test(`${hash}: 500 random documents × random contexts never throw`, (t) => {
    const next = prng(hash === 'murmur3' ? 101 : 202);
    let evaluations = 0;
    for (let d = 0; d < 500; d++) {
      const segs = Array.from({ length: 1 + Math.floor(next() * 3) }, (_, s) =>
        segment(`s${s}`, Array.from({ length: Math.floor(next() * 4) }, (_, c) => junkConstraint(next, c)), next() < 0.5 ? 'ALL' : 'ANY'),
      );
      const compiled = compileSnapshot(
        doc(
          variantFlag('v', [rule(1, segs, [dist('a', next() * 60), dist('b', next() * 60)], next() < 0.5 ? 'OR' : 'AND')], {
            enabled: next() < 0.9,
          }),
          booleanFlag('b', [segmentRollout(1, segs), threshold(2, next() * 120 - 10)], next() < 0.5),
        ),
        { hash },
      );
      for (let k = 0; k < 4; k++) {
        const input: FlagInput = { flagKey: pick(next, ['v', 'b', 'missing']), entityId: pick(next, JUNK), context: junkContext(next) };
        t.notThrows(() => {
          evaluateVariant(compiled, input, ENV);
          evaluateBoolean(compiled, input, ENV);
          evaluateBatch(() => compiled, [{ ...input, namespaceKey: '' }], ENV);
        });
        evaluations++;
      }
    }
    t.is(evaluations, 2000);
  });
}

test('inputs that break the type contract do not throw either', (t) => {
  const compiled = compileSnapshot(
    doc(variantFlag('v', [rule(1, [segment('s', [junkConstraint(prng(1), 0)])], [dist('a', 100)])]), booleanFlag('b', [threshold(1, 50)])),
    { hash: 'murmur3' },
  );
  const odd = [
    { flagKey: 'v', entityId: 5, context: { p: 7 } },
    { flagKey: 'v', entityId: null, context: null },
    { flagKey: 'b', entityId: undefined, context: undefined },
  ] as unknown as FlagInput[];
  for (const input of odd) {
    t.notThrows(() => evaluateVariant(compiled, input, ENV));
    t.notThrows(() => evaluateBoolean(compiled, input, ENV));
  }
});
