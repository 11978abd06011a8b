import test from 'ava';
import {
  validateCreateFlag,
  validateCreateNamespace,
  validateCreateSegment,
  validateDeleteNamespace,
  validateKeyRef,
  validateNamespaceRef,
  validateUpdateFlag,
  validateUpdateNamespace,
  validateUpdateSegment,
} from '../src/index.js';
import { assertInvalid } from './assert-invalid.js';

const ns = { key: 'team-a', name: 'Team A', description: '' };
const flag = {
  namespaceKey: '',
  key: 'new_ui,v2',
  name: 'New UI',
  description: '',
  enabled: false,
  type: 'VARIANT_FLAG_TYPE' as const,
  metadata: undefined,
};
const segment = { namespaceKey: 'ns', key: 'beta', name: 'Beta', description: '', matchType: 'ALL_MATCH_TYPE' as const };

test('create namespace: key required, key pattern, name required', (t) => {
  t.deepEqual(validateCreateNamespace(ns), ns);
  assertInvalid(t, () => validateCreateNamespace({ ...ns, key: '' }), 'invalid field key: must not be empty');
  assertInvalid(t, () => validateCreateNamespace({ ...ns, key: 'a b' }), 'invalid field key: contains invalid characters');
  assertInvalid(t, () => validateCreateNamespace({ ...ns, key: 'a/b' }), 'invalid field key: contains invalid characters');
  assertInvalid(t, () => validateCreateNamespace({ ...ns, key: 'a b', name: '' }), 'invalid field key: contains invalid characters');
  assertInvalid(t, () => validateCreateNamespace({ ...ns, name: '' }), 'invalid field name: must not be empty');
  t.deepEqual(validateCreateNamespace({ ...ns, key: 'k'.repeat(255) }).key, 'k'.repeat(255));
  assertInvalid(
    t,
    () => validateCreateNamespace({ ...ns, key: 'k'.repeat(256) }),
    'invalid field key: must be at most 255 characters',
  );
});

test('update namespace: no key pattern', (t) => {
  t.deepEqual(validateUpdateNamespace({ ...ns, key: 'odd key' }), { ...ns, key: 'odd key' });
  assertInvalid(t, () => validateUpdateNamespace({ ...ns, key: '' }), 'invalid field key: must not be empty');
  assertInvalid(t, () => validateUpdateNamespace({ ...ns, name: '' }), 'invalid field name: must not be empty');
});

test('namespace ref and delete need a key', (t) => {
  t.deepEqual(validateNamespaceRef({ key: 'x' }), { key: 'x' });
  t.deepEqual(validateDeleteNamespace({ key: 'x', force: true }), { key: 'x', force: true });
  assertInvalid(t, () => validateNamespaceRef({ key: '' }), 'invalid field key: must not be empty');
  assertInvalid(t, () => validateDeleteNamespace({ key: '', force: false }), 'invalid field key: must not be empty');
});

test('create flag: key rules, name, empty namespace means default', (t) => {
  const ok = validateCreateFlag(flag);
  t.is(ok.namespaceKey, 'default');
  t.is(ok.key, 'new_ui,v2');
  t.is(validateCreateFlag({ ...flag, namespaceKey: 'ns' }).namespaceKey, 'ns');
  assertInvalid(t, () => validateCreateFlag({ ...flag, key: '' }), 'invalid field key: must not be empty');
  assertInvalid(t, () => validateCreateFlag({ ...flag, key: 'é' }), 'invalid field key: contains invalid characters');
  assertInvalid(t, () => validateCreateFlag({ ...flag, name: '' }), 'invalid field name: must not be empty');
});

test('update flag: key and name required, no key pattern', (t) => {
  const upd = { namespaceKey: '', key: 'x.y', name: 'N', description: '', enabled: true, defaultVariantId: '', metadata: {} };
  t.is(validateUpdateFlag(upd).namespaceKey, 'default');
  assertInvalid(t, () => validateUpdateFlag({ ...upd, key: '' }), 'invalid field key: must not be empty');
  assertInvalid(t, () => validateUpdateFlag({ ...upd, name: '' }), 'invalid field name: must not be empty');
});

test('get/delete flag or segment: key required, namespace resolved', (t) => {
  t.deepEqual(validateKeyRef({ namespaceKey: '', key: 'k' }), { namespaceKey: 'default', key: 'k' });
  assertInvalid(t, () => validateKeyRef({ namespaceKey: 'ns', key: '' }), 'invalid field key: must not be empty');
});

test('create/update segment: key pattern only on create', (t) => {
  t.deepEqual(validateCreateSegment(segment), segment);
  t.is(validateCreateSegment({ ...segment, namespaceKey: '' }).namespaceKey, 'default');
  assertInvalid(t, () => validateCreateSegment({ ...segment, key: '' }), 'invalid field key: must not be empty');
  assertInvalid(t, () => validateCreateSegment({ ...segment, key: 'be ta' }), 'invalid field key: contains invalid characters');
  assertInvalid(t, () => validateCreateSegment({ ...segment, name: '' }), 'invalid field name: must not be empty');
  t.is(validateUpdateSegment({ ...segment, key: 'be ta' }).key, 'be ta');
  assertInvalid(t, () => validateUpdateSegment({ ...segment, key: '' }), 'invalid field key: must not be empty');
  assertInvalid(t, () => validateUpdateSegment({ ...segment, name: '' }), 'invalid field name: must not be empty');
});
