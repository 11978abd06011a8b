import test from 'ava';
import { ConfigError, loadConfig, type LoadOptions } from '../src/config/config.loader.js';
import { envName, SETTINGS } from '../src/config/config.schema.js';

const fromYaml = (yaml: string, env: LoadOptions['env'] = {}) =>
  loadConfig({ configPath: 'ensign.yml', env, readFile: () => yaml });

const errorOf = (load: () => unknown): string => {
  const err = (() => {
    try {
      load();
    } catch (e) {
      return e;
    }
    return undefined;
  })();
  if (!(err instanceof ConfigError)) throw new Error(`expected a ConfigError, got ${String(err)}`);
  return err.message;
};

test('without a file or environment every setting has its documented default', (t) => {
  const { config, warnings, file } = loadConfig({ env: {} });
  t.is(file, undefined);
  t.deepEqual(warnings, []);
  t.deepEqual(config, {
    log: { level: 'info', encoding: 'json' },
    server: { host: '127.0.0.1', http_port: 8080, grpc_port: 9000, protocol: 'http', cert_file: '', cert_key: '', body_limit: 1_048_576, shutdown_timeout: 30_000 },
    ui: { enabled: true },
    db: { url: 'file:./data/ensign.db', max_open_conn: 0, max_idle_conn: 2, conn_max_lifetime: 0, prepared_statements_enabled: true, poll_interval: 1000 },
    storage: {
      type: 'database',
      read_only: undefined,
      local: { path: '.', poll_interval: 5000 },
      git: {
        repository: '',
        ref: 'main',
        ref_type: 'static',
        directory: '',
        poll_interval: 30_000,
        authentication: {
          basic: { username: '', password: '' },
          token: { access_token: '' },
          ssh: { user: 'git', password: '', private_key_path: '', private_key_bytes: '', insecure_ignore_host_key: false },
        },
        ca_cert_path: '',
        ca_cert_bytes: '',
        insecure_skip_tls: false,
      },
    },
    evaluation: { hash: 'murmur3' },
    nats: { url: '', bucket: 'ensign_snapshots', object_store: 'ensign_snapshot_docs', replicas: 1, envelope_version: 3, reconcile_interval: 30_000, compact_interval: 60_000 },
    evaluator: { max_namespaces: 1000, max_bytes: 536_870_912, workers: 1 },
    cache: { enabled: false, backend: 'memory', ttl: 60_000, redis: { url: '', prefix: 'ensign' }, memory: { max_entries: 10_000 } },
    authentication: {
      required: false,
      exclude: { management: false, evaluation: false, ofrep: false },
      session: { domain: '', secure: false, token_lifetime: 86_400_000, state_lifetime: 600_000, csrf: { key: '' } },
      methods: {
        token: { enabled: false, bootstrap: { token: '', expiration: 0, metadata: {} }, cleanup: { interval: 3_600_000, grace_period: 1_800_000 } },
        oidc: { enabled: false, email_matches: [], providers: {} },
        github: {
          enabled: false,
          client_id: '',
          client_secret: '',
          redirect_address: '',
          scopes: [],
          server_url: 'https://github.com',
          api_url: 'https://api.github.com',
          allowed_organizations: [],
          allowed_teams: {},
        },
        kubernetes: {
          enabled: false,
          discovery_url: 'https://kubernetes.default.svc.cluster.local',
          ca_path: '/var/run/secrets/kubernetes.io/serviceaccount/ca.crt',
          service_account_token_path: '/var/run/secrets/kubernetes.io/serviceaccount/token',
        },
        jwt: { enabled: false, jwks_url: '', public_key_file: '', validate_claims: { issuer: '', subject: '', audiences: [] } },
      },
    },
    authorization: {
      required: false,
      backend: 'local',
      local: { policy: { path: '', poll_interval: 300_000, opa_url: '', opa_timeout: 1000 }, data: { path: '', poll_interval: 30_000 } },
      roles: [],
    },
    metrics: { enabled: true },
    analytics: { enabled: true, buffer: { flush_period: 10_000 }, retention: 604_800_000, usage_retention: 7_776_000_000, stale_after: 2_592_000_000 },
    tracing: { enabled: false, exporter: 'otlp', sampling_ratio: 1, propagators: ['tracecontext', 'baggage'], otlp: { endpoint: 'localhost:4317', headers: {} } },
    audit: {
      events: ['*:*'],
      buffer: { capacity: 2, flush_period: 120_000 },
      sinks: {
        log: { enabled: false, file: '', encoding: 'json' },
        webhook: { enabled: false, url: '', signing_secret: '', max_backoff_duration: 15_000, templates: [] },
      },
      retention: 7_776_000_000,
    },
  });
});

