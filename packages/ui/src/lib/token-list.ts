/** The rows of the API tokens list, from the authentications `/auth/v1/tokens` answers. */

/** Metadata keys of a static token (Flipt's). */
export const TOKEN_METADATA = {
  name: 'io.flipt.auth.token.name',
  description: 'io.flipt.auth.token.description',
  namespace: 'io.flipt.auth.token.namespace',
  /** Set on a browser session opened with a token: that token's id. */
  sessionOf: 'io.ensign.auth.session.parent',
} as const;

/** The token an authentication stands for: the one a browser session was opened with, else itself. */
export const tokenIdOf = (a: TokenAuthentication): string | undefined => a.metadata[TOKEN_METADATA.sessionOf] ?? a.id;

/** The fields of an authentication the list reads. */
export interface TokenAuthentication {
  id?: string;
  createdAt: string;
  expiresAt?: string;
  metadata: Readonly<Record<string, string>>;
}

export interface TokenRow {
  id: string;
  name: string;
  description: string;
  /** The one namespace the token may use; undefined for every namespace. */
  namespace: string | undefined;
  createdAt: Date;
  expiresAt: Date | undefined;
  expired: boolean;
}

/**
 * The rows, newest first. Left out: an authentication without an id (never a stored token) and the
 * browser sessions opened with tokens (they end with their token, or on sign-out).
 */
export function tokenRows(authentications: readonly TokenAuthentication[], now: Date): TokenRow[] {
  const rows: TokenRow[] = [];
  for (const a of authentications) {
    if (a.id === undefined || a.metadata[TOKEN_METADATA.sessionOf] !== undefined) continue;
    const expiresAt = a.expiresAt === undefined ? undefined : new Date(a.expiresAt);
    const namespace = a.metadata[TOKEN_METADATA.namespace];
    rows.push({
      id: a.id,
      name: a.metadata[TOKEN_METADATA.name] ?? '',
      description: a.metadata[TOKEN_METADATA.description] ?? '',
      namespace: namespace === undefined || namespace === '' ? undefined : namespace,
      createdAt: new Date(a.createdAt),
      expiresAt,
      expired: expiresAt !== undefined && expiresAt.getTime() <= now.getTime(),
    });
  }
  return rows.sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime() || y.id.localeCompare(x.id));
}

const DAY_MS = 86_400_000;
/** Each unit, its length, and from how far away it is used (days up to two months, as token lifetimes are picked). */
const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number, number]> = [
  ['year', 365 * DAY_MS, 365 * DAY_MS],
  ['month', 30 * DAY_MS, 60 * DAY_MS],
  ['day', DAY_MS, DAY_MS],
  ['hour', 3_600_000, 3_600_000],
  ['minute', 60_000, 60_000],
];

/**
 * "in 30 days", "2 hours ago", "now": how far `target` is from `now`, in the largest fitting unit,
 * whole units counted by `round` (towards zero unless told).
 */
export function relativeTime(target: Date, now: Date, locale = 'en', round: (units: number) => number = Math.trunc): string {
  const diff = target.getTime() - now.getTime();
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, ms, from] of UNITS) {
    if (Math.abs(diff) >= from) return format.format(round(diff / ms), unit);
  }
  return format.format(0, 'second');
}
