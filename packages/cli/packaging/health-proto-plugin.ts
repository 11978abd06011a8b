/**
 * grpc-health-check (the standard `grpc.health.v1.Health` implementation) loads its `.proto` file
 * from its own package folder when it is first imported; a single-file executable has no such
 * folder. This esbuild plugin hands it the same definition as a descriptor made at build time,
 * by turning its one `loadSync(<file>, options)` into proto-loader's `fromJSON(<descriptor>, options)`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { protoDescriptor } from '@ensign/grpc';
import type { Plugin } from 'esbuild';

const require = createRequire(import.meta.url);
const LOAD_CALL = "(0, proto_loader_1.loadSync)('health/v1/health.proto',";

/** The health service's descriptor, with the field names as grpc-health-check loads them (`keepCase`). */
function healthDescriptor(): ReturnType<typeof protoDescriptor> {
  const protoPath = (require('grpc-health-check') as { protoPath: string }).protoPath;
  // protoPath is <package>/proto/health/v1/health.proto, loaded there as `health/v1/health.proto`.
  return protoDescriptor(resolve(dirname(protoPath), '..', '..'), { keepCase: true });
}

export function healthProtoPlugin(): Plugin {
  const module = require.resolve('grpc-health-check');
  return {
    name: 'grpc-health-check-descriptor',
    setup(build) {
      build.onLoad({ filter: /grpc-health-check[\\/]build[\\/]src[\\/]health\.js$/ }, (args) => {
        if (args.path !== module) return undefined;
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes(LOAD_CALL)) throw new Error(`grpc-health-check no longer loads its proto with ${LOAD_CALL}; the executable cannot embed it`);
        return { contents: source.replace(LOAD_CALL, `(0, proto_loader_1.fromJSON)(${JSON.stringify(healthDescriptor())},`), loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}
