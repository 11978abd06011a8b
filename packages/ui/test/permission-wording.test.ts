import test from 'ava';
import { deniedHint, holdersOf, roleOf } from '../src/lib/permission-wording.js';
import { ABILITIES, type Ability } from '../src/lib/permissions.js';

test('the reason says who, from the role, and where', (t) => {
  t.is(deniedHint('viewer', 'flag.create', 'production'), "Viewers can't create flags in production");
  t.is(deniedHint('editor', 'namespace.create', 'production'), "Editors can't create namespaces");
  t.is(deniedHint('editor', 'token.create', ''), "Editors can't create API tokens");
  t.is(deniedHint('viewer', 'namespace.delete', 'staging'), "Viewers can't delete the namespace staging");
  t.is(deniedHint('viewer', 'namespace.import', 'staging'), "Viewers can't import into staging");
  t.is(deniedHint('viewer', 'distribution.update', 'default'), "Viewers can't change rule distributions in default");
  t.is(deniedHint('viewer', 'flag.copy', 'default'), "Viewers can't copy flags to another namespace");
});

test('without a role the session is addressed as you', (t) => {
  t.is(deniedHint(undefined, 'flag.update', 'production'), "You can't edit flags in production");
  t.is(deniedHint(undefined, 'segment.delete', 'shop'), "You can't delete segments in shop");
});

test('a role is read from the io.flipt.auth.role metadata', (t) => {
  t.is(roleOf({ 'io.flipt.auth.role': 'viewer', 'io.flipt.auth.token.name': 'looker' }), 'viewer');
  t.is(roleOf({ 'io.flipt.auth.role': '  editor ' }), 'editor');
  t.is(roleOf({ 'io.flipt.auth.role': '' }), undefined);
  t.is(roleOf({}), undefined);
  t.is(roleOf(undefined), undefined);
});

test('a role names its holders in the plural; a name that is not words is quoted', (t) => {
  t.is(holdersOf('viewer'), 'Viewers');
  t.is(holdersOf('admin'), 'Admins');
  t.is(holdersOf('release manager'), 'Release managers');
  t.is(holdersOf('proxy'), 'Proxies');
  t.is(holdersOf('boss'), 'Bosses');
  t.is(holdersOf('day'), 'Days');
  t.is(holdersOf('QA'), 'QAs');
  t.is(holdersOf('team-a_writer'), 'The “team-a_writer” role');
  t.is(holdersOf(undefined), 'You');
});

test('every reason is one short sentence without a full stop, in sentence case', (t) => {
  for (const what of Object.keys(ABILITIES) as Ability[]) {
    const hint = deniedHint('viewer', what, 'production');
    t.regex(hint, /^Viewers can't [a-z]/, what);
    t.false(hint.endsWith('.'), what);
    t.true(hint.length <= 60, `${what}: ${hint}`);
  }
});
