/** Batch evaluation, reference §6.4. */
import type { CompiledSnapshot, FlagPlan } from './compiled-snapshot.js';
import { booleanOf } from './evaluate-boolean.js';
import { variantOf } from './evaluate-variant.js';
import type { BatchInput, BatchItem, EvaluationEnv, EvaluationFailure } from './evaluation-types.js';
import { isFailure } from './failures.js';

/**
 * Evaluates each item against its namespace (`resolve` receives it defaulted: "" → "default"),
 * dispatching on the flag's type. A missing flag is a `notFound` item; any other failure fails the
 * whole batch.
 */
export function evaluateBatch(
  resolve: (namespaceKey: string) => CompiledSnapshot | undefined,
  inputs: readonly BatchInput[],
  _env: EvaluationEnv,
): BatchItem[] | EvaluationFailure {
  const items: BatchItem[] = [];
  for (const input of inputs) {
    const namespaceKey = input.namespaceKey || 'default';
    const flag = resolve(namespaceKey)?.flags.get(input.flagKey) as FlagPlan | undefined;
    if (flag === undefined) {
      items.push({ kind: 'notFound', flagKey: input.flagKey, namespaceKey: input.namespaceKey ?? '' });
    } else if (flag.isVariant) {
      const result = variantOf(flag, input);
      if (isFailure(result)) return result;
      items.push({ kind: 'variant', flagKey: input.flagKey, result });
    } else {
      const result = booleanOf(flag, input);
      if (isFailure(result)) return result;
      items.push({ kind: 'boolean', flagKey: input.flagKey, result });
    }
  }
  return items;
}
