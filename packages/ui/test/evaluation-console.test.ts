import test from 'ava';
import {
  addToHistory,
  contextOf,
  curlCommand,
  type HistoryEntry,
  kindOfFlag,
  parseHistory,
  prettyAttachment,
  randomEntityId,
  reasonText,
  rowsOf,
  shellQuote,
} from '../src/lib/evaluation-console.js';

const body = { namespaceKey: 'team a', flagKey: 'checkout', entityId: "o'brien", context: { plan: 'pro', note: `it's "quoted" $HOME` } };

test('context rows become the context; keyless rows are left out', (t) => {
  t.deepEqual(contextOf([{ key: 'plan', value: 'pro' }, { key: '', value: 'x' }, { key: ' age ', value: '' }, { key: 'plan', value: 'free' }]), { plan: 'free', age: '' });
  t.deepEqual(rowsOf({ a: '1' }), [{ key: 'a', value: '1' }, { key: '', value: '' }]);
});

test('words are quoted for a POSIX shell', (t) => {
  t.is(shellQuote('plain'), `'plain'`);
  t.is(shellQuote(`it's`), `'it'\\''s'`);
  t.is(shellQuote('$HOME `x` "y"'), `'$HOME \`x\` "y"'`);
});

test('the curl command names the route and carries the body exactly', (t) => {
  const text = curlCommand({ origin: 'https://flags.example.com/', kind: 'variant', body, withToken: false });
  t.true(text.startsWith(`curl -X POST 'https://flags.example.com/evaluate/v1/namespaces/team%20a/variant'`));
  t.notRegex(text, /Authorization/);
  const quoted = text.match(/-d ('(?:[^']|'\\'')*')$/)?.[1] ?? '';
  const unquoted = quoted.slice(1, -1).replaceAll(`'\\''`, `'`);
  t.deepEqual(JSON.parse(unquoted), body);

  const signedIn = curlCommand({ origin: 'http://localhost:8080', kind: 'boolean', body, withToken: true });
  t.regex(signedIn, /\/evaluate\/v1\/namespaces\/team%20a\/boolean'/);
  t.regex(signedIn, /-H "Authorization: Bearer \$ENSIGN_TOKEN"/);
});

test('reasons read as words, by kind of flag', (t) => {
  t.is(reasonText('variant', 'MATCH_EVALUATION_REASON'), 'Matched a rule');
  t.is(reasonText('boolean', 'MATCH_EVALUATION_REASON'), 'Matched a rollout');
  t.regex(reasonText('variant', 'DEFAULT_EVALUATION_REASON'), /default/);
  t.is(reasonText('boolean', 'FLAG_DISABLED_EVALUATION_REASON'), 'The flag is disabled');
  t.is(reasonText('variant', 'UNKNOWN_EVALUATION_REASON'), 'No rule matched, and the flag has no default variant');
  t.is(reasonText('boolean', 'UNKNOWN_EVALUATION_REASON'), 'Unknown reason');
  t.is(reasonText('variant', 'SOMETHING_NEW'), 'SOMETHING_NEW');
  t.is(kindOfFlag('BOOLEAN_FLAG_TYPE'), 'boolean');
  t.is(kindOfFlag('VARIANT_FLAG_TYPE'), 'variant');
});

test('attachments are pretty-printed when they are JSON', (t) => {
  t.is(prettyAttachment('{"a":[1,2]}'), '{\n  "a": [\n    1,\n    2\n  ]\n}');
  t.is(prettyAttachment(''), '');
  t.is(prettyAttachment('not json'), 'not json');
});

test('the history keeps the last runs, newest first, without repeats', (t) => {
  const entry = (flagKey: string, context: Record<string, string> = {}): HistoryEntry => ({
    kind: 'variant',
    body: { namespaceKey: 'default', flagKey, entityId: 'u1', context },
    summary: flagKey,
    at: '2026-01-01T00:00:00Z',
  });
  let history: HistoryEntry[] = [];
  for (const key of ['a', 'b', 'c']) history = addToHistory(history, entry(key), 2);
  t.deepEqual(history.map((e) => e.body.flagKey), ['c', 'b']);
  history = addToHistory(history, entry('b'), 2);
  t.deepEqual(history.map((e) => e.body.flagKey), ['b', 'c'], 'a repeated run moves to the top');
  history = addToHistory(history, entry('b', { plan: 'pro' }), 3);
  t.is(history.length, 3, 'another context is another entry');
  t.deepEqual(parseHistory(JSON.stringify(history)), history);
  t.deepEqual(parseHistory('{"not":"a list"}'), []);
  t.deepEqual(parseHistory('[{"kind":"variant"}]'), []);
  t.deepEqual(parseHistory(null), []);
});

test('random entity ids are version 4 UUIDs, different each time', (t) => {
  const a = randomEntityId();
  t.regex(a, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  t.not(randomEntityId(), a);
});
