/** A protected namespace refuses direct writes over gRPC as over HTTP; reads and other namespaces are untouched. */
import { status } from '@grpc/grpc-js';
import test from 'ava';
import { startFlipt } from './flipt-harness.js';

test('CreateFlag and ImportNamespace-like writes to a protected namespace are PERMISSION_DENIED naming the way; reads pass', async (t) => {
  const h = await startFlipt({ protection: true });
  t.teardown(() => h.close());
  await h.call('CreateNamespace', { key: 'prod', name: 'Production' });
  await h.call('CreateFlag', { namespaceKey: 'prod', key: 'before', name: 'Before' });
  await h.store.changePolicies.update('prod', 1);
  const refused = await h.callError('CreateFlag', { namespaceKey: 'prod', key: 'direct', name: 'Direct' });
  t.is(refused.code, status.PERMISSION_DENIED);
  t.is(refused.details, 'namespace "prod" is protected: changes to it are made through a change request (POST /api/v1/namespaces/prod/change-requests)');
  t.is((await h.callError('DeleteFlag', { namespaceKey: 'prod', key: 'before' })).code, status.PERMISSION_DENIED);
  t.like(await h.call('GetFlag', { namespaceKey: 'prod', key: 'before' }), { key: 'before' });
  t.like(await h.call('CreateFlag', { key: 'elsewhere', name: 'Elsewhere' }), { key: 'elsewhere', namespaceKey: 'default' });
  await h.store.changePolicies.update('prod', 0);
  t.like(await h.call('CreateFlag', { namespaceKey: 'prod', key: 'direct', name: 'Direct' }), { key: 'direct' });
});
