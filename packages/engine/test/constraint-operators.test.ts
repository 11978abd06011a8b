/**
 * Every operator of every comparison type (reference §5.1), with matching, non-matching, missing-key
 * and unparseable inputs. A rule with one single-constraint segment and no distributions matches
 * (MATCH) exactly when the constraint does.
 */
import test from 'ava';
import { compileSnapshot, evaluateVariant, isFailure } from '@ensign/engine';
import type { SnapshotComparisonType } from '@ensign/engine';
import { ENV, constraint, doc, rule, segment, variantFlag } from './snapshot-builders.js';

type Kind = 'STRING' | 'NUMBER' | 'BOOLEAN' | 'DATETIME' | 'ENTITY_ID';
/** [operator, stored value, context value (undefined = key missing), expected match]. */
type Row = [string, string, string | undefined, boolean];

const MISSING = undefined;

function matches(kind: Kind, operator: string, value: string, contextValue: string | undefined, entityId = 'entity-1'): boolean {
  const type = `${kind}_CONSTRAINT_COMPARISON_TYPE` as SnapshotComparisonType;
  const property = kind === 'ENTITY_ID' ? 'entityId' : 'p';
  const compiled = compileSnapshot(doc(variantFlag('f', [rule(1, [segment('s', [constraint(type, property, operator, value)])])])), {
    hash: 'murmur3',
  });
  const context: Record<string, string> = { other: 'x' };
  if (contextValue !== undefined) context['p'] = contextValue;
  const result = evaluateVariant(compiled, { flagKey: 'f', entityId, context }, ENV);
  if (isFailure(result)) throw new Error(result.message);
  return result.match;
}

function table(kind: Kind, rows: Row[]): void {
  rows.forEach(([operator, value, contextValue, expected], i) => {
    const shown = contextValue === undefined ? '<missing>' : JSON.stringify(contextValue);
    test(`${kind} #${i} ${operator} ${JSON.stringify(value)} vs ${shown} → ${expected}`, (t) => {
      t.is(matches(kind, operator, value, contextValue), expected);
    });
  });
}

table('STRING', [
  ['eq', 'pro', 'pro', true],
  ['eq', 'pro', 'Pro', false],
  ['eq', 'pro', ' pro', false],
  ['eq', 'pro', MISSING, false],
  ['eq', '', '', false],
  ['EQ', 'pro', 'pro', true],
  ['neq', 'pro', 'free', true],
  ['neq', 'pro', 'pro', false],
  ['neq', 'pro', MISSING, false],
  ['neq', 'pro', '', false],
  ['prefix', 'ab', 'abc', true],
  ['prefix', 'ab', '  abc ', true],
  ['prefix', 'ab', 'xab', false],
  ['prefix', 'ab', MISSING, false],
  ['suffix', 'bc', 'abc', true],
  ['suffix', 'bc', 'abc \t', true],
  ['suffix', 'bc', 'bca', false],
  ['suffix', 'bc', MISSING, false],
  ['contains', 'b', 'abc', true],
  ['contains', ' b', 'a b', true],
  ['contains', 'b', 'xyz', false],
  ['contains', 'b', MISSING, false],
  ['notcontains', 'b', 'xyz', true],
  ['notcontains', 'b', 'abc', false],
  ['notcontains', 'b', MISSING, false],
  ['isoneof', '["a","b"]', 'a', true],
  ['isoneof', '["a","b"]', 'c', false],
  ['isoneof', '["a","b"]', 'A', false],
  ['isoneof', '["a","b"]', MISSING, false],
  ['isoneof', '[a, b', 'a', false],
  ['isoneof', 'null', 'a', false],
  ['isoneof', '[1,2]', '1', false],
  ['isoneof', '{"a":1}', 'a', false],
  ['isnotoneof', '["a","b"]', 'c', true],
  ['isnotoneof', '["a","b"]', 'a', false],
  ['isnotoneof', '["a","b"]', MISSING, false],
  ['isnotoneof', '["a","b"]', '', false],
  ['isnotoneof', '[a, b', 'c', false],
  ['isnotoneof', 'null', 'c', true],
  ['isnotoneof', '["a",7]', 'c', false],
  ['empty', '', '', true],
  ['empty', '', MISSING, true],
  ['empty', '', ' \t\n\r\v\f', true],
  ['empty', '', '\u00a0\u2003\u3000', true],
  ['empty', '', '\u0085', true],
  ['empty', '', '\ufeff', false],
  ['empty', '', 'x', false],
  ['notempty', '', 'x', true],
  ['notempty', '', ' x ', true],
  ['notempty', '', '   ', false],
  ['notempty', '', MISSING, false],
  ['gt', 'a', 'b', false],
  ['present', '', 'x', false],
]);

