/**
 * The configuration schema: one line per setting drives its default, type, environment name,
 * validation, the `--help` reference and the README table. Key names follow Flipt's where Flipt has
 * the key, so existing Flipt configuration files mostly carry over.
 */
import { parseDatabaseUrl } from '@ensign/store/database-url';
import { boolean, duration, integer, type Kind, listMapping, oneOf, optionalBoolean, port, ratio, redactUrlPassword, secret, stringList, stringMapping, text } from './config.kinds.js';
import { oidcProviders } from './oidc-providers.kind.js';
import { roleMappings } from './role-mappings.kind.js';
import { webhookTemplates } from './webhook-templates.kind.js';
import { workerCount } from './workers.kind.js';

/** One configuration setting. */
export interface Setting<K extends string = string, T = unknown> {
  readonly key: K;
  readonly kind: Kind<T>;
  readonly default: T;
  readonly doc: string;
}

const setting = <const K extends string, T>(key: K, kind: Kind<T>, fallback: T, doc: string): Setting<K, T> => ({
  key,
  kind,
  default: fallback,
  doc,
});

const checkDatabaseUrl = (url: string): void => {
  try {
    parseDatabaseUrl(url);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new Error(message.replace(/^db\.url:\s*/, ''));
  }
};

const checkNatsUrl = (urls: string): void => {
  for (const url of urls.split(',')) {
    let parsed: URL;
    try {
      parsed = new URL(url.trim());
    } catch {
      throw new Error(`"${url.trim()}" is not a URL such as nats://127.0.0.1:4222`);
    }
    if (!['nats:', 'tls:'].includes(parsed.protocol)) throw new Error(`"${parsed.protocol}" is not a NATS scheme (nats: or tls:)`);
  }
};

const checkRedisUrl = (url: string): void => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`"${redactUrlPassword(url)}" is not a URL such as redis://127.0.0.1:6379`);
  }
  if (!['redis:', 'rediss:'].includes(parsed.protocol)) throw new Error(`"${parsed.protocol}" is not a Redis scheme (redis: or rediss:)`);
};

