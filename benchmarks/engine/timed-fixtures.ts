/**
 * The workload's flags with Ensign's time and prerequisite features, to price them against the
 * plain ones: the variant flag with both rules inside a validity window; the boolean flag at the
 * end of a chain of three flags, each parent the boolean flag again (enabled, so the chain holds for
 * every entity and each of the three is evaluated in full: three evaluations' worth of work at
 * least); and the boolean flag behind a chain of two on/off switches (enabled, no rollouts), the
 * common shape of a release gate.
 */
import type { SnapshotDocument, SnapshotFlag } from '@ensign/engine';
import { BOOLEAN_FLAG, VARIANT_FLAG, benchmarkDocument } from './fixtures.js';

export const WINDOW_FLAG = 'checkout-window';
export const CHAIN_FLAG = 'new-search-a';
export const SWITCHED_FLAG = 'new-search-s';

const DAY_MS = 86_400_000;

/** The benchmark document plus the windowed and chained flags, evaluated at `now`. */
export function timedDocument(now: number): SnapshotDocument {
  const base = benchmarkDocument();
  const find = (key: string): SnapshotFlag => base.flags.find((f) => f.key === key)!;
  const validFrom = new Date(now - DAY_MS).toISOString();
  const validUntil = new Date(now + DAY_MS).toISOString();
  const variant = find(VARIANT_FLAG);
  const windowed: SnapshotFlag = { ...variant, key: WINDOW_FLAG, rules: variant.rules.map((r) => ({ ...r, validFrom, validUntil })) };
  const boolean = find(BOOLEAN_FLAG);
  const link = (key: string, parent: string | undefined, enabled: boolean): SnapshotFlag => ({
    ...boolean,
    key,
    enabled,
    ...(parent === undefined ? {} : { prerequisites: [{ flagKey: parent, enabled: true }] }),
  });
  const onOff = (key: string, parent: string | undefined): SnapshotFlag => ({ ...link(key, parent, true), rollouts: [] });
  return {
    namespace: base.namespace,
    flags: [
      ...base.flags,
      windowed,
      link(CHAIN_FLAG, 'new-search-b', false),
      link('new-search-b', 'new-search-c', true),
      link('new-search-c', undefined, true),
      link(SWITCHED_FLAG, 'switch-b', false),
      onOff('switch-b', 'switch-c'),
      onOff('switch-c', undefined),
    ],
  };
}
