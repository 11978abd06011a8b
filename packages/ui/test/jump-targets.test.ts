/** The jump bar's search: scoring, grouping and cutting, the selection keys, the shortcut, and the namespace switch keeping the page kind. */
import test from 'ava';
import {
  flattenGroups,
  isJumpShortcut,
  type JumpTarget,
  markMatches,
  moveSelection,
  namespaceSection,
  rankTargets,
  scoreTarget,
  shortcutLabel,
} from '../src/lib/jump-targets.js';

const flag = (key: string, name = key): JumpTarget => ({ kind: 'flag', id: key, key, name, path: `/f/${key}` });
const segment = (key: string, name = key): JumpTarget => ({ kind: 'segment', id: key, key, name, path: `/s/${key}` });
const page = (name: string, keywords: string[] = []): JumpTarget => ({ kind: 'page', id: name, name, keywords, path: `/p/${name}` });
const namespace = (key: string, name = key): JumpTarget => ({ kind: 'namespace', id: key, key, name, path: `/n/${key}` });

const keys = (targets: JumpTarget[], query: string, limit?: number) => rankTargets(targets, query, limit).map((g) => [g.kind, g.matches.map((m) => m.target.id)]);

test('a match is scored: exact, key prefix, name prefix, word start, anywhere, every word', (t) => {
  const f = flag('new-checkout', 'Checkout redesign');
  t.is(scoreTarget(f, 'new-checkout'), 0);
  t.is(scoreTarget(f, 'checkout redesign'), 0, 'the name whole');
  t.is(scoreTarget(f, 'new-ch'), 1);
  t.is(scoreTarget(f, 'checkout re'), 2);
  t.is(scoreTarget(f, 'checkout'), 2, 'starts the name');
  t.is(scoreTarget(flag('new-checkout', 'Other'), 'checkout'), 3, 'starts a word of the key');
  t.is(scoreTarget(f, 'eckou'), 4);
  t.is(scoreTarget(f, 'redesign new'), 5, 'every word, in any order');
  t.is(scoreTarget(f, 'redesign old'), undefined, 'a word that is nowhere');
  t.is(scoreTarget(f, 'x'), undefined);
  t.is(scoreTarget(f, ''), 0, 'nothing typed matches everything');
  t.is(scoreTarget(page('API tokens', ['settings', 'credentials']), 'sett'), 3, 'a keyword finds a page');
  t.is(scoreTarget(page('Console'), 'console'), 0, 'any case');
});

test('results are grouped by kind, best first, shorter keys before longer ones, and cut to the limit', (t) => {
  const targets = [flag('checkout-v2'), flag('old-checkout'), flag('checkout'), segment('checkout-users'), page('Flags'), namespace('shop')];
  t.deepEqual(keys(targets, 'checkout'), [
    ['flag', ['checkout', 'checkout-v2', 'old-checkout']],
    ['segment', ['checkout-users']],
  ]);
  const many = Array.from({ length: 20 }, (_, i) => flag(`beta-${String(i).padStart(2, '0')}`));
  const [group] = rankTargets(many, 'beta');
  t.is(group?.matches.length, 8, 'at most 8 shown');
  t.is(group?.total, 20, 'and how many matched in all');
  t.is(rankTargets(many, 'beta', 3)[0]?.matches.length, 3);
});

test('the group with the best match comes first; equal ones keep flags, segments, pages, namespaces', (t) => {
  const targets = [flag('console-logging'), segment('console-users'), page('Console'), namespace('default')];
  t.deepEqual(
    keys(targets, 'console').map(([kind]) => kind),
    ['page', 'flag', 'segment'],
    'the page named exactly so leads',
  );
  t.deepEqual(
    keys(targets, '').map(([kind]) => kind),
    ['flag', 'segment', 'page', 'namespace'],
  );
});

test('nothing typed lists each group in its own order', (t) => {
  const targets = [flag('zeta'), flag('alpha'), page('Flags'), page('Segments')];
  t.deepEqual(keys(targets, '   '), [
    ['flag', ['zeta', 'alpha']],
    ['page', ['Flags', 'Segments']],
  ]);
});

