/**
 * The project's `.proto` files, loaded once with the options every service and test assumes:
 * camelCase field names (as the JSON API spells them, so core's JSON decoders read requests),
 * enums as their names, 64-bit integers as strings, defaults filled in, and the name of the set
 * field of each oneof. Well-known types (`google/protobuf/*.proto`) come with protobufjs.
 *
 * A single-file executable has no `protos` folder: it embeds `protoDescriptor()`, made from the
 * files at build time, and hands it to `useProtoDescriptor` before anything is served.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fromJSON, loadSync, type Options, type PackageDefinition, type ServiceDefinition } from '@grpc/proto-loader';
import protobuf from 'protobufjs';

/** `packages/grpc/protos`, from `dist/src` (built) as from `src` (sources read by a bundler). */
export function protosDirectory(): string {
  return fileURLToPath(new URL('../../protos', import.meta.url));
}

const OPTIONS: Readonly<Options> = Object.freeze({
  keepCase: false,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
});

/** The loader options, with the protos folder as the include directory. */
export function loadOptions(): Options {
  return { ...OPTIONS, includeDirs: [protosDirectory()] };
}

/** Every `.proto` below `dir`, relative to it (so imports between them name the same file). */
export function protoFiles(dir: string = protosDirectory()): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.proto'))
    .map((file) => file.split('\\').join('/'))
    .sort();
}

/**
 * The protobufjs JSON of every proto below `dir` (imports and well-known types included), read
 * from the files; field names camelCased as this project loads them unless `keepCase`.
 */
export function protoDescriptor(dir: string = protosDirectory(), options: { keepCase?: boolean } = {}): protobuf.INamespace {
  const root = new protobuf.Root();
  const resolve = root.resolvePath.bind(root);
  // Files below `dir` are found there; the well-known types resolve as protobufjs resolves them.
  root.resolvePath = (origin, target) => (target.startsWith('google/protobuf/') ? resolve(origin, target) : `${dir}/${target}`);
  root.loadSync(protoFiles(dir), { keepCase: options.keepCase ?? OPTIONS.keepCase ?? false });
  root.resolveAll();
  return root.toJSON({ keepComments: false }) as protobuf.INamespace;
}

let descriptor: protobuf.INamespace | undefined;
let loaded: PackageDefinition | undefined;

/** Serves the protos from a descriptor made by `protoDescriptor()` instead of from the files. */
export function useProtoDescriptor(embedded: protobuf.INamespace): void {
  descriptor = embedded;
  loaded = undefined;
}

/** Every message, enum and service of the project's protos, by fully qualified name. */
export function packageDefinition(): PackageDefinition {
  loaded ??= descriptor === undefined ? loadSync(protoFiles(), loadOptions()) : fromJSON(descriptor, { ...OPTIONS });
  return loaded;
}

const isService = (definition: unknown): definition is ServiceDefinition =>
  typeof definition === 'object' && definition !== null && !('format' in definition) && Object.values(definition).every((m) => typeof m === 'object' && m !== null && 'path' in m);

/** The service named `name` (e.g. `flipt.Flipt`); throws when the protos declare none. */
export function serviceDefinition(name: string): ServiceDefinition {
  const definition = packageDefinition()[name];
  if (!isService(definition)) throw new Error(`no gRPC service ${name} in the project's protos`);
  return definition;
}
