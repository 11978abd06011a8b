/** The flags of `ensign authz explain`, read from the parsed command line. */
import { type FlagSpec, type RemoteTarget, remoteOf, type Values } from './transfer-flags.js';

export interface AuthzArgs {
  remote: RemoteTarget;
  /** Only this namespace; every one the credential may view when absent. */
  namespace: string | undefined;
}

export const AUTHZ_FLAGS: readonly FlagSpec[] = [
  { name: 'address', short: 'a', value: '<url>', doc: 'The running Ensign to ask' },
  { name: 'token', short: 't', value: '<token>', doc: 'The credential explained (Authorization: Bearer)' },
  { name: 'namespace', short: 'n', value: '<key>', doc: 'Only this namespace' },
];

/** The explanation asked for, or the usage error's message. */
export function authzArgs(values: Values, positionals: readonly string[]): AuthzArgs | string {
  if (positionals[0] !== 'explain') return positionals[0] === undefined ? 'missing subcommand (explain)' : `unknown subcommand "${positionals[0]}" (explain)`;
  if (positionals.length > 1) return `unexpected argument "${positionals[1]}"`;
  const remote = remoteOf(values);
  if (typeof remote === 'string') return remote;
  if (remote === undefined) return 'explain needs --address';
  const namespace = values.namespace;
  return { remote, namespace: typeof namespace === 'string' && namespace !== '' ? namespace : undefined };
}
