/**
 * Several writes to one namespace as one transaction and one revision: all or nothing. Writes made
 * through the repositories while a batch runs join its transaction instead of opening their own;
 * the batch records one change record per write (all at its revision) and reads one snapshot
 * effect covering everything the writes touched.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';
import { invalid } from '@ensign/core';
import type { ChangeDraft } from './change-draft.js';
import { readFlagsState } from './loaders/flags-state.loader.js';
import { flagsUsingSegment } from './loaders/segment-flags.loader.js';
import type { Touched } from './snapshot-effect.js';
import type { SnapshotEffect } from './types.js';

/** The batch a write joins: its transaction, namespace, time, revision once bumped, and the changes so far. */
export interface OpenBatch {
  trx: Knex.Transaction;
  namespaceKey: string;
  at: string;
  revision: number | undefined;
  changes: ChangeDraft[];
}

const open = new AsyncLocalStorage<OpenBatch>();

/** The batch the calling write runs in, if any. */
export const currentBatch = (): OpenBatch | undefined => open.getStore();

/** Runs `work` with its writes joining `batch`. */
export const runInBatch = <T>(batch: OpenBatch, work: () => Promise<T>): Promise<T> => open.run(batch, work);

/** A write that joins a batch must be to the batch's namespace and about flag state. */
export function checkJoinable(batch: OpenBatch, namespaceKey: string, touched: Touched | undefined): void {
  if (namespaceKey !== batch.namespaceKey) {
    throw invalid(`a change of namespace "${namespaceKey}" cannot be part of a batch of namespace "${batch.namespaceKey}"`);
  }
  if (touched !== undefined && (touched.kind === 'namespace-created' || touched.kind === 'namespace-deleted')) {
    throw invalid('creating or deleting a namespace cannot be part of a batch of changes');
  }
}

/** The snapshot effect of everything the batch's changes touched, read once at its end. */
export async function readBatchEffect(trx: Knex.Transaction, namespaceKey: string, changes: readonly ChangeDraft[]): Promise<SnapshotEffect> {
  const keys = new Set<string>();
  for (const { touched } of changes) {
    if (touched.kind === 'flags') for (const key of touched.keys) keys.add(key);
    else if (touched.kind === 'segment') for (const key of await flagsUsingSegment(trx, namespaceKey, touched.key)) keys.add(key);
  }
  if (keys.size === 0) return { kind: 'none' };
  return { kind: 'flags', ...(await readFlagsState(trx, namespaceKey, [...keys])) };
}
