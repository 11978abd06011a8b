import {
  type Constraint,
  type CreateConstraint,
  type SegmentItemRef,
  type UpdateConstraint,
  validateCreateConstraint,
  validateSegmentItemRef,
  validateUpdateConstraint,
} from '@ensign/core';
import type { ConstraintRepository } from './constraint.repository.js';

/** Constraint use cases: validate (operator and value normalised), then hand to storage. */
export class ConstraintService {
  constructor(private readonly constraints: ConstraintRepository) {}

  create(req: CreateConstraint): Promise<Constraint> {
    return this.constraints.create(validateCreateConstraint(req));
  }

  update(req: UpdateConstraint): Promise<Constraint> {
    return this.constraints.update(validateUpdateConstraint(req));
  }

  delete(req: SegmentItemRef): Promise<void> {
    const { namespaceKey, segmentKey, id } = validateSegmentItemRef(req);
    return this.constraints.delete(namespaceKey, segmentKey, id);
  }
}
