import type { Knex } from 'knex';

/** Keys of the flags whose rules or rollouts use the segment, sorted; an edit of the segment changes how they evaluate. */
export async function flagsUsingSegment(db: Knex, namespaceKey: string, segmentKey: string): Promise<string[]> {
  const ruleFlags = (await db('rule_segments')
    .distinct('rules.flag_key')
    .join('rules', 'rules.id', 'rule_segments.rule_id')
    .where({ 'rule_segments.namespace_key': namespaceKey, 'rule_segments.segment_key': segmentKey })) as Array<{ flag_key: string }>;
  const rolloutFlags = (await db('rollout_segment_references')
    .distinct('rollouts.flag_key')
    .join('rollouts', 'rollouts.id', 'rollout_segment_references.rollout_id')
    .where({
      'rollout_segment_references.namespace_key': namespaceKey,
      'rollout_segment_references.segment_key': segmentKey,
    })) as Array<{ flag_key: string }>;
  return [...new Set([...ruleFlags, ...rolloutFlags].map((r) => r.flag_key))].sort();
}
