/** parseAuditEvents: Flipt's `audit.events` pairs, wildcards, and the entries it refuses. */
import test from 'ava';
import { parseAuditEvents } from '../../src/audit/index.js';

test('the default *:* allows every noun and verb Flipt knows', (t) => {
  const filter = parseAuditEvents(['*:*']);
  t.is(filter.pairs.length, 9 * 3);
  t.true(filter.allows({ type: 'variant', action: 'deleted' }));
  t.true(filter.allows({ type: 'token', action: 'created' }));
});

test('a pair allows only itself; wildcards expand one side', (t) => {
  const only = parseAuditEvents(['flag:created']);
  t.deepEqual(only.pairs, ['flag:created']);
  t.false(only.allows({ type: 'flag', action: 'updated' }));
  t.false(only.allows({ type: 'variant', action: 'created' }));
  t.deepEqual(parseAuditEvents(['flag:*']).pairs, ['flag:created', 'flag:deleted', 'flag:updated']);
  const created = parseAuditEvents(['*:created', 'rule:deleted']);
  t.true(created.allows({ type: 'segment', action: 'created' }));
  t.true(created.allows({ type: 'rule', action: 'deleted' }));
  t.false(created.allows({ type: 'segment', action: 'deleted' }));
});

test('bad entries are refused with the entry named', (t) => {
  const refused: Array<[string[], RegExp]> = [
    [['flag:eaten'], /"flag:eaten" has an unknown verb "eaten"/],
    [['flags:created'], /"flags:created" has an unknown noun "flags"/],
    [['flag'], /"flag" is not a <noun>:<verb> pair/],
    [['flag:created:now'], /"flag:created:now" is not a <noun>:<verb> pair/],
    [['Flag:created'], /unknown noun "Flag"/],
    [['*:*', 'flag:created'], /"flag:created" repeats the pair flag:created/],
    [[], /empty/],
  ];
  for (const [entries, message] of refused) t.throws(() => parseAuditEvents(entries), { message }, entries.join(','));
});
