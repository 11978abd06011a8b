/**
 * COMPAT(flipt): a real `ensign server` answers an empty `{ns}` segment as the `default`
 * namespace, as Flipt's gateway does (Flipt's Go SDK sends `/api/v1/namespaces//evaluate`): the
 * management API and the legacy evaluate routes, which two different handlers serve, agree.
 */
import test from 'ava';
import { useEnsign } from '../helpers/ui-browser.js';

const ensign = useEnsign(test);

test('management and legacy evaluation read an empty namespace segment as default', async (t) => {
  const { api } = ensign;
  const created = await api.post('/api/v1/namespaces//flags', { key: 'sdk-flag', name: 'SDK flag', enabled: true });
  t.is(created.status, 200, created.text);
  t.like(created.body, { key: 'sdk-flag', namespaceKey: 'default' });
  const variant = await api.post('/api/v1/namespaces//flags/sdk-flag/variants', { key: 'on', name: 'On' });
  t.is(variant.status, 200, variant.text);
  await api.put('/api/v1/namespaces//flags/sdk-flag', { name: 'SDK flag', enabled: true, defaultVariantId: variant.body.id });

  const listed = await api.get('/api/v1/namespaces//flags');
  t.is(listed.status, 200, listed.text);
  t.deepEqual(listed.body.flags.map((f: { key: string }) => f.key), ['sdk-flag']);

  const single = await api.post('/api/v1/namespaces//evaluate', { flagKey: 'sdk-flag', entityId: 'u1' });
  t.is(single.status, 200, single.text);
  t.like(single.body, { flagKey: 'sdk-flag', value: 'on', reason: 'DEFAULT_EVALUATION_REASON' });
  const batch = await api.post('/api/v1/namespaces//batch-evaluate', { requests: [{ flagKey: 'sdk-flag', entityId: 'u1' }] });
  t.is(batch.status, 200, batch.text);
  t.like(batch.body.responses[0], { flagKey: 'sdk-flag', value: 'on' });
});