test('nats.url is empty (scale-out off) by default and takes one or more NATS URLs', (t) => {
  t.is(fromYaml('nats:\n  url: ""\n').config.nats.url, '');
  t.is(loadConfig({ env: { ENSIGN_NATS_URL: 'nats://127.0.0.1:4222' } }).config.nats.url, 'nats://127.0.0.1:4222');
  t.is(fromYaml('nats:\n  url: nats://a:4222,tls://b:4222\n').config.nats.url, 'nats://a:4222,tls://b:4222');
  t.is(fromYaml('nats:\n  reconcile_interval: 5s\n').config.nats.reconcile_interval, 5000);
  t.is(loadConfig({ env: { ENSIGN_NATS_REPLICAS: '3' } }).config.nats.replicas, 3);
  t.is(fromYaml('nats:\n  envelope_version: 1\n').config.nats.envelope_version, 1);
});

test('evaluation.hash selects Flipt\'s crc32 bucketing from the file or the environment', (t) => {
  t.is(fromYaml('evaluation:\n  hash: crc32\n').config.evaluation.hash, 'crc32');
  t.is(loadConfig({ env: { ENSIGN_EVALUATION_HASH: 'crc32' } }).config.evaluation.hash, 'crc32');
  t.is(fromYaml('evaluation:\n  hash: crc32\n', { ENSIGN_EVALUATION_HASH: 'murmur3' }).config.evaluation.hash, 'murmur3');
});

test('the file overrides defaults and the environment overrides the file', (t) => {
  const yaml = 'log:\n  level: debug\nserver:\n  http_port: 9090\n  host: 0.0.0.0\ndb:\n  url: postgres://ensign@db.internal:5432/ensign\n';
  const { config } = fromYaml(yaml, { ENSIGN_SERVER_HTTP_PORT: '7070', ENSIGN_LOG_LEVEL: 'warn' });
  t.is(config.server.http_port, 7070, 'environment beats file');
  t.is(config.log.level, 'warn', 'environment beats file');
  t.is(config.server.host, '0.0.0.0', 'file beats default');
  t.is(config.db.url, 'postgres://ensign@db.internal:5432/ensign', 'file beats default');
  t.is(config.server.grpc_port, 9000, 'default stays when nobody sets it');
});

test('the environment alone overrides defaults, and an empty variable counts as unset', (t) => {
  const { config } = loadConfig({ env: { ENSIGN_DB_URL: 'mysql://root@127.0.0.1:3306/ensign', ENSIGN_SERVER_HOST: '' } });
  t.is(config.db.url, 'mysql://root@127.0.0.1:3306/ensign');
  t.is(config.server.host, '127.0.0.1');
});

test('--config wins over ENSIGN_CONFIG, which is used when there is no flag', (t) => {
  const read: string[] = [];
  const readFile = (path: string) => {
    read.push(path);
    return 'server:\n  http_port: 1234\n';
  };
  t.is(loadConfig({ env: { ENSIGN_CONFIG: 'from-env.yml' }, readFile }).file, 'from-env.yml');
  t.is(loadConfig({ configPath: 'from-flag.yml', env: { ENSIGN_CONFIG: 'from-env.yml' }, readFile }).file, 'from-flag.yml');
  t.deepEqual(read, ['from-env.yml', 'from-flag.yml']);
});

test('environment names are ENSIGN_ plus the upper-cased path with underscores', (t) => {
  t.is(envName('db.url'), 'ENSIGN_DB_URL');
  t.is(envName('server.http_port'), 'ENSIGN_SERVER_HTTP_PORT');
  t.is(envName('log.level'), 'ENSIGN_LOG_LEVEL');
  t.is(envName('db.conn_max_lifetime'), 'ENSIGN_DB_CONN_MAX_LIFETIME');
});

test('a YAML string written as ${VAR} is read from the environment', (t) => {
  const yaml = 'db:\n  url: ${DATABASE_URL}\nserver:\n  http_port: "${PORT}"\n';
  const { config } = fromYaml(yaml, { DATABASE_URL: 'postgres://app@pg:5432/flags', PORT: '8181' });
  t.is(config.db.url, 'postgres://app@pg:5432/flags');
  t.is(config.server.http_port, 8181);
});

test('a ${VAR} that is not set becomes empty, and an empty required value is refused by key', (t) => {
  t.is(errorOf(() => fromYaml('db:\n  url: ${NOT_SET_ANYWHERE}\n')), 'db.url: must be a non-empty string (got "")');
});

test('only a whole value is substituted; text around ${VAR} is kept as written', (t) => {
  const { config } = fromYaml('server:\n  host: host-${SUFFIX}\n', { SUFFIX: 'x' });
  t.is(config.server.host, 'host-${SUFFIX}');
});

test('durations accept Go-style strings and whole milliseconds', (t) => {
  t.is(fromYaml('server:\n  shutdown_timeout: 1h30m\n').config.server.shutdown_timeout, 5_400_000);
  t.is(fromYaml('server:\n  shutdown_timeout: 250\n').config.server.shutdown_timeout, 250);
  t.is(loadConfig({ env: { ENSIGN_DB_CONN_MAX_LIFETIME: '5m' } }).config.db.conn_max_lifetime, 300_000);
  t.is(loadConfig({ env: { ENSIGN_SERVER_SHUTDOWN_TIMEOUT: '1500' } }).config.server.shutdown_timeout, 1500);
});

