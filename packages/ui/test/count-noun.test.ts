import test from 'ava';
import { countNoun } from '../src/lib/count-noun.js';

test('a count takes the plural noun unless it is one', (t) => {
  t.is(countNoun(0, 'rule'), '0 rules');
  t.is(countNoun(1, 'rule'), '1 rule');
  t.is(countNoun(3, 'variant'), '3 variants');
});
