import test from 'ava';
import type { AuthorizationInput, AuthzAction, AuthzResource } from '@ensign/core';
import { parseRoleData, PolicyFileError, RolePolicy, validateRoleData, type RoleData } from '../../src/index.js';

/** Flipt's reference data (engine/testdata/rbac.json), as written. */
const FLIPT_RBAC = `{"roles":[{"name":"admin","rules":[{"resource":"*","actions":["*"]}]},
 {"name":"editor","rules":[{"resource":"namespace","actions":["read"]},{"resource":"authentication","actions":["read"]},{"resource":"flag","actions":["create","read","update","delete"]},{"resource":"segment","actions":["create","read","update","delete"]}]},
 {"name":"viewer","rules":[{"resource":"*","actions":["read"]}]},
 {"name":"namespaced_viewer","rules":[{"resource":"*","actions":["read"],"namespace":"foo"}]}]}`;

function input(role: string | undefined, resource: AuthzResource, action: AuthzAction, namespace: string | undefined = 'default', metadata: Record<string, string> = {}): AuthorizationInput {
  return {
    request: { ...(namespace === undefined ? {} : { namespace }), resource, subject: resource === 'authentication' ? 'token' : resource, action, status: 'success' },
    authentication: { id: 'a1', method: 5, metadata: { ...metadata, ...(role === undefined ? {} : { 'io.flipt.auth.role': role }) } },
  };
}

const policy = RolePolicy.fromText(FLIPT_RBAC);

const cases: Array<[role: string | undefined, resource: AuthzResource, action: AuthzAction, namespace: string | undefined, allowed: boolean]> = [
  ['admin', 'flag', 'delete', 'default', true],
  ['admin', 'authentication', 'create', 'default', true],
  ['admin', 'namespace', 'create', undefined, true],
  ['editor', 'flag', 'create', 'default', true],
  ['editor', 'segment', 'delete', 'other', true],
  ['editor', 'namespace', 'read', undefined, true],
  ['editor', 'namespace', 'create', 'default', false],
  ['editor', 'authentication', 'read', 'default', true],
  ['editor', 'authentication', 'delete', 'default', false],
  ['viewer', 'flag', 'read', 'default', true],
  ['viewer', 'namespace', 'read', undefined, true],
  ['viewer', 'flag', 'update', 'default', false],
  ['namespaced_viewer', 'flag', 'read', 'foo', true],
  ['namespaced_viewer', 'segment', 'read', 'foo', true],
  ['namespaced_viewer', 'flag', 'read', 'default', false],
  ['namespaced_viewer', 'flag', 'update', 'foo', false],
  ['namespaced_viewer', 'namespace', 'read', undefined, false],
  ['nobody', 'flag', 'read', 'default', false],
  [undefined, 'flag', 'read', 'default', false],
  ['', 'flag', 'read', 'default', false],
];

for (const [role, resource, action, namespace, allowed] of cases) {
  test(`Flipt's example data: ${role === undefined ? '(no role)' : role === '' ? '(empty role)' : role} ${action} ${resource} in ${namespace ?? '(no namespace)'} → ${allowed ? 'allowed' : 'denied'}`, (t) => {
    t.is(policy.allow(input(role, resource, action, namespace)), allowed);
  });
}

test("viewable namespaces of Flipt's example roles: everything for admin, editor and viewer, foo for namespaced_viewer, nothing without a role", (t) => {
  t.is(policy.viewableNamespaces(input('admin', 'namespace', 'read', undefined)), undefined);
  t.is(policy.viewableNamespaces(input('editor', 'namespace', 'read', undefined)), undefined);
  t.is(policy.viewableNamespaces(input('viewer', 'namespace', 'read', undefined)), undefined);
  t.deepEqual(policy.viewableNamespaces(input('namespaced_viewer', 'namespace', 'read', undefined)), ['foo']);
  t.deepEqual(policy.viewableNamespaces(input('nobody', 'namespace', 'read', undefined)), []);
  t.deepEqual(policy.viewableNamespaces(input(undefined, 'namespace', 'read', undefined)), []);
});

