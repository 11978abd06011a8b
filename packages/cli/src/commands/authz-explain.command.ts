/** `ensign authz explain`: what a credential may do, per namespace, as the server's policy decides it. */
import type { Permissions } from '@ensign/core';
import type { AuthzArgs } from '../authz-flags.js';
import { RemoteApi, RemoteError } from './remote-api.js';

export interface ExplainIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

const RESOURCES = ['namespace', 'flag', 'segment'] as const;

const actions = (granted: readonly string[]): string => (granted.length === 0 ? '-' : granted.join(','));

/** The table printed: a row per namespace, a column per resource, then tokens. */
export function explanation(permissions: Permissions): string {
  const rows = [['NAMESPACE', ...RESOURCES.map((r) => r.toUpperCase())]];
  for (const [key, granted] of Object.entries(permissions.namespaces)) rows.push([key, ...RESOURCES.map((r) => actions(granted[r]))]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  const lines = rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd());
  const header = permissions.authorizationRequired ? 'authorization: required (the server\'s policy decides)' : 'authorization: not required (every action is allowed where the credential may go)';
  const empty = Object.keys(permissions.namespaces).length === 0 ? ['(no namespace this credential may view)'] : [];
  return [header, '', ...lines, ...empty, '', `tokens: ${actions(permissions.authentication)}`, ''].join('\n');
}

export async function authzExplainCommand(args: AuthzArgs, io: ExplainIo): Promise<number> {
  const query = args.namespace === undefined ? '' : `?namespace=${encodeURIComponent(args.namespace)}`;
  try {
    const permissions = (await new RemoteApi(args.remote).get(`/api/v1/permissions${query}`)) as Permissions;
    if (args.namespace !== undefined && !(args.namespace in permissions.namespaces)) {
      io.stderr(`ensign: namespace "${args.namespace}" does not exist or this credential may not view it\n`);
      return 1;
    }
    io.stdout(explanation(permissions));
    return 0;
  } catch (err) {
    if (!(err instanceof RemoteError)) throw err;
    io.stderr(`ensign: ${err.message}\n`);
    return 1;
  }
}