/** Every setting Ensign reads. Adding a setting is adding a line here. */
export const SETTINGS = [
  setting('log.level', oneOf(['debug', 'info', 'warn', 'error'], { ignoreCase: true }), 'info', 'Lowest level of the JSON log lines written to stdout.'),
  setting('log.encoding', oneOf(['json']), 'json', 'Log line format; only json for now (Flipt\'s console encoding is not supported).'),
  setting('server.host', text(), '127.0.0.1', 'Interface the HTTP and gRPC servers listen on (0.0.0.0 for all).'),
  setting('server.http_port', port(), 8080, 'Port of the HTTP API (/api/v1, /evaluate/v1, OFREP, /health).'),
  setting('server.grpc_port', port(), 9000, 'Port of the gRPC API (Flipt\'s services, grpc.health.v1.Health) on server.host; `ensign evaluator` serves its evaluation services there too.'),
  setting('server.protocol', oneOf(['http', 'https']), 'http', 'https: serve HTTP over TLS and gRPC over TLS, with server.cert_file and server.cert_key.'),
  setting('server.cert_file', text({ allowEmpty: true }), '', 'PEM certificate chain presented by HTTPS and gRPC; required when server.protocol is https.'),
  setting('server.cert_key', text({ allowEmpty: true }), '', 'PEM private key of server.cert_file; required when server.protocol is https.'),
  setting('server.body_limit', integer(1), 1_048_576, 'Largest accepted request body (HTTP) or message (gRPC) in bytes; a larger one is refused with 413 (RESOURCE_EXHAUSTED). It is also what bounds an evaluation batch (/evaluate/v1/batch, the legacy batch routes, gRPC Batch, which grpc.max_receive_message_length bounds): a batch has no cap of its own on its number of requests.'),
  setting('server.shutdown_timeout', duration(), 30_000, 'On SIGTERM/SIGINT, how long in-flight requests may take before connections are closed.'),
  setting('ui.enabled', boolean(), true, 'Serve the web UI at / (`ensign server`); false serves the APIs only.'),
  setting('db.url', text({ check: checkDatabaseUrl, redact: redactUrlPassword }), 'file:./data/ensign.db', 'Database URL: file:/sqlite: (SQLite file), postgres://, mysql://, cockroach://.'),
  setting('db.max_open_conn', integer(0), 0, 'Most open connections in the pool (0 = the default, 10; SQLite always uses one).'),
  setting('db.max_idle_conn', integer(0), 2, 'Connections the pool keeps open while idle.'),
  setting('db.conn_max_lifetime', duration(), 0, 'Close pooled connections that stay idle longer than this (0 = never).'),
  setting('db.prepared_statements_enabled', boolean(), true, 'PostgreSQL: send the statements every write makes as named prepared statements, planned once per connection; false behind a pooler in transaction mode (PgBouncer), which cannot keep them.'),
  setting('db.poll_interval', duration(), 1000, 'How often `ensign server` reads the namespaces\' revisions from the database, so writes made through other servers on the same database (or by `ensign import`) are served within this interval, with or without NATS; 0 = never (one server alone on its database). It is also the longest a flag step (a schedule, window edge or ramp step) or a change request scheduled through another server waits before this one can take it (1 s when 0).'),
  setting('storage.type', oneOf(['database', 'local', 'git']), 'database', 'Where flags come from: database (managed through the API), or read-only from Flipt feature files in a directory (local) or a git repository (git); the database then mirrors the files.'),
  setting('storage.read_only', optionalBoolean(), undefined, 'true: refuse every management write (HTTP 500, as Flipt) on database storage too; local and git storage are always read-only (false is refused).'),
  setting('storage.local.path', text(), '.', 'The directory of feature files (.flipt.yml, else every *features.yml / *features.yaml) for storage.type local.'),
  setting('storage.local.poll_interval', duration({ min: 100 }), 5000, 'How often the directory is read again in case a change event was missed (changes are watched and picked up within a second where the platform allows).'),
  setting('storage.git.repository', text({ allowEmpty: true, redact: redactUrlPassword }), '', 'The git repository of feature files for storage.type git (https://, ssh://, git@host:path, file://); required then.'),
  setting('storage.git.ref', text(), 'main', 'The branch or tag followed (its newest commit), or a full commit hash (fixed).'),
  setting('storage.git.ref_type', oneOf(['static', 'semver']), 'static', 'static: storage.git.ref names the branch, tag or commit; Flipt\'s semver (highest tag matching a constraint) is not supported.'),
  setting('storage.git.directory', text({ allowEmpty: true }), '', 'Sub-directory of the repository read as the root (where .flipt.yml is looked for); empty = the repository\'s root.'),
  setting('storage.git.poll_interval', duration({ min: 1000 }), 30_000, 'How often the repository is fetched; a new commit on the ref is applied at once.'),
  setting('storage.git.authentication.basic.username', text({ allowEmpty: true }), '', 'HTTP basic authentication user (with password).'),
  setting('storage.git.authentication.basic.password', secret(), '', 'HTTP basic authentication password or personal access token. Secret.'),
  setting('storage.git.authentication.token.access_token', secret(), '', 'Sent as Authorization: Bearer <token> over HTTPS. Secret.'),
  setting('storage.git.authentication.ssh.user', text(), 'git', 'SSH user when the repository URL names none.'),
  setting('storage.git.authentication.ssh.password', secret(), '', 'Passphrase of the SSH private key. Secret.'),
  setting('storage.git.authentication.ssh.private_key_path', text({ allowEmpty: true }), '', 'SSH private key file (exactly one of private_key_path and private_key_bytes for SSH).'),
  setting('storage.git.authentication.ssh.private_key_bytes', secret(), '', 'SSH private key in PEM/OpenSSH form. Secret.'),
  setting('storage.git.authentication.ssh.insecure_ignore_host_key', boolean(), false, 'Accept any SSH host key (no known_hosts check).'),
  setting('storage.git.ca_cert_path', text({ allowEmpty: true }), '', 'PEM file of the CA certificates trusted for the repository\'s HTTPS (not with ca_cert_bytes).'),
  setting('storage.git.ca_cert_bytes', secret(), '', 'The same CA certificates as PEM text (not with ca_cert_path).'),
  setting('storage.git.insecure_skip_tls', boolean(), false, 'Do not verify the repository\'s HTTPS certificate.'),
  setting('evaluation.hash', oneOf(['murmur3', 'crc32']), 'murmur3', 'Bucketing hash of percentages and distributions; crc32 reproduces Flipt\'s, so users keep their buckets.'),
  setting('nats.url', text({ allowEmpty: true, check: checkNatsUrl, redact: redactUrlPassword }), '', 'NATS server(s) for scale-out, comma-separated (nats://host:4222); empty = no bus, single instance.'),
  setting('nats.bucket', text(), 'ensign_snapshots', 'JetStream key-value bucket holding each namespace\'s latest snapshot.'),
  setting('nats.object_store', text(), 'ensign_snapshot_docs', 'JetStream object store holding snapshot documents too large for one message.'),
  setting('nats.replicas', integer(1, 5), 1, 'Copies a NATS cluster keeps of the bucket and the object store (JetStream replicas; 3 survives the loss of any one server). Applied when they are created, and raised (never lowered) on a bucket made with fewer.'),
  setting('nats.envelope_version', integer(1, 3), 3, 'Format of what `ensign server` writes to the bucket: 3, this release\'s; 2, the previous release\'s (whole snapshots as one JSON document), or 1, the one before (whole snapshots only), while processes of that release remain in the cluster (see Upgrading a cluster in deploy/README.md). All three are read.'),
  setting('nats.reconcile_interval', duration(), 30_000, 'How often the server republishes namespaces whose snapshot in the bucket lags the database.'),
  setting('nats.compact_interval', duration(), 60_000, 'How long changes may stay as a delta in the bucket before the server publishes the whole namespace again (also done once the deltas sent since the last full snapshot add up to its size).'),
  setting('evaluator.max_namespaces', integer(1), 1000, 'Most compiled namespaces an `ensign evaluator` holds in memory (least recently used dropped first).'),
  setting('evaluator.max_bytes', integer(1), 536_870_912, 'Most approximate heap bytes of compiled namespaces an `ensign evaluator` holds (least recently used dropped first); 512 MiB.'),
  setting('evaluator.workers', workerCount(), 1, 'Evaluating processes of an `ensign evaluator` (node:cluster), all on its HTTP and gRPC ports, each following the bucket and holding up to evaluator.max_namespaces and evaluator.max_bytes; auto: one per CPU the process may use (os.availableParallelism(), bounded by a cgroup CPU quota such as a container\'s CPU limit). `--workers` overrides it.'),
  setting('cache.enabled', boolean(), false, 'Serve the control plane\'s reads (namespaces, flags, segments, rules, rollouts) from a cache invalidated by every write.'),
  setting('cache.backend', oneOf(['memory', 'redis']), 'memory', 'memory: in this process; redis: shared by every control plane on the Redis of cache.redis.url.'),
  setting('cache.ttl', duration({ min: 1 }), 60_000, 'How long a cached read is served; writes invalidate it sooner.'),
  setting('cache.redis.url', text({ allowEmpty: true, check: checkRedisUrl, redact: redactUrlPassword }), '', 'Redis URL (redis://[:password@]host:6379[/db]); empty = redis://127.0.0.1:6379 for backend redis, no invalidation messages for backend memory.'),
  setting('cache.redis.prefix', text(), 'ensign', 'Start of every Redis key and of the invalidation channel\'s name, so deployments can share a Redis.'),
  setting('cache.memory.max_entries', integer(1), 10_000, 'Most reads the memory backend holds (least recently used dropped first).'),
  setting('authentication.required', boolean(), false, 'Require a credential on every API (/api/v1, /auth/v1, /evaluate/v1, /internal/v1, /ofrep, also on `ensign evaluator`); /health and /metrics stay open.'),
  setting('authentication.exclude.management', boolean(), false, 'With authentication required, serve /api/v1 (legacy evaluate routes included) without a credential.'),
  setting('authentication.exclude.evaluation', boolean(), false, 'With authentication required, serve /evaluate/v1 and the client-side snapshot (/internal/v1/evaluation) without a credential.'),
  setting('authentication.exclude.ofrep', boolean(), false, 'With authentication required, serve /ofrep without a credential.'),
  setting('authentication.session.domain', text({ allowEmpty: true }), '', 'Host name the browser session cookies are set for; required by the oidc and github methods (a scheme or port is ignored).'),
  setting('authentication.session.secure', boolean(), false, 'Mark browser session cookies Secure (HTTPS only).'),
  setting('authentication.session.token_lifetime', duration({ min: 1 }), 86_400_000, 'How long a browser login (oidc, github) lasts, and its session cookie.'),
  setting('authentication.session.state_lifetime', duration({ min: 1 }), 600_000, 'How long a browser login may take between authorize and callback.'),
  setting('authentication.session.csrf.key', secret(), '', 'Key of the CSRF tokens of browser sessions (X-CSRF-Token, HMAC of the session); empty = a built-in key. Secret.'),
  setting('authentication.methods.token.enabled', boolean(), false, 'Static client tokens (POST /auth/v1/method/token); a first token is created and logged on first start.'),
  setting('authentication.methods.token.bootstrap.token', secret(), '', 'A known value for the first token instead of a random one. Secret.'),
  setting('authentication.methods.token.bootstrap.expiration', duration(), 0, 'Lifetime of the first token (0 = it never expires).'),
  setting('authentication.methods.token.bootstrap.metadata', stringMapping(), {}, 'Metadata of the first token, e.g. {"io.flipt.auth.role": "admin"} so it may do everything under authorization; a JSON object in the environment.'),
  setting('authorization.required', boolean(), false, 'Check every management call (/api/v1, /auth/v1 tokens, flipt.Flipt and flipt.auth over gRPC) against the policy; evaluation, OFREP, /meta, /health and /auth/v1/self are never checked. Needs authentication.required.'),
  setting('authorization.backend', oneOf(['local']), 'local', 'Where the policy comes from: local files (Flipt\'s bundle and object backends are not supported).'),
  setting('authorization.local.policy.path', text({ allowEmpty: true }), '', 'The policy: empty = Flipt\'s role policy evaluated natively over the data file; a .wasm module or OPA bundle (.tar.gz) built with `opa build -t wasm`; or a .rego file decided by the OPA at authorization.local.policy.opa_url.'),
  setting('authorization.local.policy.poll_interval', duration({ min: 1 }), 300_000, 'How often the policy file is read again (a changed file is reloaded without a restart).'),
  setting('authorization.local.policy.opa_url', text({ allowEmpty: true }), '', 'An Open Policy Agent serving the policy (its decision API, e.g. http://127.0.0.1:8181); it then decides every call, failing closed with 503 when it does not answer.'),
  setting('authorization.local.policy.opa_timeout', duration({ min: 1 }), 1000, 'How long a decision of the OPA at opa_url may take; one that does not answer in time refuses the call with 503.'),
  setting('authorization.local.data.path', text({ allowEmpty: true }), '', 'The data file (JSON); without a policy, Flipt\'s role data {"roles": [{"name", "rules": [{"resource", "actions", "namespace"}]}]}.'),
  setting('authorization.local.data.poll_interval', duration({ min: 1 }), 30_000, 'How often the data file is read again.'),
  setting('authorization.roles', roleMappings(), [], 'Roles by identity, for the role policy, added to the credential\'s io.flipt.auth.role: a list of {role, emails, claims (OIDC ID-token claim: value), organizations, teams (organization:team)}; every criterion a mapping names must match. A JSON array in the environment.'),
  setting('authentication.methods.token.cleanup.interval', duration({ min: 1 }), 3_600_000, 'How often expired authentications are deleted.'),
  setting('authentication.methods.token.cleanup.grace_period', duration(), 1_800_000, 'How long an expired authentication is kept before the cleanup deletes it (it is refused from the moment it expires).'),
  setting('authentication.methods.oidc.enabled', boolean(), false, 'Browser login through the OpenID Connect providers below.'),
  setting('authentication.methods.oidc.email_matches', stringList(), [], 'Regular expressions; when any is set, an OIDC login\'s email must match one.'),
  setting('authentication.methods.oidc.providers', oidcProviders(), {}, 'Providers by name: {issuer_url, client_id, client_secret, redirect_address, scopes, use_pkce}; a JSON object in the environment. Holds secrets.'),
  setting('authentication.methods.github.enabled', boolean(), false, 'Browser login through GitHub (the code host; also under /auth/v1/method/codehost).'),
  setting('authentication.methods.github.client_id', secret(), '', 'OAuth app client id. Secret.'),
  setting('authentication.methods.github.client_secret', secret(), '', 'OAuth app client secret. Secret.'),
  setting('authentication.methods.github.redirect_address', text({ allowEmpty: true }), '', 'Public address of this service; the callback is <redirect_address>/auth/v1/method/github/callback.'),
  setting('authentication.methods.github.scopes', stringList(), [], 'OAuth scopes requested; read:org is needed for allowed_organizations.'),
  setting('authentication.methods.github.server_url', text(), 'https://github.com', 'GitHub (Enterprise) web address.'),
  setting('authentication.methods.github.api_url', text(), 'https://api.github.com', 'GitHub (Enterprise) API address.'),
  setting('authentication.methods.github.allowed_organizations', stringList(), [], 'When set, only members of these organizations may log in.'),
  setting('authentication.methods.github.allowed_teams', listMapping(), {}, 'Organization → team slugs whose members may log in; a JSON object in the environment.'),
  setting('authentication.methods.kubernetes.enabled', boolean(), false, 'Workloads exchange their service-account token for a client token (POST /auth/v1/method/kubernetes/serviceaccount).'),
  setting('authentication.methods.kubernetes.discovery_url', text(), 'https://kubernetes.default.svc.cluster.local', 'The cluster API, whose OIDC discovery names the service-account token issuer and keys.'),
  setting('authentication.methods.kubernetes.ca_path', text(), '/var/run/secrets/kubernetes.io/serviceaccount/ca.crt', 'CA certificate of the cluster API.'),
  setting('authentication.methods.kubernetes.service_account_token_path', text(), '/var/run/secrets/kubernetes.io/serviceaccount/token', 'This pod\'s own service-account token, to call the cluster API.'),
  setting('authentication.methods.jwt.enabled', boolean(), false, 'Accept externally signed JWTs (Authorization: Bearer <jwt> or JWT <jwt>); needs authentication.required.'),
  setting('authentication.methods.jwt.jwks_url', text({ allowEmpty: true }), '', 'JWKS URL of the signing keys (exactly one of jwks_url and public_key_file).'),
  setting('authentication.methods.jwt.public_key_file', text({ allowEmpty: true }), '', 'PEM file of the signing public key (exactly one of jwks_url and public_key_file).'),
  setting('authentication.methods.jwt.validate_claims.issuer', text({ allowEmpty: true }), '', 'Required `iss` claim; empty = not checked.'),
  setting('authentication.methods.jwt.validate_claims.subject', text({ allowEmpty: true }), '', 'Required `sub` claim; empty = not checked.'),
  setting('authentication.methods.jwt.validate_claims.audiences', stringList(), [], 'Accepted `aud` values; empty = not checked.'),
  setting('metrics.enabled', boolean(), true, 'Count evaluations per namespace and flag (Flipt\'s flipt_evaluations_*) and HTTP requests and gRPC calls by route and status for /metrics; false leaves them out of /metrics and the request paths count nothing for it (evaluations are still counted for analytics.enabled).'),
  setting('analytics.enabled', boolean(), true, 'Count evaluations per flag, value and reason in every evaluating process (also with metrics.enabled false) and store them in the database for /internal/v1/analytics and flag usage.'),
  setting('analytics.buffer.flush_period', duration({ min: 1000 }), 10_000, 'How often each process sends what it counted to the database (`ensign evaluator` through NATS to a server); Flipt refuses under 10s, Ensign accepts down to 1s.'),
  setting('analytics.retention', duration({ min: 60_000 }), 604_800_000, 'How long per-minute evaluation counts (the analytics charts) are kept.'),
  setting('analytics.usage_retention', duration({ min: 3_600_000 }), 7_776_000_000, 'How long per-hour evaluation counts (flag usage) are kept; at least analytics.stale_after.'),
  setting('analytics.stale_after', duration({ min: 60_000 }), 2_592_000_000, 'The default window of flag usage (GET /api/v1/namespaces/{ns}/usage): a flag older than this and not evaluated within it is inactive.'),
  setting('tracing.enabled', boolean(), false, 'Export OpenTelemetry traces: spans for HTTP requests, gRPC calls, writes, snapshot publishes and applies.'),
  setting('tracing.exporter', oneOf(['otlp']), 'otlp', 'The trace exporter; only otlp (Flipt\'s jaeger and zipkin exporters are not supported: both accept OTLP).'),
  setting('tracing.sampling_ratio', ratio(), 1, 'Share of traces started here that are sampled (a caller\'s sampled trace is always continued).'),
  setting('tracing.propagators', stringList(), ['tracecontext', 'baggage'], 'How trace context is read from incoming requests: tracecontext (W3C traceparent) and baggage.'),
  setting('tracing.otlp.endpoint', text(), 'localhost:4317', 'The OTLP collector: http(s)://host:port[/path] for OTLP/HTTP (path /v1/traces when none), grpc://host:port or host:port for OTLP/gRPC.'),
  setting('tracing.otlp.headers', stringMapping(), {}, 'Headers sent with every export (an API key); a JSON object in the environment. Holds secrets.'),
  setting('audit.events', stringList(), ['*:*'], 'Which changes go to the audit sinks: <noun>:<verb> pairs (nouns namespace, flag, variant, segment, constraint, rule, distribution, rollout, token or *; verbs created, updated, deleted or *).'),
  setting('audit.buffer.capacity', integer(2, 10), 2, 'Events the sinks are sent at once: a batch goes out when this many wait, or after flush_period.'),
  setting('audit.buffer.flush_period', duration({ min: 1000 }), 120_000, 'Longest an event waits in the buffer before the sinks get it (Flipt accepts 2m–5m; Ensign also shorter, down to 1s).'),
  setting('audit.sinks.log.enabled', boolean(), false, 'Append every audit event to a file as one JSON line (Flipt\'s event JSON).'),
  setting('audit.sinks.log.file', text({ allowEmpty: true }), '', 'The audit log file; required when the log sink is enabled.'),
  setting('audit.sinks.log.encoding', oneOf(['json']), 'json', 'Line format of the audit log; only json.'),
  setting('audit.sinks.webhook.enabled', boolean(), false, 'POST every audit event to a webhook (Flipt\'s event JSON, version 0.2).'),
  setting('audit.sinks.webhook.url', text({ allowEmpty: true, redact: redactUrlPassword }), '', 'Where events are POSTed; exactly one of url and templates when the webhook sink is enabled.'),
  setting('audit.sinks.webhook.signing_secret', secret(), '', 'When set, each POST carries x-flipt-webhook-signature: the hex HMAC-SHA256 of the body with this secret. Secret.'),
  setting('audit.sinks.webhook.max_backoff_duration', duration({ min: 1 }), 15_000, 'How long a failing delivery is retried (exponential backoff) before the event is given up, logged and counted.'),
  setting('audit.sinks.webhook.templates', webhookTemplates(), [], 'Flipt\'s webhook templates: a list of {url, body (a Go text/template of the JSON body), headers}; a JSON array in the environment.'),
  setting('audit.retention', duration(), 7_776_000_000, 'How long the change history (GET /api/v1/audit/events) keeps an entry; older ones are deleted hourly (0 = kept forever).'),
] as const;

type AnySetting = (typeof SETTINGS)[number];

/** Environment variable overriding a key: `ENSIGN_` + the path upper-cased, dots as underscores. */
export const envName = (key: string): string => `ENSIGN_${key.replace(/\./g, '_').toUpperCase()}`;

type ValueOf<S> = S extends Setting<string, infer T> ? T : never;
type Nest<K extends string, V> = K extends `${infer Head}.${infer Rest}` ? { readonly [P in Head]: Nest<Rest, V> } : { readonly [P in K]: V };
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type Flatten<T> = T extends object ? { [K in keyof T]: Flatten<T[K]> } : T;

/** The typed configuration handed to the rest of the program (durations in milliseconds). */
export type EnsignConfig = Flatten<UnionToIntersection<{ [S in AnySetting as S['key']]: Nest<S['key'], ValueOf<S>> }[AnySetting['key']]>>;
