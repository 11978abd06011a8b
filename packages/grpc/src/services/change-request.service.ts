/**
 * Ensign's `ensign.changes.v1.ChangeRequestService`: the change requests and change policies of
 * `/api/v1/namespaces/{ns}/…` over the very service the HTTP routes call, each message read back
 * into the JSON the route decodes, with the route's decoders. The proposed changes are tried and
 * applied as the gRPC caller, through the API's own routes, so they are checked as if it had made
 * them directly.
 */
import type { Caller } from '@ensign/auth';
import type { AppState, ChangeRequestService } from '@ensign/control-plane';
import { decodeApplyAt, decodeContent, decodeDraft, decodeStates } from '@ensign/control-plane';
import { type ManagementOperationName, readString, resolveNamespace } from '@ensign/core';
import type { GrpcBinding, GrpcMethod } from '../grpc-binding.js';
import { fromTimestamp, type ProtoTimestamp } from '../proto-values.js';
import { changePolicyMessage, changeRequestMessage, createBodyOf, listQueryOf, policyBodyOf, replaceBodyOf } from './change-request-messages.js';
import { type Message, namespaceKeyScope } from './flipt-request.js';

export interface ChangeRequestBindingDeps {
  /** The service the HTTP routes call (its dispatcher runs the app's own routes). */
  changeRequests: Pick<ChangeRequestService, 'list' | 'get' | 'create' | 'replace' | 'submit' | 'cancel' | 'comment' | 'approve' | 'reject' | 'apply' | 'getPolicy' | 'setPolicy'>;
  /** The log the proposed calls' routes are given, as a request's. */
  logger: AppState['log'];
}

/** Every method is named after its management operation, which the server authorizes it by (the HTTP route's that does the same). */
type MethodName = Extract<
  ManagementOperationName,
  | 'ListChangeRequests'
  | 'GetChangeRequest'
  | 'CreateChangeRequest'
  | 'UpdateChangeRequest'
  | 'SubmitChangeRequest'
  | 'CancelChangeRequest'
  | 'CommentChangeRequest'
  | 'ApproveChangeRequest'
  | 'RejectChangeRequest'
  | 'ApplyChangeRequest'
  | 'GetChangePolicy'
  | 'UpdateChangePolicy'
>;

/** What a handler is given: the request's namespace and id, and the caller as the routes know it. */
interface Call {
  request: Message;
  namespace: string;
  id: string;
  state: AppState;
}

/** The `ensign.changes.v1.ChangeRequestService`; namespace-scoped tokens are held to the namespace each request names. */
export function changeRequestBinding({ changeRequests: service, logger }: ChangeRequestBindingDeps): GrpcBinding {
  const method = (handler: (call: Call) => Promise<unknown>): GrpcMethod => ({
    scope: namespaceKeyScope,
    handler: async (request, caller: Caller | undefined) => {
      const state: AppState = caller === undefined ? { log: logger } : { log: logger, caller };
      return handler({ request, namespace: resolveNamespace(readString(request, 'namespaceKey')), id: readString(request, 'id'), state });
    },
  });
  const answer = async (pending: Promise<Parameters<typeof changeRequestMessage>[0]>) => changeRequestMessage(await pending);

  const methods: Record<MethodName, GrpcMethod> = {
    ListChangeRequests: method(async ({ request, namespace }) => {
      const query = listQueryOf(request);
      const requests = await service.list(namespace, decodeStates(query), readString(query, 'author'));
      return { changeRequests: requests.map(changeRequestMessage) };
    }),
    GetChangeRequest: method(({ namespace, id, state }) => answer(service.get(namespace, id, state))),
    CreateChangeRequest: method(({ request, namespace, state }) => answer(service.create(namespace, decodeDraft(createBodyOf(request)), state))),
    UpdateChangeRequest: method(({ request, namespace, id, state }) => answer(service.replace(namespace, id, decodeContent(replaceBodyOf(request)), state))),
    SubmitChangeRequest: method(({ namespace, id }) => answer(service.submit(namespace, id))),
    CancelChangeRequest: method(({ namespace, id }) => answer(service.cancel(namespace, id))),
    CommentChangeRequest: method(({ request, namespace, id }) => answer(service.comment(namespace, id, readString(request, 'comment')))),
    ApproveChangeRequest: method(({ request, namespace, id }) => {
      const digest = readString(request, 'digest');
      return answer(service.approve(namespace, id, digest === '' ? undefined : digest));
    }),
    RejectChangeRequest: method(({ request, namespace, id }) => answer(service.reject(namespace, id, readString(request, 'comment')))),
    ApplyChangeRequest: method(({ request, namespace, id, state }) => {
      const applyAt = fromTimestamp(request.applyAt as ProtoTimestamp | null | undefined);
      return answer(service.apply(namespace, id, decodeApplyAt(applyAt === undefined ? {} : { applyAt }), state));
    }),
    GetChangePolicy: method(async ({ namespace }) => changePolicyMessage(await service.getPolicy(namespace))),
    UpdateChangePolicy: method(async ({ request, namespace }) => changePolicyMessage(await service.setPolicy(namespace, policyBodyOf(request)))),
  };
  return { service: 'ensign.changes.v1.ChangeRequestService', surface: 'management', methods };
}
