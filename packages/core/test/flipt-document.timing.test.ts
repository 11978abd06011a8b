/**
 * Ensign's extension of Flipt's document: prerequisites and schedules on flags, windows on rules
 * and rollouts, ramps on thresholds. Decoded with every check, encoded after Flipt's fields, read
 * from the resources an export holds, and absent wherever it is not set.
 */
import test from 'ava';
import type { Flag, Rollout, Rule } from '../src/index.js';
import { decodeFliptDocuments, documentOfResources, encodeFliptDocument, type FliptDocument } from '../src/index.js';
import { assertInvalid } from './assert-invalid.js';
import { fixtureValues } from './flipt-fixtures.js';

const decodeOne = (value: unknown, options: Parameters<typeof decodeFliptDocuments>[1] = {}): FliptDocument => {
  const [doc] = decodeFliptDocuments([value], options);
  if (doc === undefined) throw new Error('no document');
  return doc;
};

/** A document that uses every field of the extension, as an export writes it. */
const TIMED = {
  version: '1.4',
  namespace: { key: 'prod', name: 'Production' },
  flags: [
    {
      key: 'color',
      name: 'Color',
      type: 'VARIANT_FLAG_TYPE',
      enabled: true,
      variants: [{ key: 'blue' }, { key: 'red' }],
      rules: [{ segment: 'beta', distributions: [{ variant: 'blue', rollout: 100 }], valid_from: '2030-01-01T00:00:00.000Z', valid_until: '2030-02-01T00:00:00.000Z' }],
    },
    {
      key: 'checkout',
      name: 'Checkout',
      type: 'BOOLEAN_FLAG_TYPE',
      enabled: false,
      rollouts: [
        { segment: { key: 'beta', value: true }, valid_until: '2030-03-01T00:00:00.000Z' },
        { threshold: { percentage: 10, value: true, ramp: [{ at: '2030-01-01T00:00:00.000Z', percentage: 50 }, { at: '2030-01-02T00:00:00.000Z', percentage: 100 }] } },
      ],
      prerequisites: [{ flag: 'color', variants: ['blue'] }, { flag: 'dark', enabled: false }],
      schedules: [{ at: '2030-01-01T09:00:00.000Z', enabled: true }, { at: '2030-01-05T09:00:00.000Z', enabled: false }],
    },
    { key: 'dark', name: 'Dark', type: 'BOOLEAN_FLAG_TYPE', enabled: true },
  ],
  segments: [{ key: 'beta', name: 'Beta', match_type: 'ALL_MATCH_TYPE' }],
};

const timed = (edit: (doc: Record<string, any>) => void): Record<string, unknown> => {
  const doc = structuredClone(TIMED) as Record<string, any>;
  edit(doc);
  return doc;
};

const invalid = (t: Parameters<typeof assertInvalid>[0], value: unknown, message: string): void =>
  assertInvalid(t, () => decodeFliptDocuments([value]), message);

const AT = 'document 1 (namespace "prod")';

test('the extension decodes to the API\'s shapes, times in UTC, schedules by time', (t) => {
  const doc = decodeOne(
    timed((d) => {
      d.flags[0].rules[0].valid_from = '2030-01-01T01:00:00+01:00';
      d.flags[1].schedules.reverse();
    }),
  );
  t.like(doc.flags[0]?.rules[0], { validFrom: '2030-01-01T00:00:00.000Z', validUntil: '2030-02-01T00:00:00.000Z' });
  t.deepEqual(doc.flags[1]?.rollouts, [
    { description: '', segment: { segmentKeys: ['beta'], segmentOperator: 'OR_SEGMENT_OPERATOR', value: true }, validUntil: '2030-03-01T00:00:00.000Z' },
    {
      description: '',
      threshold: { percentage: 10, value: true, ramp: [{ at: '2030-01-01T00:00:00.000Z', percentage: 50 }, { at: '2030-01-02T00:00:00.000Z', percentage: 100 }] },
    },
  ]);
  t.deepEqual(doc.flags[1]?.prerequisites, [{ flagKey: 'color', variants: ['blue'] }, { flagKey: 'dark', enabled: false }]);
  t.deepEqual(doc.flags[1]?.schedules, [{ at: '2030-01-01T09:00:00.000Z', enabled: true }, { at: '2030-01-05T09:00:00.000Z', enabled: false }]);
});

