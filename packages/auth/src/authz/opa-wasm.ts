/**
 * A Flipt Rego policy compiled to WebAssembly (`opa build -t wasm -e flipt/authz/v1/allow -e
 * flipt/authz/v1/viewable_namespaces`), evaluated in-process with opa-wasm: Rego semantics without
 * an OPA to run. `flipt.is_auth_method` is answered by the host (flipt-builtins.ts).
 */
import { AppError, Code, type AuthorizationInput } from '@ensign/core';
import { loadPolicy } from '@open-policy-agent/opa-wasm';
import { FLIPT_BUILTINS } from './flipt-builtins.js';
import type { PolicyEngine } from './policy-engine.js';
import { PolicyFileError } from './policy-file-error.js';

/** The entrypoints `opa build -e` names for Flipt's two queries (`data.flipt.authz.v1.*`). */
export const FLIPT_ALLOW_ENTRYPOINT = 'flipt/authz/v1/allow';
export const FLIPT_VIEWABLE_NAMESPACES_ENTRYPOINT = 'flipt/authz/v1/viewable_namespaces';

const BUILD_HINT = `build it with \`opa build -t wasm -e ${FLIPT_ALLOW_ENTRYPOINT} -e ${FLIPT_VIEWABLE_NAMESPACES_ENTRYPOINT}\``;

/** Exports every module `opa build -t wasm` writes has, and opa-wasm relies on. */
const OPA_EXPORTS = ['opa_wasm_abi_version', 'builtins', 'entrypoints', 'opa_heap_ptr_get', 'opa_heap_ptr_set'] as const;

/** The WebAssembly calls used here: the project's lib (es2023, node) declares no WebAssembly types. */
interface WebAssemblyApi {
  compile(bytes: Uint8Array): Promise<object>;
  Module: { exports(module: object): Array<{ name: string }> };
}
const wasmApi = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;

/** What this engine uses of opa-wasm's LoadedPolicy. */
export interface CompiledPolicy {
  /** Entrypoint name → id. */
  readonly entrypoints: Record<string, number>;
  /** The result set: `[{result}]`, or `[]` when undefined. */
  evaluate(input: unknown, entrypoint: number | string): unknown;
  setData(data: object): void;
}

/** Which module this is (for errors) and, for non-Flipt builds, its entrypoint names. */
export interface WasmPolicyOptions {
  /** Names the module in errors (default `policy.wasm`). */
  file?: string;
  /** Default `flipt/authz/v1/allow`; required in the module. */
  allowEntrypoint?: string;
  /** Default `flipt/authz/v1/viewable_namespaces`: optional in the module unless named here. */
  viewableNamespacesEntrypoint?: string;
}

/**
 * Loads a compiled policy with Flipt's builtin and the given data (a JSON object, default `{}`).
 * Bytes that are not an OPA-compiled module, or lack the allow entrypoint, throw a PolicyFileError.
 */
export async function loadWasmPolicy(bytes: Uint8Array, data?: unknown, options: WasmPolicyOptions = {}): Promise<WasmPolicy> {
  const file = options.file ?? 'policy.wasm';
  let module: object;
  try {
    module = await wasmApi.compile(bytes);
  } catch (err) {
    throw new PolicyFileError(file, undefined, `not a WebAssembly module (${describe(err)}); ${BUILD_HINT}`, { cause: err });
  }
  // Checked before opa-wasm sees it: it would log to stderr and fail with a TypeError instead.
  const exported = new Set(wasmApi.Module.exports(module).map((e) => e.name));
  const missing = OPA_EXPORTS.filter((name) => !exported.has(name));
  if (missing.length > 0) {
    throw new PolicyFileError(file, undefined, `a WebAssembly module, but not a policy compiled by OPA (it lacks ${missing.join(', ')}); ${BUILD_HINT}`);
  }
  let loaded: CompiledPolicy;
  try {
    loaded = await loadPolicy(module, undefined, { ...FLIPT_BUILTINS });
  } catch (err) {
    throw new PolicyFileError(file, undefined, `cannot be loaded as an OPA policy: ${describe(err)}`, { cause: err });
  }
  return new WasmPolicy(loaded, data, { ...options, file });
}

