/** The `audit` section: Flipt's keys and defaults, what each refuses, and the options the trail is opened with. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { auditOptionsOf, openAuditTrail } from '../src/audit-trail.js';
import { loadConfig } from '../src/config/config.loader.js';
import { errorOf, fromYaml } from './helpers/config-load.js';


test('by default no sink is on, so no trail is opened; Flipt’s defaults for events and buffer', (t) => {
  const { config } = loadConfig({ env: {} });
  t.deepEqual(config.audit.events, ['*:*']);
  t.deepEqual(config.audit.buffer, { capacity: 2, flush_period: 120_000 });
  t.is(auditOptionsOf(config.audit), undefined);
  t.is(openAuditTrail(config, pino({ level: 'silent' }), new Registry()), undefined);
});

test('the sinks map onto the trail’s options: a signed webhook, a log file, a filter', (t) => {
  const { config } = loadConfig({
    env: {
      ENSIGN_AUDIT_SINKS_WEBHOOK_ENABLED: 'true',
      ENSIGN_AUDIT_SINKS_WEBHOOK_URL: 'https://hooks.example.com/flipt',
      ENSIGN_AUDIT_SINKS_WEBHOOK_SIGNING_SECRET: 's3cret',
      ENSIGN_AUDIT_SINKS_WEBHOOK_MAX_BACKOFF_DURATION: '30s',
      ENSIGN_AUDIT_SINKS_LOG_ENABLED: 'true',
      ENSIGN_AUDIT_SINKS_LOG_FILE: '/var/log/ensign/audit.log',
      ENSIGN_AUDIT_EVENTS: 'flag:*,segment:deleted',
      ENSIGN_AUDIT_BUFFER_CAPACITY: '5',
      ENSIGN_AUDIT_BUFFER_FLUSH_PERIOD: '3s',
    },
  });
  t.deepEqual(auditOptionsOf(config.audit), {
    events: ['flag:*', 'segment:deleted'],
    buffer: { capacity: 5, flushPeriodMs: 3000 },
    log: { file: '/var/log/ensign/audit.log' },
    webhook: { url: 'https://hooks.example.com/flipt', signingSecret: 's3cret', maxBackoffMs: 30_000 },
  });
});

test('templates come from the file as Flipt writes them, or as JSON from the environment', (t) => {
  const yaml = [
    'audit:',
    '  sinks:',
    '    webhook:',
    '      enabled: true',
    '      templates:',
    '        - url: https://chat.example.com/hook',
    '          headers: {Authorization: "Bearer abc"}',
    '          body: \'{"text": "{{ .Type }} {{ .Action }}"}\'',
  ].join('\n');
  const { config } = fromYaml(yaml);
  t.deepEqual(auditOptionsOf(config.audit)?.webhook, { templates: [{ url: 'https://chat.example.com/hook', body: '{"text": "{{ .Type }} {{ .Action }}"}', headers: { Authorization: 'Bearer abc' } }], maxBackoffMs: 15_000 });
  const fromEnv = loadConfig({ env: { ENSIGN_AUDIT_SINKS_WEBHOOK_ENABLED: 'true', ENSIGN_AUDIT_SINKS_WEBHOOK_TEMPLATES: '[{"url":"https://a.example.com","body":"{}"}]' } }).config;
  t.deepEqual(fromEnv.audit.sinks.webhook.templates, [{ url: 'https://a.example.com', body: '{}', headers: {} }]);
});

test('each bad audit setting is refused with its key named', (t) => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ ENSIGN_AUDIT_BUFFER_CAPACITY: '11' }, 'audit.buffer.capacity: must be an integer between 2 and 10 (got "11")'],
    [{ ENSIGN_AUDIT_BUFFER_FLUSH_PERIOD: '10ms' }, 'audit.buffer.flush_period: must be at least 1s (got "10ms")'],
    [{ ENSIGN_AUDIT_SINKS_LOG_ENABLED: 'yes please' }, 'audit.sinks.log.enabled: must be true or false (got "yes please")'],
    [{ ENSIGN_AUDIT_SINKS_LOG_ENCODING: 'console' }, 'audit.sinks.log.encoding: must be one of json (got "console")'],
    [{ ENSIGN_AUDIT_SINKS_WEBHOOK_MAX_BACKOFF_DURATION: 'forever' }, 'audit.sinks.webhook.max_backoff_duration: must be a duration such as 30s, 5m or 1h30m, or a whole number of milliseconds (got "forever")'],
    [{ ENSIGN_AUDIT_SINKS_WEBHOOK_TEMPLATES: '{"url":"x"}' }, 'audit.sinks.webhook.templates: must be a list of {url, body, headers} (a JSON array in the environment) (got "***")'],
    [{ ENSIGN_AUDIT_SINKS_WEBHOOK_TEMPLATES: '[{"body":"{}"}]' }, 'audit.sinks.webhook.templates: [0].url: must be a non-empty string (got "***")'],
    [{ ENSIGN_AUDIT_SINKS_LOG_ENABLED: 'true' }, 'audit.sinks.log.file: must be set when the log sink is enabled'],
    [{ ENSIGN_AUDIT_SINKS_WEBHOOK_ENABLED: 'true' }, 'audit.sinks.webhook: exactly one of url and templates must be set when the webhook sink is enabled'],
    [
      { ENSIGN_AUDIT_SINKS_WEBHOOK_ENABLED: 'true', ENSIGN_AUDIT_SINKS_WEBHOOK_URL: 'https://a.example.com', ENSIGN_AUDIT_SINKS_WEBHOOK_TEMPLATES: '[{"url":"https://b.example.com"}]' },
      'audit.sinks.webhook: exactly one of url and templates must be set when the webhook sink is enabled',
    ],
  ];
  for (const [env, message] of cases) t.is(errorOf(() => loadConfig({ env })), message, JSON.stringify(env));
});

test('a bad event filter or template fails the start, named', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-audit-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const open = (env: Record<string, string>) => () => openAuditTrail(loadConfig({ env: { ENSIGN_AUDIT_SINKS_LOG_ENABLED: 'true', ENSIGN_AUDIT_SINKS_LOG_FILE: join(dir, 'audit.log'), ...env } }).config, pino({ level: 'silent' }), new Registry());
  t.regex(errorOf(open({ ENSIGN_AUDIT_EVENTS: 'flags:created' })), /^audit: .*flags:created/);
  const trail = open({})();
  t.truthy(trail);
  void trail?.close(0);
  t.true(readFileSync(join(dir, 'audit.log'), 'utf8') === '', 'the log file is created at start');
});
