import test from 'ava';
import { keyParts } from '../src/lib/key-parts.js';

test('a key is cut after its underscores, dots, commas, slashes and colons, and after a hyphen before a number', (t) => {
  t.deepEqual(keyParts('enable_new_checkout_flow_2026_q3'), ['enable_', 'new_', 'checkout_', 'flow_', '2026_', 'q3']);
  t.deepEqual(keyParts('layout.single-page'), ['layout.', 'single-page']);
  t.deepEqual(keyParts('region-eu-2026'), ['region-eu-', '2026']);
  t.deepEqual(keyParts('a,b/c:d'), ['a,', 'b/', 'c:', 'd']);
});

test('a key without those stays whole, and the parts put together are the key', (t) => {
  t.deepEqual(keyParts('checkout'), ['checkout']);
  t.deepEqual(keyParts('checkout-redesign'), ['checkout-redesign']);
  const key = '__trailing_.';
  t.is(keyParts(key).join(''), key);
});
