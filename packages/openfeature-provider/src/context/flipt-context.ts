/**
 * OpenFeature's evaluation context as Flipt's entity and context. `targetingKey` is the entity id
 * and every other key a context value, which Flipt keeps as strings: a string is kept as it is; a
 * number as JavaScript writes it (`String(n)`, which Flipt's number constraints parse); a boolean as
 * `true`/`false`; a Date as RFC 3339 in UTC (`toISOString()`, what datetime constraints parse); an
 * object or array as its JSON; `null` and `undefined` are left out (Flipt reads a missing key as
 * `""`). Without a `targetingKey` the entity is `""`, as `@openfeature/flipt-provider` sends it
 * (and as the browser provider evaluates it): every such call is the same entity.
 */
import type { FlagInput } from '@ensign/engine';
import type { EvaluationContext, EvaluationContextValue } from '@openfeature/server-sdk';

function asString(value: EvaluationContextValue): string | undefined {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
      return String(value);
    case 'object':
      if (value === null) return undefined;
      return value instanceof Date ? value.toISOString() : JSON.stringify(value);
    default:
      return undefined;
  }
}

/** What the engine evaluates `flagKey` for (`targetingKey` is not a context value, as in Flipt's providers). */
export function fliptInput(flagKey: string, context: EvaluationContext): FlagInput {
  const entityId = typeof context.targetingKey === 'string' ? context.targetingKey : '';
  const converted: Record<string, string> = {};
  for (const key in context) {
    if (key === 'targetingKey') continue;
    const value = context[key] as EvaluationContextValue;
    const text = typeof value === 'string' ? value : asString(value);
    if (text !== undefined) converted[key] = text;
  }
  return { flagKey, entityId, context: converted };
}