test('absent, empty or null, the extension leaves no field behind: Flipt\'s documents decode as before', (t) => {
  const doc = decodeOne(
    timed((d) => {
      d.flags[1].prerequisites = [];
      d.flags[1].schedules = null;
      d.flags[1].rollouts[1].threshold.ramp = [];
    }),
  );
  t.false('prerequisites' in doc.flags[1]! || 'schedules' in doc.flags[1]!);
  t.false('ramp' in doc.flags[1]!.rollouts[1]!.threshold!);
  t.false('validFrom' in doc.flags[1]!.rollouts[1]! || 'validUntil' in doc.flags[1]!.rollouts[1]!);
  const flipt = decodeOne(fixtureValues('import.json')[0]);
  t.deepEqual(Object.keys(flipt.flags[0]!), ['key', 'name', 'type', 'description', 'enabled', 'metadata', 'variants', 'rules', 'rollouts']);
  t.deepEqual(Object.keys(flipt.flags[0]!.rules[0]!), ['segmentKeys', 'segmentOperator', 'rank', 'distributions']);
});

test('encoded after Flipt\'s fields of the same mapping; decoding the encoding gives the same document', (t) => {
  const doc = decodeOne(TIMED);
  const encoded = encodeFliptDocument(doc) as Record<string, any>;
  t.deepEqual(Object.keys(encoded.flags[1]), ['key', 'name', 'type', 'enabled', 'rollouts', 'prerequisites', 'schedules']);
  t.deepEqual(encoded.flags[1].prerequisites, [{ flag: 'color', variants: ['blue'] }, { flag: 'dark', enabled: false }], 'enabled: false is written');
  t.deepEqual(encoded.flags[1].schedules[1], { at: '2030-01-05T09:00:00.000Z', enabled: false });
  t.deepEqual(encoded.flags[1].rollouts[1].threshold, TIMED.flags[1]!.rollouts![1]!.threshold);
  t.deepEqual(Object.keys(encoded.flags[0].rules[0]), ['segment', 'distributions', 'valid_from', 'valid_until']);
  t.deepEqual(Object.keys(encoded.flags[1].rollouts[0]), ['segment', 'valid_until']);
  t.deepEqual(encoded, TIMED as Record<string, unknown>, 'an export of these fields is exactly the document');
  t.deepEqual(decodeOne(encoded), doc);
});

test('times: RFC 3339, or the field is named', (t) => {
  invalid(t, timed((d) => (d.flags[0].rules[0].valid_from = 'tomorrow')), `${AT}: flags[0].rules[0].valid_from: must be an RFC 3339 time such as 2026-01-31T12:00:00Z`);
  invalid(t, timed((d) => (d.flags[1].rollouts[0].valid_until = 20300101)), `${AT}: flags[1].rollouts[0].valid_until: must be an RFC 3339 time such as 2026-01-31T12:00:00Z`);
  invalid(t, timed((d) => (d.flags[1].schedules[0].at = '2030-01-01 09:00')), `${AT}: flags[1].schedules[0].at: must be an RFC 3339 time such as 2026-01-31T12:00:00Z`);
  invalid(t, timed((d) => (d.flags[1].rollouts[1].threshold.ramp[1].at = '2030-13-01T00:00:00Z')), `${AT}: flags[1].rollouts[1].threshold.ramp[1].at: must be an RFC 3339 time such as 2026-01-31T12:00:00Z`);
  const typed = decodeOne(timed((d) => (d.flags[1].schedules = [{ at: new Date('2030-01-01T09:00:00Z'), enabled: true }])));
  t.deepEqual(typed.flags[1]?.schedules, [{ at: '2030-01-01T09:00:00.000Z', enabled: true }], 'a YAML timestamp read as a Date');
});

test('windows: valid_from before valid_until, either alone', (t) => {
  invalid(t, timed((d) => (d.flags[0].rules[0].valid_until = d.flags[0].rules[0].valid_from)), `${AT}: flags[0].rules[0].valid_until: must be later than valid_from (2030-01-01T00:00:00.000Z)`);
  invalid(
    t,
    timed((d) => Object.assign(d.flags[1].rollouts[0], { valid_from: '2030-03-01T00:00:00Z', valid_until: '2030-02-01T00:00:00Z' })),
    `${AT}: flags[1].rollouts[0].valid_until: must be later than valid_from (2030-03-01T00:00:00.000Z)`,
  );
  const open = decodeOne(timed((d) => delete d.flags[0].rules[0].valid_until));
  t.deepEqual([open.flags[0]?.rules[0]?.validFrom, 'validUntil' in open.flags[0]!.rules[0]!], ['2030-01-01T00:00:00.000Z', false]);
});