table('NUMBER', [
  ['eq', '10', '10', true],
  ['eq', '10', '10.0', true],
  ['eq', '10', '1e1', true],
  ['eq', '10', '1E+1', true],
  ['eq', '10', '+10', true],
  ['eq', '10', '0x1.4p3', true],
  ['eq', '10', '0X14P-1', true],
  ['eq', '10', '1_0', true],
  ['eq', '10', '11', false],
  ['eq', '10', 'ten', false],
  ['eq', '10', ' 10', false],
  ['eq', '10', '10 ', false],
  ['eq', '10', '0x0A', false],
  ['eq', '10', '1__0', false],
  ['eq', '10', '_10', false],
  ['eq', '10', '10_', false],
  ['eq', '10', MISSING, false],
  ['eq', '0.5', '.5', true],
  ['eq', '1', '0x_1p0', true],
  ['eq', '1', '0x1p0_', false],
  ['eq', '1000000', '1_000_000', true],
  ['eq', '1e10', '1e1_0', true],
  ['eq', '4.9e-324', '0x1p-1074', true],
  ['eq', '0.5', '0x.8p0', true],
  ['eq', '1', '0x1', false],
  ['gt', '0', '0x1p1024', false],
  ['eq', '1', '1.0.0', false],
  ['eq', '1', '.', false],
  ['eq', '1', '+', false],
  ['eq', '5', '5.', true],
  ['eq', '0', '-0', true],
  ['eq', '1', 'nan', false],
  ['neq', '10', '11', true],
  ['neq', '10', '10', false],
  ['neq', '10', 'abc', false],
  ['neq', '10', MISSING, false],
  ['neq', '1', 'NaN', true],
  ['lt', '10', '9.5', true],
  ['lt', '10', '10', false],
  ['lt', '10', '-Inf', true],
  ['lt', '10', '-infinity', true],
  ['lt', '10', '-1e400', false],
  ['lt', '10', '1e-400', true],
  ['lte', '10', '10', true],
  ['lte', '10', '10.5', false],
  ['gt', '10', '11', true],
  ['gt', '10', 'inf', true],
  ['gt', '10', '+Infinity', true],
  ['gt', '10', 'infin', false],
  ['gt', '10', '+nan', false],
  ['gt', '10', '1e400', false],
  ['gt', '10', '10', false],
  ['gte', '10', '10', true],
  ['gte', '10', '9', false],
  ['gte', '1e1', '10', true],
  ['eq', 'abc', '1', false],
  ['neq', 'abc', '1', false],
  ['gt', '', '1', false],
  ['isoneof', '[1, 2.5, 3]', '2.5', true],
  ['isoneof', '[1, 2.5, 3]', '2.50', true],
  ['isoneof', '[1, 2.5, 3]', '4', false],
  ['isoneof', '[1, 2.5, 3]', MISSING, false],
  ['isoneof', '[0]', '-0', true],
  ['isoneof', '[1, null]', '0', true],
  ['isoneof', '[1, 2', '1', false],
  ['isoneof', '["1"]', '1', false],
  ['isnotoneof', '[1, 2]', '3', true],
  ['isnotoneof', '[1, 2]', '1', false],
  ['isnotoneof', '[1, 2]', 'abc', false],
  ['isnotoneof', '[1, 2]', MISSING, false],
  ['isnotoneof', '[1, 2', '3', false],
  ['present', '', '5', true],
  ['present', '', 'abc', true],
  ['present', '', ' ', false],
  ['present', '', MISSING, false],
  ['notpresent', '', MISSING, true],
  ['notpresent', '', ' ', true],
  ['notpresent', '', '5', false],
  ['contains', '1', '1', false],
]);

table('BOOLEAN', [
  ['true', '', 'true', true],
  ['true', '', 'TRUE', true],
  ['true', '', 'True', true],
  ['true', '', 't', true],
  ['true', '', 'T', true],
  ['true', '', '1', true],
  ['true', '', 'false', false],
  ['true', '', 'yes', false],
  ['true', '', 'tRue', false],
  ['true', '', ' true', false],
  ['true', '', MISSING, false],
  ['false', '', 'false', true],
  ['false', '', 'FALSE', true],
  ['false', '', 'False', true],
  ['false', '', 'f', true],
  ['false', '', 'F', true],
  ['false', '', '0', true],
  ['false', '', 'true', false],
  ['false', '', 'no', false],
  ['false', '', MISSING, false],
  ['present', '', 'anything', true],
  ['present', '', MISSING, false],
  ['notpresent', '', MISSING, true],
  ['notpresent', '', 'true', false],
  ['eq', 'true', 'true', false],
]);

