import type { RampStep, ValidityWindow } from '@ensign/core';

/** A rule's or rollout's window as the wire reports it: only the bounds that are set. */
export function windowOf(row: { valid_from: string | null; valid_until: string | null }): ValidityWindow {
  const window: ValidityWindow = {};
  if (row.valid_from !== null && row.valid_from !== undefined) window.validFrom = row.valid_from;
  if (row.valid_until !== null && row.valid_until !== undefined) window.validUntil = row.valid_until;
  return window;
}

/** The columns of a window: NULL for an unset bound. */
export const windowColumns = (window: ValidityWindow) => ({ valid_from: window.validFrom ?? null, valid_until: window.validUntil ?? null });

/** A ramp as stored: NULL when it has no steps. */
export const rampColumn = (ramp: readonly RampStep[]): string | null => (ramp.length === 0 ? null : JSON.stringify(ramp));