test('cache.enabled is a switch: true/false in the file, true/false/1/0 in the environment', (t) => {
  t.true(fromYaml('cache:\n  enabled: true\n').config.cache.enabled);
  t.false(fromYaml('cache:\n  enabled: false\n').config.cache.enabled);
  t.true(loadConfig({ env: { ENSIGN_CACHE_ENABLED: '1' } }).config.cache.enabled);
  t.true(loadConfig({ env: { ENSIGN_CACHE_ENABLED: 'TRUE' } }).config.cache.enabled);
  t.false(fromYaml('cache:\n  enabled: true\n', { ENSIGN_CACHE_ENABLED: '0' }).config.cache.enabled);
  t.is(errorOf(() => loadConfig({ env: { ENSIGN_CACHE_ENABLED: 'on' } })), 'cache.enabled: must be true or false (got "on")');
});

test('the cache settings come from the file and the environment', (t) => {
  const yaml = 'cache:\n  enabled: true\n  backend: redis\n  ttl: 5m\n  redis:\n    url: ${REDIS_URL}\n';
  const { config } = fromYaml(yaml, { REDIS_URL: 'redis://:pw@cache.internal:6379/2', ENSIGN_CACHE_REDIS_PREFIX: 'flags' });
  t.deepEqual(config.cache, { enabled: true, backend: 'redis', ttl: 300_000, redis: { url: 'redis://:pw@cache.internal:6379/2', prefix: 'flags' }, memory: { max_entries: 10_000 } });
});

test('log.level accepts Flipt\'s upper-case spelling and stores it lower-case', (t) => {
  t.is(fromYaml('log:\n  level: WARN\n').config.log.level, 'warn');
});

test('unknown keys give one warning each, naming the top-most unknown path, and are not fatal', (t) => {
  const yaml = [
    'meta:',
    '  check_for_updates: false',
    'cache:',
    '  memory:',
    '    eviction_interval: 5m',
    'server:',
    '  https_port: 8443',
    '  http_port: 8081',
    'authentication:',
    '  required: false',
    '  exclude:',
    '    metadata: true',
  ].join('\n');
  const { config, warnings } = fromYaml(yaml);
  t.is(config.server.http_port, 8081);
  t.deepEqual(warnings, [
    'unknown configuration key "meta" in ensign.yml ignored',
    'unknown configuration key "cache.memory.eviction_interval" in ensign.yml ignored',
    'unknown configuration key "server.https_port" in ensign.yml ignored',
    'unknown configuration key "authentication.exclude.metadata" in ensign.yml ignored',
  ]);
});

test('an empty file and null values mean defaults', (t) => {
  t.is(fromYaml('').config.server.http_port, 8080);
  t.is(fromYaml('server:\n  http_port:\n').config.server.http_port, 8080);
});

