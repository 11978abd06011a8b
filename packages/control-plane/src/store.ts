import type { ConstraintRepository } from './features/constraints/constraint.repository.js';
import type { DistributionRepository } from './features/distributions/distribution.repository.js';
import type { DocumentRepository } from './features/documents/document.repository.js';
import type { FlagRepository } from './features/flags/flag.repository.js';
import type { HistoryRepository } from './features/history/history.repository.js';
import type { NamespaceRepository } from './features/namespaces/namespace.repository.js';
import type { RolloutRepository } from './features/rollouts/rollout.repository.js';
import type { RuleRepository } from './features/rules/rule.repository.js';
import type { ScheduleRepository } from './features/schedules/schedule.repository.js';
import type { SegmentRepository } from './features/segments/segment.repository.js';
import type { VariantRepository } from './features/variants/variant.repository.js';

/** Everything the management API needs from storage; the composition root hands one in. */
export interface ManagementStore {
  namespaces: NamespaceRepository;
  flags: FlagRepository;
  variants: VariantRepository;
  segments: SegmentRepository;
  constraints: ConstraintRepository;
  rules: RuleRepository;
  distributions: DistributionRepository;
  rollouts: RolloutRepository;
  /** Flags' scheduled changes. */
  schedules: ScheduleRepository;
  /** Whole namespaces as Flipt documents (export, import). */
  documents: DocumentRepository;
  /** The history of changes (`audit_events`), one entry per committed write. */
  audit: HistoryRepository;
  /** Resolves when the database answers and its schema is current; rejects otherwise. */
  ping(): Promise<void>;
}
