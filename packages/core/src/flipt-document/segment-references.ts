/** The segments a document's rules and rollouts name, each with its path, for whoever checks they exist. */
import type { FliptDocument } from './document-types.js';

export interface SegmentReference {
  /** `flags[3].rules[0].segment`, `flags[1].rollouts[2].segment.keys[1]`. */
  path: string;
  flagKey: string;
  segmentKey: string;
}

/** One key is written at `single`, several at `<segment>.keys[k]`. */
function keyPaths(segment: string, single: string, keys: readonly string[]): Array<{ path: string; segmentKey: string }> {
  if (keys.length === 1) return [{ path: single, segmentKey: keys[0] ?? '' }];
  return keys.map((segmentKey, k) => ({ path: `${segment}.keys[${k}]`, segmentKey }));
}

/** Every segment reference of the document, in document order. */
export function segmentReferences(doc: FliptDocument): SegmentReference[] {
  return doc.flags.flatMap((flag, i) => [
    ...flag.rules.flatMap((rule, j) => {
      const segment = `flags[${i}].rules[${j}].segment`;
      return keyPaths(segment, segment, rule.segmentKeys);
    }),
    ...flag.rollouts.flatMap((rollout, j) => {
      if (rollout.segment === undefined) return [];
      const segment = `flags[${i}].rollouts[${j}].segment`;
      return keyPaths(segment, `${segment}.key`, rollout.segment.segmentKeys);
    }),
  ].map((ref) => ({ ...ref, flagKey: flag.key })));
}
