/** The flags of `ensign change-request list|show|approve|apply`, read from the parsed command line. */
import { type FlagSpec, type RemoteTarget, remoteOf, type Values } from './transfer-flags.js';

export const CHANGE_REQUEST_ACTIONS = ['list', 'show', 'approve', 'apply'] as const;
export type ChangeRequestAction = (typeof CHANGE_REQUEST_ACTIONS)[number];

export interface ChangeRequestArgs {
  action: ChangeRequestAction;
  remote: RemoteTarget;
  namespace: string;
  /** The request (show, approve, apply). */
  id: string | undefined;
  /** list: only requests in these states (as `?state=` takes them). */
  state: string | undefined;
  /** list and show: the server's answer as it came. */
  json: boolean;
  /** approve: the digest reviewed. */
  digest: string | undefined;
  /** apply: when (RFC 3339); now when absent. */
  at: string | undefined;
}

export const CHANGE_REQUEST_FLAGS: readonly FlagSpec[] = [
  { name: 'address', short: 'a', value: '<url>', doc: 'The running Ensign to talk to' },
  { name: 'token', short: 't', value: '<token>', doc: 'Client token sent to --address (Authorization: Bearer)' },
  { name: 'namespace', short: 'n', value: '<key>', doc: 'The namespace of the change requests' },
  { name: 'state', value: '<s,…>', doc: 'list: only these states (draft, in_review, approved, scheduled, applied, rejected, cancelled)' },
  { name: 'json', doc: 'list, show: print the server\'s JSON answer' },
  { name: 'digest', value: '<digest>', doc: 'approve: the digest reviewed; refused when the changes were replaced since' },
  { name: 'at', value: '<RFC3339>', doc: 'apply: schedule the apply for this time instead of applying now' },
];

/** Which action each flag beyond address, token and namespace belongs to. */
const OWN: Readonly<Record<string, readonly ChangeRequestAction[]>> = { state: ['list'], json: ['list', 'show'], digest: ['approve'], at: ['apply'] };

const text = (values: Values, name: string): string | undefined => {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
};

/** The call asked for, or the usage error's message. */
export function changeRequestArgs(values: Values, positionals: readonly string[]): ChangeRequestArgs | string {
  const [action, id, extra] = positionals;
  const actions = CHANGE_REQUEST_ACTIONS.join(', ');
  if (action === undefined) return `missing subcommand (${actions})`;
  if (!(CHANGE_REQUEST_ACTIONS as readonly string[]).includes(action)) return `unknown subcommand "${action}" (${actions})`;
  const act = action as ChangeRequestAction;
  if (act === 'list' && id !== undefined) return `unexpected argument "${id}"`;
  if (act !== 'list' && (id === undefined || id === '')) return `${act} needs the change request's id`;
  if (extra !== undefined) return `unexpected argument "${extra}"`;
  for (const [flag, owners] of Object.entries(OWN)) {
    if (values[flag] !== undefined && !owners.includes(act)) return `--${flag} is not a flag of "change-request ${act}"`;
  }
  const remote = remoteOf(values);
  if (typeof remote === 'string') return remote;
  if (remote === undefined) return `${act} needs --address`;
  const namespace = text(values, 'namespace');
  if (namespace === undefined || namespace === '') return `${act} needs --namespace`;
  return { action: act, remote, namespace, id, state: text(values, 'state'), json: values.json === true, digest: text(values, 'digest'), at: text(values, 'at') };
}
