/**
 * The Flipt entity an OpenFeature context stands for. Flipt's context holds strings only, so other
 * values are written as text: numbers with `String` (`3`, `0.5`), booleans as `true`/`false`,
 * dates as RFC 3339 (`toISOString`), objects and arrays as JSON; `null` and `undefined` are left
 * out, as Flipt leaves out a context value that is not sent. `targetingKey` is the entity id
 * (`""` without one) and is not part of the context, as in Flipt's own provider.
 */
import type { EvaluationContext, EvaluationContextValue } from '@openfeature/web-sdk';

export interface EvaluationEntity {
  entityId: string;
  context: Readonly<Record<string, string>>;
}

function textOf(value: EvaluationContextValue): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value);
}

export function entityOf(evaluationContext: EvaluationContext): EvaluationEntity {
  const context: Record<string, string> = {};
  for (const [key, value] of Object.entries(evaluationContext)) {
    if (key === 'targetingKey') continue;
    const text = textOf(value);
    if (text !== undefined) context[key] = text;
  }
  const { targetingKey } = evaluationContext;
  return { entityId: typeof targetingKey === 'string' ? targetingKey : '', context };
}
