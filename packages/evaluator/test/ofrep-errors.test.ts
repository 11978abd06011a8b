import test from 'ava';
import { MAX_QUOTED_INPUT } from '@ensign/core';
import { flagNotFound, ofrepErrorBody } from '../src/ofrep/ofrep-errors.js';

test('a missing flag\'s errorDetails quote a long key cut, with its length; the key field stays the key', (t) => {
  const key = 'k'.repeat(100_000);
  const body = ofrepErrorBody(flagNotFound(key));
  t.is(body.errorDetails, `flag was not found ${'k'.repeat(MAX_QUOTED_INPUT)}… (100000 characters)`);
  t.is(body.key, key);
  t.is(ofrepErrorBody(flagNotFound('beta')).errorDetails, 'flag was not found beta');
});
