import test from 'ava';
import {
  MAX_ATTACHMENT_BYTES,
  validateCreateVariant,
  validateFlagItemRef,
  validateUpdateVariant,
} from '../src/index.js';
import { assertInvalid } from './assert-invalid.js';

const variant = { namespaceKey: '', flagKey: 'f', key: 'blue', name: '', description: '', attachment: '' };

test('create variant: flagKey then key required, no key pattern', (t) => {
  t.deepEqual(validateCreateVariant(variant), { ...variant, namespaceKey: 'default' });
  t.is(validateCreateVariant({ ...variant, key: 'any key!' }).key, 'any key!');
  assertInvalid(t, () => validateCreateVariant({ ...variant, flagKey: '', key: '' }), 'invalid field flagKey: must not be empty');
  assertInvalid(t, () => validateCreateVariant({ ...variant, key: '' }), 'invalid field key: must not be empty');
  assertInvalid(
    t,
    () => validateCreateVariant({ ...variant, key: 'v'.repeat(256) }),
    'invalid field key: must be at most 255 characters',
  );
});

test('attachment is compacted, tokens kept as sent', (t) => {
  const got = validateCreateVariant({ ...variant, attachment: ' {\n  "hex" : "#00f",\n  "n": [1, 2.50, 1e3],\n "s": "a b\\" c" }' });
  t.is(got.attachment, '{"hex":"#00f","n":[1,2.50,1e3],"s":"a b\\" c"}');
  t.is(validateCreateVariant({ ...variant, attachment: '12345678901234567890' }).attachment, '12345678901234567890');
  t.is(validateCreateVariant({ ...variant, attachment: '"x"' }).attachment, '"x"');
});

test('attachment must be JSON', (t) => {
  for (const bad of ['{', 'not json', "{'a':1}", '{"a":1,}']) {
    assertInvalid(t, () => validateCreateVariant({ ...variant, attachment: bad }), 'invalid field attachment: must be a json string');
  }
});

test('attachment size: up to 1,024,000 bytes', (t) => {
  const fits = `"${'a'.repeat(MAX_ATTACHMENT_BYTES - 2)}"`;
  t.is(validateCreateVariant({ ...variant, attachment: fits }).attachment.length, MAX_ATTACHMENT_BYTES);
  const tooBig = `"${'a'.repeat(MAX_ATTACHMENT_BYTES - 1)}"`;
  assertInvalid(t, () => validateCreateVariant({ ...variant, attachment: tooBig }), 'invalid field attachment: must be less than 1000 KB');
  const multiByte = `"${'é'.repeat(MAX_ATTACHMENT_BYTES / 2)}"`;
  assertInvalid(t, () => validateUpdateVariant({ ...variant, id: 'v', attachment: multiByte }), 'invalid field attachment: must be less than 1000 KB');
});

test('update variant: id, flagKey, key in that order', (t) => {
  const upd = { ...variant, id: 'v1', attachment: '{ }' };
  t.is(validateUpdateVariant(upd).attachment, '{}');
  assertInvalid(t, () => validateUpdateVariant({ ...upd, id: '', flagKey: '' }), 'invalid field id: must not be empty');
  assertInvalid(t, () => validateUpdateVariant({ ...upd, flagKey: '', key: '' }), 'invalid field flagKey: must not be empty');
  assertInvalid(t, () => validateUpdateVariant({ ...upd, key: '' }), 'invalid field key: must not be empty');
  assertInvalid(t, () => validateUpdateVariant({ ...upd, attachment: '[' }), 'invalid field attachment: must be a json string');
});

test('flag item ref: id then flagKey', (t) => {
  t.deepEqual(validateFlagItemRef({ namespaceKey: '', flagKey: 'f', id: 'x' }), { namespaceKey: 'default', flagKey: 'f', id: 'x' });
  assertInvalid(t, () => validateFlagItemRef({ namespaceKey: '', flagKey: '', id: '' }), 'invalid field id: must not be empty');
  assertInvalid(t, () => validateFlagItemRef({ namespaceKey: '', flagKey: '', id: 'x' }), 'invalid field flagKey: must not be empty');
});
