import test from 'ava';
import { namespaceLabel } from '../src/lib/namespace-label.js';

test('a namespace is named by its name and key, or its key alone when the name adds nothing', (t) => {
  t.is(namespaceLabel({ key: 'production', name: 'Production' }), 'Production (production)');
  t.is(namespaceLabel({ key: 'qa', name: 'qa' }), 'qa');
  t.is(namespaceLabel({ key: 'qa', name: '' }), 'qa');
});
