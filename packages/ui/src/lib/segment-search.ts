/** Searching and describing segments in the segments list, which filters and pages in the browser. */
import type { MatchType, Segment } from '@ensign/core';

/** `ALL_MATCH_TYPE` → "All", `ANY_MATCH_TYPE` → "Any". */
export function matchTypeLabel(matchType: MatchType): string {
  return matchType === 'ANY_MATCH_TYPE' ? 'Any' : 'All';
}

/**
 * The segments whose key, name, description or constraint properties contain every word of
 * `query` (case-insensitive), in the order given.
 */
export function searchSegments(segments: readonly Segment[], query: string): Segment[] {
  const words = query.toLowerCase().split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return [...segments];
  return segments.filter((segment) => {
    const text = [segment.key, segment.name, segment.description, ...segment.constraints.map((c) => c.property)].join('\n').toLowerCase();
    return words.every((word) => text.includes(word));
  });
}
