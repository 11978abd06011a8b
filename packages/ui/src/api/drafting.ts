/**
 * Edits of a protected namespace: instead of being refused, each write of flag state is added to
 * the caller's open draft (the first draft whose author is the caller; with authentication off,
 * the first without an author), or starts one. The caller's pages hear that it was drafted, not
 * made (`Drafted`), and every listener of `onDrafted` is told (the notice, the banner's count).
 * Edits of one namespace are added one after another, so none is lost to a concurrent replace.
 */
import type { ChangeRecord, ChangeRequest, ProposedChange } from '@ensign/core';
import { type ChangeRequestView, changeIndexOf, DRAFT_TITLE, messageOfChange, ownDraft, protectedNamespaceOf } from '../lib/change-requests.js';
import { changeRequests } from './change-requests.js';
import { ApiError, request } from './client.js';
import { draftsEdits, rememberPolicy } from './protection.js';

/** An edit that went into the caller's draft instead of being made. */
export class Drafted {
  constructor(
    readonly ns: string,
    /** The draft as it is now, with its diff. */
    readonly request: ChangeRequestView,
    readonly change: ProposedChange,
    /** What the edit will change once the draft is applied. */
    readonly records: readonly ChangeRecord[],
  ) {}
}

export const isDrafted = (value: unknown): value is Drafted => value instanceof Drafted;

let author: string | undefined;

/** The authentication id of the signed-in caller, whose drafts edits go into (undefined with authentication off). */
export function setDraftAuthor(authenticationId: string | undefined): void {
  author = authenticationId;
}

export const draftAuthor = (): string | undefined => author;

/** The caller's open draft in `ns`, if there is one. */
export async function findOwnDraft(ns: string): Promise<ChangeRequest | undefined> {
  return ownDraft(await changeRequests.list(ns, ['draft'], author), author);
}

type Listener = (drafted: Drafted) => void;
const listeners = new Set<Listener>();

/** Calls `listener` with every edit added to a draft; returns the unsubscribe. */
export function onDrafted(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const lanes = new Map<string, Promise<unknown>>();

/** Runs `work` after every earlier edit of `ns` has been added. */
function inLane<T>(ns: string, work: () => Promise<T>): Promise<T> {
  const next = (lanes.get(ns) ?? Promise.resolve()).catch(() => undefined).then(work);
  lanes.set(ns, next);
  void next.finally(() => {
    if (lanes.get(ns) === next) lanes.delete(ns);
  }).catch(() => undefined);
  return next;
}

/** How many records the diff held, by draft and digest, after the last edit this page added: the next edit's are those after. */
const diffLengths = new Map<string, { digest: string; length: number }>();

/** A refusal of the whole draft, said of the edit (by its own field) or of the earlier change that no longer applies. */
function refusalOf(err: unknown, index: number, title: string): unknown {
  if (!(err instanceof ApiError)) return err;
  const own = messageOfChange(err.serviceMessage, index);
  if (own !== undefined) return new ApiError(err.status, err.code, own);
  const earlier = changeIndexOf(err.serviceMessage);
  if (earlier !== undefined && earlier < index) {
    return new ApiError(err.status, err.code, `your draft "${title}" no longer applies (change ${earlier + 1}: ${messageOfChange(err.serviceMessage, earlier) ?? err.serviceMessage}); open it to remove that change, then edit again`);
  }
  return err;
}

function addToDraft(ns: string, change: ProposedChange): Promise<Drafted> {
  return inLane(ns, async () => {
    const draft = await findOwnDraft(ns);
    const index = draft?.changes.length ?? 0;
    const title = draft?.title ?? DRAFT_TITLE;
    let saved: ChangeRequestView;
    try {
      saved =
        draft === undefined
          ? await changeRequests.create(ns, { title, description: '', changes: [change] })
          : await changeRequests.replace(ns, draft.id, { title, description: draft.description, changes: [...draft.changes, change] });
    } catch (err) {
      throw refusalOf(err, index, title);
    }
    const diff = saved.diff ?? [];
    const before = draft === undefined ? { digest: '', length: 0 } : diffLengths.get(draft.id);
    const records = before !== undefined && (draft === undefined || before.digest === draft.digest) ? diff.slice(before.length) : diff.slice(-1);
    diffLengths.set(saved.id, { digest: saved.digest, length: diff.length });
    const drafted = new Drafted(ns, saved, change, records);
    for (const listener of listeners) listener(drafted);
    return drafted;
  });
}

/**
 * A write of flag state to `ns`: made directly, or added to the caller's draft when `ns` is
 * protected (known from its policy, or learnt from the service's refusal of the direct write).
 */
export async function write<T>(ns: string, method: ProposedChange['method'], path: string, body?: unknown): Promise<T | Drafted> {
  const change: ProposedChange = { method, path, ...(body === undefined ? {} : { body }) };
  if (draftsEdits(ns)) return addToDraft(ns, change);
  try {
    return await request<T>(method, path, body);
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 403 && protectedNamespaceOf(err.serviceMessage) === ns)) throw err;
    // At least one approval: the policy's own number comes with its next read.
    rememberPolicy(ns, 1);
    return addToDraft(ns, change);
  }
}
