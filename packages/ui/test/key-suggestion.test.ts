import test from 'ava';
import { keyFollowingName, suggestKey } from '../src/lib/key-suggestion.js';

test('a key from a name: lower case, words joined by dashes, only allowed characters', (t) => {
  t.is(suggestKey('New checkout flow'), 'new-checkout-flow');
  t.is(suggestKey('Beta Testers (EU)'), 'beta-testers-eu');
  t.is(suggestKey('  Dark mode (beta)! '), 'dark-mode-beta');
  t.is(suggestKey('Crème brûlée v2'), 'creme-brulee-v2');
  t.is(suggestKey('  Crème brûlée  '), 'creme-brulee');
  t.is(suggestKey('snake_case stays'), 'snake_case-stays');
  t.regex(suggestKey('Ünïcödé & more!'), /^[-_,A-Za-z0-9]+$/);
  t.is(suggestKey('日本'), '');
  t.is(suggestKey('***'), '');
  t.is(suggestKey(''), '');
});

test('a key never passes the service limit of 255 characters nor ends with a dash', (t) => {
  const key = suggestKey(`${'a'.repeat(254)} b`);
  t.is(key, 'a'.repeat(254));
  t.is(suggestKey('x'.repeat(300)).length, 255);
  t.true(suggestKey('word '.repeat(100)).length <= 255);
  t.regex(suggestKey('word '.repeat(100)), /^[-_,A-Za-z0-9]+$/);
  t.false(suggestKey('word '.repeat(100)).endsWith('-'));
});

test('the key follows the name until the user makes it their own', (t) => {
  t.is(keyFollowingName('', '', 'B'), 'b');
  t.is(keyFollowingName('B', 'b', 'Beta users'), 'beta-users');
  t.is(keyFollowingName('Beta users', 'beta', 'Beta users now'), 'beta', 'an edited key is kept');
  t.is(keyFollowingName('Beta', '', 'Beta 2'), 'beta-2', 'a cleared key follows again');
});
