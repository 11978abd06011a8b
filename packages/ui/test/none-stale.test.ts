import test from 'ava';
import { type ListedUsage, noneStaleFacts, noneStaleText } from '../src/lib/none-stale.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-05-10T12:00:00Z');
const listed = (entries: Array<[string, ListedUsage['status'], number]>): Map<string, ListedUsage> =>
  new Map(entries.map(([key, status, daysAgo]) => [key, { status, createdAt: new Date(NOW - daysAgo * DAY).toISOString() }]));
const wording = { windowText: '30 days', filtered: false, now: NOW, timeZone: 'UTC' };

test('every flag new: how many, and when the one created first stops being new', (t) => {
  const usage = listed([['b-flag', 'new', 2], ['a-flag', 'new', 5], ['c-flag', 'new', 1]]);
  const facts = noneStaleFacts(['a-flag', 'b-flag', 'c-flag'], usage, 30 * DAY);
  t.deepEqual(facts, { matching: 3, fresh: 3, active: 0, first: { key: 'a-flag', judgedFrom: NOW + 25 * DAY } });
  t.deepEqual(noneStaleText(facts, wording), {
    title: 'No stale flags yet',
    sentences: ['All 3 flags are new: created in the last 30 days, too young to judge.', 'The first of them, “a-flag”, stops being new on 2026-06-04 12:00 UTC (in 25 days).'],
  });
});

test('some new, the rest in use; one flag; flags the search leaves', (t) => {
  const usage = listed([['new-one', 'new', 29.5], ['used', 'active', 90], ['used-too', 'active', 60]]);
  t.deepEqual(noneStaleText(noneStaleFacts(['new-one', 'used', 'used-too'], usage, 30 * DAY), wording)?.sentences, [
    '1 of the 3 flags is new: created in the last 30 days, too young to judge.',
    '“new-one” stops being new on 2026-05-11 00:00 UTC (in 12 hours).',
    'The other 2 were evaluated in the last 30 days and served more than one value.',
  ]);
  t.deepEqual(noneStaleText(noneStaleFacts(['new-one'], usage, 30 * DAY), { ...wording, filtered: true })?.sentences[0], 'The flag that matches the search and filters is new: created in the last 30 days, too young to judge.');
  t.deepEqual(noneStaleText(noneStaleFacts(['used', 'used-too'], usage, 30 * DAY), { ...wording, filtered: true }), {
    title: 'No stale flags',
    sentences: ['All 2 flags that match the search and filters were evaluated in the last 30 days and served more than one value, so none is stale.'],
  });
});

test('nothing to explain: no flag left by the search, or flags the listing does not know yet', (t) => {
  const usage = listed([['new-one', 'new', 1]]);
  t.is(noneStaleText(noneStaleFacts([], usage, 30 * DAY), wording), undefined);
  t.is(noneStaleText(noneStaleFacts(['new-one', 'just-made'], usage, 30 * DAY), wording), undefined);
});
