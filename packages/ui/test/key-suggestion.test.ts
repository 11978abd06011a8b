import test from 'ava';
import { suggestKey } from '../src/lib/key-suggestion.js';

test('a key from a name: lower case, words joined by dashes, only allowed characters', (t) => {
  t.is(suggestKey('New checkout flow'), 'new-checkout-flow');
  t.is(suggestKey('  Dark mode (beta)! '), 'dark-mode-beta');
  t.is(suggestKey('Crème brûlée v2'), 'creme-brulee-v2');
  t.is(suggestKey('snake_case stays'), 'snake_case-stays');
  t.is(suggestKey('日本'), '');
  t.is(suggestKey(''), '');
});

test('a key never passes the service limit of 255 characters nor ends with a dash', (t) => {
  const key = suggestKey(`${'a'.repeat(254)} b`);
  t.is(key, 'a'.repeat(254));
  t.true(suggestKey('word '.repeat(100)).length <= 255);
  t.regex(suggestKey('word '.repeat(100)), /^[-_,A-Za-z0-9]+$/);
  t.false(suggestKey('word '.repeat(100)).endsWith('-'));
});
