/** `ensign change-request list|show|approve|apply`: a namespace's change requests, through a running server's API. */
import type { Actor, ChangeRecord, ChangeRequest, ChangeRequestEvent } from '@ensign/core';
import type { ChangeRequestArgs } from '../change-request-flags.js';
import { RemoteApi, RemoteError } from './remote-api.js';

export interface ChangeRequestIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** A request as the API answers it: while open, with its diff, and why it no longer applies when it does not. */
type Answer = ChangeRequest & { diff?: ChangeRecord[]; conflict?: string };

const who = (actor: Actor | undefined): string => (actor === undefined ? '-' : actor.name !== undefined && actor.name !== '' ? actor.name : actor.authenticationId);

/** "1/2": approvals of the current digest, of those the policy asks for (at least one); just the count when the policy is not known. */
const approvalsOf = (request: ChangeRequest, required: number | undefined): string => `${request.approvals.length}${required === undefined ? '' : `/${Math.max(1, required)}`}`;

/** Rows as aligned columns, the last one left ragged. */
function table(rows: readonly string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ').trimEnd());
}

/** One line per request: id, state, title, author, approvals. */
export function requestLines(requests: readonly ChangeRequest[], required: number | undefined): string {
  if (requests.length === 0) return '(no change requests)\n';
  const rows = [['ID', 'STATE', 'TITLE', 'AUTHOR', 'APPROVALS'], ...requests.map((r) => [r.id, r.state, r.title, who(r.author), approvalsOf(r, required)])];
  return `${table(rows).join('\n')}\n`;
}

const compact = (value: unknown): string => JSON.stringify(value) ?? 'null';

/** What a record is about: `flag "checkout"`, `variant "blue" of "checkout"`. */
const subjectOf = (record: ChangeRecord): string => `${record.resource} ${JSON.stringify(record.key)}${record.parentKey === undefined ? '' : ` of ${JSON.stringify(record.parentKey)}`}`;

/** Fields every write moves, which say nothing about what was changed. */
const STAMPS = new Set(['createdAt', 'updatedAt']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A record as lines: what happened to what, then each field it changed (before → after). */
export function recordLines(record: ChangeRecord): string[] {
  const head = `${record.action} ${subjectOf(record)}`;
  const { before, after } = record;
  if (before === undefined && after !== undefined) return [head, `    + ${compact(after)}`];
  if (after === undefined && before !== undefined) return [head, `    - ${compact(before)}`];
  if (!isObject(before) || !isObject(after)) return [head, `    ${compact(before)} → ${compact(after)}`];
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((f) => !STAMPS.has(f) && compact(before[f]) !== compact(after[f]));
  return [head, ...fields.map((f) => `    ${f}: ${before[f] === undefined ? '(none)' : compact(before[f])} → ${after[f] === undefined ? '(none)' : compact(after[f])}`)];
}

const eventLine = (event: ChangeRequestEvent): string => `  ${event.at}  ${event.kind} by ${who(event.actor)}${event.comment === '' ? '' : `: ${event.comment}`}`;

/** A request, readably: its state and review, its changes, what they would change, its history. */
export function requestText(request: Answer, required: number | undefined): string {
  const lines = [
    `${request.title}`,
    `  id:        ${request.id}`,
    `  namespace: ${request.namespaceKey}`,
    `  state:     ${request.state}`,
    `  author:    ${who(request.author)}`,
    `  digest:    ${request.digest}`,
    `  approvals: ${approvalsOf(request, required)}${request.approvals.length === 0 ? '' : ` (${request.approvals.map((a) => who(a.actor)).join(', ')})`}`,
    `  created:   ${request.createdAt}`,
    `  updated:   ${request.updatedAt}`,
  ];
  if (request.applyAt !== undefined) lines.push(`  apply at:  ${request.applyAt}`);
  if (request.appliedRevision !== undefined) lines.push(`  applied:   revision ${request.appliedRevision}`);
  if (request.suspendedReason !== undefined) lines.push(`  suspended: ${request.suspendedReason}`);
  if (request.conflict !== undefined) lines.push(`  conflict:  ${request.conflict}`);
  if (request.description !== '') lines.push('', ...request.description.split('\n').map((line) => `  ${line}`));
  lines.push('', 'Changes:');
  request.changes.forEach((change, i) => {
    lines.push(`  ${i + 1}. ${change.method} ${change.path}`);
    if (change.body !== undefined) lines.push(`     ${compact(change.body)}`);
  });
  if (request.diff !== undefined) {
    lines.push('', 'Diff:');
    if (request.diff.length === 0) lines.push('  (nothing would change)');
    for (const record of request.diff) lines.push(...recordLines(record).map((line) => `  ${line}`));
  }
  if (request.events.length > 0) lines.push('', 'Events:', ...request.events.map(eventLine));
  return `${lines.join('\n')}\n`;
}

/** How many approvals the namespace's policy asks for; undefined when the caller may not read it. */
async function requiredApprovals(api: RemoteApi, base: string): Promise<number | undefined> {
  try {
    const policy = (await api.get(`${base}/change-policy`)) as { requiredApprovals?: unknown };
    return typeof policy.requiredApprovals === 'number' ? policy.requiredApprovals : undefined;
  } catch (err) {
    if (err instanceof RemoteError && err.status !== 0) return undefined;
    throw err;
  }
}

async function runAction(args: ChangeRequestArgs, io: ChangeRequestIo): Promise<void> {
  const api = new RemoteApi(args.remote);
  const base = `/api/v1/namespaces/${encodeURIComponent(args.namespace)}`;
  const one = `${base}/change-requests/${encodeURIComponent(args.id ?? '')}`;
  switch (args.action) {
    case 'list': {
      const answer = (await api.get(`${base}/change-requests${args.state === undefined ? '' : `?state=${encodeURIComponent(args.state)}`}`)) as { changeRequests: ChangeRequest[] };
      io.stdout(args.json ? `${JSON.stringify(answer, null, 2)}\n` : requestLines(answer.changeRequests, await requiredApprovals(api, base)));
      return;
    }
    case 'show': {
      const request = (await api.get(one)) as Answer;
      io.stdout(args.json ? `${JSON.stringify(request, null, 2)}\n` : requestText(request, await requiredApprovals(api, base)));
      return;
    }
    case 'approve': {
      const request = (await api.postJson(`${one}/approvals`, args.digest === undefined ? {} : { digest: args.digest })) as ChangeRequest;
      io.stdout(`approved change request ${request.id}: ${request.state} (${approvalsOf(request, await requiredApprovals(api, base))} approvals)\n`);
      return;
    }
    case 'apply': {
      const request = (await api.postJson(`${one}/apply`, args.at === undefined ? {} : { applyAt: args.at })) as ChangeRequest;
      io.stdout(request.state === 'scheduled' ? `scheduled change request ${request.id} for ${request.applyAt ?? args.at}\n` : `applied change request ${request.id} at revision ${request.appliedRevision ?? '?'}\n`);
      return;
    }
  }
}

/** 0 once done; 1 with the server's message on stderr when it refuses or cannot be reached. */
export async function changeRequestCommand(args: ChangeRequestArgs, io: ChangeRequestIo): Promise<number> {
  try {
    await runAction(args, io);
    return 0;
  } catch (err) {
    if (!(err instanceof RemoteError)) throw err;
    io.stderr(`ensign: ${err.message}\n`);
    return 1;
  }
}