const TEAMS: RoleData = {
  roles: [
    { name: 'team-a', rules: [{ resource: 'flag', actions: ['*'], namespace: 'a' }, { resource: 'segment', actions: ['read'], namespace: 'shared' }] },
    { name: 'team-b', rules: [{ resource: '*', actions: ['read', 'update'], namespace: 'b' }] },
    { name: 'flags-everywhere', rules: [{ resource: 'flag', actions: ['read'] }] },
    { name: 'star-namespace', rules: [{ resource: 'namespace', actions: ['read'], namespace: '*' }] },
    { name: 'split', rules: [{ resource: 'flag', actions: ['read'] }] },
    { name: 'split', rules: [{ resource: 'segment', actions: ['create'], namespace: 'x' }] },
    { name: 'inert', rules: [{ resource: 'flag', actions: [], namespace: 'gone' }] },
  ],
};

test('namespace-restricted rules apply only in their namespace, and their union is what the role sees', (t) => {
  const teams = new RolePolicy(TEAMS);
  t.true(teams.allow(input('team-a', 'flag', 'delete', 'a')));
  t.false(teams.allow(input('team-a', 'flag', 'delete', 'b')));
  t.false(teams.allow(input('team-a', 'segment', 'update', 'shared')));
  t.true(teams.allow(input('team-a', 'segment', 'read', 'shared')));
  t.false(teams.allow(input('team-a', 'flag', 'read', undefined)), 'a request without a namespace matches only unrestricted rules');
  t.deepEqual(teams.viewableNamespaces(input('team-a', 'namespace', 'read', undefined)), ['a', 'shared']);
  t.deepEqual(teams.viewableNamespaces(input('inert', 'namespace', 'read', undefined)), [], 'a rule granting no action shows nothing');
});

test('an unrestricted rule that does not read namespaces leaves the listing to the restricted ones', (t) => {
  const teams = new RolePolicy(TEAMS);
  t.true(teams.allow(input('flags-everywhere', 'flag', 'read', 'anything')));
  t.deepEqual(teams.viewableNamespaces(input('flags-everywhere', 'namespace', 'read', undefined)), []);
  t.deepEqual(teams.viewableNamespaces(input('split', 'namespace', 'read', undefined)), ['x']);
});

test('a "*" namespace is no restriction, as in rbac.rego (it matches requests without a namespace too)', (t) => {
  const teams = new RolePolicy(TEAMS);
  t.true(teams.allow(input('star-namespace', 'namespace', 'read', undefined)));
  t.true(teams.allow(input('star-namespace', 'namespace', 'read', 'any')));
  t.is(teams.viewableNamespaces(input('star-namespace', 'namespace', 'read', undefined)), undefined);
});

test('roles of the same name add up, as Rego matches each', (t) => {
  const teams = new RolePolicy(TEAMS);
  t.true(teams.allow(input('split', 'flag', 'read', 'y')));
  t.true(teams.allow(input('split', 'segment', 'create', 'x')));
  t.false(teams.allow(input('split', 'segment', 'create', 'y')));
});

