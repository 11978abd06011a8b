import type { Permissions } from '@ensign/core';
import test from 'ava';
import { ABILITIES, type Ability, allows, createsNamespaces, granted, permissionsOf, UNRESTRICTED } from '../src/lib/permissions.js';

const ALL = ['create', 'read', 'update', 'delete'] as const;
const READ = ['read'] as const;

/** Flipt's example roles over two namespaces, as `/api/v1/permissions` answers them. */
const viewer: Permissions = {
  authorizationRequired: true,
  namespaces: {
    default: { namespace: [...READ], flag: [...READ], segment: [...READ] },
    production: { namespace: [...READ], flag: [...READ], segment: [...READ] },
  },
  authentication: [...READ],
};
const editor: Permissions = {
  authorizationRequired: true,
  namespaces: {
    default: { namespace: [...READ], flag: [...ALL], segment: [...ALL] },
    production: { namespace: [...READ], flag: [...ALL], segment: [...ALL] },
  },
  authentication: [...READ],
};
const admin: Permissions = {
  authorizationRequired: true,
  namespaces: { default: { namespace: [...ALL], flag: [...ALL], segment: [...ALL] }, production: { namespace: [...ALL], flag: [...ALL], segment: [...ALL] } },
  authentication: [...ALL],
};

const everyAbility = Object.keys(ABILITIES) as Ability[];

test('a viewer may only read: every ability that writes is refused, export and seeing tokens are not', (t) => {
  const allowed = everyAbility.filter((what) => allows(viewer, what, 'production'));
  t.deepEqual(allowed, ['namespace.export', 'token.read']);
});

test('an editor changes flags and segments everywhere it may go, but not namespaces or tokens', (t) => {
  for (const what of ['flag.create', 'flag.update', 'flag.delete', 'variant.create', 'rule.create', 'rule.order', 'distribution.update', 'rollout.delete', 'segment.create', 'constraint.update', 'namespace.import', 'flag.copy', 'segment.copy'] as const) {
    t.true(allows(editor, what, 'production'), what);
  }
  for (const what of ['namespace.create', 'namespace.update', 'namespace.delete', 'token.create', 'token.delete'] as const) t.false(allows(editor, what, 'production'), what);
  t.true(allows(editor, 'token.read'));
});

test('an admin may do everything, including creating namespaces', (t) => {
  for (const what of everyAbility) t.true(allows(admin, what, 'default'), what);
});

test('a namespace the answer does not list grants nothing while authorization is on', (t) => {
  t.false(allows(admin, 'flag.create', 'staging'));
  t.false(allows(admin, 'flag.update', undefined));
  t.false(granted(admin, 'flag', 'read', 'staging'));
});

test('without authorization every namespace allows everything; tokens still follow the list (a namespace-scoped session has none)', (t) => {
  const scoped: Permissions = { authorizationRequired: false, namespaces: { team: { namespace: [...ALL], flag: [...ALL], segment: [...ALL] } }, authentication: [] };
  t.true(allows(scoped, 'flag.delete', 'team'));
  t.true(allows(scoped, 'flag.delete', 'anywhere'), 'the service, not the UI, holds it to its namespace');
  t.false(allows(scoped, 'token.read'));
  t.false(allows(scoped, 'token.create'));
  for (const what of everyAbility) t.true(allows(UNRESTRICTED, what, 'x'), `unrestricted: ${what}`);
});

test('Flipt checks distributions as the segment: a role with flag rights only may edit rules but not their split, nor add a rule with one', (t) => {
  const flagsOnly: Permissions = { authorizationRequired: true, namespaces: { default: { namespace: [...READ], flag: [...ALL], segment: [...READ] } }, authentication: [] };
  t.true(allows(flagsOnly, 'rule.update', 'default'));
  t.true(allows(flagsOnly, 'rule.order', 'default'));
  t.false(allows(flagsOnly, 'distribution.update', 'default'));
  t.false(allows(flagsOnly, 'rule.create', 'default'));
  const segmentUpdateOnly: Permissions = { authorizationRequired: true, namespaces: { default: { namespace: [], flag: [...ALL], segment: ['read', 'update'] } }, authentication: [] };
  t.false(allows(segmentUpdateOnly, 'distribution.update', 'default'), 'a new split may create and delete distributions too');
});

test('a copy or an import needs every change an import may make, in the target', (t) => {
  const createsOnly: Permissions = { authorizationRequired: true, namespaces: { other: { namespace: [...READ], flag: ['read', 'create'], segment: ['read', 'create'] } }, authentication: [] };
  t.false(allows(createsOnly, 'flag.copy', 'other'));
  t.false(allows(createsOnly, 'namespace.import', 'other'));
  const importsBlind: Permissions = { authorizationRequired: true, namespaces: { other: { namespace: [], flag: ['create', 'update', 'delete'], segment: ['create', 'update', 'delete'] } }, authentication: [] };
  t.true(allows(importsBlind, 'namespace.import', 'other'));
  t.false(allows(importsBlind, 'flag.copy', 'other'), 'the copy first reads whether the key is free there');
});

test('creating a namespace needs the grant in every namespace listed (a rule tied to none)', (t) => {
  t.true(createsNamespaces(admin));
  t.false(createsNamespaces(editor));
  const oneOnly: Permissions = { ...admin, namespaces: { default: admin.namespaces['default']!, production: viewer.namespaces['production']! } };
  t.false(createsNamespaces(oneOnly));
  t.false(createsNamespaces({ authorizationRequired: true, namespaces: {}, authentication: [] }), 'nothing listed: nothing known');
  t.true(createsNamespaces({ authorizationRequired: false, namespaces: {}, authentication: [] }));
});

test('the answer is read defensively', (t) => {
  for (const body of [undefined, null, 'permission denied', [], 42]) t.deepEqual(permissionsOf(body), UNRESTRICTED, JSON.stringify(body));
  t.deepEqual(
    permissionsOf({ authorizationRequired: true, namespaces: { default: { flag: ['read', 'fly', 'update', 7], segment: 'read' }, odd: null }, authentication: ['read', 'admin'] }),
    {
      authorizationRequired: true,
      namespaces: { default: { namespace: [], flag: ['read', 'update'], segment: [] }, odd: { namespace: [], flag: [], segment: [] } },
      authentication: ['read'],
    },
  );
  t.deepEqual(permissionsOf({ authorizationRequired: true, namespaces: {} }).authentication, [], 'tokens unknown while authorization is on: none');
  t.deepEqual(permissionsOf({ authorizationRequired: false, namespaces: {} }).authentication, ['create', 'read', 'update', 'delete']);
  t.deepEqual(permissionsOf(viewer), viewer);
});
