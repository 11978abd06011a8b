/**
 * One gRPC fuzz case for a method: its request as bytes (a message of its type, mutated, with a
 * huge repeated field or deep nesting, or random bytes) and its metadata. An invalid case sends
 * a write method bytes no decoder reads, so it must change nothing; reads get anything.
 */
import { MANAGEMENT_OPERATIONS, type ManagementOperationName } from '@ensign/core';
import { deeplyNested, messageBytes, mutated, undecodable } from './grpc-messages.js';
import type { GrpcMethod } from './grpc-methods.js';
import type { FuzzRandom } from './random.js';
import { fuzzString } from './strings.js';

export interface GrpcCase {
  method: GrpcMethod;
  bytes: Buffer;
  /** The `authorization` metadata, when sent. */
  authorization: string | undefined;
}

export interface GrpcCaseContext {
  token: string;
  known: readonly string[];
}

/** Evaluation only reads; a management method reads when every check of its catalog operation is a read. */
export function onlyReads(method: GrpcMethod): boolean {
  if (method.service.startsWith('flipt.evaluation.') || method.method === 'Evaluate' || method.method === 'BatchEvaluate') return true;
  const checks = MANAGEMENT_OPERATIONS[method.method as ManagementOperationName] as ReadonlyArray<{ action: string }> | undefined;
  return checks !== undefined && checks.every((check) => check.action === 'read');
}

function authorization(rng: FuzzRandom, token: string): string | undefined {
  return rng.weighted<() => string | undefined>([
    [16, () => `Bearer ${token}`],
    [1, () => undefined],
    [1, () => rng.pick(['Bearer', `Bearer ${token}x`, 'Basic YTpi', `bearer ${token}`, 'JWT a.b.c'])],
    [1, () => `Bearer ${fuzzString(rng).replace(/[^\x20-\x7e]/g, '?').slice(0, 4_000)}`],
  ])();
}

function requestBytes(rng: FuzzRandom, method: GrpcMethod, known: readonly string[]): Buffer {
  const options = { known };
  return rng.weighted<() => Buffer>([
    [10, () => messageBytes(rng, method.request, options)],
    [4, () => mutated(rng, messageBytes(rng, method.request, options))],
    [2, () => rng.bytes(rng.size(256))],
    [1, () => deeplyNested(method.request, rng.weighted([[3, rng.between(10, 150)], [1, rng.between(150, 20_000)]])) ?? messageBytes(rng, method.request, options)],
    [0.5, () => Buffer.alloc(0)],
  ])();
}

export function grpcCase(rng: FuzzRandom, method: GrpcMethod, context: GrpcCaseContext, valid: boolean): GrpcCase {
  const known = valid ? context.known : [];
  let bytes = requestBytes(rng, method, known);
  if (!valid && !onlyReads(method)) bytes = undecodable(bytes);
  return { method, bytes, authorization: authorization(rng, context.token) };
}
