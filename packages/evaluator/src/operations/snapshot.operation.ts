/**
 * The client-side SDK snapshot of one namespace (`/internal/v1/evaluation/snapshot/namespace/{key}`,
 * gRPC `DataService/EvaluationSnapshotNamespace`), folded at the evaluator's time and gated by the
 * client's `X-Flipt-Accept-Server-Version`; unfolded for Ensign's own clients (`?format=ensign`).
 */
import type { SnapshotDocument } from '@ensign/engine';
import type { EvaluationOperation } from '../request/evaluation-operation.js';
import { type GatedSnapshot, gatedSnapshot } from '../snapshot/gated-snapshot.js';
import { gateOfRequest } from '../snapshot/snapshot-format.js';
import { gateFor, type SnapshotGate } from '../snapshot/server-version.js';

export interface SnapshotRequest {
  key: string;
  gate: SnapshotGate;
}

/** The gated snapshot, or undefined when the namespace does not exist. */
export interface SnapshotAnswer {
  key: string;
  served: GatedSnapshot | undefined;
}

/** COMPAT(flipt): a namespace that does not exist is served as an empty document. */
export const absentNamespaceDocument = (namespaceKey: string): SnapshotDocument => ({ namespace: { key: namespaceKey }, flags: [] });

/** The document a snapshot answer shows. */
export const documentOf = (answer: SnapshotAnswer): SnapshotDocument => answer.served?.document ?? absentNamespaceDocument(answer.key);

export const snapshotOperation: EvaluationOperation<SnapshotRequest, SnapshotAnswer> = {
  decode: (input) => ({ key: input.params[0] ?? '', gate: gateOfRequest(input, () => gateFor(input.header('x-flipt-accept-server-version'))) }),
  namespaces: (request) => [request.key],
  evaluate(request, held, settings) {
    const snapshot = held(request.key)?.snapshot;
    return { key: request.key, served: snapshot === undefined ? undefined : gatedSnapshot(snapshot, request.gate, settings, settings.hash) };
  },
};
