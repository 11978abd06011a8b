/** `flipt.Flipt` namespace methods over the HTTP routes' NamespaceService. */
import type { NamespaceService, OperationGuard } from '@ensign/control-plane';
import { decodeCreateNamespace, decodeDeleteNamespace, decodeListNamespaces, decodeNamespaceRef, decodeUpdateNamespace } from '@ensign/core';
import type { GrpcMethod } from '../grpc-binding.js';
import { listMessage, namespaceMessage } from './flipt-messages.js';
import { empty, namespaceScope } from './flipt-request.js';

/** Listing and creating namespaces touch no single namespace: no scope, so namespaced tokens are refused. */
export function namespaceMethods(service: NamespaceService, guard?: OperationGuard): Record<string, GrpcMethod> {
  return {
    ListNamespaces: {
      // Authorization: every caller may list namespaces, and sees those its policy lets it view.
      handler: async (request, caller) =>
        listMessage('namespaces', await service.list(decodeListNamespaces(request), await guard?.viewableNamespaces(caller)), (ns) => ns.key, namespaceMessage),
    },
    CreateNamespace: {
      handler: async (request) => namespaceMessage(await service.create(decodeCreateNamespace(request))),
    },
    GetNamespace: {
      scope: namespaceScope,
      handler: async (request) => namespaceMessage(await service.get(decodeNamespaceRef(request))),
    },
    UpdateNamespace: {
      scope: namespaceScope,
      handler: async (request) => namespaceMessage(await service.update(decodeUpdateNamespace(request))),
    },
    DeleteNamespace: {
      scope: namespaceScope,
      handler: async (request) => {
        await service.delete(decodeDeleteNamespace(request));
        return empty();
      },
    },
  };
}
