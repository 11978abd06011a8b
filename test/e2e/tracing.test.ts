/**
 * `tracing.enabled` on a real `ensign server`: spans for HTTP requests, gRPC calls, writes and
 * snapshot applies reach an OTLP/HTTP collector, continue the caller's W3C trace, and nest (the
 * write under its request, the snapshot apply under its write).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { status } from '@grpc/grpc-js';
import test from 'ava';
import { type EnsignProcess, jsonClient, startEnsign } from '@ensign/testkit';
import { ok } from '../helpers/api.js';
import { serviceClient } from '../helpers/grpc-client.js';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Array<{ key: string; value: { stringValue?: string; intValue?: string | number } }>;
  status?: { code?: number };
}

/** An OTLP/HTTP collector (JSON) on 127.0.0.1 that keeps every span it is sent. */
async function collector(): Promise<{ url: string; spans: OtlpSpan[]; close(): Promise<void> }> {
  const spans: OtlpSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces' && String(req.headers['content-type']).includes('json')) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
        for (const r of body.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const attribute = (span: OtlpSpan | undefined, key: string) => {
  const value = span?.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const traceparent = (parent: string) => ({ traceparent: `00-${TRACE}-${parent}-01` });

test('spans of requests, calls, writes and snapshot applies reach the collector, in the caller’s trace', async (t) => {
  const otlp = await collector();
  t.teardown(() => otlp.close());
  let server: EnsignProcess | undefined = await startEnsign({ env: { ENSIGN_TRACING_ENABLED: 'true', ENSIGN_TRACING_OTLP_ENDPOINT: otlp.url } });
  t.teardown(() => server?.stop());
  const api = jsonClient(server.baseUrl);
  ok(await api.post('/api/v1/namespaces', { key: 'traced', name: 'Traced' }, traceparent('00f067aa0ba902b7')));
  ok(await api.post('/api/v1/namespaces/traced/flags', { key: 'f', name: 'F', enabled: true }));
  t.is((await api.post('/evaluate/v1/variant', { namespaceKey: 'traced', flagKey: 'f', entityId: 'u1' }, traceparent('00f067aa0ba902b8'))).status, 200);
  const grpc = serviceClient(server.grpcAddress, 'flipt.evaluation.EvaluationService');
  t.teardown(() => grpc.close());
  t.is((await grpc.call('Variant', { namespaceKey: 'traced', flagKey: 'f', entityId: 'u2' })).code, status.OK);
  // Stopping flushes the spans still buffered.
  await server.stop();
  server = undefined;

  const named = (name: string) => otlp.spans.filter((s) => s.name === name);
  const create = named('POST /api/v1/namespaces')[0];
  t.truthy(create, `spans: ${otlp.spans.map((s) => s.name).join(', ')}`);
  t.is(create?.traceId, TRACE, 'the caller’s trace is continued');
  t.is(create?.parentSpanId, '00f067aa0ba902b7');
  t.is(attribute(create, 'http.route'), '/api/v1/namespaces');
  t.is(attribute(create, 'http.response.status_code'), 200);
  const write = otlp.spans.find((s) => s.name === 'ensign.write' && s.parentSpanId === create?.spanId);
  t.truthy(write, 'the write is a child of its request');
  t.is(attribute(write, 'ensign.resource'), 'namespace');
  t.is(attribute(write, 'ensign.action'), 'created');
  t.truthy(otlp.spans.find((s) => s.name === 'ensign.snapshot.apply' && s.parentSpanId === write?.spanId), 'the snapshot apply is a child of its write');
  t.is(named('POST /api/v1/namespaces/:namespaceKey/flags').length, 1);

  const evaluation = named('POST /evaluate/v1/variant')[0];
  t.is(evaluation?.traceId, TRACE);
  t.is(evaluation?.parentSpanId, '00f067aa0ba902b8');
  t.is(attribute(evaluation, 'http.response.status_code'), 200);
  t.is(named('flipt.evaluation.EvaluationService/Variant').length, 1, 'the gRPC call has its span');
});

test('with tracing off (the default) nothing is sent', async (t) => {
  const otlp = await collector();
  t.teardown(() => otlp.close());
  const server = await startEnsign({ env: { ENSIGN_TRACING_OTLP_ENDPOINT: otlp.url } });
  const api = jsonClient(server.baseUrl);
  ok(await api.post('/api/v1/namespaces', { key: 'untraced', name: 'Untraced' }, traceparent('00f067aa0ba902b9')));
  await server.stop();
  t.deepEqual(otlp.spans, []);
});