/** At least one invalid value per setting, with the exact one-line message. */
const INVALID: Array<[key: string, yaml: string, message: string]> = [
  ['log.level', 'log:\n  level: verbose', 'log.level: must be one of debug, info, warn, error (got "verbose")'],
  ['log.encoding', 'log:\n  encoding: console', 'log.encoding: must be one of json (got "console")'],
  ['server.host', 'server:\n  host: ""', 'server.host: must be a non-empty string (got "")'],
  ['server.host', 'server:\n  host: [a, b]', 'server.host: must be a non-empty string (got a list)'],
  ['server.http_port', 'server:\n  http_port: abc', 'server.http_port: must be an integer between 1 and 65535 (got "abc")'],
  ['server.http_port', 'server:\n  http_port: 65536', 'server.http_port: must be an integer between 1 and 65535 (got 65536)'],
  ['server.http_port', 'server:\n  http_port: 0', 'server.http_port: must be an integer between 1 and 65535 (got 0)'],
  ['server.http_port', 'server:\n  http_port: 80.5', 'server.http_port: must be an integer between 1 and 65535 (got 80.5)'],
  ['server.grpc_port', 'server:\n  grpc_port: -1', 'server.grpc_port: must be an integer between 1 and 65535 (got -1)'],
  ['server.protocol', 'server:\n  protocol: grpc', 'server.protocol: must be one of http, https (got "grpc")'],
  ['server.cert_file', 'server:\n  cert_file: [a]', 'server.cert_file: must be a non-empty string (got a list)'],
  ['server.cert_key', 'server:\n  cert_key: 1', 'server.cert_key: must be a non-empty string (got 1)'],
  ['server.body_limit', 'server:\n  body_limit: 0', 'server.body_limit: must be an integer of at least 1 (got 0)'],
  ['server.shutdown_timeout', 'server:\n  shutdown_timeout: 30 seconds', 'server.shutdown_timeout: must be a duration such as 30s, 5m or 1h30m, or a whole number of milliseconds (got "30 seconds")'],
  ['server.shutdown_timeout', 'server:\n  shutdown_timeout: -5', 'server.shutdown_timeout: must be a duration such as 30s, 5m or 1h30m, or a whole number of milliseconds (got -5)'],
  ['db.url', 'db:\n  url: oracle://db/x', 'db.url: unsupported scheme "oracle" (got "oracle://db/x")'],
  ['db.url', 'db:\n  url: postgres://pg.internal:5432/', 'db.url: missing database name (got "postgres://pg.internal:5432/")'],
  ['db.url', 'db:\n  url: just-a-path.db', 'db.url: missing scheme (file:, postgres://, mysql://, cockroach://…) (got "just-a-path.db")'],
  ['storage.type', 'storage:\n  type: object', 'storage.type: must be one of database, local, git (got "object")'],
  ['storage.read_only', 'storage:\n  read_only: sometimes', 'storage.read_only: must be true or false (got "sometimes")'],
  ['storage.local.path', 'storage:\n  local: {path: ""}', 'storage.local.path: must be a non-empty string (got "")'],
  ['storage.local.poll_interval', 'storage:\n  local: {poll_interval: often}', 'storage.local.poll_interval: must be a duration such as 30s, 5m or 1h30m, or a whole number of milliseconds (got "often")'],
  ['storage.git.repository', 'storage:\n  git: {repository: [a]}', 'storage.git.repository: must be a non-empty string (got a list)'],
  ['storage.git.ref', 'storage:\n  git: {ref: ""}', 'storage.git.ref: must be a non-empty string (got "")'],
  ['storage.git.ref_type', 'storage:\n  git: {ref_type: latest}', 'storage.git.ref_type: must be one of static, semver (got "latest")'],
  ['storage.git.directory', 'storage:\n  git: {directory: [a]}', 'storage.git.directory: must be a non-empty string (got a list)'],
  ['storage.git.poll_interval', 'storage:\n  git: {poll_interval: 10ms}', 'storage.git.poll_interval: must be at least 1s (got "10ms")'],
  ['storage.git.authentication.basic.username', 'storage:\n  git: {authentication: {basic: {username: [a]}}}', 'storage.git.authentication.basic.username: must be a non-empty string (got a list)'],
  ['storage.git.authentication.basic.password', 'storage:\n  git: {authentication: {basic: {password: [a]}}}', 'storage.git.authentication.basic.password: must be a non-empty string (got a list)'],
  ['storage.git.authentication.token.access_token', 'storage:\n  git: {authentication: {token: {access_token: {a: b}}}}', 'storage.git.authentication.token.access_token: must be a non-empty string (got a mapping)'],
  ['storage.git.authentication.ssh.user', 'storage:\n  git: {authentication: {ssh: {user: ""}}}', 'storage.git.authentication.ssh.user: must be a non-empty string (got "")'],
  ['storage.git.authentication.ssh.password', 'storage:\n  git: {authentication: {ssh: {password: [a]}}}', 'storage.git.authentication.ssh.password: must be a non-empty string (got a list)'],
  ['storage.git.authentication.ssh.private_key_path', 'storage:\n  git: {authentication: {ssh: {private_key_path: [a]}}}', 'storage.git.authentication.ssh.private_key_path: must be a non-empty string (got a list)'],
  ['storage.git.authentication.ssh.private_key_bytes', 'storage:\n  git: {authentication: {ssh: {private_key_bytes: [a]}}}', 'storage.git.authentication.ssh.private_key_bytes: must be a non-empty string (got a list)'],
  ['storage.git.authentication.ssh.insecure_ignore_host_key', 'storage:\n  git: {authentication: {ssh: {insecure_ignore_host_key: maybe}}}', 'storage.git.authentication.ssh.insecure_ignore_host_key: must be true or false (got "maybe")'],
  ['storage.git.ca_cert_path', 'storage:\n  git: {ca_cert_path: [a]}', 'storage.git.ca_cert_path: must be a non-empty string (got a list)'],
  ['storage.git.ca_cert_bytes', 'storage:\n  git: {ca_cert_bytes: [a]}', 'storage.git.ca_cert_bytes: must be a non-empty string (got a list)'],
  ['storage.git.insecure_skip_tls', 'storage:\n  git: {insecure_skip_tls: 2}', 'storage.git.insecure_skip_tls: must be true or false (got 2)'],
  ['db.max_open_conn', 'db:\n  max_open_conn: -1', 'db.max_open_conn: must be a non-negative integer (got -1)'],
  ['db.max_idle_conn', 'db:\n  max_idle_conn: many', 'db.max_idle_conn: must be a non-negative integer (got "many")'],
  ['db.poll_interval', 'db:\n  poll_interval: -1s', 'db.poll_interval: must be a duration such as 30s, 5m or 1h30m, or a whole number of milliseconds (got "-1s")'],
  ['db.prepared_statements_enabled', 'db:\n  prepared_statements_enabled: sometimes', 'db.prepared_statements_enabled: must be true or false (got "sometimes")'],
  ['db.conn_max_lifetime', 'db:\n  conn_max_lifetime: 1d', 'db.conn_max_lifetime: must be a duration such as 30s, 5m or 1h30m, or a whole number of milliseconds (got "1d")'],
  ['evaluation.hash', 'evaluation:\n  hash: md5', 'evaluation.hash: must be one of murmur3, crc32 (got "md5")'],
  ['nats.url', 'nats:\n  url: http://nats:4222', 'nats.url: "http:" is not a NATS scheme (nats: or tls:) (got "http://nats:4222")'],
  ['nats.url', 'nats:\n  url: localhost', 'nats.url: "localhost" is not a URL such as nats://127.0.0.1:4222 (got "localhost")'],
  ['nats.bucket', 'nats:\n  bucket: ""', 'nats.bucket: must be a non-empty string (got "")'],
  ['nats.object_store', 'nats:\n  object_store: [a]', 'nats.object_store: must be a non-empty string (got a list)'],
  ['nats.replicas', 'nats:\n  replicas: 7', 'nats.replicas: must be an integer between 1 and 5 (got 7)'],
  ['nats.envelope_version', 'nats:\n  envelope_version: 4', 'nats.envelope_version: must be an integer between 1 and 3 (got 4)'],
  ['nats.reconcile_interval', 'nats:\n  reconcile_interval: often', 'nats.reconcile_interval: must be a duration such as 30s, 5m or 1h30m, or a whole number of milliseconds (got "often")'],
  ['nats.compact_interval', 'nats:\n  compact_interval: rarely', 'nats.compact_interval: must be a duration such as 30s, 5m or 1h30m, or a whole number of milliseconds (got "rarely")'],
  ['evaluator.max_namespaces', 'evaluator:\n  max_namespaces: 0', 'evaluator.max_namespaces: must be an integer of at least 1 (got 0)'],
  ['evaluator.max_bytes', 'evaluator:\n  max_bytes: 0', 'evaluator.max_bytes: must be an integer of at least 1 (got 0)'],
  ['evaluator.workers', 'evaluator:\n  workers: 0', 'evaluator.workers: must be a whole number of at least 1, or auto (got 0)'],
  ['ui.enabled', 'ui:\n  enabled: maybe', 'ui.enabled: must be true or false (got "maybe")'],
  ['cache.enabled', 'cache:\n  enabled: yes', 'cache.enabled: must be true or false (got "yes")'],
  ['cache.backend', 'cache:\n  backend: memcached', 'cache.backend: must be one of memory, redis (got "memcached")'],
  ['cache.ttl', 'cache:\n  ttl: 0s', 'cache.ttl: must be at least 1ms (got "0s")'],
  ['cache.redis.url', 'cache:\n  redis: {url: "http://cache:6379"}', 'cache.redis.url: "http:" is not a Redis scheme (redis: or rediss:) (got "http://cache:6379")'],
  ['cache.redis.url', 'cache:\n  redis: {url: "redis://:secret@cache:port"}', 'cache.redis.url: "redis://:***@cache:port" is not a URL such as redis://127.0.0.1:6379 (got "redis://:***@cache:port")'],
  ['cache.redis.prefix', 'cache:\n  redis: {prefix: ""}', 'cache.redis.prefix: must be a non-empty string (got "")'],
  ['cache.memory.max_entries', 'cache:\n  memory: {max_entries: 0}', 'cache.memory.max_entries: must be an integer of at least 1 (got 0)'],
  ['authentication.required', 'authentication:\n  required: maybe', 'authentication.required: must be true or false (got "maybe")'],
  ['authentication.exclude.management', 'authentication:\n  exclude: {management: 2}', 'authentication.exclude.management: must be true or false (got 2)'],
  ['authentication.exclude.evaluation', 'authentication:\n  exclude: {evaluation: on}', 'authentication.exclude.evaluation: must be true or false (got "on")'],
  ['authentication.exclude.ofrep', 'authentication:\n  exclude: {ofrep: [true]}', 'authentication.exclude.ofrep: must be true or false (got a list)'],
  ['authentication.session.domain', 'authentication:\n  session: {domain: [a]}', 'authentication.session.domain: must be a non-empty string (got a list)'],
  ['authentication.session.secure', 'authentication:\n  session: {secure: sometimes}', 'authentication.session.secure: must be true or false (got "sometimes")'],
  ['authentication.session.token_lifetime', 'authentication:\n  session: {token_lifetime: 0s}', 'authentication.session.token_lifetime: must be at least 1ms (got "0s")'],
  ['authentication.session.state_lifetime', 'authentication:\n  session: {state_lifetime: soon}', 'authentication.session.state_lifetime: must be a duration such as 30s, 5m or 1h30m, or a whole number of milliseconds (got "soon")'],
  ['authentication.session.csrf.key', 'authentication:\n  session: {csrf: {key: [k]}}', 'authentication.session.csrf.key: must be a non-empty string (got a list)'],
  ['authentication.methods.token.enabled', 'authentication:\n  methods: {token: {enabled: yes}}', 'authentication.methods.token.enabled: must be true or false (got "yes")'],
  ['authentication.methods.token.bootstrap.token', 'authentication:\n  methods: {token: {bootstrap: {token: [s3cr3t]}}}', 'authentication.methods.token.bootstrap.token: must be a non-empty string (got a list)'],
  ['authentication.methods.token.bootstrap.expiration', 'authentication:\n  methods: {token: {bootstrap: {expiration: forever}}}', 'authentication.methods.token.bootstrap.expiration: must be a duration such as 30s, 5m or 1h30m, or a whole number of milliseconds (got "forever")'],
  ['authentication.methods.token.cleanup.interval', 'authentication:\n  methods: {token: {cleanup: {interval: 0}}}', 'authentication.methods.token.cleanup.interval: must be at least 1ms (got 0)'],
  ['authentication.methods.token.cleanup.grace_period', 'authentication:\n  methods: {token: {cleanup: {grace_period: -1}}}', 'authentication.methods.token.cleanup.grace_period: must be a duration such as 30s, 5m or 1h30m, or a whole number of milliseconds (got -1)'],
  ['authentication.methods.oidc.enabled', 'authentication:\n  methods: {oidc: {enabled: 1.5}}', 'authentication.methods.oidc.enabled: must be true or false (got 1.5)'],
  ['authentication.methods.oidc.email_matches', 'authentication:\n  methods: {oidc: {email_matches: {a: b}}}', 'authentication.methods.oidc.email_matches: must be a list of strings (comma-separated in the environment) (got a mapping)'],
  ['authentication.methods.oidc.providers', 'authentication:\n  methods: {oidc: {providers: [google]}}', 'authentication.methods.oidc.providers: must be a mapping of provider names to their settings (a JSON object in the environment) (got a list)'],
  ['authentication.methods.github.enabled', 'authentication:\n  methods: {github: {enabled: nope}}', 'authentication.methods.github.enabled: must be true or false (got "nope")'],
  ['authentication.methods.github.client_id', 'authentication:\n  methods: {github: {client_id: [x]}}', 'authentication.methods.github.client_id: must be a non-empty string (got a list)'],
  ['authentication.methods.github.client_secret', 'authentication:\n  methods: {github: {client_secret: {a: b}}}', 'authentication.methods.github.client_secret: must be a non-empty string (got a mapping)'],
  ['authentication.methods.github.redirect_address', 'authentication:\n  methods: {github: {redirect_address: [x]}}', 'authentication.methods.github.redirect_address: must be a non-empty string (got a list)'],
  ['authentication.methods.github.scopes', 'authentication:\n  methods: {github: {scopes: 7}}', 'authentication.methods.github.scopes: must be a list of strings (comma-separated in the environment) (got 7)'],
  ['authentication.methods.github.server_url', 'authentication:\n  methods: {github: {server_url: ""}}', 'authentication.methods.github.server_url: must be a non-empty string (got "")'],
  ['authentication.methods.github.api_url', 'authentication:\n  methods: {github: {api_url: ""}}', 'authentication.methods.github.api_url: must be a non-empty string (got "")'],
  ['authentication.methods.github.allowed_organizations', 'authentication:\n  methods: {github: {allowed_organizations: {a: 1}}}', 'authentication.methods.github.allowed_organizations: must be a list of strings (comma-separated in the environment) (got a mapping)'],
  ['authentication.methods.github.allowed_teams', 'authentication:\n  methods: {github: {allowed_teams: {acme: devs}}}', 'authentication.methods.github.allowed_teams: acme: must be a mapping of names to lists of strings (a JSON object in the environment) (got a mapping)'],
  ['authentication.methods.kubernetes.enabled', 'authentication:\n  methods: {kubernetes: {enabled: k8s}}', 'authentication.methods.kubernetes.enabled: must be true or false (got "k8s")'],
  ['authentication.methods.kubernetes.discovery_url', 'authentication:\n  methods: {kubernetes: {discovery_url: ""}}', 'authentication.methods.kubernetes.discovery_url: must be a non-empty string (got "")'],
  ['authentication.methods.kubernetes.ca_path', 'authentication:\n  methods: {kubernetes: {ca_path: ""}}', 'authentication.methods.kubernetes.ca_path: must be a non-empty string (got "")'],
  ['authentication.methods.kubernetes.service_account_token_path', 'authentication:\n  methods: {kubernetes: {service_account_token_path: ""}}', 'authentication.methods.kubernetes.service_account_token_path: must be a non-empty string (got "")'],
  ['authentication.methods.jwt.enabled', 'authentication:\n  methods: {jwt: {enabled: jwt}}', 'authentication.methods.jwt.enabled: must be true or false (got "jwt")'],
  ['authentication.methods.jwt.jwks_url', 'authentication:\n  methods: {jwt: {jwks_url: [u]}}', 'authentication.methods.jwt.jwks_url: must be a non-empty string (got a list)'],
  ['authentication.methods.jwt.public_key_file', 'authentication:\n  methods: {jwt: {public_key_file: 1}}', 'authentication.methods.jwt.public_key_file: must be a non-empty string (got 1)'],
  ['authentication.methods.jwt.validate_claims.issuer', 'authentication:\n  methods: {jwt: {validate_claims: {issuer: [i]}}}', 'authentication.methods.jwt.validate_claims.issuer: must be a non-empty string (got a list)'],
  ['authentication.methods.jwt.validate_claims.subject', 'authentication:\n  methods: {jwt: {validate_claims: {subject: {s: 1}}}}', 'authentication.methods.jwt.validate_claims.subject: must be a non-empty string (got a mapping)'],
  ['authentication.methods.jwt.validate_claims.audiences', 'authentication:\n  methods: {jwt: {validate_claims: {audiences: 3}}}', 'authentication.methods.jwt.validate_claims.audiences: must be a list of strings (comma-separated in the environment) (got 3)'],
  ['metrics.enabled', 'metrics:\n  enabled: sometimes', 'metrics.enabled: must be true or false (got "sometimes")'],
  ['analytics.enabled', 'analytics:\n  enabled: often', 'analytics.enabled: must be true or false (got "often")'],
  ['analytics.buffer.flush_period', 'analytics:\n  buffer: {flush_period: 999ms}', 'analytics.buffer.flush_period: must be at least 1s (got "999ms")'],
  ['analytics.retention', 'analytics:\n  retention: a week', 'analytics.retention: must be a duration such as 30s, 5m or 1h30m, or a whole number of milliseconds (got "a week")'],
  ['analytics.usage_retention', 'analytics:\n  usage_retention: 59m', 'analytics.usage_retention: must be at least 1h (got "59m")'],
  ['analytics.stale_after', 'analytics:\n  stale_after: 0', 'analytics.stale_after: must be at least 1m (got 0)'],
  ['tracing.enabled', 'tracing:\n  enabled: perhaps', 'tracing.enabled: must be true or false (got "perhaps")'],
  ['tracing.exporter', 'tracing:\n  exporter: jaeger', 'tracing.exporter: must be one of otlp (got "jaeger")'],
  ['tracing.sampling_ratio', 'tracing:\n  sampling_ratio: 1.5', 'tracing.sampling_ratio: must be a number from 0 to 1 (got 1.5)'],
  ['tracing.propagators', 'tracing:\n  propagators: b3', 'tracing.propagators: "b3" is not supported (tracecontext, baggage)'],
  ['tracing.otlp.endpoint', 'tracing:\n  otlp: {endpoint: [a]}', 'tracing.otlp.endpoint: must be a non-empty string (got a list)'],
  ['authentication.methods.token.bootstrap.metadata', 'authentication:\n  methods: {token: {bootstrap: {metadata: {io.flipt.auth.role: [admin]}}}}', 'authentication.methods.token.bootstrap.metadata: must be a mapping of names to strings (a JSON object in the environment) (got a mapping)'],
  ['authorization.required', 'authorization:\n  required: maybe', 'authorization.required: must be true or false (got "maybe")'],
  ['authorization.backend', 'authorization:\n  backend: bundle', 'authorization.backend: must be one of local (got "bundle")'],
  ['authorization.local.policy.path', 'authorization:\n  local: {policy: {path: [a]}}', 'authorization.local.policy.path: must be a non-empty string (got a list)'],
  ['authorization.local.policy.poll_interval', 'authorization:\n  local: {policy: {poll_interval: soon}}', 'authorization.local.policy.poll_interval: must be a duration such as 30s, 5m or 1h30m, or a whole number of milliseconds (got "soon")'],
  ['authorization.local.policy.opa_url', 'authorization:\n  local: {policy: {opa_url: [a]}}', 'authorization.local.policy.opa_url: must be a non-empty string (got a list)'],
  ['authorization.local.policy.opa_timeout', 'authorization:\n  local: {policy: {opa_timeout: 0}}', 'authorization.local.policy.opa_timeout: must be at least 1ms (got 0)'],
  ['authorization.local.data.path', 'authorization:\n  local: {data: {path: [a]}}', 'authorization.local.data.path: must be a non-empty string (got a list)'],
  ['authorization.local.data.poll_interval', 'authorization:\n  local: {data: {poll_interval: soon}}', 'authorization.local.data.poll_interval: must be a duration such as 30s, 5m or 1h30m, or a whole number of milliseconds (got "soon")'],
  ['authorization.roles', 'authorization:\n  roles: [{role: admin}]', 'authorization.roles: [0]: names no criterion (emails, claims, organizations, teams), so it would match nobody (got a list)'],
  ['tracing.otlp.headers', 'tracing:\n  otlp: {headers: {x-api-key: 3}}', 'tracing.otlp.headers: must be a mapping of names to strings (a JSON object in the environment) (got a mapping)'],
  ['audit.events', 'audit:\n  events: 3', 'audit.events: must be a list of strings (comma-separated in the environment) (got 3)'],
  ['audit.buffer.capacity', 'audit:\n  buffer: {capacity: 1}', 'audit.buffer.capacity: must be an integer between 2 and 10 (got 1)'],
  ['audit.buffer.flush_period', 'audit:\n  buffer: {flush_period: soon}', 'audit.buffer.flush_period: must be a duration such as 30s, 5m or 1h30m, or a whole number of milliseconds (got "soon")'],
  ['audit.sinks.log.enabled', 'audit:\n  sinks: {log: {enabled: 2}}', 'audit.sinks.log.enabled: must be true or false (got 2)'],
  ['audit.sinks.log.file', 'audit:\n  sinks: {log: {file: [a]}}', 'audit.sinks.log.file: must be a non-empty string (got a list)'],
  ['audit.sinks.log.encoding', 'audit:\n  sinks: {log: {encoding: console}}', 'audit.sinks.log.encoding: must be one of json (got "console")'],
  ['audit.sinks.webhook.enabled', 'audit:\n  sinks: {webhook: {enabled: on-ish}}', 'audit.sinks.webhook.enabled: must be true or false (got "on-ish")'],
  ['audit.sinks.webhook.url', 'audit:\n  sinks: {webhook: {url: {a: b}}}', 'audit.sinks.webhook.url: must be a non-empty string (got a mapping)'],
  ['audit.sinks.webhook.signing_secret', 'audit:\n  sinks: {webhook: {signing_secret: [a]}}', 'audit.sinks.webhook.signing_secret: must be a non-empty string (got a list)'],
  ['audit.sinks.webhook.max_backoff_duration', 'audit:\n  sinks: {webhook: {max_backoff_duration: 0}}', 'audit.sinks.webhook.max_backoff_duration: must be at least 1ms (got 0)'],
  ['audit.sinks.webhook.templates', 'audit:\n  sinks: {webhook: {templates: [{url: x, extra: 1}]}}', 'audit.sinks.webhook.templates: [0].extra: unknown template setting (got a list)'],
  ['audit.retention', 'audit:\n  retention: 90 days', 'audit.retention: must be a duration such as 30s, 5m or 1h30m, or a whole number of milliseconds (got "90 days")'],
];

