/**
 * Why a control is locked, in a few words that say who and where: "Viewers can't create flags in
 * production" for a session whose authentication names its role (`io.flipt.auth.role`, which
 * Flipt's role policies read), else "You can't create flags in production".
 */
import { ABILITIES, type Ability } from './permissions.js';

/** The metadata key of the session's role. */
export const ROLE_METADATA_KEY = 'io.flipt.auth.role';

/** The role the session's authentication names, if any. */
export function roleOf(metadata: Readonly<Record<string, string>> | undefined): string | undefined {
  const role = metadata?.[ROLE_METADATA_KEY]?.trim();
  return role === undefined || role === '' ? undefined : role;
}

/** "viewer" → "viewers", "proxy" → "proxies", "boss" → "bosses". */
function plural(word: string): string {
  if (/(?:s|x|z|ch|sh)$/i.test(word)) return `${word}es`;
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

/**
 * Who holds the role, as a sentence starts with them: "Viewers", "Release managers"; a name that is
 * not plain words is quoted ("The “team-a_writer” role"); no role is "You".
 */
export function holdersOf(role: string | undefined): string {
  if (role === undefined) return 'You';
  if (!/^[A-Za-z]+(?: [A-Za-z]+)*$/.test(role)) return `The “${role}” role`;
  const words = plural(role);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The reason a control for `what` in namespace `ns` is locked for holders of `role`. */
export function deniedHint(role: string | undefined, what: Ability, ns: string): string {
  return `${holdersOf(role)} can't ${ABILITIES[what].says(ns)}`;
}
