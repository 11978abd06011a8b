/**
 * Which engine Flipt's `authorization.local` files make: data alone → the native role policy; a
 * compiled module (`.wasm`) or OPA bundle (`.tar.gz`) → opa-wasm, with the data file as its data;
 * Rego source → refused with what to do instead (Rego itself is evaluated only by an OPA).
 */
import { parseJsonWithLines } from './json-lines.js';
import { readOpaBundle } from './opa-bundle.js';
import { FLIPT_ALLOW_ENTRYPOINT, FLIPT_VIEWABLE_NAMESPACES_ENTRYPOINT, loadWasmPolicy } from './opa-wasm.js';
import type { PolicyEngine } from './policy-engine.js';
import { PolicyFileError } from './policy-file-error.js';
import { RolePolicy, type RolePolicyOptions } from './role-policy.js';

/** Which engine the files made, for the health status. */
export type FileEngineKind = 'roles' | 'wasm';

/** A file's path and its content as read. */
export interface FileContent {
  path: string;
  bytes: Uint8Array;
}

/** The engine for a policy file and/or a data file; every problem throws a PolicyFileError naming the file. */
export async function engineFromFiles(
  policy: FileContent | undefined,
  data: FileContent | undefined,
  roles: RolePolicyOptions = {},
): Promise<{ engine: PolicyEngine; kind: FileEngineKind }> {
  if (policy === undefined) {
    if (data === undefined) throw new Error('authorization.local needs policy.path or data.path');
    return { engine: RolePolicy.fromText(text(data.bytes), data.path, roles), kind: 'roles' };
  }
  const fileData = data === undefined ? {} : jsonObject(data);
  switch (policyKind(policy)) {
    case 'wasm':
      return { engine: await loadWasmPolicy(policy.bytes, fileData, { file: policy.path }), kind: 'wasm' };
    case 'bundle': {
      const bundle = await readOpaBundle(policy.bytes, policy.path);
      // The data file's top-level members win over the bundle's.
      const merged = { ...bundle.data, ...fileData };
      return { engine: await loadWasmPolicy(bundle.wasm, merged, { file: `${policy.path}!${bundle.wasmPath}` }), kind: 'wasm' };
    }
    case 'rego':
      throw regoSource(policy.path);
  }
}

/** What the operator reads when pointing policy.path at Rego source with no OPA configured. */
export function regoSource(path: string): PolicyFileError {
  const message =
    `${path} is Rego source; Ensign evaluates Rego through Open Policy Agent: set authorization.local.policy.opa_url to an OPA serving it ` +
    '(replace flipt.is_auth_method(input, "jwt") with input.authentication.method == 5 there), or compile it with ' +
    `\`opa build -t wasm -e ${FLIPT_ALLOW_ENTRYPOINT} -e ${FLIPT_VIEWABLE_NAMESPACES_ENTRYPOINT}\` and point policy.path at the bundle`;
  return new PolicyFileError(path, undefined, 'is Rego source', { message });
}

/** By extension, else by content: the wasm magic, the gzip magic, anything else is taken for Rego. */
function policyKind({ path, bytes }: FileContent): 'wasm' | 'bundle' | 'rego' {
  const lower = path.toLowerCase();
  if (lower.endsWith('.wasm')) return 'wasm';
  if (lower.endsWith('.tar.gz') || lower.endsWith('.tgz')) return 'bundle';
  if (lower.endsWith('.rego')) return 'rego';
  if (bytes[0] === 0x00 && bytes[1] === 0x61 && bytes[2] === 0x73 && bytes[3] === 0x6d) return 'wasm';
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return 'bundle';
  return 'rego';
}

function jsonObject(file: FileContent): Record<string, unknown> {
  const { value } = parseJsonWithLines(text(file.bytes), file.path);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new PolicyFileError(file.path, 1, 'must be a JSON object');
  return value as Record<string, unknown>;
}

const text = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
