/**
 * A flag's prerequisites as evaluation walks them. Parents are named by key and found at evaluation
 * time, so a patched snapshot that replaces a parent needs no recompilation of its children. What
 * the flag answers when one fails is built here, once per prerequisite.
 */
import type { PrerequisitePlan } from './compiled-snapshot.js';
import type { SnapshotPrerequisite } from './snapshot-document.js';

const EMPTY: readonly never[] = Object.freeze([]);
/** Failure results name no segment; the list is shared and never written. */
const NO_KEYS = EMPTY as readonly string[] as string[];

/** The flag's default variant, served (without a match) when a prerequisite fails. */
interface DefaultVariant {
  key: string;
  attachment: string;
}

export function compilePrerequisites(list: readonly SnapshotPrerequisite[] | null | undefined, defaultVariant: DefaultVariant): readonly PrerequisitePlan[] {
  if (!list?.length) return EMPTY;
  return Object.freeze(list.map((p) => compilePrerequisite(p, defaultVariant)));
}

function compilePrerequisite(p: SnapshotPrerequisite, defaultVariant: DefaultVariant): PrerequisitePlan {
  const variants = p.variants === undefined || p.variants === null ? null : Object.freeze([...p.variants]);
  return Object.freeze({
    flagKey: p.flagKey,
    enabled: variants === null ? p.enabled === true : null,
    variants,
    booleanFailure: Object.freeze({ enabled: false, reason: 'DEFAULT_EVALUATION_REASON', segmentKeys: NO_KEYS, prerequisite: p.flagKey }),
    variantFailure: Object.freeze({
      match: false,
      reason: 'DEFAULT_EVALUATION_REASON',
      variantKey: defaultVariant.key,
      variantAttachment: defaultVariant.attachment,
      segmentKeys: NO_KEYS,
      prerequisite: p.flagKey,
    }),
  });
}
