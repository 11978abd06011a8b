/** The kind of `authorization.roles`: roles given by who the caller is (email, OIDC claims, code-host organization or team). */
import { type Kind, listOf, type Parsed, readMapping, stringList, stringMapping, text } from './config.kinds.js';

/** One mapping as written in the file. */
export interface RoleMappingSetting {
  role: string;
  emails?: string[];
  claims?: Record<string, string>;
  organizations?: string[];
  teams?: string[];
}

const CRITERIA = ['emails', 'claims', 'organizations', 'teams'] as const;
const KNOWN = new Set<string>(['role', ...CRITERIA]);
const fail = (reason: string): Parsed<never> => ({ ok: false, reason });

function mapping(at: string, raw: unknown): Parsed<RoleMappingSetting> {
  const fields = readMapping(raw);
  if (fields === undefined || typeof raw === 'string') return fail(`${at}: must be a mapping of role and at least one of ${CRITERIA.join(', ')}`);
  for (const key of Object.keys(fields)) if (!KNOWN.has(key)) return fail(`${at}.${key}: unknown role mapping setting`);
  const role = text().parse(fields.role);
  if (!role.ok) return fail(`${at}.role: ${role.reason}`);
  const out: RoleMappingSetting = { role: role.value };
  for (const key of CRITERIA) {
    if (fields[key] === undefined) continue;
    const value = key === 'claims' ? stringMapping().parse(fields[key]) : stringList().parse(fields[key]);
    if (!value.ok) return fail(`${at}.${key}: ${value.reason}`);
    (out as unknown as Record<string, unknown>)[key] = value.value;
  }
  if (CRITERIA.every((key) => out[key] === undefined)) return fail(`${at}: names no criterion (${CRITERIA.join(', ')}), so it would match nobody`);
  if (out.teams?.some((t) => !/^[^:]+:[^:]+$/.test(t))) return fail(`${at}.teams: each team is written organization:team`);
  return { ok: true, value: out };
}

export const roleMappings = (): Kind<RoleMappingSetting[]> =>
  listOf('a list of {role, emails, claims, organizations, teams}', mapping, (value) => (value.length === 0 ? '[]' : value.map((m) => m.role).join(', ')));
