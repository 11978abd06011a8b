/**
 * Change requests on `ensign server`: a request scheduled to apply is applied at its time by the
 * server itself, as the scheduler, and evaluations follow.
 */
import test from 'ava';
import { type EnsignProcess, eventually, jsonClient, startEnsign } from '@ensign/testkit';
import { createNamespace, ok } from '../helpers/api.js';

let server: EnsignProcess;
test.before(async () => {
  server = await startEnsign({ env: { ENSIGN_DB_POLL_INTERVAL: '200ms' } });
});
test.after.always(() => server?.stop());

test('a scheduled change request is applied at its time by the server, recorded as the scheduler, and evaluated', async (t) => {
  const api = jsonClient(server.baseUrl);
  const ns = await createNamespace(api, 'cr');
  ok(await api.post(`/api/v1/namespaces/${ns}/flags`, { key: 'launch', name: 'Launch', type: 'BOOLEAN_FLAG_TYPE', enabled: false }));
  ok(await api.put(`/api/v1/namespaces/${ns}/change-policy`, { requiredApprovals: 1 }));
  const base = `/api/v1/namespaces/${ns}/change-requests`;
  const made = ok<{ id: string; digest: string }>(await api.post(base, { title: 'Launch at noon', changes: [{ method: 'PUT', path: `/api/v1/namespaces/${ns}/flags/launch`, body: { name: 'Launch', enabled: true } }] }));
  ok(await api.post(`${base}/${made.id}/submit`, {}));
  ok(await api.post(`${base}/${made.id}/approvals`, { digest: made.digest }));
  const applyAt = new Date(Date.now() + 1_500).toISOString();
  t.is(ok<{ state: string }>(await api.post(`${base}/${made.id}/apply`, { applyAt })).state, 'scheduled');

  const evaluate = async () => ok<{ enabled: boolean }>(await api.post('/evaluate/v1/boolean', { namespaceKey: ns, flagKey: 'launch', entityId: 'u1', context: {} })).enabled;
  t.false(await evaluate(), 'off until its time');
  t.true(await eventually(async () => ok<{ state: string }>(await api.get(`${base}/${made.id}`)).state === 'applied'), 'applied by the server');
  t.true(Date.now() >= Date.parse(applyAt), 'not before its time');
  t.true(await eventually(evaluate), 'evaluations follow');
  const [record] = ok<{ events: Array<Record<string, unknown>> }>(await api.get(`/api/v1/namespaces/${ns}/audit/events?type=flag&action=updated`)).events;
  t.like(record, { key: 'launch', actor: { method: 'METHOD_SCHEDULE', authenticationId: made.id }, changeRequest: { id: made.id, title: 'Launch at noon' } });
});
