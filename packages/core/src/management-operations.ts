/**
 * Every management operation, by the name its gRPC method has (Flipt's where Flipt has one), with
 * the checks authorization makes for it. HTTP routes and gRPC methods name their operation here, so
 * a call is checked the same way whichever transport carries it.
 */
import type { ManagementKind } from './management-request.js';

const flag = (subject: ManagementKind['subject'], action: ManagementKind['action']): ManagementKind[] => [{ resource: 'flag', subject, action }];
const segment = (subject: ManagementKind['subject'], action: ManagementKind['action']): ManagementKind[] => [{ resource: 'segment', subject, action }];
const namespace = (action: ManagementKind['action']): ManagementKind[] => [{ resource: 'namespace', subject: 'namespace', action }];
const changeRequest = (action: ManagementKind['action']): ManagementKind[] => [{ resource: 'namespace', subject: 'change_request', action }];
const authentication = (action: ManagementKind['action']): ManagementKind[] => [{ resource: 'authentication', subject: 'token', action }];
/** Everything a namespace's flags and segments are: what a snapshot or an export reads. */
const flagsAndSegments = (...actions: Array<ManagementKind['action']>): ManagementKind[] =>
  actions.flatMap((action) => [...flag('flag', action), ...segment('segment', action)]);

export const MANAGEMENT_OPERATIONS = {
  ListNamespaces: namespace('read'),
  GetNamespace: namespace('read'),
  CreateNamespace: namespace('create'),
  UpdateNamespace: namespace('update'),
  DeleteNamespace: namespace('delete'),

  ListFlags: flag('flag', 'read'),
  GetFlag: flag('flag', 'read'),
  CreateFlag: flag('flag', 'create'),
  UpdateFlag: flag('flag', 'update'),
  DeleteFlag: flag('flag', 'delete'),
  CreateVariant: flag('variant', 'create'),
  UpdateVariant: flag('variant', 'update'),
  DeleteVariant: flag('variant', 'delete'),
  ListRules: flag('rule', 'read'),
  GetRule: flag('rule', 'read'),
  CreateRule: flag('rule', 'create'),
  UpdateRule: flag('rule', 'update'),
  OrderRules: flag('rule', 'update'),
  DeleteRule: flag('rule', 'delete'),
  // COMPAT(flipt): distributions are checked as the segment's (rpc/flipt/request.go), though they belong to a flag's rule.
  CreateDistribution: segment('distribution', 'create'),
  UpdateDistribution: segment('distribution', 'update'),
  DeleteDistribution: segment('distribution', 'delete'),
  ListRollouts: flag('rollout', 'read'),
  GetRollout: flag('rollout', 'read'),
  CreateRollout: flag('rollout', 'create'),
  UpdateRollout: flag('rollout', 'update'),
  OrderRollouts: flag('rollout', 'update'),
  DeleteRollout: flag('rollout', 'delete'),
  /** A flag's scheduled changes (Ensign's): reading them is reading the flag, scheduling one changes it. */
  ListFlagSchedules: flag('flag', 'read'),
  CreateFlagSchedule: flag('flag', 'update'),
  DeleteFlagSchedule: flag('flag', 'update'),
  /** A flag's prerequisites, rule and rollout windows, ramps and pending schedules (Ensign's gRPC): reading the flag, its rules and its rollouts. */
  GetFlagTiming: [...flag('flag', 'read'), ...flag('rule', 'read'), ...flag('rollout', 'read')],

  ListSegments: segment('segment', 'read'),
  GetSegment: segment('segment', 'read'),
  CreateSegment: segment('segment', 'create'),
  UpdateSegment: segment('segment', 'update'),
  DeleteSegment: segment('segment', 'delete'),
  CreateConstraint: segment('constraint', 'create'),
  UpdateConstraint: segment('constraint', 'update'),
  DeleteConstraint: segment('constraint', 'delete'),

  CreateToken: authentication('create'),
  ListAuthentications: authentication('read'),
  GetAuthentication: authentication('read'),
  DeleteAuthentication: authentication('delete'),

  // Ensign's own management routes.
  /** The change history of a namespace. */
  ListChanges: namespace('read'),
  /** A flag's evaluation counts.*/
  GetFlagUsage: flag('flag', 'read'),
  /** The evaluation counts of every flag of a namespace. */
  ListFlagUsage: flag('flag', 'read'),
  /** Flipt's analytics of one flag. */
  GetFlagEvaluationsCount: flag('flag', 'read'),
  ExportNamespace: flagsAndSegments('read'),
  /** The client-side SDK snapshot (Flipt checks flag:read and segment:read, #3438). */
  EvaluationSnapshotNamespace: flagsAndSegments('read'),
  /**
   * Change requests of a namespace. Reading, proposing, commenting and applying are reading the
   * namespace: each proposed change is run as the caller through its own route, so what it changes
   * is checked as if called directly, when proposed and again when applied.
   */
  GetChangePolicy: namespace('read'),
  /** Protecting a namespace, or lowering its protection, is managing the namespace. */
  UpdateChangePolicy: namespace('update'),
  ListChangeRequests: namespace('read'),
  GetChangeRequest: namespace('read'),
  CreateChangeRequest: namespace('read'),
  UpdateChangeRequest: namespace('read'),
  SubmitChangeRequest: namespace('read'),
  CancelChangeRequest: namespace('read'),
  CommentChangeRequest: namespace('read'),
  /** Approving or rejecting another's request: a role's `approve` (its `*` includes it). */
  ApproveChangeRequest: changeRequest('approve'),
  RejectChangeRequest: changeRequest('approve'),
  ApplyChangeRequest: namespace('read'),
  /** A direct write to a protected namespace: a role's `bypass`, which its `*` never includes. */
  BypassChangePolicy: changeRequest('bypass'),
  /** An import may create, replace and (with drop) remove any flag or segment of the namespace. */
  ImportNamespace: flagsAndSegments('create', 'update', 'delete'),
} as const satisfies Record<string, readonly ManagementKind[]>;

export type ManagementOperationName = keyof typeof MANAGEMENT_OPERATIONS;

/** One management call: its operation and the namespace it touches (undefined: none, as listing namespaces). */
export interface ManagementOperation {
  name: ManagementOperationName;
  namespace: string | undefined;
}

/** The checks an operation makes. */
export const checksOf = (name: ManagementOperationName): readonly ManagementKind[] => MANAGEMENT_OPERATIONS[name];
