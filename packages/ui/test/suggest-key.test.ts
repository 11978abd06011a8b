import test from 'ava';
import { keyFollowingName, suggestKey } from '../src/lib/suggest-key.js';

test('a key is suggested from the name in the characters keys allow', (t) => {
  t.is(suggestKey('Beta Testers (EU)'), 'beta-testers-eu');
  t.is(suggestKey('  Crème brûlée  '), 'creme-brulee');
  t.is(suggestKey('snake_case stays'), 'snake_case-stays');
  t.is(suggestKey('***'), '');
  t.regex(suggestKey('Ünïcödé & more!'), /^[-_,A-Za-z0-9]+$/);
  t.is(suggestKey('x'.repeat(300)).length, 255);
});

test('the key follows the name until the user makes it their own', (t) => {
  t.is(keyFollowingName('', '', 'B'), 'b');
  t.is(keyFollowingName('B', 'b', 'Beta users'), 'beta-users');
  t.is(keyFollowingName('Beta users', 'beta', 'Beta users now'), 'beta', 'an edited key is kept');
  t.is(keyFollowingName('Beta', '', 'Beta 2'), 'beta-2', 'a cleared key follows again');
});
