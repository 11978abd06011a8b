import test from 'ava';
import { changeLines, diffValues, formatValue, lineText, listValues } from '../src/lib/change-diff.js';
import { collectLabels, labelOf } from '../src/lib/change-labels.js';
import { actorLabel, describeChange, labelsFor, ownerOf } from '../src/lib/change-summary.js';

// Resources as the management API returns them (and the history stores them).
const stamp = { createdAt: '2026-05-10T10:00:00.000Z', updatedAt: '2026-05-10T10:00:00.000Z' };
const blue = { id: 'v-blue-0000-1111', namespaceKey: 'default', flagKey: 'flag-x', key: 'blue', name: 'Blue', description: '', attachment: '{"a":1}', ...stamp };
const red = { id: 'v-red-0000-2222', namespaceKey: 'default', flagKey: 'flag-x', key: 'red', name: 'Red', description: '', attachment: '', ...stamp };
const flag = { namespaceKey: 'default', key: 'flag-x', name: 'flag-x', description: '', enabled: true, type: 'VARIANT_FLAG_TYPE', ...stamp, variants: [blue, red] };
const rule = { id: 'r-beta-0000-3333', namespaceKey: 'default', flagKey: 'flag-x', segmentKey: 'beta', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR', distributions: [], rank: 1, ...stamp };
const distribution = { id: 'd-0000-4444', ruleId: rule.id, variantId: blue.id, rollout: 50, ...stamp };
const lines = (...args: Parameters<typeof changeLines>) => changeLines(...args).map(lineText);

test('an update lists only what changed, leaving out timestamps and ids', (t) => {
  const after = { ...flag, name: 'Renamed', description: 'Now with words', enabled: false, updatedAt: '2026-05-10T11:00:00.000Z' };
  t.deepEqual(lines({ resource: 'flag', action: 'updated', before: flag, after }), ['name: flag-x → Renamed', 'description: (empty) → Now with words', 'enabled: true → false']);
  t.deepEqual(diffValues(flag, { ...flag, updatedAt: 'later' }), [], 'a save that changed nothing shows nothing');
  t.deepEqual(diffValues(flag, { ...flag, updatedAt: 'later' }, new Map(), 'flag'), []);
});

test('a referenced resource reads as its name: the default variant set, changed, cleared', (t) => {
  t.deepEqual(lines({ resource: 'flag', action: 'updated', before: flag, after: { ...flag, defaultVariant: red } }), ['defaultVariant: (none) → red']);
  t.deepEqual(lines({ resource: 'flag', action: 'updated', before: { ...flag, defaultVariant: red }, after: { ...flag, defaultVariant: blue } }), ['defaultVariant: red → blue']);
  t.deepEqual(lines({ resource: 'flag', action: 'updated', before: { ...flag, defaultVariant: red }, after: flag }), ['defaultVariant: red → (none)']);
});

test('nested objects by path, and a variant’s attachment as the JSON text it is', (t) => {
  const rollout = { id: 'ro-1', namespaceKey: 'default', flagKey: 'dark', type: 'THRESHOLD_ROLLOUT_TYPE', rank: 1, description: '', ...stamp, threshold: { percentage: 30, value: true } };
  t.deepEqual(lines({ resource: 'rollout', action: 'updated', before: rollout, after: { ...rollout, threshold: { percentage: 40, value: false } } }), [
    'threshold.percentage: 30 → 40',
    'threshold.value: true → false',
  ]);
  t.deepEqual(lines({ resource: 'variant', action: 'updated', before: blue, after: { ...blue, attachment: '{"a":2,"b":[1,2]}' } }), ['attachment: {"a":1} → {"a":2,"b":[1,2]}']);
  t.deepEqual(lines({ resource: 'variant', action: 'updated', before: blue, after: { ...blue, attachment: '' } }), ['attachment: {"a":1} → (empty)']);
  t.deepEqual(diffValues({ metadata: { team: 'a', tier: 1 } }, { metadata: { team: 'b', tier: 1 } }), [{ path: 'metadata.team', before: 'a', after: 'b' }]);
});

test('a distribution’s rollout, and its variant by the variant’s key', (t) => {
  const labels = collectLabels([flag]);
  t.deepEqual(lines({ resource: 'distribution', action: 'updated', before: distribution, after: { ...distribution, rollout: 30 } }, labels), ['rollout: 50 → 30']);
  t.deepEqual(lines({ resource: 'distribution', action: 'updated', before: distribution, after: { ...distribution, variantId: red.id } }, labels), ['variantId: blue → red']);
  t.deepEqual(lines({ resource: 'distribution', action: 'created', after: distribution }, labels), ['variantId: blue', 'rollout: 50'], 'the rule it belongs to left out');
  t.deepEqual(lines({ resource: 'distribution', action: 'created', after: distribution }), ['variantId: v-blue-0…', 'rollout: 50'], 'an unknown id by its start');
});

test('lists: of values compared whole, of resources by their names, then inside the ones kept', (t) => {
  const many = { ...rule, segmentKey: '', segmentKeys: ['beta', 'staff'], segmentOperator: 'AND_SEGMENT_OPERATOR' };
  t.deepEqual(lines({ resource: 'rule', action: 'updated', before: rule, after: many }), [
    'segmentKey: beta → (empty)',
    'segmentKeys: [] → [beta, staff]',
    'segmentOperator: OR_SEGMENT_OPERATOR → AND_SEGMENT_OPERATOR',
  ]);
  const labels = collectLabels([flag]);
  const withDistribution = { ...rule, distributions: [distribution] };
  t.deepEqual(lines({ resource: 'rule', action: 'updated', before: rule, after: withDistribution }, labels), ['distributions: [] → [blue]']);
  t.deepEqual(lines({ resource: 'rule', action: 'updated', before: withDistribution, after: { ...rule, distributions: [{ ...distribution, rollout: 30 }] } }, labels), ['distributions[blue].rollout: 50 → 30']);
  t.deepEqual(lines({ resource: 'flag', action: 'updated', before: flag, after: { ...flag, variants: [{ ...blue, name: 'Bleu' }] } }), ['variants: [blue, red] → [blue]', 'variants[blue].name: Blue → Bleu']);
});

test('a creation lists the values created, a deletion those deleted, both without the empty ones', (t) => {
  const created = { ...flag, variants: [] };
  t.deepEqual(changeLines({ resource: 'flag', action: 'created', after: created }), [
    { path: 'key', after: 'flag-x' },
    { path: 'name', after: 'flag-x' },
    { path: 'enabled', after: 'true' },
    { path: 'type', after: 'VARIANT_FLAG_TYPE' },
  ]);
  t.deepEqual(lines({ resource: 'variant', action: 'deleted', before: red }), ['key: red', 'name: Red'], 'the flag it belonged to left out');
  t.deepEqual(changeLines({ resource: 'variant', action: 'deleted', before: red })[0], { path: 'key', before: 'red' });
  t.deepEqual(lines({ resource: 'flag', action: 'deleted', before: { ...flag, defaultVariant: blue } }), [
    'key: flag-x',
    'name: flag-x',
    'enabled: true',
    'type: VARIANT_FLAG_TYPE',
    'variants: [blue, red]',
    'defaultVariant: blue',
  ]);
  const constraint = { id: 'c-1', namespaceKey: 'default', segmentKey: 'beta', type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro', description: '', ...stamp };
  t.deepEqual(lines({ resource: 'constraint', action: 'created', after: constraint }), ['type: STRING_COMPARISON_TYPE', 'property: plan', 'operator: eq', 'value: pro']);
  const segmentRollout = { id: 'ro-2', flagKey: 'dark', type: 'SEGMENT_ROLLOUT_TYPE', rank: 2, description: '', segment: { segmentKey: 'beta', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR', value: false } };
  t.deepEqual(lines({ resource: 'rollout', action: 'created', after: segmentRollout }), [
    'type: SEGMENT_ROLLOUT_TYPE',
    'rank: 2',
    'segment.segmentKey: beta',
    'segment.value: false',
  ]);
  t.deepEqual(
    lines({ resource: 'rule', action: 'created', after: { ...rule, segmentKey: '', segmentKeys: ['a', 'b'], segmentOperator: 'AND_SEGMENT_OPERATOR' } }),
    ['segmentKeys: [a, b]', 'segmentOperator: AND_SEGMENT_OPERATOR', 'rank: 1'],
    'the operator only between two segments or more',
  );
  t.deepEqual(lines({ resource: 'rule', action: 'created', after: rule }), ['segmentKey: beta', 'rank: 1']);
  t.deepEqual(listValues(undefined), [], 'nothing stored, nothing listed');
});

test('a reorder: the old and new order by name, else by place in the old order', (t) => {
  const staff = { ...rule, id: 'r-staff', segmentKey: 'staff', rank: 2 };
  const change = { resource: 'rule' as const, action: 'reordered' as const, before: [rule.id, staff.id, 'r-gone'], after: ['r-gone', staff.id, rule.id] };
  t.deepEqual(lines(change, collectLabels([[rule, staff]])), ['order: [beta, staff, #3] → [#3, staff, beta]']);
  t.deepEqual(lines(change), ['order: [#1, #2, #3] → [#3, #2, #1]']);
  t.is(describeChange(change), 'Reordered the rules');
  t.is(describeChange({ ...change, resource: 'rollout' }), 'Reordered the rollouts');
});

test('values as text', (t) => {
  t.is(formatValue(undefined), '(none)');
  t.is(formatValue(null), '(none)');
  t.is(formatValue(''), '(empty)');
  t.is(formatValue(0), '0');
  t.is(formatValue(['a', 1, true]), '[a, 1, true]');
  t.is(formatValue({ x: 1 }), '{"x":1}');
  t.is(formatValue(blue), 'blue');
  t.is(lineText({ path: 'key', before: 'red' }), 'key: red');
});

test('names by id: current ones first, keyed ones before what references them', (t) => {
  const labels = collectLabels([{ ...rule, distributions: [distribution] }, flag, { ...blue, key: 'older-name' }]);
  t.is(labels.get(blue.id), 'blue', 'the first source wins');
  t.is(labels.get(rule.id), 'beta');
  t.is(labels.get(distribution.id), 'blue', 'a distribution by its variant, named later in the sources');
  t.is(labelOf({ id: 'ro', threshold: { percentage: 35, value: true } }), '35%');
  t.is(labelOf({ id: 'ro', segment: { segmentKeys: ['a', 'b'], segmentOperator: 'AND_SEGMENT_OPERATOR' } }), 'a AND b');
  t.is(labelOf({ id: 'c', property: 'plan' }), 'plan');
  t.is(labelOf({ id: '0123456789abcdef' }), '01234567…');
  t.is(labelOf('text'), 'text');
});

test('what a change did, in words', (t) => {
  const labels = labelsFor([flag], [{ resource: 'rule', action: 'created', after: rule }]);
  t.is(describeChange({ resource: 'flag', action: 'updated', before: flag, after: flag }), 'Updated the flag');
  t.is(describeChange({ resource: 'variant', action: 'created', after: blue }), 'Created variant blue');
  t.is(describeChange({ resource: 'variant', action: 'deleted', before: red }), 'Deleted variant red');
  t.is(describeChange({ resource: 'rule', action: 'created', after: rule }), 'Created the rule for beta');
  t.is(describeChange({ resource: 'rule', action: 'created', after: { ...rule, segmentKey: '', segmentKeys: ['a', 'b'], segmentOperator: 'AND_SEGMENT_OPERATOR' } }), 'Created the rule for a AND b');
  t.is(describeChange({ resource: 'distribution', action: 'updated', before: distribution, after: distribution }, labels), 'Updated the distribution to blue in the rule for beta');
  t.is(describeChange({ resource: 'distribution', action: 'deleted', before: distribution }), 'Deleted the distribution to v-blue-0…');
  t.is(describeChange({ resource: 'rollout', action: 'created', after: { threshold: { percentage: 30, value: true } } }), 'Created the threshold rollout');
  t.is(describeChange({ resource: 'rollout', action: 'deleted', before: { segment: { segmentKey: 'beta', segmentKeys: [] } } }), 'Deleted the segment rollout for beta');
  t.is(describeChange({ resource: 'constraint', action: 'created', after: { property: 'plan' } }), 'Created the constraint on plan');
  t.is(describeChange({ resource: 'segment', action: 'deleted', before: {} }), 'Deleted the segment');
  t.is(describeChange({ resource: 'namespace', action: 'created', after: {} }), 'Created the namespace');
});

test('who made a change, and what it belongs to', (t) => {
  t.is(actorLabel({ authenticationId: 'a1', method: 'METHOD_TOKEN', name: 'ci-bot' }), 'ci-bot');
  t.is(actorLabel({ authenticationId: 'a1', method: 'METHOD_OIDC' }), 'oidc');
  t.is(actorLabel(undefined), 'anonymous', 'authentication off');
  t.deepEqual(ownerOf({ resource: 'flag', key: 'flag-x' }), { kind: 'flag', key: 'flag-x' });
  t.deepEqual(ownerOf({ resource: 'variant', key: blue.id, parentKey: 'flag-x' }), { kind: 'flag', key: 'flag-x' });
  t.deepEqual(ownerOf({ resource: 'rule', key: 'flag-x', parentKey: 'flag-x' }), { kind: 'flag', key: 'flag-x' }, 'a reorder');
  t.deepEqual(ownerOf({ resource: 'constraint', key: 'c-1', parentKey: 'beta' }), { kind: 'segment', key: 'beta' });
  t.deepEqual(ownerOf({ resource: 'segment', key: 'beta' }), { kind: 'segment', key: 'beta' });
  t.is(ownerOf({ resource: 'namespace', key: 'default' }), undefined);
});

test('an import is one change on the namespace: what it wrote, in words and lines', (t) => {
  const ns = { key: 'shop', name: 'Shop', description: '', protected: false };
  const counts = (imported: number, skipped: number, removed: number) => ({ imported, skipped, removed });
  const after = { ...ns, import: { drop: true, skipExisting: false, flags: counts(2, 0, 1), segments: counts(1, 0, 0) } };
  const change = { resource: 'namespace' as const, action: 'imported' as const, before: ns, after };
  t.is(describeChange(change), 'Imported 2 flags and 1 segment, replacing everything');
  t.is(describeChange({ ...change, after: { ...after, import: { ...after.import, drop: false, segments: counts(0, 3, 0) } } }), 'Imported 2 flags and 0 segments');
  t.is(describeChange({ ...change, after: ns }), 'Imported a document');
  t.deepEqual(lines(change), ['flags: 2 imported, 1 deleted', 'segments: 1 imported', 'mode: replace everything']);
  const renamed = { ...after, name: 'Shop v2', import: { ...after.import, drop: false, skipExisting: true, segments: counts(0, 3, 0) } };
  t.deepEqual(lines({ ...change, after: renamed }), ['name: Shop → Shop v2', 'flags: 2 imported, 1 deleted', 'segments: 0 imported, 3 skipped', 'mode: skip existing']);
  t.deepEqual(lines({ resource: 'namespace', action: 'imported', after: { ...after, import: { flags: counts(1, 0, 0), segments: counts(0, 0, 0) } } }).slice(0, 2), ['key: shop', 'name: Shop'], 'a namespace the import created is listed whole');
});

test('a step taking effect says what it did, from its account beside the flag; its lines are what changed of the flag', (t) => {
  const off = { ...flag, enabled: false };
  const step = (account: Record<string, unknown>) => ({ resource: 'flag' as const, action: 'stepped' as const, before: off, after: { ...off, step: { id: 's-1', at: '2030-01-01T00:00:00.000Z', ...account } } });
  const scheduled = { ...step({ kind: 'schedule', enabled: true }), after: { ...flag, step: { id: 's-1', kind: 'schedule', enabled: true } } };
  t.is(describeChange(scheduled), 'Switched the flag on as scheduled');
  t.deepEqual(lines(scheduled), ['enabled: false → true'], 'the account itself is no line');
  t.is(describeChange(step({ kind: 'schedule', enabled: false, missed: true })), 'Switched the flag off as scheduled (late: the service was down at its time)');
  t.is(describeChange(step({ kind: 'window', noun: 'rule', edge: 'from', refId: rule.id }), collectLabels([rule])), 'The rule for beta started to apply');
  t.is(describeChange(step({ kind: 'window', noun: 'rollout', edge: 'until', refId: 'unknown' })), 'A rollout stopped applying');
  t.is(describeChange(step({ kind: 'ramp', noun: 'rollout', percentage: 50 })), 'The threshold rollout rose to 50%');
  t.deepEqual(lines(step({ kind: 'ramp', percentage: 50 })), []);
});

test('a flag’s scheduled changes: made and cancelled, with who scheduled them left to the entry', (t) => {
  const schedule = { id: 's-1', namespaceKey: 'default', flagKey: 'flag-x', at: '2030-01-01T00:00:00.000Z', enabled: true, status: 'pending', createdAt: stamp.createdAt, createdBy: { authenticationId: 'a', method: 'METHOD_TOKEN', name: 'ci' } };
  const cancelled = { ...schedule, status: 'cancelled' };
  t.is(describeChange({ resource: 'schedule', action: 'created', after: schedule }), 'Scheduled switching the flag on');
  t.deepEqual(lines({ resource: 'schedule', action: 'created', after: schedule }), ['at: 2030-01-01T00:00:00.000Z', 'enabled: true', 'status: pending']);
  t.is(describeChange({ resource: 'schedule', action: 'updated', before: schedule, after: cancelled }), 'Cancelled switching the flag on');
  t.deepEqual(lines({ resource: 'schedule', action: 'updated', before: schedule, after: cancelled }), ['status: pending → cancelled']);
  t.deepEqual(ownerOf({ resource: 'schedule', key: 's-1', parentKey: 'flag-x' }), { kind: 'flag', key: 'flag-x' });
});
