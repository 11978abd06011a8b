export { boundedInput, boundedMessage, boundedQuotes, MAX_ERROR_MESSAGE, MAX_QUOTED_INPUT } from './bounded-text.js';
export {
  AppError,
  bodyTooLarge,
  Code,
  emptyField,
  errorBody,
  httpStatusOf,
  internal,
  invalid,
  invalidField,
  isAppError,
  isServerFault,
  conflict,
  notFound,
  permissionDenied,
  unauthenticated,
  unavailable,
} from './errors.js';
export type { ErrorBody } from './errors.js';
export { DEFAULT_BODY_LIMIT_BYTES, HEALTH_TIMEOUT_MS } from './limits.js';
export { AUTH_META, AUTH_METHODS } from './authentication.js';
export type { Authentication, AuthenticationPage, AuthenticationQuery, AuthMethod, LiveDigest, NewAuthentication, StoredAuthentication } from './authentication.js';
export { ComparisonType, defineEnum, FlagType, MatchType, RolloutType, SegmentOperator } from './enums.js';
export type { EnumSpec } from './enums.js';
export { DEFAULT_NAMESPACE } from './resources.js';
export { CHANGE_ACTIONS, CHANGE_RESOURCES } from './change-record.js';
export type { Actor, ChangeAction, ChangeRecord, ChangeRequestRef, ChangeResource } from './change-record.js';
export { AUDIT_DEFAULT_LIMIT, AUDIT_MAX_LIMIT } from './audit.js';
export type { AuditEntry, AuditPage, AuditQuery } from './audit.js';
export { decodeListAuditEvents } from './decode/audit.decode.js';
export { KeyedLanes } from './keyed-lanes.js';
export { PeriodicTask } from './periodic-task.js';
export { activeTracing, installTracing, traced } from './tracing.js';
export type { SpanAttributes, TraceCarrier, TraceSpan, Tracing } from './tracing.js';
export { isNewer } from './newer.js';
export type {
  Constraint,
  Distribution,
  Flag,
  FlagSchedule,
  FlagScheduleStatus,
  Namespace,
  Prerequisite,
  RampStep,
  ValidityWindow,
  Page,
  Rollout,
  RolloutSegment,
  RolloutThreshold,
  Rule,
  Segment,
  Variant,
} from './resources.js';
export type {
  CreateConstraint,
  CreateDistribution,
  CreateFlag,
  CreateNamespace,
  CreateRollout,
  CreateRule,
  CreateSchedule,
  CreateSegment,
  CreateVariant,
  DeleteDistribution,
  OrderItems,
  PageRequest,
  RolloutSegmentInput,
  RolloutThresholdInput,
  ScheduleRef,
  UpdateConstraint,
  UpdateDistribution,
  UpdateFlag,
  UpdateNamespace,
  UpdateRollout,
  UpdateRule,
  UpdateSegment,
  UpdateVariant,
  WindowInput,
} from './requests.js';
export { decodeCreateSchedule, decodeScheduleRef } from './decode/schedule.decode.js';
export { normaliseTime, parseTime, readPrerequisites, readRamp, readTime, readWindow } from './decode/timing.decode.js';
export { checkPrerequisites, checkRamp, checkWindow, mergeWindow, validateCreateSchedule, validateScheduleRef } from './validation/timing.validation.js';
export type {
  DeleteNamespace,
  FlagItemRef,
  KeyRef,
  ListInFlag,
  ListInNamespace,
  ListNamespaces,
  NamespaceRef,
  PageQuery,
  SegmentItemRef,
} from './queries.js';
export { decodePageCursor, decodePageToken, encodePageToken } from './pagination.js';
export {
  isFields,
  lookup,
  MAX_OBJECT_DEPTH,
  nestingDepth,
  readBoolean,
  readBooleanParam,
  readEnum,
  readInteger,
  readMessage,
  readNumber,
  readObject,
  readString,
  readStringArray,
  withPath,
} from './decode/fields.js';
export type { Fields, PathParams } from './decode/fields.js';
export { readPageQuery } from './decode/page.decode.js';
export {
  decodeCreateNamespace,
  decodeDeleteNamespace,
  decodeListNamespaces,
  decodeNamespaceRef,
  decodeUpdateNamespace,
} from './decode/namespace.decode.js';
export { decodeCreateFlag, decodeKeyRef, decodeListInNamespace, decodeUpdateFlag } from './decode/flag.decode.js';
export { decodeCreateVariant, decodeFlagItemRef, decodeUpdateVariant } from './decode/variant.decode.js';
export { decodeCreateSegment, decodeUpdateSegment } from './decode/segment.decode.js';
export {
  decodeCreateConstraint,
  decodeSegmentItemRef,
  decodeUpdateConstraint,
} from './decode/constraint.decode.js';
export { decodeCreateRule, decodeListRules, decodeOrderRules, decodeUpdateRule } from './decode/rule.decode.js';
export {
  decodeCreateDistribution,
  decodeDeleteDistribution,
  decodeUpdateDistribution,
} from './decode/distribution.decode.js';
export {
  decodeCreateRollout,
  decodeListRollouts,
  decodeOrderRollouts,
  decodeUpdateRollout,
} from './decode/rollout.decode.js';
export { MAX_KEY_LENGTH, requireKey, requireShortValue, requireValue, resolveNamespace } from './validation/common.validation.js';
export { validatePage } from './validation/page.validation.js';
export {
  validateCreateNamespace,
  validateDeleteNamespace,
  validateListNamespaces,
  validateNamespaceRef,
  validateUpdateNamespace,
} from './validation/namespace.validation.js';
export {
  validateCreateFlag,
  validateKeyRef,
  validateListInNamespace,
  validateUpdateFlag,
} from './validation/flag.validation.js';
export type { ResolvedListInNamespace } from './validation/flag.validation.js';
export {
  MAX_ATTACHMENT_BYTES,
  normaliseAttachment,
  validateCreateVariant,
  validateFlagItemRef,
  validateUpdateVariant,
} from './validation/variant.validation.js';
export { validateCreateSegment, validateUpdateSegment } from './validation/segment.validation.js';
export {
  validateCreateConstraint,
  validateSegmentItemRef,
  validateUpdateConstraint,
} from './validation/constraint.validation.js';
export { checkListValue, MAX_LIST_ITEMS, normaliseDateTime } from './validation/constraint-value.js';
export {
  BOOLEAN_OPERATORS,
  ENTITY_ID_OPERATORS,
  NO_VALUE_OPERATORS,
  NUMBER_OPERATORS,
  OPERATORS_BY_TYPE,
  STRING_OPERATORS,
} from './validation/operators.js';
export { checkSegmentRef, normaliseSegmentRef } from './validation/segment-keys.js';
export type { SegmentRef } from './validation/segment-keys.js';
export {
  validateCreateRule,
  validateListRules,
  validateOrderRules,
  validateUpdateRule,
} from './validation/rule.validation.js';
export type { ResolvedListInFlag } from './validation/rule.validation.js';
export {
  validateCreateDistribution,
  validateDeleteDistribution,
  validateUpdateDistribution,
} from './validation/distribution.validation.js';
export {
  validateCreateRollout,
  validateListRollouts,
  validateOrderRollouts,
  validateUpdateRollout,
} from './validation/rollout.validation.js';
export type {
  BatchEvaluationRequest,
  BatchEvaluationResponse,
  BooleanEvaluationResponse,
  ErrorEvaluationReason,
  ErrorEvaluationResponse,
  EvaluationReason,
  EvaluationRequest,
  EvaluationResponseItem,
  VariantEvaluationResponse,
} from './evaluation.js';
export type { FlagUsageStatus, UsageBatch, UsageCount, UsageReceiver } from './usage.js';
export { chunked, mergeCounts, PendingBatches } from './usage-pending.js';
export type { PendingBatch } from './usage-pending.js';
export { formatGoDuration, parseGoDuration } from './go-duration.js';
export { decodeFliptDocuments } from './flipt-document/decode-document.js';
export type { DecodeDocumentsOptions } from './flipt-document/decode-document.js';
export { encodeFliptDocument } from './flipt-document/encode-document.js';
export type { EncodeDocumentOptions } from './flipt-document/encode-document.js';
export { documentOfResources } from './flipt-document/document-of-resources.js';
export type { NamespaceResources } from './flipt-document/document-of-resources.js';
export { describeDocument, documentError } from './flipt-document/document-error.js';
export type { DocumentLocation } from './flipt-document/document-error.js';
export { parseJsonDocuments } from './flipt-document/json-documents.js';
export { segmentReferences } from './flipt-document/segment-references.js';
export type { SegmentReference } from './flipt-document/segment-references.js';
export { checkPrerequisiteReferences, placedFlags, prerequisiteParentOf, prerequisiteProblem } from './flipt-document/prerequisite-references.js';
export type { PlacedFlag, PrerequisiteParent, PrerequisiteProblem, PrerequisiteScope } from './flipt-document/prerequisite-references.js';
export type {
  CreationTimes,
  DocumentConstraint,
  DocumentDistribution,
  DocumentFlag,
  DocumentNamespace,
  DocumentRollout,
  DocumentRolloutSegment,
  DocumentRolloutThreshold,
  DocumentRule,
  DocumentSchedule,
  DocumentSegment,
  DocumentVariant,
  FliptDocument,
} from './flipt-document/document-types.js';
export { AUTHZ_ACTIONS, AUTHZ_RESOURCES, AUTHZ_SUBJECTS, CHANGE_REQUEST_ACTIONS } from './management-request.js';
export type { AuthorizationInput, AuthzAction, ChangeRequestAction, AuthzResource, AuthzSubject, ManagementKind, ManagementRequest, NamespacedResource, Permissions } from './management-request.js';
export { checksOf, MANAGEMENT_OPERATIONS } from './management-operations.js';
export type { ManagementOperation, ManagementOperationName } from './management-operations.js';
export { errorHeaders, gatewayNotFound, methodNotAllowed, RETRY_AFTER_SECONDS, withoutTrailingSlash } from './gateway.js';
export { canonicalChanges, canonicalJson, CHANGE_REQUEST_STATES, conflictsWith, describeConflict } from './change-request.js';
export type { ChangeBase, ChangeConflict, ChangeRequest, ChangeRequestEvent, ChangeRequestState, ProposedChange } from './change-request.js';
export { assertWritable, isProposable, isProtectedWrite, protectedNamespaceError } from './protected-namespace.js';
export type { WriteProtection } from './protected-namespace.js';
