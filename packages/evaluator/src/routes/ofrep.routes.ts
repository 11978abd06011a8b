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

/** The flags with their entity tag, or a 304 when the client's copy is current. */
export function sendBulk(call: HttpCall, answer: BulkAnswer): void {
  const { etag, flags } = answer;
  if (flags === undefined && etag !== undefined) {
    sendNotModified(call.res, etag);
    return;
  }
  const body = call.style.pretty ? `${JSON.stringify({ flags }, null, 2)}\n` : JSON.stringify({ flags });
  sendBody(call.res, 200, body, etag === undefined ? undefined : { ETag: etag });
}
