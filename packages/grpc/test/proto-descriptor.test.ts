/**
 * The embedded descriptor (what a single-file executable carries instead of the `protos` folder)
 * must describe exactly what the files do: the same services and methods, and messages that
 * encode to the same bytes and decode to the same values.
 */
import { fromJSON, loadSync, type MessageTypeDefinition, type PackageDefinition, type ServiceDefinition } from '@grpc/proto-loader';
import test from 'ava';
import { loadOptions, protoDescriptor, protoFiles } from '../src/proto-loading.js';

const fromFiles = loadSync(protoFiles(), loadOptions());
// The descriptor travels as JSON inside the executable.
const fromDescriptor = fromJSON(JSON.parse(JSON.stringify(protoDescriptor())), loadOptions());

const services = (definition: PackageDefinition): string[] => Object.keys(definition).filter((name) => !('format' in (definition[name] ?? {})));

test('the same services with the same methods and streaming shapes', (t) => {
  t.deepEqual(services(fromDescriptor).sort(), services(fromFiles).sort());
  t.true(services(fromFiles).includes('flipt.Flipt'));
  t.true(services(fromFiles).includes('flipt.evaluation.EvaluationService'));
  for (const name of services(fromFiles)) {
    const shape = (service: ServiceDefinition) =>
      Object.fromEntries(Object.entries(service).map(([method, m]) => [method, { path: m.path, requestStream: m.requestStream, responseStream: m.responseStream }]));
    t.deepEqual(shape(fromDescriptor[name] as ServiceDefinition), shape(fromFiles[name] as ServiceDefinition), name);
  }
});

test('every message type of the files is in the descriptor', (t) => {
  const messages = (definition: PackageDefinition) => Object.keys(definition).filter((name) => (definition[name] as MessageTypeDefinition<object, object>).format !== undefined).sort();
  t.deepEqual(messages(fromDescriptor), messages(fromFiles));
});

test('a request and a oneof response encode to the same bytes and decode to the same values', (t) => {
  const method = (fromFiles['flipt.evaluation.EvaluationService'] as ServiceDefinition)['Batch'];
  const embedded = (fromDescriptor['flipt.evaluation.EvaluationService'] as ServiceDefinition)['Batch'];
  if (method === undefined || embedded === undefined) return t.fail('no Batch method');
  const request = { requestId: 'r1', requests: [{ namespaceKey: 'shop', flagKey: 'color', entityId: 'u1', context: { plan: 'pro' }, requestId: '' }] };
  const bytes = method.requestSerialize(request);
  t.true(embedded.requestSerialize(request).equals(bytes));
  t.deepEqual(embedded.requestDeserialize(bytes), method.requestDeserialize(bytes));

  const response = {
    requestId: 'r1',
    requestDurationMillis: 0.5,
    responses: [{ type: 'VARIANT_EVALUATION_RESPONSE_TYPE', variantResponse: { match: true, segmentKeys: ['pro'], reason: 'MATCH_EVALUATION_REASON', variantKey: 'blue', flagKey: 'color' } }],
  };
  const answer = method.responseSerialize(response);
  t.true(embedded.responseSerialize(response).equals(answer));
  const decoded = embedded.responseDeserialize(answer) as { responses: Array<{ response: string; variantResponse: { variantKey: string } }> };
  t.deepEqual(decoded, method.responseDeserialize(answer));
  t.is(decoded.responses[0]?.response, 'variantResponse', 'the set field of the oneof is named');
  t.is(decoded.responses[0]?.variantResponse.variantKey, 'blue');
});
