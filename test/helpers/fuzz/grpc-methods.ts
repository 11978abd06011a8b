/**
 * Every gRPC method the server's protos declare, with the descriptor of its request message, read
 * from the `.proto` files the bindings serve (packages/grpc/protos) as a client would load them.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryRoot } from '@ensign/testkit';
import { loadSync, type PackageDefinition } from '@grpc/proto-loader';

/** The parts of a protobuf descriptor the fuzzer reads. */
export interface FieldDescriptor {
  name: string;
  number: number;
  label: string;
  type: string;
  typeName: string;
}

export interface MessageDescriptor {
  name: string;
  field: FieldDescriptor[];
  nestedType?: MessageDescriptor[];
  enumType?: EnumDescriptor[];
  options?: { mapEntry?: boolean } | null;
}

export interface EnumDescriptor {
  name: string;
  value: Array<{ number: number }>;
}

/** A message and the name it is known by (nested types are looked up from it). */
export interface MessageType {
  fullName: string;
  descriptor: MessageDescriptor;
}

export type FieldType = { message: MessageType } | { enum: EnumDescriptor } | { scalar: string };

export interface GrpcMethod {
  service: string;
  method: string;
  /** `/package.Service/Method`. */
  path: string;
  request: MessageType;
}

const PROTOS = join(repositoryRoot, 'packages/grpc/protos');

const definitions: PackageDefinition = loadSync(
  readdirSync(PROTOS, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.proto')),
  { keepCase: false, longs: String, enums: String, defaults: true, oneofs: true, includeDirs: [PROTOS] },
);

const isService = (value: unknown): boolean => typeof value === 'object' && value !== null && !('format' in value);

export function grpcMethods(): GrpcMethod[] {
  return Object.entries(definitions)
    .filter(([, value]) => isService(value))
    .flatMap(([service, value]) =>
      Object.entries(value as Record<string, { path: string; requestType: { type: MessageDescriptor } }>).map(([method, m]) => ({
        service,
        method,
        path: m.path,
        request: { fullName: `${service.split('.').slice(0, -1).join('.')}.${m.requestType.type.name}`, descriptor: m.requestType.type },
      })),
    );
}

/** What a field's `typeName` names, looked up as protoc does: nested in the message, then scope by scope outwards. */
export function fieldType(owner: MessageType, field: FieldDescriptor): FieldType {
  if (field.type !== 'TYPE_MESSAGE' && field.type !== 'TYPE_ENUM') return { scalar: field.type };
  const nested = owner.descriptor.nestedType?.find((n) => n.name === field.typeName);
  if (nested !== undefined) return { message: { fullName: `${owner.fullName}.${nested.name}`, descriptor: nested } };
  const nestedEnum = owner.descriptor.enumType?.find((e) => e.name === field.typeName);
  if (nestedEnum !== undefined) return { enum: nestedEnum };
  const scopes = owner.fullName.split('.');
  for (let i = scopes.length; i >= 0; i--) {
    const name = [...scopes.slice(0, i), field.typeName].join('.');
    const found = definitions[name] as { format?: string; type?: unknown } | undefined;
    if (found?.format?.includes('EnumDescriptorProto')) return { enum: found.type as EnumDescriptor };
    if (found?.format?.includes('DescriptorProto')) return { message: { fullName: name, descriptor: found.type as MessageDescriptor } };
  }
  throw new Error(`${owner.fullName}.${field.name}: no type ${field.typeName}`);
}
