import type { Constraint, CreateConstraint, UpdateConstraint } from '@ensign/core';

/** Constraint storage; constraints are read through their segment. */
export interface ConstraintRepository {
  /** NotFound when the segment does not exist. */
  create(req: CreateConstraint): Promise<Constraint>;
  update(req: UpdateConstraint): Promise<Constraint>;
  delete(namespaceKey: string, segmentKey: string, id: string): Promise<void>;
}
