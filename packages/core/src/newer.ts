/**
 * The one rule every holder of versioned state follows (evaluation snapshots, deltas, the token
 * digest set): what arrives replaces what is held only when it is strictly newer, so two
 * publishers, a late message or a replay can never move a holder backwards.
 */
export function isNewer(incoming: number, held: number | undefined): boolean {
  return held === undefined || incoming > held;
}
