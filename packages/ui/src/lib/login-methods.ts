/** What the login page offers, from `GET /auth/v1/method`: a button per browser login, and the token field. */

/** The fields of a method entry the login page reads. */
export interface LoginMethodInfo {
  method: string;
  enabled: boolean;
  metadata?: { providers?: Readonly<Record<string, unknown>> } | undefined;
}

export interface LoginProvider {
  /** The name in the method's paths (`oidc/<name>`). */
  name: string;
  /** How the button calls it: "Google" for `google`. */
  label: string;
}

export interface LoginChoices {
  /** OIDC providers, in the service's order. */
  providers: LoginProvider[];
  /** The code-host (GitHub) method is enabled. */
  github: boolean;
  /** Static client tokens are accepted. */
  token: boolean;
}

/** Names whose usual spelling is not just a capital first letter. */
const SPELLINGS: Readonly<Record<string, string>> = { github: 'GitHub', gitlab: 'GitLab', auth0: 'Auth0', onelogin: 'OneLogin' };

/** A provider name as people write it: `google` → "Google", `azure-ad` → "Azure Ad", `github` → "GitHub". */
export function providerLabel(name: string): string {
  const known = SPELLINGS[name.toLowerCase()];
  if (known !== undefined) return known;
  return name
    .split(/[-_]+/)
    .filter((word) => word !== '')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

export function loginChoices(methods: readonly LoginMethodInfo[]): LoginChoices {
  const enabled = (method: string) => methods.find((m) => m.method === method && m.enabled);
  const oidc = enabled('METHOD_OIDC');
  return {
    providers: Object.keys(oidc?.metadata?.providers ?? {}).map((name) => ({ name, label: providerLabel(name) })),
    github: enabled('METHOD_GITHUB') !== undefined,
    token: enabled('METHOD_TOKEN') !== undefined,
  };
}
