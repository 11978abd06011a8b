/**
 * What the UI says when the service refuses something: its messages (Flipt's wording, such as
 * `invalid field key: must not be empty` or `flag "ns/key" is not unique`) turned into sentences
 * that say what to do, with links to the resources they name.
 */
import { countNoun } from './count-noun.js';

/** A page a message links to. */
export type MessageTarget =
  | { kind: 'flag'; ns: string; key: string }
  | { kind: 'segment'; ns: string; key: string }
  | { kind: 'flags'; ns: string };

/** Text, or a link inside the text. */
export type MessagePart = string | { text: string; to: MessageTarget };
export type UserMessage = readonly MessagePart[];

/** A rule or rollout that uses a segment. */
export interface SegmentUse {
  flagKey: string;
  flagName: string;
  kind: 'rule' | 'rollout';
  /** 1-based position among the flag's rules (or rollouts). */
  position: number;
}

/** What a message can say more of, when the caller knows it. */
export interface MessageContext {
  /** The users of the segment a delete was refused for. */
  segmentUses?: readonly SegmentUse[];
}

const FIELD_LABELS: Readonly<Record<string, string>> = {
  key: 'key',
  name: 'name',
  description: 'description',
  property: 'property',
  value: 'value',
  operator: 'operator',
  type: 'type',
  matchType: 'match type',
  namespaceKey: 'namespace',
  expiresAt: 'expiry',
  rank: 'rank',
  rollout: 'percentage',
  'threshold.percentage': 'percentage',
  attachment: 'attachment',
  at: 'time',
  ramp: 'ramp',
  'threshold.ramp': 'ramp',
};

/** Fields inside lists: one step of a ramp, one prerequisite. */
const LIST_FIELD_LABELS: ReadonlyArray<readonly [RegExp, (m: RegExpMatchArray) => string]> = [
  [/^(?:threshold\.)?ramp\[(\d+)\]\.(at|percentage)$/, (m) => `${m[2] === 'at' ? 'time' : 'percentage'} of ramp step ${Number(m[1]) + 1}`],
  [/^prerequisites\[(\d+)\]\.variants$/, () => 'variants of the prerequisite'],
  [/^prerequisites\[(\d+)\](?:\.\w+)?$/, () => 'prerequisite'],
];

/** The plain text of a message (for a toast or a title). */
export const messageText = (message: UserMessage): string => message.map((part) => (typeof part === 'string' ? part : part.text)).join('');

function labelOf(field: string): string {
  const known = FIELD_LABELS[field];
  if (known !== undefined) return known;
  for (const [pattern, label] of LIST_FIELD_LABELS) {
    const match = field.match(pattern);
    if (match !== null) return label(match);
  }
  return field.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}
const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
const sentence = (text: string): string => {
  const trimmed = capitalised(text.trim());
  return /[.!?:]$/.test(trimmed) ? trimmed : `${trimmed}.`;
};
const article = (word: string): string => (/^[aeiou]/i.test(word) ? 'an' : 'a');

/** `"ns/key"` → its namespace and key (a key alone means no namespace). */
function splitRef(ref: string): { ns: string; key: string } {
  const slash = ref.indexOf('/');
  return slash < 0 ? { ns: '', key: ref } : { ns: ref.slice(0, slash), key: ref.slice(slash + 1) };
}

/** The reason of `invalid field <field>: <reason>`, said about the field. */
function fieldReason(field: string, reason: string): string {
  const label = labelOf(field);
  if (reason === 'must not be empty') return `Enter ${article(label)} ${label}.`;
  // A reason that names its own subject (`flag "b" has no variant "x"`) is a sentence as it is.
  if (reason.startsWith('flag "')) return sentence(reason);
  if (reason === 'contains invalid characters') return `Use only letters, digits, hyphens (-), underscores (_) and commas in the ${label}.`;
  const longest = reason.match(/^must be at most (\d+) characters$/);
  if (longest !== null) return `Shorten the ${label} to ${longest[1]} characters or fewer.`;
  return sentence(`the ${label} ${reason.replace(/'(\d+)'/g, '$1')}`);
}

/** "2 rules", "1 rule and 1 rollout". */
function countOfUses(uses: readonly SegmentUse[]): string {
  const rules = uses.filter((use) => use.kind === 'rule').length;
  const rollouts = uses.length - rules;
  if (rollouts === 0) return countNoun(rules, 'rule');
  if (rules === 0) return countNoun(rollouts, 'rollout');
  return `${countNoun(rules, 'rule')} and ${countNoun(rollouts, 'rollout')}`;
}

