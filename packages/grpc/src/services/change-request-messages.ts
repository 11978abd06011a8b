/**
 * The `ensign.changes.v1` messages: requests read back into the JSON bodies the HTTP routes decode
 * (so both transports validate alike), and answers made from what the service returns. JSON values
 * (a change's body, a record's before and after) travel as Struct and Value; times as Timestamps;
 * a field that is not set is left absent.
 */
import type { Actor, ChangeRecord, ChangeRequest, ChangeRequestEvent, Fields, ProposedChange } from '@ensign/core';
import { fromProtoStruct, type ProtoStruct, type ProtoValue, toProtoStruct, toProtoValue, toTimestamp } from '../proto-values.js';
import type { Message } from './flipt-request.js';

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const texts = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** A change as a JSON body carries it: a body that is not set is left out, as a DELETE sends none. */
function proposedChangeOf(message: unknown): Fields {
  const change = (typeof message === 'object' && message !== null ? message : {}) as Message;
  const body = fromProtoStruct(change.body as ProtoStruct | null | undefined);
  return { method: text(change.method), path: text(change.path), ...(body === undefined ? {} : { body }) };
}

const changesOf = (message: Message): Fields[] => (Array.isArray(message.changes) ? message.changes.map(proposedChangeOf) : []);

/** The body of `POST …/change-requests`: content, or a promotion from another namespace. */
export function createBodyOf(message: Message): Fields {
  const promoteFrom = text(message.promoteFrom);
  const flags = texts(message.flags);
  const segments = texts(message.segments);
  const changes = changesOf(message);
  return {
    title: text(message.title),
    description: text(message.description),
    // A promotion works its changes out: none given is none sent, as a JSON body would.
    ...(promoteFrom !== '' && changes.length === 0 ? {} : { changes }),
    ...(promoteFrom === '' ? {} : { promoteFrom }),
    // An empty repeated field cannot say "not given": only lists with keys are sent on.
    ...(flags.length === 0 ? {} : { flags }),
    ...(segments.length === 0 ? {} : { segments }),
  };
}

/** The body of `PUT …/change-requests/{id}`. */
export const replaceBodyOf = (message: Message): Fields => ({ title: text(message.title), description: text(message.description), changes: changesOf(message) });

/** The query of `GET …/change-requests`: the states as one comma-separated filter. */
export const listQueryOf = (message: Message): Fields => ({ state: texts(message.states).join(','), author: text(message.author) });

/** The body of `PUT …/change-policy`: an unset `required_approvals` is sent as missing. */
export function policyBodyOf(message: Message): Fields {
  const value = message.requiredApprovals;
  return typeof value === 'number' ? { requiredApprovals: value } : {};
}

/** A JSON value as plain JSON (no undefined members, no class instances), for Struct and Value. */
const plain = (value: unknown): unknown => (value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown));

const jsonValue = (value: unknown): ProtoValue | undefined => (value === undefined ? undefined : toProtoValue(plain(value)));

function actorMessage(actor: Actor | undefined) {
  return actor === undefined ? undefined : { authenticationId: actor.authenticationId, method: actor.method, name: actor.name ?? '' };
}

const withActor = (actor: Actor | undefined) => (actor === undefined ? {} : { actor: actorMessage(actor) });

function changeMessage(change: ProposedChange) {
  const body = plain(change.body);
  return {
    method: change.method,
    path: change.path,
    ...(typeof body === 'object' && body !== null && !Array.isArray(body) ? { body: toProtoStruct(body as Record<string, unknown>) } : {}),
  };
}

const eventMessage = (event: ChangeRequestEvent) => ({
  kind: event.kind,
  digest: event.digest,
  comment: event.comment,
  ...withActor(event.actor),
  at: toTimestamp(event.at),
});

export function changeRecordMessage(record: ChangeRecord) {
  const before = jsonValue(record.before);
  const after = jsonValue(record.after);
  return {
    namespaceKey: record.namespaceKey,
    revision: record.revision,
    resource: record.resource,
    key: record.key,
    parentKey: record.parentKey ?? '',
    action: record.action,
    ...(before === undefined ? {} : { before }),
    ...(after === undefined ? {} : { after }),
    ...withActor(record.actor),
    at: toTimestamp(record.at),
  };
}

/** A resource that changed since the request was written, as the service reports it. */
interface Conflict {
  resource: string;
  key: string;
  parentKey?: string;
  was?: unknown;
  now?: unknown;
}

function conflictMessage(conflict: Conflict) {
  const was = jsonValue(conflict.was);
  const now = jsonValue(conflict.now);
  return {
    resource: conflict.resource,
    key: conflict.key,
    parentKey: conflict.parentKey ?? '',
    ...(was === undefined ? {} : { was }),
    ...(now === undefined ? {} : { now }),
  };
}

/** A request as the service answers it: with its diff, and a conflict, when it has them. */
export type ChangeRequestAnswer = ChangeRequest & { diff?: readonly ChangeRecord[]; conflict?: unknown; conflicts?: unknown };

export function changeRequestMessage(request: ChangeRequestAnswer) {
  const { author, applyAt, conflict, conflicts } = request;
  return {
    id: request.id,
    namespaceKey: request.namespaceKey,
    title: request.title,
    description: request.description,
    state: request.state,
    changes: request.changes.map(changeMessage),
    digest: request.digest,
    ...(author === undefined ? {} : { author: actorMessage(author) }),
    approvals: request.approvals.map(eventMessage),
    events: request.events.map(eventMessage),
    ...(applyAt === undefined ? {} : { applyAt: toTimestamp(applyAt) }),
    suspendedReason: request.suspendedReason ?? '',
    appliedRevision: request.appliedRevision ?? 0,
    createdAt: toTimestamp(request.createdAt),
    updatedAt: toTimestamp(request.updatedAt),
    diff: (request.diff ?? []).map(changeRecordMessage),
    conflict: typeof conflict === 'string' ? conflict : '',
    conflicts: Array.isArray(conflicts) ? (conflicts as Conflict[]).map(conflictMessage) : [],
  };
}

export const changePolicyMessage = (policy: { namespaceKey: string; requiredApprovals: number }) => ({ namespaceKey: policy.namespaceKey, requiredApprovals: policy.requiredApprovals });