table('DATETIME', [
  ['eq', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z', true],
  ['eq', '2025-01-01T00:00:00Z', '2025-01-01T01:00:00+01:00', true],
  ['eq', '2025-01-01T00:00:00Z', '2024-12-31T19:00:00-05:00', true],
  ['eq', '2025-01-01T00:00:00Z', '2025-01-01', true],
  ['eq', '2025-01-01', '2025-01-01T00:00:00.000Z', true],
  ['eq', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00.000000001Z', false],
  ['eq', '2025-01-01T00:00:00.5Z', '2025-01-01T00:00:00,500000000999Z', true],
  ['eq', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00', false],
  ['eq', '2025-01-01T00:00:00Z', '2025-01-01t00:00:00z', false],
  ['eq', '2025-01-01T00:00:00Z', '2025-01-01 00:00:00Z', false],
  ['eq', '2025-01-01T00:00:00Z', '2025-1-01', false],
  ['eq', '2025-01-01T00:00:00Z', 'garbage', false],
  ['eq', '2025-01-01T00:00:00Z', MISSING, false],
  ['eq', 'yesterday', '2025-01-01', false],
  ['neq', '2025-01-01T00:00:00Z', '2025-01-02', true],
  ['neq', '2025-01-01T00:00:00Z', '2025-01-01', false],
  ['neq', '2025-01-01T00:00:00Z', 'garbage', false],
  ['neq', '2025-01-01T00:00:00Z', MISSING, false],
  ['lt', '2025-01-01T00:00:00Z', '2024-12-31T23:59:59.999999999Z', true],
  ['lt', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z', false],
  ['lte', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z', true],
  ['lte', '2025-01-01T00:00:00Z', '2025-01-01T00:00:01Z', false],
  ['gt', '2025-01-01T00:30:00Z', '2025-01-01T1:00:00Z', true],
  ['gt', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00.000000001Z', true],
  ['gt', '2025-01-01T00:00:00Z', '2024-02-29', false],
  ['gt', '2025-01-01T00:00:00Z', '2025-02-29', false],
  ['gt', '2025-01-01T00:00:00Z', '2025-13-01', false],
  ['gt', '2025-01-01T00:00:00Z', '2025-01-01T24:00:00Z', false],
  ['gt', '2025-01-01T00:00:00Z', '2025-01-02T00:00:00+24:00', false],
  ['gt', '2025-01-01T00:00:00Z', '2025-01-02T00:00:01+24:00', true],
  ['gte', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z', true],
  ['gte', '2025-01-01T00:00:00Z', '2024-06-01', false],
  ['gte', '0099-01-01', '0100-01-01', true],
  ['isoneof', '["2025-01-01"]', '2025-01-01', false],
  ['isnotoneof', '["2025-01-01"]', '2025-01-02', false],
  ['present', '', '2025-01-01', true],
  ['present', '', 'not a date', true],
  ['present', '', MISSING, false],
  ['notpresent', '', MISSING, true],
  ['notpresent', '', '2025-01-01', false],
]);

/** ENTITY_ID: [operator, value, entity id, expected]; the context is ignored. */
const entityRows: Array<[string, string, string, boolean]> = [
  ['eq', 'user-1', 'user-1', true],
  ['eq', 'user-1', 'user-2', false],
  ['neq', 'user-1', 'user-2', true],
  ['neq', 'user-1', '', false],
  ['contains', 'admin', 'team-admin-7', true],
  ['notcontains', 'admin', 'user-7', true],
  ['isoneof', '["a","b"]', 'b', true],
  ['isnotoneof', '["a","b"]', 'b', false],
  ['prefix', 'user-', 'user-9', true],
];
entityRows.forEach(([operator, value, entityId, expected], i) => {
  test(`ENTITY_ID #${i} ${operator} ${JSON.stringify(value)} vs entity ${JSON.stringify(entityId)} → ${expected}`, (t) => {
    // The context's `p` and `entityId` keys are deliberately different from the entity id.
    t.is(matches('ENTITY_ID', operator, value, 'not-the-entity', entityId), expected);
  });
});

test('ENTITY_ID constraints read the entity id, never the context key of the same name', (t) => {
  const compiled = compileSnapshot(
    doc(variantFlag('f', [rule(1, [segment('s', [constraint('ENTITY_ID_CONSTRAINT_COMPARISON_TYPE', 'entityId', 'eq', 'u1')])])])),
    { hash: 'murmur3' },
  );
  const r = evaluateVariant(compiled, { flagKey: 'f', entityId: 'u2', context: { entityId: 'u1' } }, ENV);
  t.false(!isFailure(r) && r.match);
});

test('context keys inherited from Object.prototype count as missing', (t) => {
  const seg = segment('s', [constraint('STRING_CONSTRAINT_COMPARISON_TYPE', 'constructor', 'notempty')]);
  const compiled = compileSnapshot(doc(variantFlag('f', [rule(1, [seg])])), { hash: 'murmur3' });
  const r = evaluateVariant(compiled, { flagKey: 'f', entityId: 'e', context: {} }, ENV);
  t.false(!isFailure(r) && r.match);
});