/** Why a segment cannot be deleted: the rules and rollouts using it, each linked to its flag. */
export function segmentInUse(ns: string, key: string, uses: readonly SegmentUse[] | undefined): UserMessage {
  if (uses === undefined || uses.length === 0) {
    return [`Segment “${key}” is used by rules or rollouts: remove it from them first. `, { text: 'See where it is used', to: { kind: 'segment', ns, key } }];
  }
  const parts: MessagePart[] = [`Segment “${key}” is used by ${countOfUses(uses)} (`];
  uses.forEach((use, i) => {
    if (i > 0) parts.push(', ');
    parts.push({ text: `flag ${use.flagKey} ${use.kind} ${use.position}`, to: { kind: 'flag', ns, key: use.flagKey } });
  });
  parts.push('): remove it from them first.');
  return parts;
}

/** What a refusal of authorization (403) says. */
export const PERMISSION_DENIED = "You don't have permission to do this. Ask an administrator of this service for a role that allows it.";

type Rule = (match: RegExpMatchArray, context: MessageContext) => UserMessage;

const RULES: ReadonlyArray<readonly [RegExp, Rule]> = [
  [
    /^invalid field namespace: the document is for namespace "([^"]*)", not "([^"]*)"/,
    (m) => [`This document is an export of the namespace “${m[1]}”, and you are importing into “${m[2]}”. To import it here, remove its namespace; or import it into “${m[1]}” instead.`],
  ],
  [/^invalid field ([^:]+): (.*)$/, (m) => [fieldReason(m[1] ?? '', m[2] ?? '')]],
  [
    /^(flag|segment) "([^"]*)" is not unique$/,
    (m) => {
      const { ns, key } = splitRef(m[2] ?? '');
      const kind = m[1] as 'flag' | 'segment';
      return [`A ${kind} with the key “${key}” already exists in this namespace. `, { text: 'Open it', to: { kind, ns, key } }];
    },
  ],
  [/^namespace "([^"]*)" is not unique$/, (m) => [`A namespace with the key “${m[1]}” already exists. Choose another key.`]],
  [/^variant "([^"]*)" is not unique for flag "[^"]*"$/, (m) => [`This flag already has a variant with the key “${m[1]}”. Choose another key.`]],
  [
    /^segment "([^"]*)" is in use$/,
    (m, context) => {
      const { ns, key } = splitRef(m[1] ?? '');
      return segmentInUse(ns, key, context.segmentUses);
    },
  ],
  [
    /^flag "([^"]*)" is a prerequisite of (.+); remove it from their prerequisites first$/,
    (m) => {
      const { ns, key } = splitRef(m[1] ?? '');
      const dependents = [...(m[2] ?? '').matchAll(/"([^"]*)"/g)].map((d) => d[1] ?? '');
      const parts: MessagePart[] = [`Flag “${key}” is a prerequisite of `];
      dependents.forEach((dependent, i) => {
        if (i > 0) parts.push(', ');
        parts.push({ text: dependent, to: { kind: 'flag', ns, key: dependent } });
      });
      parts.push(': remove it from their prerequisites first.');
      return parts;
    },
  ],
  [/^namespace "([^"]*)" is protected$/, (m) => [`The namespace “${m[1]}” is protected: it cannot be deleted.`]],
  [
    /^namespace "([^"]*)" cannot be deleted; flags must be deleted first$/,
    (m) => [`The namespace “${m[1]}” still has flags: `, { text: 'delete its flags', to: { kind: 'flags', ns: m[1] ?? '' } }, ' first.'],
  ],
  [/^rank number: (\d+) already exists$/, (m) => [`Another item already has position ${m[1]}: reload the page and try again.`]],
  // A 403 of authorization: the session stays; what it may do is asked again, so the page may now offer less.
  [/^permission denied$/, () => [PERMISSION_DENIED]],
];

/** The message to show for the service's `message`. */
export function userMessage(message: string, context: MessageContext = {}): UserMessage {
  for (const [pattern, rule] of RULES) {
    const match = message.match(pattern);
    if (match !== null) return rule(match, context);
  }
  return [sentence(message)];
}
