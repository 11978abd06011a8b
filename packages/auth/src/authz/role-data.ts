/**
 * Flipt's reference role data (`engine/testdata/rbac.json`, the de facto admin/editor/viewer):
 * `{"roles":[{"name","rules":[{"resource","actions":[...],"namespace"?}]}]}`, checked with the
 * line of every problem so an operator can fix the file they wrote.
 */
import { jsonPath, parseJsonWithLines } from './json-lines.js';
import { PolicyFileError } from './policy-file-error.js';

/** One grant: `resource` and each action may be `*`; without `namespace` (or with `*`) it applies everywhere. */
export interface RoleRule {
  resource: string;
  actions: string[];
  namespace?: string;
}

/** A named set of rules; the caller's `io.flipt.auth.role` (or a resolved role) selects it. */
export interface RoleDefinition {
  name: string;
  rules: RoleRule[];
}

/** The data document; other top-level members (for other policies) are kept but not read. */
export interface RoleData {
  roles: RoleDefinition[];
}

/** Parses and checks role data text; any problem throws a PolicyFileError `file:line: path problem`. */
export function parseRoleData(text: string, file = 'data.json'): RoleData {
  const { value, lineOf } = parseJsonWithLines(text, file);
  return checkRoleData(value, (path, problem) => {
    // A missing member is reported at the object that should hold it.
    let at = path;
    let line = lineOf(at);
    while (line === undefined && at !== '') {
      at = at.replace(/(?:\.[^.[]+|\[[^\]]*\])$/, '');
      line = lineOf(at);
    }
    return new PolicyFileError(file, line, `${path === '' ? 'the document' : path} ${problem}`);
  });
}

/** Checks role data already parsed (no lines to report): a problem throws a PolicyFileError naming `file`. */
export function validateRoleData(value: unknown, file = 'data'): RoleData {
  return checkRoleData(value, (path, problem) => new PolicyFileError(file, undefined, `${path === '' ? 'the document' : path} ${problem}`));
}

type Problem = (path: string, problem: string) => PolicyFileError;

function checkRoleData(value: unknown, problem: Problem): RoleData {
  if (!isObject(value)) throw problem('', 'must be a JSON object');
  const roles = value['roles'];
  if (!Array.isArray(roles)) throw problem('roles', 'must be an array');
  roles.forEach((role, r) => checkRole(role, jsonPath('roles', r), problem));
  return value as unknown as RoleData;
}

function checkRole(role: unknown, path: string, problem: Problem): void {
  if (!isObject(role)) throw problem(path, 'must be an object with name and rules');
  if (typeof role['name'] !== 'string' || role['name'] === '') throw problem(jsonPath(path, 'name'), 'must be a non-empty string');
  const rules = role['rules'];
  if (!Array.isArray(rules)) throw problem(jsonPath(path, 'rules'), 'must be an array');
  rules.forEach((rule, i) => {
    const at = jsonPath(jsonPath(path, 'rules'), i);
    if (!isObject(rule)) throw problem(at, 'must be an object with resource and actions');
    if (typeof rule['resource'] !== 'string' || rule['resource'] === '') throw problem(jsonPath(at, 'resource'), 'must be a non-empty string');
    const actions = rule['actions'];
    if (!Array.isArray(actions) || !actions.every((a) => typeof a === 'string')) throw problem(jsonPath(at, 'actions'), 'must be an array of strings');
    // COMPAT(flipt): in rbac.rego a null or "" namespace never matches; refusing it says so at load.
    if ('namespace' in rule && (typeof rule['namespace'] !== 'string' || rule['namespace'] === '')) {
      throw problem(jsonPath(at, 'namespace'), 'must be a non-empty string when present (omit it for every namespace)');
    }
  });
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
