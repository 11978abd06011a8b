import type { Knex } from 'knex';
import type { Actor, ChangeAction, ChangeRecord, ChangeRequestRef, ChangeResource } from '@ensign/core';
import type { FlagsRead } from './loaders/flags-state.loader.js';
import type { Touched } from './snapshot-effect.js';

/** The resource a write is about and the evaluation state it touches. */
export interface Subject {
  resource: ChangeResource;
  key: string;
  parentKey?: string;
  touched: Touched;
}

/** A write's own account of its change; the transactor adds the namespace, revision, actor and time. */
export interface ChangeDraft extends Subject {
  action: ChangeAction;
  before?: unknown;
  after?: unknown;
}

/** What a write returns to its caller, and its change. */
export interface Outcome<T> {
  value: T;
  change: ChangeDraft;
  /**
   * The touched flags' state after the write, when the write knows it without reading it back;
   * a write made alone then reads no snapshot effect (a batch still reads its own at its end).
   */
  known?: FlagsRead;
  /**
   * The write's last statements, not yet sent, whose results nobody reads: they go together (one
   * statement on PostgreSQL), with the change record when `known` spares the effect read.
   */
  lastWrites?: readonly Knex.QueryBuilder[];
}

/** A creation, whose `after` is the value returned. */
export const created = <T>(subject: Subject, value: T): Outcome<T> => ({
  value,
  change: { ...subject, action: 'created', after: value },
});

/** An update from `before` to the value returned. */
export const updated = <T>(subject: Subject, before: unknown, value: T): Outcome<T> => ({
  value,
  change: { ...subject, action: 'updated', before, after: value },
});

/** A deletion of `before`. */
export const deleted = (subject: Subject, before: unknown): ChangeDraft => ({ ...subject, action: 'deleted', before });

/** A new rank order of a flag's rules (rollouts), as ids before and after. */
export const reordered = (subject: Subject, before: string[], after: string[]): Outcome<void> => ({
  value: undefined,
  change: { ...subject, action: 'reordered', before, after },
});

/** The record of a change committed at `revision`; absent parts are left out, not set to undefined. */
export function toRecord(draft: ChangeDraft, namespaceKey: string, revision: number, at: string, actor: Actor | undefined, changeRequest?: ChangeRequestRef): ChangeRecord {
  return {
    namespaceKey,
    revision,
    resource: draft.resource,
    key: draft.key,
    ...(draft.parentKey === undefined ? {} : { parentKey: draft.parentKey }),
    action: draft.action,
    ...(draft.before === undefined ? {} : { before: draft.before }),
    ...(draft.after === undefined ? {} : { after: draft.after }),
    ...(actor === undefined ? {} : { actor }),
    ...(changeRequest === undefined ? {} : { changeRequest }),
    at,
  };
}
