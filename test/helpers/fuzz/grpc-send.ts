/**
 * Sends one gRPC case as raw bytes (grpc-js's generic client with the identity serializer, so any
 * bytes go out as the request) and waits for its status within a deadline.
 */
import { Client, credentials, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import type { GrpcCase } from './grpc-cases.js';

export interface GrpcAnswer {
  code: status;
  details: string;
  ms: number;
}

const identity = (bytes: Buffer): Buffer => bytes;

export function grpcSender(address: string): { send(c: GrpcCase, deadlineMs: number): Promise<GrpcAnswer>; close(): void } {
  const client = new Client(address, credentials.createInsecure(), { 'grpc.max_send_message_length': -1, 'grpc.max_receive_message_length': -1 });
  const send = (c: GrpcCase, deadlineMs: number): Promise<GrpcAnswer> =>
    new Promise((resolve) => {
      const started = performance.now();
      const metadata = new Metadata();
      if (c.authorization !== undefined) metadata.set('authorization', c.authorization);
      client.makeUnaryRequest(c.method.path, identity, identity, c.bytes, metadata, { deadline: Date.now() + deadlineMs }, (err: ServiceError | null) => {
        resolve({ code: err?.code ?? status.OK, details: err?.details ?? '', ms: Math.round(performance.now() - started) });
      });
    });
  return { send, close: () => client.close() };
}
