/** Namespace-scoped tokens on `flipt.Flipt`: every method names the namespaces it touches. */
import { inNamespaces } from '@ensign/auth';
import { managementServices } from '@ensign/control-plane';
import { status } from '@grpc/grpc-js';
import test from 'ava';
import { serviceDefinition } from '../src/index.js';
import { fliptBinding } from '../src/services/flipt.service.js';
import { startFlipt, TEAM_TOKEN } from './flipt-harness.js';

const binding = fliptBinding({ services: managementServices({} as never) });

test('the binding serves every method of flipt.Flipt on the management surface', (t) => {
  t.is(binding.service, 'flipt.Flipt');
  t.is(binding.surface, 'management');
  t.deepEqual(Object.keys(binding.methods).sort(), Object.keys(serviceDefinition('flipt.Flipt')).sort());
});

test('scopes: the namespace key (empty = default), the key for namespaces, none to list or create them', (t) => {
  const unscoped = Object.entries(binding.methods).filter(([, method]) => method.scope === undefined).map(([name]) => name).sort();
  t.deepEqual(unscoped, ['CreateNamespace', 'ListNamespaces']);
  const scopeOf = (name: string, request: Record<string, unknown>) => {
    const scope = binding.methods[name]?.scope;
    return typeof scope === 'function' ? scope(request) : scope;
  };
  t.deepEqual(scopeOf('GetNamespace', { key: 'team' }), inNamespaces('team'));
  t.deepEqual(scopeOf('DeleteNamespace', { key: 'team', force: true }), inNamespaces('team'));
  t.deepEqual(scopeOf('GetFlag', { key: 'f', namespaceKey: '' }), inNamespaces(''));
  t.deepEqual(scopeOf('OrderRollouts', { flagKey: 'f', namespaceKey: 'team' }), inNamespaces('team'));
  // The legacy evaluations decode their request once and hold the caller to its namespace themselves (next test).
  t.is(scopeOf('Evaluate', {}), 'checked-by-handler');
  t.is(scopeOf('BatchEvaluate', {}), 'checked-by-handler');
});

test('a scoped token evaluates (legacy) in its namespace only, every batch item included', async (t) => {
  const flipt = await startFlipt({ scopedTokens: true, evaluation: true });
  try {
    await flipt.store.namespaces.create({ key: 'team', name: 'Team', description: '' });
    const missing = await flipt.callError('Evaluate', { namespaceKey: 'team', flagKey: 'f', entityId: 'u1' }, TEAM_TOKEN);
    t.is(missing.code, status.NOT_FOUND, 'let through to the evaluation');
    for (const request of [
      { flagKey: 'f', entityId: 'u1' },
      { namespaceKey: 'default', flagKey: 'f', entityId: 'u1' },
      { namespaceKey: 42, flagKey: 'f', entityId: 'u1' },
    ]) {
      t.is((await flipt.callError('Evaluate', request, TEAM_TOKEN)).code, status.UNAUTHENTICATED, JSON.stringify(request));
    }
    const batch = await flipt.callError('BatchEvaluate', { namespaceKey: 'team', requests: [{ flagKey: 'f', entityId: 'u1' }] }, TEAM_TOKEN);
    t.is(batch.code, status.NOT_FOUND);
    for (const request of [
      { namespaceKey: 'team', requests: [{ namespaceKey: '', flagKey: 'f', entityId: 'u1' }, { namespaceKey: 'other', flagKey: 'f', entityId: 'u1' }] },
      { requests: [{ flagKey: 'f', entityId: 'u1' }] },
    ]) {
      t.is((await flipt.callError('BatchEvaluate', request, TEAM_TOKEN)).code, status.UNAUTHENTICATED, JSON.stringify(request));
    }
  } finally {
    await flipt.close();
  }
});

test('a token scoped to one namespace works there and is refused elsewhere and on namespace-wide calls', async (t) => {
  const flipt = await startFlipt({ scopedTokens: true });
  try {
    await flipt.store.namespaces.create({ key: 'team', name: 'Team', description: '' });
    t.like(await flipt.call('CreateFlag', { namespaceKey: 'team', key: 'f', name: 'F' }, TEAM_TOKEN), { key: 'f', namespaceKey: 'team' });
    t.like(await flipt.call('GetNamespace', { key: 'team' }, TEAM_TOKEN), { key: 'team' });
    for (const [method, request] of [
      ['GetFlag', { key: 'f' }],
      ['ListFlags', { namespaceKey: 'default' }],
      ['ListNamespaces', {}],
      ['CreateNamespace', { key: 'x', name: 'X' }],
      ['DeleteNamespace', { key: 'default' }],
    ] as const) {
      const refused = await flipt.callError(method, request, TEAM_TOKEN);
      t.is(refused.code, status.UNAUTHENTICATED, method);
    }
    t.is((await flipt.callError('GetFlag', { namespaceKey: 'team', key: 'f' })).code, status.UNAUTHENTICATED);
  } finally {
    await flipt.close();
  }
});
