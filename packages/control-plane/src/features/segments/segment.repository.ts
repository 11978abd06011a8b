import type { CreateSegment, Page, PageRequest, Segment, UpdateSegment } from '@ensign/core';

/** Segment storage; segments carry their constraints (by creation). */
export interface SegmentRepository {
  /** Ordered by creation, then key. */
  list(namespaceKey: string, page: PageRequest): Promise<Page<Segment>>;
  get(namespaceKey: string, key: string): Promise<Segment>;
  create(req: CreateSegment): Promise<Segment>;
  update(req: UpdateSegment): Promise<Segment>;
  /** Refused with `segment "<ns>/<key>" is in use` while a rule or rollout references it. */
  delete(namespaceKey: string, key: string): Promise<void>;
}
