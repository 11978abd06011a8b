/**
 * Evaluation counts sent back to Ensign: per flag, value and Flipt reason, one batch per period for
 * every namespace of the same Ensign; a batch that was not stored is sent again under its id; while
 * Ensign does not store them memory stays bounded (waiting batches merged) and nothing is lost; a
 * server without the route is told nothing more; closing sends what is left.
 */
import test from 'ava';
import type { UsageBatch } from '@ensign/core';
import { eventually } from '@ensign/testkit';
import { defaultDocument, otherDocument } from '@ensign/testkit/snapshot-fixtures';
import { startEnsignDouble } from './helpers/ensign-double.js';
import { FAST, providerClient } from './helpers/provider-events.js';

/** Sums the batches' counts by `namespace/flag/value/reason`. */
function totals(batches: readonly UsageBatch[]): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const batch of batches) for (const c of batch.counts) sums[`${c.namespaceKey}/${c.flagKey}/${c.value}/${c.reason}`] = (sums[`${c.namespaceKey}/${c.flagKey}/${c.value}/${c.reason}`] ?? 0) + c.count;
  return sums;
}

const counting = (flushIntervalMs: number, maxPendingBatches = 5) => ({ counts: { flushIntervalMs, maxPendingBatches } });

test('counts per flag, value and reason, the namespaces of one Ensign in the same batches', async (t) => {
  const ensign = await startEnsignDouble([defaultDocument(), otherDocument()]);
  t.teardown(() => ensign.stop());
  const first = await providerClient({ url: ensign.url, ...FAST, ...counting(150) });
  const second = await providerClient({ url: ensign.url, namespace: 'other', ...FAST, ...counting(150) });
  t.teardown(() => Promise.all([first.provider.onClose(), second.provider.onClose()]));
  for (let i = 0; i < 3; i++) await first.client.getStringValue('color', 'x', { targetingKey: `u${i}`, plan: 'pro' });
  await first.client.getStringValue('color', 'x', { targetingKey: 'u9' });
  await first.client.getBooleanValue('five', false, { targetingKey: 'u1' });
  await first.client.getBooleanValue('missing', false, { targetingKey: 'u1' });
  await second.client.getStringValue('color', 'x', { targetingKey: 'u1' });
  t.true(await eventually(() => Object.keys(totals(ensign.batches)).length >= 4));
  t.deepEqual(totals(ensign.batches), {
    'default/color/blue/MATCH_EVALUATION_REASON': 3,
    'default/color/red/DEFAULT_EVALUATION_REASON': 1,
    'default/five/true/DEFAULT_EVALUATION_REASON': 1,
    'other/color/green/MATCH_EVALUATION_REASON': 1,
  });
  const withBoth = ensign.batches.filter((b) => new Set(b.counts.map((c) => c.namespaceKey)).size === 2);
  t.true(withBoth.length >= 1, 'one batch carries both namespaces');
});

test('a batch not stored is sent again under its id; while Ensign is away batches are merged, none lost', async (t) => {
  const ensign = await startEnsignDouble([defaultDocument()]);
  t.teardown(() => ensign.stop());
  ensign.usageStatus = 503;
  const { provider, client } = await providerClient({ url: ensign.url, ...FAST, ...counting(50, 2) });
  t.teardown(() => provider.onClose());
  let sent = 0;
  for (let round = 0; round < 8; round++) {
    const asked = ensign.usageRequests;
    for (let i = 0; i < 5; i++) await client.getBooleanValue('five', false, { targetingKey: `u${round}-${i}` });
    sent += 5;
    // Each round's counts wait for a period that tries to send them, and is refused.
    t.true(await eventually(() => ensign.usageRequests > asked), `round ${round} was tried`);
  }
  const refused = ensign.usageRequests;
  t.true(refused >= 8, `${refused} attempts while refused`);
  ensign.usageStatus = 200;
  t.true(await eventually(() => Object.values(totals(ensign.batches)).reduce((a, b) => a + b, 0) === sent));
  t.true(ensign.batches.length <= 4, `${ensign.batches.length} batches: the waiting ones were merged`);
});

test('a server without the usage route (or with analytics off) is told nothing more', async (t) => {
  const ensign = await startEnsignDouble([defaultDocument()]);
  t.teardown(() => ensign.stop());
  ensign.usageStatus = 404;
  const { provider, client } = await providerClient({ url: ensign.url, ...FAST, ...counting(50) });
  t.teardown(() => provider.onClose());
  await client.getBooleanValue('five', false, { targetingKey: 'u1' });
  t.true(await eventually(() => ensign.usageRequests === 1));
  // A provider of the same period against a server that stores counts: each of its sends marks a
  // period in which the other provider, had it kept sending, would have sent its counts too.
  const control = await startEnsignDouble([defaultDocument()]);
  t.teardown(() => control.stop());
  const controlClient = await providerClient({ url: control.url, ...FAST, ...counting(50) });
  t.teardown(() => controlClient.provider.onClose());
  for (let i = 0; i < 5; i++) {
    const controlAsked = control.usageRequests;
    await client.getBooleanValue('five', false, { targetingKey: `u${i}` });
    await controlClient.client.getBooleanValue('five', false, { targetingKey: `u${i}` });
    t.true(await eventually(() => control.usageRequests > controlAsked), `control period ${i}`);
  }
  t.is(ensign.usageRequests, 1);
});

test('closing the provider sends what it counted since the last period', async (t) => {
  const ensign = await startEnsignDouble([defaultDocument()]);
  t.teardown(() => ensign.stop());
  const { provider, client } = await providerClient({ url: ensign.url, ...FAST, ...counting(60_000) });
  await client.getBooleanValue('five', false, { targetingKey: 'u1' });
  await provider.onClose();
  t.deepEqual(totals(ensign.batches), { 'default/five/true/DEFAULT_EVALUATION_REASON': 1 });
});
