/**
 * `flags.update` replaces the whole flag, so every change to a flag (enabled, details, default
 * variant) starts from the flag as read and changes only its own fields.
 */
import type { Flag } from '@ensign/core';
import type { FlagUpdate } from '../../api/endpoints.js';

export function flagUpdate(flag: Flag, changes: Partial<FlagUpdate>): FlagUpdate {
  return {
    name: flag.name,
    description: flag.description,
    enabled: flag.enabled,
    defaultVariantId: flag.defaultVariant?.id ?? '',
    ...(flag.metadata === undefined ? {} : { metadata: flag.metadata }),
    ...changes,
  };
}

/** The message of any error, for toasts. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export const FLAG_TYPE_LABEL = { VARIANT_FLAG_TYPE: 'Variant', BOOLEAN_FLAG_TYPE: 'Boolean' } as const;
