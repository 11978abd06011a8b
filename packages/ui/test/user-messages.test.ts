import test from 'ava';
import { messageText, userMessage } from '../src/lib/user-messages.js';

test('an empty field asks for it, in sentence case', (t) => {
  t.deepEqual(userMessage('invalid field name: must not be empty'), ['Enter a name.']);
  t.deepEqual(userMessage('invalid field key: must not be empty'), ['Enter a key.']);
});

test('a key with other characters says which are allowed; a long one how long it may be', (t) => {
  t.is(messageText(userMessage('invalid field key: contains invalid characters')), 'Use only letters, digits, hyphens (-), underscores (_) and commas in the key.');
  t.is(messageText(userMessage('invalid field key: must be at most 255 characters')), 'Shorten the key to 255 characters or fewer.');
  t.is(messageText(userMessage("invalid field rollout: must be less than or equal to '100'")), 'The percentage must be less than or equal to 100.');
});

test('a duplicate flag or segment key links to the existing one', (t) => {
  t.deepEqual(userMessage('flag "shop/checkout" is not unique'), [
    'A flag with the key “checkout” already exists in this namespace. ',
    { text: 'Open it', to: { kind: 'flag', ns: 'shop', key: 'checkout' } },
  ]);
  t.deepEqual(userMessage('segment "shop/beta" is not unique')[1], { text: 'Open it', to: { kind: 'segment', ns: 'shop', key: 'beta' } });
  t.is(messageText(userMessage('namespace "team" is not unique')), 'A namespace with the key “team” already exists. Choose another key.');
  t.is(messageText(userMessage('variant "blue" is not unique for flag "shop/checkout"')), 'This flag already has a variant with the key “blue”. Choose another key.');
});

test('a segment in use lists the rules and rollouts that use it, each linked to its flag', (t) => {
  const message = userMessage('segment "shop/beta" is in use', {
    segmentUses: [
      { flagKey: 'checkout', flagName: 'Checkout', kind: 'rule', position: 1 },
      { flagKey: 'banner', flagName: 'Banner', kind: 'rollout', position: 2 },
    ],
  });
  t.is(messageText(message), 'Segment “beta” is used by 1 rule and 1 rollout (flag checkout rule 1, flag banner rollout 2): remove it from them first.');
  t.deepEqual(message[1], { text: 'flag checkout rule 1', to: { kind: 'flag', ns: 'shop', key: 'checkout' } });
  t.regex(messageText(userMessage('segment "shop/beta" is in use', { segmentUses: [{ flagKey: 'a', flagName: '', kind: 'rule', position: 1 }, { flagKey: 'b', flagName: '', kind: 'rule', position: 2 }] })), /used by 2 rules \(/);
});

test('a segment in use, its users unknown, links to its page', (t) => {
  const message = userMessage('segment "shop/beta" is in use');
  t.is(messageText(message), 'Segment “beta” is used by rules or rollouts: remove it from them first. See where it is used');
  t.deepEqual(message[1], { text: 'See where it is used', to: { kind: 'segment', ns: 'shop', key: 'beta' } });
});

test('namespaces that cannot be deleted say why', (t) => {
  t.is(messageText(userMessage('namespace "default" is protected')), 'The namespace “default” is protected: it cannot be deleted.');
  t.deepEqual(userMessage('namespace "team" cannot be deleted; flags must be deleted first')[1], { text: 'delete its flags', to: { kind: 'flags', ns: 'team' } });
});

test('anything else is the service’s message as a sentence', (t) => {
  t.deepEqual(userMessage('the service could not be reached; check your connection and try again'), ['The service could not be reached; check your connection and try again.']);
  t.deepEqual(userMessage('flag "shop/gone" not found'), ['Flag "shop/gone" not found.']);
  t.deepEqual(userMessage('Done.'), ['Done.']);
});

test('timing and prerequisites: the field named in words, a cycle as the service draws it, the flags that require one', (t) => {
  t.is(messageText(userMessage('invalid field at: must be in the future; 2020-01-01T00:00:00.000Z has passed (now 2026-01-01T00:00:00.000Z)')), 'The time must be in the future; 2020-01-01T00:00:00.000Z has passed (now 2026-01-01T00:00:00.000Z).');
  t.is(messageText(userMessage('invalid field threshold.ramp[1].at: must be later than the step before (2030-01-01T00:00:00.000Z)')), 'The time of ramp step 2 must be later than the step before (2030-01-01T00:00:00.000Z).');
  t.is(messageText(userMessage('invalid field prerequisites[0].flagKey: would close a cycle: a → b → a')), 'The prerequisite would close a cycle: a → b → a.');
  t.is(messageText(userMessage('invalid field prerequisites[0].variants: flag "b" has no variant "x"')), 'Flag "b" has no variant "x".');
  t.is(messageText(userMessage('invalid field prerequisites[1].flagKey: flag "shop/gone" not found')), 'Flag "shop/gone" not found.');
  t.deepEqual(userMessage('flag "shop/base" is a prerequisite of "a", "b"; remove it from their prerequisites first'), [
    'Flag “base” is a prerequisite of ',
    { text: 'a', to: { kind: 'flag', ns: 'shop', key: 'a' } },
    ', ',
    { text: 'b', to: { kind: 'flag', ns: 'shop', key: 'b' } },
    ': remove it from their prerequisites first.',
  ]);
});

test('a document of another namespace, refused by the service, is said plainly', (t) => {
  t.is(
    messageText(userMessage('invalid field namespace: the document is for namespace "default", not "shop"; remove it to import into "shop"')),
    'This document is an export of the namespace “default”, and you are importing into “shop”. To import it here, remove its namespace; or import it into “default” instead.',
  );
});