for (const [key, yaml, message] of INVALID) {
  test(`invalid ${key} in the file is refused with one line naming the key: ${JSON.stringify(yaml.split('\n')[1]?.trim())}`, (t) => {
    const text = errorOf(() => fromYaml(yaml));
    t.is(text, message);
    t.true(text.startsWith(`${key}: `));
    t.false(text.includes('\n'));
  });
}

test('every setting has at least one invalid-value case above', (t) => {
  const covered = new Set(INVALID.map(([key]) => key));
  t.deepEqual(
    SETTINGS.map((s) => s.key).filter((key) => !covered.has(key)),
    [],
  );
});

test('invalid values from the environment name the key too', (t) => {
  t.is(
    errorOf(() => loadConfig({ env: { ENSIGN_SERVER_HTTP_PORT: 'abc' } })),
    'server.http_port: must be an integer between 1 and 65535 (got "abc")',
  );
  t.is(errorOf(() => loadConfig({ env: { ENSIGN_LOG_LEVEL: 'loud' } })), 'log.level: must be one of debug, info, warn, error (got "loud")');
});

test('a database password never appears in the error message', (t) => {
  const text = errorOf(() => loadConfig({ env: { ENSIGN_DB_URL: 'postgres://app:s3cr3t@pg.internal:5432/' } }));
  t.is(text, 'db.url: missing database name (got "postgres://app:***@pg.internal:5432/")');
});

