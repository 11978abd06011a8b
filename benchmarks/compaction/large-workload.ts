/** Variant evaluations over a large namespace's variant flags: 500 bodies, each its own entity and context. */
import type { SnapshotFlag } from '@ensign/engine';
import { seeded } from '@ensign/testkit';
import type { HttpWorkload } from '../engine/http-workload.js';

const CONTEXTS = [{}, { plan: 'pro', seats: '12' }, { plan: 'team', country: 'de', beta: 'true' }, { email: 'a@corp.example', age_days: '3' }];

export function variantWorkload(namespaceKey: string, flags: readonly SnapshotFlag[], count = 500): HttpWorkload {
  const random = seeded(42);
  const variants = flags.filter((f) => f.type === 'VARIANT_FLAG_TYPE');
  const bodies = Array.from({ length: count }, (_, i) => {
    const flag = variants[Math.floor(random() * variants.length)] as SnapshotFlag;
    return JSON.stringify({ namespaceKey, flagKey: flag.key, entityId: `entity-${i}-${Math.floor(random() * 1e9)}`, context: CONTEXTS[i % CONTEXTS.length] });
  });
  return { path: '/evaluate/v1/variant', headers: { 'content-type': 'application/json' }, bodies, evaluationsPerRequest: 1 };
}