test('ramps: steps at later times, percentages rising above the threshold\'s to at most 100', (t) => {
  const at = `${AT}: flags[1].rollouts[1].threshold.ramp`;
  const ramp = (steps: unknown) => timed((d) => (d.flags[1].rollouts[1].threshold.ramp = steps));
  invalid(t, ramp([{ at: '2030-01-01T00:00:00Z', percentage: 10 }]), `${at}[0].percentage: must rise: 10 is not above 10 (the threshold's percentage)`);
  invalid(t, ramp([{ at: '2030-01-01T00:00:00Z', percentage: 60 }, { at: '2030-01-02T00:00:00Z', percentage: 40 }]), `${at}[1].percentage: must rise: 40 is not above 60`);
  invalid(t, ramp([{ at: '2030-01-01T00:00:00Z', percentage: 101 }]), `${at}[0].percentage: must be at most 100`);
  invalid(t, ramp([{ at: '2030-01-02T00:00:00Z', percentage: 50 }, { at: '2030-01-02T00:00:00Z', percentage: 60 }]), `${at}[1].at: must be later than the step before (2030-01-02T00:00:00.000Z)`);
  invalid(t, ramp([{ percentage: 50 }]), `${at}[0].at: must not be empty`);
  invalid(t, ramp([{ at: '2030-01-02T00:00:00Z' }]), `${at}[0].percentage: must not be empty`);
  invalid(t, ramp({ at: '2030-01-02T00:00:00Z' }), `${at}: must be a list`);
});

test('prerequisites: a flag of the document with enabled or variants, once each, never itself', (t) => {
  const at = `${AT}: flags[1].prerequisites`;
  const prerequisites = (list: unknown) => timed((d) => (d.flags[1].prerequisites = list));
  invalid(t, prerequisites([{ flag: 'checkout', enabled: true }]), `${at}[0].flag: a flag cannot require itself (checkout → checkout)`);
  invalid(t, prerequisites([{ flag: 'dark', enabled: true }, { flag: 'dark', enabled: false }]), `${at}[1].flag: flag "dark" is also required at [0]`);
  invalid(t, prerequisites([{ flag: 'dark' }]), `${at}[0]: needs enabled (true or false) or variants (a list of variant keys)`);
  invalid(t, prerequisites([{ flag: 'color', enabled: true, variants: ['blue'] }]), `${at}[0]: takes either enabled or variants, not both`);
  invalid(t, prerequisites([{ flag: 'dark', enabled: 'yes' }]), `${at}[0].enabled: must be true or false`);
  invalid(t, prerequisites([{ flag: 'color', variants: [] }]), `${at}[0].variants: must name at least one variant`);
  invalid(t, prerequisites([{ flag: 'color', variants: ['blue', 3] }]), `${at}[0].variants[1]: must be a variant key`);
  invalid(t, prerequisites([{ enabled: true }]), `${at}[0].flag: must not be empty`);
  invalid(t, prerequisites([{ flag: 'dark', enabled: true, namespace: 'other' }]), `${at}[0].namespace: a prerequisite is a flag of the same namespace; prerequisites across namespaces are not supported`);
  invalid(t, prerequisites([{ flag: 'color', variants: ['blue', 'green'] }]), `${at}[0].variants: flag "color" has no variant "green"`);
  invalid(t, prerequisites([{ flag: 'dark', variants: ['on'] }]), `${at}[0].variants: flag "dark" is a boolean flag; ask for enabled: true or false`);
});

test('prerequisites: a cycle within the document is refused, named from its first flag', (t) => {
  invalid(
    t,
    timed((d) => (d.flags[2].prerequisites = [{ flag: 'checkout', enabled: true }])),
    `${AT}: flags[1].prerequisites[1].flag: forms a cycle: checkout → dark → checkout`,
  );
  invalid(
    t,
    timed((d) => {
      d.flags[0].prerequisites = [{ flag: 'dark', enabled: true }];
      d.flags[2].prerequisites = [{ flag: 'checkout', enabled: false }];
    }),
    `${AT}: flags[0].prerequisites[0].flag: forms a cycle: color → dark → checkout → color`,
  );
});

