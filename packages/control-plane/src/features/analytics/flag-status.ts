/** What `/usage` says of a flag: new, in use, unused, or serving one value to everyone. */
import type { FlagUsageStatus } from '@ensign/core';

export interface FlagStatus {
  status: FlagUsageStatus;
  /** A candidate for removal: unused, or launched (its code path can be made permanent). */
  stale: boolean;
}

/**
 * A flag created inside the window is `new` whatever its evaluations: it has not had the window's
 * time to be used. An older one is `inactive` without evaluations in the window, `launched` when
 * every evaluation in it served the same value, else `active`.
 */
export function flagStatus(createdAtMs: number, windowStartMs: number, evaluations: number, distinctValues: number): FlagStatus {
  if (createdAtMs >= windowStartMs) return { status: 'new', stale: false };
  if (evaluations === 0) return { status: 'inactive', stale: true };
  if (distinctValues === 1) return { status: 'launched', stale: true };
  return { status: 'active', stale: false };
}