/** A loaded module answering Flipt's two queries; evaluation is synchronous and in-process. */
export class WasmPolicy implements PolicyEngine {
  /** Decisions that failed to evaluate (a policy error, a builtin refusing): read by a metric. */
  failures = 0;
  readonly file: string;
  private readonly allowId: number;
  private readonly viewableId: number | undefined;

  /** Wraps a loaded policy; throws a PolicyFileError when it lacks an entrypoint or the data is refused. */
  constructor(
    private readonly policy: CompiledPolicy,
    data: unknown = {},
    options: WasmPolicyOptions = {},
  ) {
    this.file = options.file ?? 'policy.wasm';
    const ids = policy.entrypoints;
    const has = (name: string): boolean => Object.hasOwn(ids, name) && typeof ids[name] === 'number';
    const allow = options.allowEntrypoint ?? FLIPT_ALLOW_ENTRYPOINT;
    if (!has(allow)) throw this.lacks(allow);
    this.allowId = ids[allow] as number;
    const viewable = options.viewableNamespacesEntrypoint;
    if (viewable !== undefined && !has(viewable)) throw this.lacks(viewable);
    const viewableName = viewable ?? FLIPT_VIEWABLE_NAMESPACES_ENTRYPOINT;
    this.viewableId = has(viewableName) ? (ids[viewableName] as number) : undefined;
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new PolicyFileError(this.file, undefined, 'its data must be a JSON object');
    try {
      policy.setData(data);
    } catch (err) {
      throw new PolicyFileError(this.file, undefined, `refused its data: ${describe(err)}`, { cause: err });
    }
  }

  /** The module's entrypoints, by name. */
  get entrypoints(): string[] {
    return Object.keys(this.policy.entrypoints).sort();
  }

  /** Only a `true` result allows (undefined denies), as Flipt. */
  allow(input: AuthorizationInput): boolean {
    return firstResult(this.evaluate(input, this.allowId, 'allow')) === true;
  }

  /** Undefined when the module has no viewable_namespaces entrypoint; empty when it gives no result. */
  viewableNamespaces(input: AuthorizationInput): readonly string[] | undefined {
    if (this.viewableId === undefined) return undefined;
    const result = firstResult(this.evaluate(input, this.viewableId, 'viewable_namespaces'));
    if (result === undefined) return [];
    if (!Array.isArray(result)) throw this.failure(`viewable_namespaces gave ${result === null ? 'null' : typeof result}, not an array`);
    return result.map((ns) => (typeof ns === 'string' ? ns : JSON.stringify(ns)));
  }

  private evaluate(input: AuthorizationInput, entrypoint: number, what: string): unknown {
    try {
      return this.policy.evaluate(input, entrypoint);
    } catch (err) {
      throw this.failure(`failed to evaluate ${what}: ${describe(err)}`, err);
    }
  }

  private failure(what: string, cause?: unknown): AppError {
    this.failures++;
    return new AppError(Code.Unavailable, `authorization policy ${this.file} ${what}`, { cause });
  }

  private lacks(entrypoint: string): PolicyFileError {
    const names = this.entrypoints;
    return new PolicyFileError(this.file, undefined, `the policy has no entrypoint ${entrypoint} (it has: ${names.length === 0 ? 'none' : names.join(', ')}); ${BUILD_HINT}`);
  }
}

/** `[{result: x}]` → x; `[]` (undefined) → undefined. */
function firstResult(resultSet: unknown): unknown {
  if (!Array.isArray(resultSet) || resultSet.length === 0) return undefined;
  const first: unknown = resultSet[0];
  return typeof first === 'object' && first !== null ? (first as { result?: unknown }).result : undefined;
}

/** opa-wasm throws strings and plain objects as well as Errors. */
function describe(err: unknown): string {
  const text = err instanceof Error ? err.message : typeof err === 'object' && err !== null && 'message' in err ? String(err.message) : String(err);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
