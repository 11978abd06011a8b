/** The `X-Flipt-Accept-Server-Version` header: which snapshot features an SDK understands. */

/** A parsed version: major, minor, patch, and whether it is a pre-release of that version. */
export interface ServerVersion {
  major: number;
  minor: number;
  patch: number;
  prerelease: boolean;
}

/** COMPAT(flipt): a client that sends no (or an unreadable) header is treated as v1.37.1. */
export const ASSUMED_CLIENT_VERSION: ServerVersion = { major: 1, minor: 37, patch: 1, prerelease: false };

const TOLERANT = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

/** Parses like Go's `semver.ParseTolerant`: `v` prefix and spaces allowed, missing parts are 0. */
export function parseServerVersion(text: string | undefined): ServerVersion | undefined {
  if (text === undefined) return undefined;
  const match = TOLERANT.exec(text.trim());
  if (match === null) return undefined;
  return {
    major: Number(match[1]),
    minor: Number(match[2] ?? 0),
    patch: Number(match[3] ?? 0),
    prerelease: match[4] !== undefined,
  };
}

/** True when `v` sorts before the release `major.minor.patch` (a pre-release sorts before its release). */
export function isBefore(v: ServerVersion, major: number, minor: number, patch: number): boolean {
  if (v.major !== major) return v.major < major;
  if (v.minor !== minor) return v.minor < minor;
  if (v.patch !== patch) return v.patch < patch;
  return v.prerelease;
}

/**
 * What a client of a given version is shown: `legacy` (< 1.38.0) hides entity-id constraint types
 * and default variants, `no-default-variant` (< 1.47.0) hides default variants, `current` shows all.
 * `ensign` is not a Flipt version: Ensign's own clients ask for it (`?format=ensign`, see
 * snapshot-format.ts) and are shown the document as held, unfolded.
 */
export type SnapshotGate = 'legacy' | 'no-default-variant' | 'current' | 'ensign';

/** The gate for a header value (absent ⇒ v1.37.1 ⇒ `legacy`). */
export function gateFor(header: string | undefined): SnapshotGate {
  const version = parseServerVersion(header) ?? ASSUMED_CLIENT_VERSION;
  if (isBefore(version, 1, 38, 0)) return 'legacy';
  if (isBefore(version, 1, 47, 0)) return 'no-default-variant';
  return 'current';
}
