import test from 'ava';
import type { AuthorizationInput } from '@ensign/core';
import { RolePolicy, roleMappingResolver } from '../../src/index.js';

const input = (metadata: Record<string, string>, action: 'read' | 'update' = 'update'): AuthorizationInput => ({
  request: { namespace: 'prod', resource: 'flag', subject: 'flag', action, status: 'success' },
  authentication: { id: 'a', method: 2, metadata },
});

const resolve = roleMappingResolver([
  { role: 'admin', emails: ['Ops@Example.com'] },
  { role: 'editor', claims: { groups: 'flags-editors', hd: 'example.com' } },
  { role: 'viewer', organizations: ['acme'] },
  { role: 'editor', organizations: ['acme'], teams: ['acme:platform'] },
]);

test('an email matches without case; claims must all match, a list claim by containing the value', (t) => {
  t.deepEqual(resolve(input({ 'io.flipt.auth.oidc.email': 'ops@example.com' })), ['admin']);
  const claims = (c: object) => input({ 'io.flipt.auth.claims': JSON.stringify(c) });
  t.deepEqual(resolve(claims({ groups: ['staff', 'flags-editors'], hd: 'example.com' })), ['editor']);
  t.deepEqual(resolve(claims({ groups: ['flags-editors'], hd: 'other.com' })), [], 'one claim of two is not enough');
  t.deepEqual(resolve(input({ 'io.flipt.auth.claims': 'not json' })), []);
});

test('a code-host user: organization alone, or organization and team', (t) => {
  const gh = (orgs: string[], teams: Record<string, string[]>) =>
    input({ 'io.flipt.auth.github.organizations': JSON.stringify(orgs), 'io.flipt.auth.github.teams': JSON.stringify(teams) });
  t.deepEqual(resolve(gh(['acme'], {})), ['viewer']);
  t.deepEqual(resolve(gh(['acme'], { acme: ['platform'] })), ['viewer', 'editor']);
  t.deepEqual(resolve(gh(['other'], { other: ['platform'] })), []);
});

test('the role policy grants what the mapped roles allow, on top of io.flipt.auth.role', (t) => {
  const policy = new RolePolicy(
    { roles: [{ name: 'editor', rules: [{ resource: 'flag', actions: ['*'] }] }, { name: 'viewer', rules: [{ resource: '*', actions: ['read'] }] }] },
    { extraRoles: roleMappingResolver([{ role: 'editor', emails: ['dev@example.com'] }]) },
  );
  t.true(policy.allow(input({ 'io.flipt.auth.email': 'dev@example.com' })));
  t.false(policy.allow(input({ 'io.flipt.auth.email': 'someone@example.com' })));
  t.true(policy.allow(input({ 'io.flipt.auth.email': 'someone@example.com', 'io.flipt.auth.role': 'viewer' }, 'read')));
});