test('a scalar where a section belongs is refused by key', (t) => {
  t.is(errorOf(() => fromYaml('server: 8080\n')), 'server: must be a mapping (got 8080)');
});

test('an unreadable or malformed file is refused with its path', (t) => {
  const missing = errorOf(() =>
    loadConfig({
      configPath: '/nope/ensign.yml',
      env: {},
      readFile: () => {
        throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
      },
    }),
  );
  t.is(missing, 'cannot read configuration file "/nope/ensign.yml": ENOENT');
  t.regex(errorOf(() => fromYaml('server:\n  http_port: [1\n')), /^ensign\.yml: /);
  t.is(errorOf(() => fromYaml('- a\n- b\n')), 'ensign.yml: the document must be a mapping of settings');
});

test('authorization.roles: mappings from the file and from the environment', (t) => {
  const file = 'authorization:\n  roles:\n    - {role: editor, claims: {groups: eng}, teams: ["acme:platform"]}\n';
  t.deepEqual(fromYaml(file).config.authorization.roles, [{ role: 'editor', claims: { groups: 'eng' }, teams: ['acme:platform'] }]);
  const env = { ENSIGN_AUTHORIZATION_ROLES: '[{"role":"admin","emails":["ops@example.com"]}]' };
  t.deepEqual(loadConfig({ env }).config.authorization.roles, [{ role: 'admin', emails: ['ops@example.com'] }]);
  t.is(errorOf(() => loadConfig({ env: { ENSIGN_AUTHORIZATION_ROLES: '[{"role":"x","teams":["platform"]}]' } })).split(' (got')[0], 'authorization.roles: [0].teams: each team is written organization:team');
});
