/** `GET /health` of a scaled-out evaluator: ready only after the initial sync, with each namespace's revision and age. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from './http/respond.js';
import type { NatsSnapshotSource } from './nats-snapshot-source.js';

/** The body of a SERVING evaluator's `/health`. */
export interface EvaluatorHealthBody {
  status: 'SERVING';
  namespaces: Record<string, { revision: number; ageSeconds: number }>;
}

/** A node:http handler answering `GET /health` and calling `next()` for every other request. */
export function createEvaluatorHealthHandler(
  source: Pick<NatsSnapshotSource, 'ready' | 'namespaces'>,
  now: () => number = Date.now,
): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  return (req, res, next) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/health' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      next();
      return;
    }
    if (!source.ready()) {
      sendJson(res, 503, { status: 'NOT_SERVING' });
      return;
    }
    const at = now();
    const body: EvaluatorHealthBody = { status: 'SERVING', namespaces: {} };
    for (const [key, held] of source.namespaces()) {
      body.namespaces[key] = { revision: held.revision, ageSeconds: Math.max(0, Math.round(at - held.receivedAt) / 1000) };
    }
    sendJson(res, 200, body);
  };
}
