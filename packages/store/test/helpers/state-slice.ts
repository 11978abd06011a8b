import type { ExecutionContext } from 'ava';
import type { CommittedChange, FlagsState, NamespaceState, SqlStore } from '@ensign/store';

/** What `readNamespaceState` holds for these flags: the `state` a `flags` effect on them must equal. */
export function sliceOf(full: NamespaceState, flagKeys: Iterable<string>): FlagsState {
  const keys = new Set(flagKeys);
  const rules = full.rules.filter((r) => keys.has(r.flagKey));
  const rollouts = full.rollouts.filter((r) => keys.has(r.flagKey));
  const used = new Set([...rules, ...rollouts].flatMap((r) => r.segmentKeysInOrder));
  return {
    flags: full.flags.filter((f) => keys.has(f.key)),
    rules,
    rollouts,
    segments: full.segments.filter((s) => used.has(s.key)),
    schedules: full.schedules.filter((s) => keys.has(s.flagKey)),
  };
}

/**
 * Asserts that `change` is a `flags` effect on exactly `flagKeys` equal to the namespace's state
 * read now, which must still be at the change's revision.
 */
export async function expectFlagsEffect(t: ExecutionContext, store: SqlStore, change: CommittedChange, flagKeys: readonly string[], label = ''): Promise<void> {
  const full = await store.readNamespaceState(change.record.namespaceKey);
  if (full === undefined) return void t.fail(`${label}: namespace missing`);
  t.is(full.revision, change.record.revision, `${label}: read at the change's revision`);
  if (change.effect.kind !== 'flags') return void t.fail(`${label}: effect ${change.effect.kind}, expected flags`);
  const existing = new Set(full.flags.map((f) => f.key));
  t.deepEqual(change.effect.state, sliceOf(full, flagKeys), `${label}: state`);
  t.deepEqual([...change.effect.removed].sort(), flagKeys.filter((k) => !existing.has(k)).sort(), `${label}: removed`);
}
