/** `/ofrep/v1`: the provider configuration and how evaluation answers are written. */
import type { HttpCall } from '../http/http-call.js';
import { sendBody, sendJson, sendNotModified } from '../http/respond.js';
import type { BulkAnswer, EvaluatedFlag } from '../operations/ofrep.operations.js';

/** What `/ofrep/v1/configuration` advertises about polling. */
export interface OfrepOptions {
  cacheEnabled: boolean;
  cacheTtlMs: number;
}

/** The body of GET /ofrep/v1/configuration, serialised once. */
export function configurationBody(options: OfrepOptions): string {
  return JSON.stringify({
    name: 'flipt',
    capabilities: {
      cacheInvalidation: {
        polling: { enabled: options.cacheEnabled, minPollingIntervalMs: options.cacheEnabled ? options.cacheTtlMs : 0 },
      },
      flagEvaluation: { supportedTypes: ['string', 'boolean'] },
    },
  });
}

export function sendFlag(call: HttpCall, flag: EvaluatedFlag): void {
  sendJson(call.res, 200, flag, call.style);
}

/** OFREP's change events of a namespace (ADR-0008), where Flipt v2 serves them. */
const eventStreamsOf = (namespaceKey: string) => [{ type: 'sse', endpoint: { requestUri: `/ofrep/v1/_stream/default/${encodeURIComponent(namespaceKey)}/events` } }];

/**
 * The flags with their entity tag, or a 304 when the client's copy is current; with `events`, the
 * answer names the namespace's change-event stream so a provider refetches on change instead of polling.
 */
export const bulkResponder =
  (events: boolean) =>
  (call: HttpCall, answer: BulkAnswer): void => {
    const { etag, flags } = answer;
    if (flags === undefined && etag !== undefined) {
      sendNotModified(call.res, etag);
      return;
    }
    const value = events ? { flags, eventStreams: eventStreamsOf(answer.namespaceKey) } : { flags };
    const body = call.style.pretty ? `${JSON.stringify(value, null, 2)}\n` : JSON.stringify(value);
    sendBody(call.res, 200, body, etag === undefined ? undefined : { ETag: etag });
  };
