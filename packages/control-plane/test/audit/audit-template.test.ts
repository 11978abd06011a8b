/** compileTemplate: the Go text/template subset of Flipt's webhook templates, and what it refuses at start. */
import test from 'ava';
import { compileTemplate, toAuditEvent } from '../../src/audit/index.js';
import { flagCreated } from './audit-helpers.js';

const event = toAuditEvent(flagCreated('color'));

test("Flipt's documented example renders the type, action and timestamp", (t) => {
  const render = compileTemplate('{\n  "event": "{{ .Type }} {{ .Action }}",\n  "timestamp": "{{ .Timestamp }}"\n}');
  t.deepEqual(JSON.parse(render(event)), { event: 'flag created', timestamp: '2026-03-01T12:00:00Z' });
});

test('toJson renders metadata and payload as Go marshals them; the Ensign key is not part of the template data', (t) => {
  const render = compileTemplate('{"metadata": {{ toJson .Metadata }}, "payload": {{ .Payload | toJson }}, "all": {{ toJson . }}}');
  const out = render(event);
  t.true(out.startsWith('{"metadata": {"actor":{"authentication":"token","name":"ci"}}, "payload": {"description":"","enabled":true,"key":"color"'));
  const parsed = JSON.parse(out) as { all: Record<string, unknown> };
  t.deepEqual(Object.keys(parsed.all), ['version', 'type', 'action', 'metadata', 'payload', 'timestamp', 'status']);
});

test('actor fields, payload keys, Go printing of values, missing keys and trim markers', (t) => {
  const render = compileTemplate('{{ .Metadata.Actor.Authentication }}/{{ .Metadata.Actor.Name }}/[{{ .Metadata.Actor.Email }}]/{{ .Payload.enabled }}/{{ .Payload.nope }}  {{- /* note */ -}}  |{{ .Status }}');
  t.is(render(event), 'token/ci/[]/true/<no value>|success');
  t.is(compileTemplate('{{ .Payload }}')(event), 'map[description: enabled:true key:color name:color namespace_key:default]');
});

test('unknown fields and unsupported actions fail when the template is compiled, naming the placeholder', (t) => {
  t.throws(() => compileTemplate('{{ .Typo }}'), { message: /\{\{ \.Typo \}\}.*unknown field \.Typo/ });
  t.throws(() => compileTemplate('{{ .type }}'), { message: /unknown field \.type/ });
  t.throws(() => compileTemplate('{{ .Metadata.Actor.Role }}'), { message: /unknown field \.Role/ });
  t.throws(() => compileTemplate('{{ .Type.Name }}'), { message: /can't evaluate field Name in type string/ });
  t.throws(() => compileTemplate('{{ .Metadata }}'), { message: /struct; print it with toJson/ });
  t.throws(() => compileTemplate('{{ if .Type }}x{{ end }}'), { message: /only field paths and toJson/ });
  t.throws(() => compileTemplate('{{ .Type | upper }}'), { message: /only toJson may follow/ });
  t.throws(() => compileTemplate('{{ toJson }}'), { message: /toJson takes one argument/ });
  t.throws(() => compileTemplate('{"a": "{{ .Type }"'), { message: /unclosed action/ });
});