test('no match leaves no group', (t) => {
  t.deepEqual(rankTargets([flag('a'), page('Flags')], 'nothing like it'), []);
  t.deepEqual(flattenGroups([]), []);
});

test('the options flatten in the order shown', (t) => {
  const groups = rankTargets([segment('beta'), flag('beta-banner'), flag('beta')], 'beta');
  t.deepEqual(
    flattenGroups(groups).map((m) => `${m.target.kind}:${m.target.id}`),
    ['flag:beta', 'flag:beta-banner', 'segment:beta'],
  );
});

test('the arrows wrap around, the page keys stop at the ends', (t) => {
  t.is(moveSelection(0, 3, 'ArrowDown'), 1);
  t.is(moveSelection(2, 3, 'ArrowDown'), 0);
  t.is(moveSelection(0, 3, 'ArrowUp'), 2);
  t.is(moveSelection(1, 12, 'PageDown'), 6);
  t.is(moveSelection(9, 12, 'PageDown'), 11);
  t.is(moveSelection(3, 12, 'PageUp'), 0);
  t.is(moveSelection(0, 0, 'ArrowDown'), 0, 'no options');
  t.is(moveSelection(7, 3, 'ArrowUp'), 1, 'an index past the end (the list shrank) counts from the last');
});

test('Ctrl-K and ⌘K are the shortcut, also on layouts without Latin letters; Alt or Shift make another', (t) => {
  const press = (key: string, code: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }>) =>
    isJumpShortcut({ key, code, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods });
  t.true(press('k', 'KeyK', { ctrlKey: true }));
  t.true(press('k', 'KeyK', { metaKey: true }));
  t.true(press('K', 'KeyK', { ctrlKey: true }), 'with Caps Lock');
  t.true(press('л', 'KeyK', { ctrlKey: true }), 'Cyrillic');
  t.true(press('k', 'KeyV', { ctrlKey: true }), 'Dvorak: the K');
  t.false(press('t', 'KeyK', { ctrlKey: true }), 'Dvorak: the T in K’s place');
  t.false(press('k', 'KeyK', {}), 'a plain k');
  t.false(press('k', 'KeyK', { ctrlKey: true, shiftKey: true }));
  t.false(press('k', 'KeyK', { ctrlKey: true, altKey: true }));
  t.false(press('j', 'KeyJ', { ctrlKey: true }));
});

test('the shortcut is written as the system writes it', (t) => {
  t.is(shortcutLabel('MacIntel'), '⌘K');
  t.is(shortcutLabel('iPhone'), '⌘K');
  t.is(shortcutLabel('Linux x86_64'), 'Ctrl K');
  t.is(shortcutLabel('Win32'), 'Ctrl K');
  t.is(shortcutLabel(''), 'Ctrl K');
});

test('switching namespace keeps the kind of page', (t) => {
  t.is(namespaceSection('/namespaces/default/flags'), 'flags');
  t.is(namespaceSection('/namespaces/default/flags/checkout/usage'), 'flags');
  t.is(namespaceSection('/namespaces/a/segments/beta'), 'segments');
  t.is(namespaceSection('/namespaces/a/console'), 'console');
  t.is(namespaceSection('/namespaces/a/activity'), 'activity');
  t.is(namespaceSection('/settings/tokens'), 'flags');
  t.is(namespaceSection('/namespaces/a/flagsx'), 'flags');
  t.is(namespaceSection('/namespaces/a/segmentsx'), 'flags', 'not a section by its prefix');
});

test('the typed phrase is marked where it first occurs, else each word', (t) => {
  const shown = (text: string, query: string) => markMatches(text, query).map((r) => (r.mark ? `[${r.text}]` : r.text)).join('');
  t.is(shown('new-checkout', 'CHECK'), 'new-[check]out');
  t.is(shown('Checkout redesign', 'redesign check'), '[Check]out [redesign]');
  t.is(shown('beta', ''), 'beta');
  t.is(shown('beta', 'zzz'), 'beta');
  t.is(shown('İstanbul', 'stan'), 'İstanbul', 'a letter that lower-cases longer marks nothing rather than the wrong letters');
});
