import test from 'ava';
import { USAGE_STATUS_LABEL, usageStatusExplanation } from '../src/lib/usage-status.js';

test('each status says what it means over the window', (t) => {
  t.deepEqual(Object.values(USAGE_STATUS_LABEL), ['New', 'Active', 'Inactive', 'Launched']);
  t.is(usageStatusExplanation('inactive', '30 days', { stale: true }), 'Inactive: not evaluated in the last 30 days. Stale: a candidate for removal.');
  t.is(usageStatusExplanation('new', '7 days'), 'New: created in the last 7 days, so too young to judge.');
  t.is(usageStatusExplanation('active', '90 days'), 'Active: evaluated in the last 90 days, serving more than one value.');
  t.is(usageStatusExplanation('launched', '30 days', { value: 'true' }), 'Launched: served "true" to every evaluation in the last 30 days.');
  t.is(usageStatusExplanation('launched', '30 days', { value: '' }), 'Launched: served "no variant" to every evaluation in the last 30 days.');
  t.is(usageStatusExplanation('launched', '30 days'), 'Launched: served one value to every evaluation in the last 30 days.');
});
