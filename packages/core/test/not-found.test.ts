import test from 'ava';
import { invalid, invalidField, MAX_QUOTED_INPUT, notFound } from '../src/index.js';

test('a not-found message quotes a long name cut, with its length, and a short one whole', (t) => {
  const key = 'k'.repeat(100_000);
  const err = notFound(`flag "default/${key}" not found`);
  t.is(err.message, `flag "default/${'k'.repeat(MAX_QUOTED_INPUT - 'default/'.length)}… (100008 characters)" not found`);
  t.is(notFound('segment "team-a/beta" not found').message, 'segment "team-a/beta" not found');
});

test('every quoted input of a refusal is cut on its own', (t) => {
  const message = notFound(`variant "${'v'.repeat(1_000)}", rule "${'r'.repeat(1_000)}" in namespace "ns" not found`).message;
  t.regex(message, /^variant "v{256}… \(1000 characters\)", rule "r{256}… \(1000 characters\)" in namespace "ns" not found$/);
  t.is(invalidField('type', `${JSON.stringify('t'.repeat(500))} is not one of a, b`).message, `invalid field type: "${'t'.repeat(256)}… (500 characters)" is not one of a, b`);
  t.is(invalid(`pageToken is not valid: ${JSON.stringify('p'.repeat(300))}`).message, `pageToken is not valid: "${'p'.repeat(256)}… (300 characters)"`);
});

test('an input holding quotes is cut between them', (t) => {
  const message = invalidField('action', JSON.stringify(`a"${'x'.repeat(1_000)}"b`)).message;
  t.true(message.length < 2 * MAX_QUOTED_INPUT, message);
});

test('a stretch already cut by its author keeps the length of the input it names', (t) => {
  const cut = `default/${'k'.repeat(MAX_QUOTED_INPUT)}… (100000 characters)`;
  t.is(notFound(`flag "${cut}" not found`).message, `flag "${cut}" not found`);
  // Only a short stretch counts as cut already: an input that merely holds the mark is cut too.
  const posing = `${'x'.repeat(10_000)}… (5 characters)`;
  t.is(notFound(`flag "${posing}" not found`).message, `flag "${'x'.repeat(MAX_QUOTED_INPUT)}… (10016 characters)" not found`);
});