test('prerequisites: parents outside the document are left to the import unless a lookup is given', (t) => {
  const outside = timed((d) => (d.flags[1].prerequisites = [{ flag: 'legacy', enabled: true }, { flag: 'theme', variants: ['dark'] }]));
  t.deepEqual(decodeOne(outside).flags[1]?.prerequisites?.map((p) => p.flagKey), ['legacy', 'theme']);
  const theme = { type: 'VARIANT_FLAG_TYPE' as const, variants: ['dark', 'light'], requires: [] };
  t.notThrows(() => decodeOne(outside, { existingFlag: (ns, key) => (ns === 'prod' && key !== 'nope' ? theme : undefined) }));
  assertInvalid(t, () => decodeOne(outside, { existingFlag: (_, key) => (key === 'theme' ? theme : undefined) }), `${AT}: flags[1].prerequisites[0].flag: no flag "legacy" in namespace "prod"`);
  assertInvalid(
    t,
    () => decodeOne(outside, { existingFlag: () => ({ ...theme, variants: ['light'] }) }),
    `${AT}: flags[1].prerequisites[1].variants: flag "theme" has no variant "dark"`,
  );
  assertInvalid(
    t,
    () => decodeOne(outside, { existingFlag: (_, key) => (key === 'legacy' ? { ...theme, requires: ['checkout'] } : theme) }),
    `${AT}: flags[1].prerequisites[0].flag: forms a cycle: checkout → legacy → checkout`,
  );
});

test('schedules: a time and enabled each', (t) => {
  invalid(t, timed((d) => (d.flags[1].schedules = [{ at: '2030-01-01T00:00:00Z' }])), `${AT}: flags[1].schedules[0].enabled: must be true or false`);
  invalid(t, timed((d) => (d.flags[1].schedules = [{ enabled: true }])), `${AT}: flags[1].schedules[0].at: must not be empty`);
  invalid(t, timed((d) => (d.flags[1].schedules = [true])), `${AT}: flags[1].schedules[0]: must be a mapping`);
  const same = decodeOne(timed((d) => (d.flags[1].schedules = [{ at: '2030-01-01T00:00:00Z', enabled: true }, { at: '2030-01-01T00:00:00Z', enabled: false }])));
  t.deepEqual(same.flags[1]?.schedules?.map((s) => s.enabled), [true, false], 'two at one time keep their order');
});

test('resources as an export: prerequisites, windows, ramps and each flag\'s pending schedules', (t) => {
  const AT0 = '2029-01-01T00:00:00.000Z';
  const base = { namespaceKey: 'prod', description: '', createdAt: AT0, updatedAt: AT0 };
  const flags: Flag[] = [
    { ...base, key: 'dark', name: 'Dark', enabled: true, type: 'BOOLEAN_FLAG_TYPE', variants: [] },
    { ...base, key: 'checkout', name: 'Checkout', enabled: false, type: 'BOOLEAN_FLAG_TYPE', variants: [], prerequisites: [{ flagKey: 'dark', enabled: true }] },
  ];
  const rollouts: Rollout[] = [
    { ...base, id: 'r1', flagKey: 'checkout', type: 'THRESHOLD_ROLLOUT_TYPE', rank: 1, threshold: { percentage: 5, value: true, ramp: [{ at: '2030-01-01T00:00:00.000Z', percentage: 25 }] }, validFrom: AT0 },
  ];
  const rules: Rule[] = [];
  const doc = documentOfResources({
    namespace: { key: 'prod', name: 'Production', description: '' },
    flags,
    rules,
    rollouts,
    segments: [],
    schedules: [
      { flagKey: 'checkout', at: '2030-01-01T00:00:00.000Z', enabled: true },
      { flagKey: 'dark', at: '2030-02-01T00:00:00.000Z', enabled: false },
    ],
  });
  t.deepEqual(encodeFliptDocument(doc).flags, [
    { key: 'dark', name: 'Dark', type: 'BOOLEAN_FLAG_TYPE', enabled: true, schedules: [{ at: '2030-02-01T00:00:00.000Z', enabled: false }] },
    {
      key: 'checkout',
      name: 'Checkout',
      type: 'BOOLEAN_FLAG_TYPE',
      enabled: false,
      rollouts: [{ threshold: { percentage: 5, value: true, ramp: [{ at: '2030-01-01T00:00:00.000Z', percentage: 25 }] }, valid_from: AT0 }],
      prerequisites: [{ flag: 'dark', enabled: true }],
      schedules: [{ at: '2030-01-01T00:00:00.000Z', enabled: true }],
    },
  ]);
});
