import {
  type CreateSegment,
  type KeyRef,
  type ListInNamespace,
  type Page,
  type Segment,
  type UpdateSegment,
  validateCreateSegment,
  validateKeyRef,
  validateListInNamespace,
  validateUpdateSegment,
} from '@ensign/core';
import type { SegmentRepository } from './segment.repository.js';

/** Segment use cases: validate the decoded request, then hand it to storage. */
export class SegmentService {
  constructor(private readonly segments: SegmentRepository) {}

  list(req: ListInNamespace): Promise<Page<Segment>> {
    const { namespaceKey, page } = validateListInNamespace(req);
    return this.segments.list(namespaceKey, page);
  }

  get(req: KeyRef): Promise<Segment> {
    const { namespaceKey, key } = validateKeyRef(req);
    return this.segments.get(namespaceKey, key);
  }

  create(req: CreateSegment): Promise<Segment> {
    return this.segments.create(validateCreateSegment(req));
  }

  update(req: UpdateSegment): Promise<Segment> {
    return this.segments.update(validateUpdateSegment(req));
  }

  delete(req: KeyRef): Promise<void> {
    const { namespaceKey, key } = validateKeyRef(req);
    return this.segments.delete(namespaceKey, key);
  }
}