test('extra roles resolved elsewhere (a claim or group mapping) count as much as the metadata role', (t) => {
  const groups = new Map([['alice@example.com', ['team-a']], ['bob@example.com', ['team-b', 'team-a']]]);
  const teams = new RolePolicy(TEAMS, { extraRoles: (i) => groups.get(i.authentication.metadata['io.flipt.auth.email'] ?? '') ?? [] });
  const alice = (resource: AuthzResource, action: AuthzAction, ns?: string): AuthorizationInput =>
    input(undefined, resource, action, ns, { 'io.flipt.auth.email': 'alice@example.com' });
  t.true(teams.allow(alice('flag', 'create', 'a')));
  t.false(teams.allow(alice('flag', 'create', 'b')));
  const bob = input('flags-everywhere', 'segment', 'update', 'b', { 'io.flipt.auth.email': 'bob@example.com' });
  t.true(teams.allow(bob));
  t.deepEqual(teams.viewableNamespaces(bob), ['a', 'b', 'shared']);

  // Or handed in per call.
  const plain = new RolePolicy(TEAMS);
  t.false(plain.allow(input(undefined, 'flag', 'read', 'b')));
  t.true(plain.allow(input(undefined, 'flag', 'read', 'b'), ['unknown', 'team-b']));
  t.deepEqual(plain.viewableNamespaces(input(undefined, 'namespace', 'read', undefined), ['team-b']), ['b']);
  t.is(plain.viewableNamespaces(input('team-a', 'namespace', 'read', undefined), ['star-namespace']), undefined, 'one unrestricted reader shows everything');
  t.true(plain.hasRole('team-b'));
  t.false(plain.hasRole('nobody'));
});

test('parseRoleData names the file, the line and the member for each problem', (t) => {
  const bad = (text: string): PolicyFileError => {
    const err = t.throws(() => parseRoleData(text, 'data.json'), { instanceOf: PolicyFileError }) as PolicyFileError;
    t.is(err.file, 'data.json');
    return err;
  };
  const lines = ['{', '  "roles": [', '    {"name": "a", "rules": []},', '    {', '      "name": "b",', '      "rules": [', '        {"resource": "flag", "actions": "read"}', '      ]', '    }', '  ]', '}'];
  t.is(bad(lines.join('\n')).message, 'data.json:7: roles[1].rules[0].actions must be an array of strings');

  const missing = lines.map((l) => l.replace(', "actions": "read"', ''));
  t.is(bad(missing.join('\n')).message, 'data.json:7: roles[1].rules[0].actions must be an array of strings', 'a missing member at its object');
  t.is(bad('{"roles": {}}').message, 'data.json:1: roles must be an array');
  t.is(bad('[]').message, 'data.json:1: the document must be a JSON object');
  t.is(bad('{"roles":[\n{"name": 3, "rules": []}]}').message, 'data.json:2: roles[0].name must be a non-empty string');
  t.is(bad('{"roles":[{"name":"x","rules":[\n{"resource":"flag","actions":["read"],"namespace":null}]}]}').message, 'data.json:2: roles[0].rules[0].namespace must be a non-empty string when present (omit it for every namespace)');
  t.is(bad('{"roles":[{"name":"x","rules":[{"actions":["read"]}]}]}').line, 1);
});

test('JSON syntax errors are reported at their line', (t) => {
  const err = t.throws(() => parseRoleData('{\n  "roles": [\n    {"name": "a",}\n  ]\n}', 'rbac.json'), { instanceOf: PolicyFileError }) as PolicyFileError;
  t.is(err.line, 3);
  t.is(err.message, "rbac.json:3: invalid JSON: expected a member name in double quotes, found '}'");
  t.is((t.throws(() => parseRoleData('{"roles": [\n\n', 'd.json')) as PolicyFileError).line, 3);
  t.regex((t.throws(() => parseRoleData('{"roles": []} x', 'd.json')) as Error).message, /^d\.json:1: invalid JSON: expected nothing after the end/);
  t.regex((t.throws(() => parseRoleData('{"roles": ["\\q"]}', 'd.json')) as Error).message, /^d\.json:1: invalid JSON: expected a valid string/);
  t.deepEqual(parseRoleData('\ufeff{"roles": [], "other": {"__proto__": 1, "n": -1.5e2}}'), { roles: [], other: JSON.parse('{"__proto__": 1, "n": -150}') });
});

test('data handed in as objects is checked too', (t) => {
  t.throws(() => new RolePolicy({ roles: [{ name: 'x', rules: [{ resource: 'flag' }] }] } as unknown as RoleData), { message: 'role data: roles[0].rules[0].actions must be an array of strings' });
  t.throws(() => validateRoleData(null), { message: 'data: the document must be a JSON object' });
});
