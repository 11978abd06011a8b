/**
 * Change requests under authorization: who may propose (what their role may write), who may
 * approve (a role's `approve`, which `*` includes), who may bypass a protected namespace (a role's
 * `bypass`, which `*` never includes), and what a viewer may do (read).
 */
import test from 'ava';
import { type AuthorizedControlPlane, startAuthorized } from './authz-harness.js';

const ROLES = {
  roles: [
    { name: 'admin', rules: [{ resource: '*', actions: ['*'] }] },
    { name: 'author', rules: [{ resource: 'namespace', actions: ['read'] }, { resource: 'flag', actions: ['*'] }, { resource: 'segment', actions: ['*'] }] },
    { name: 'approver', rules: [{ resource: 'namespace', actions: ['read', 'approve'] }, { resource: 'flag', actions: ['read'] }, { resource: 'segment', actions: ['read'] }] },
    { name: 'releaser', rules: [{ resource: 'namespace', actions: ['read', 'bypass'] }, { resource: 'flag', actions: ['*'] }, { resource: 'segment', actions: ['*'] }] },
    { name: 'viewer', rules: [{ resource: '*', actions: ['read'] }] },
  ],
};

let cp: AuthorizedControlPlane;
const as: Record<string, Record<string, string>> = {};
const base = '/api/v1/namespaces/prod/change-requests';
const turnOn = { method: 'PUT', path: '/api/v1/namespaces/prod/flags/checkout', body: { name: 'Checkout', enabled: true } };

test.before(async () => {
  cp = await startAuthorized({ roles: ROLES, changeRequests: true });
  for (const role of ['admin', 'author', 'approver', 'releaser', 'viewer']) as[role] = await cp.tokenOf(role);
  as.otherAuthor = await cp.tokenOf('author', 'second author');
  for (const [path, body] of [
    ['/api/v1/namespaces', { key: 'prod', name: 'Production' }],
    ['/api/v1/namespaces/prod/flags', { key: 'checkout', name: 'Checkout', enabled: false }],
  ] as const) {
    const made = await cp.call('POST', path, body, as.admin!);
    if (made.status !== 200) throw new Error(made.text);
  }
  const protectedNs = await cp.call('PUT', '/api/v1/namespaces/prod/change-policy', { requiredApprovals: 1 }, as.admin!);
  if (protectedNs.status !== 200) throw new Error(protectedNs.text);
});
test.after.always(() => cp?.close());

const flagEnabled = async (): Promise<boolean> => (await cp.call('GET', '/api/v1/namespaces/prod/flags/checkout', undefined, as.viewer!)).json.enabled;

test.serial('an author proposes; neither they nor another author may approve; an approver approves; the author applies', async (t) => {
  const made = await cp.call('POST', base, { title: 'Launch', changes: [turnOn] }, as.author!);
  t.is(made.status, 200, made.text);
  t.is((await cp.call('POST', `${base}/${made.json.id}/submit`, {}, as.author!)).json.state, 'in_review');
  const own = await cp.call('POST', `${base}/${made.json.id}/approvals`, {}, as.author!);
  t.is(own.status, 403);
  const other = await cp.call('POST', `${base}/${made.json.id}/approvals`, {}, as.otherAuthor!);
  t.is(other.status, 403, 'an author without approve');
  t.like(cp.denials.at(-1)?.input.request, { namespace: 'prod', resource: 'namespace', subject: 'change_request', action: 'approve', status: 'denied' });
  const approved = await cp.call('POST', `${base}/${made.json.id}/approvals`, { digest: made.json.digest }, as.approver!);
  t.is(approved.json.state, 'approved', approved.text);
  // The changes run as whoever applies them: an approver who may not write flags cannot.
  const byApprover = await cp.call('POST', `${base}/${made.json.id}/apply`, {}, as.approver!);
  t.is(byApprover.status, 403, byApprover.text);
  t.false(await flagEnabled(), 'nothing applied');
  const applied = await cp.call('POST', `${base}/${made.json.id}/apply`, {}, as.author!);
  t.is(applied.json.state, 'applied', applied.text);
  t.true(await flagEnabled());
  const history = (await cp.call('GET', '/api/v1/namespaces/prod/audit/events?type=flag&action=updated', undefined, as.viewer!)).json.events;
  t.like(history[0], { key: 'checkout', actor: { name: 'author' }, changeRequest: { id: made.json.id, title: 'Launch', author: { name: 'author' }, approvers: [{ name: 'approver' }] } });
});

test.serial('a viewer reads requests but may neither propose writes nor approve', async (t) => {
  const proposed = await cp.call('POST', base, { title: 'By a viewer', changes: [turnOn] }, as.viewer!);
  t.is(proposed.status, 403);
  t.regex(proposed.json.message, /^changes\[0\] \(PUT \/api\/v1\/namespaces\/prod\/flags\/checkout\): /);
  const made = await cp.call('POST', base, { title: 'Off again', changes: [{ ...turnOn, body: { name: 'Checkout', enabled: false } }] }, as.author!);
  await cp.call('POST', `${base}/${made.json.id}/submit`, {}, as.author!);
  t.is((await cp.call('GET', `${base}/${made.json.id}`, undefined, as.viewer!)).status, 200);
  t.true((await cp.call('GET', base, undefined, as.viewer!)).json.changeRequests.some((r: { id: string }) => r.id === made.json.id));
  t.is((await cp.call('POST', `${base}/${made.json.id}/approvals`, {}, as.viewer!)).status, 403);
  t.is((await cp.call('POST', `${base}/${made.json.id}/rejections`, { comment: 'no' }, as.viewer!)).status, 403);
  t.is((await cp.call('PUT', '/api/v1/namespaces/prod/change-policy', { requiredApprovals: 0 }, as.viewer!)).status, 403);
});

test.serial('on a protected namespace only a role naming bypass writes directly; `*` does not bypass', async (t) => {
  const write = (who: string, name: string) => cp.call('PUT', '/api/v1/namespaces/prod/flags/checkout', { name }, as[who]!);
  const author = await write('author', 'by author');
  t.is(author.status, 403);
  t.regex(author.json.message, /namespace "prod" is protected/);
  const admin = await write('admin', 'by admin');
  t.is(admin.status, 403, 'the wildcard grants approve, never bypass');
  const releaser = await write('releaser', 'by releaser');
  t.is(releaser.status, 200, releaser.text);
  t.is((await cp.call('GET', '/api/v1/namespaces/prod/flags/checkout', undefined, as.viewer!)).json.name, 'by releaser');
  const rights = async (who: string) => (await cp.call('GET', '/api/v1/permissions?namespace=prod', undefined, as[who]!)).json.namespaces.prod.namespace;
  t.deepEqual(await rights('releaser'), ['read', 'bypass']);
  t.deepEqual(await rights('approver'), ['read', 'approve']);
  t.deepEqual(await rights('admin'), ['create', 'read', 'update', 'delete', 'approve']);
  t.is(cp.denials.filter((d) => d.input.request.action === 'bypass').length, 0, 'asking whether a caller may bypass is not a refusal');
});
