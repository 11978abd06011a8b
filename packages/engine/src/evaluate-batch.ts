/** Batch evaluation, reference §6.4. */
import type { CompiledSnapshot, FlagPlan } from './compiled-snapshot.js';
import { gatedBooleanOf } from './evaluate-boolean.js';
import { booleanOf } from './evaluate-rollouts.js';
import { variantOf } from './evaluate-rules.js';
import { gatedVariantOf } from './evaluate-variant.js';
import { EvaluationCall } from './evaluation-call.js';
import type { BatchInput, BatchItem, EvaluationEnv, EvaluationFailure } from './evaluation-types.js';
import { isFailure } from './failures.js';

/**
 * Evaluates each item against its namespace (`resolve` receives it defaulted: "" → "default"),
 * dispatching on the flag's type. A missing flag is a `notFound` item; any other failure fails the
 * whole batch. The whole batch is evaluated at one time, read when its first timed flag needs it.
 */
export function evaluateBatch(
  resolve: (namespaceKey: string) => CompiledSnapshot | undefined,
  inputs: readonly BatchInput[],
  env: EvaluationEnv,
): BatchItem[] | EvaluationFailure {
  const items: BatchItem[] = [];
  let call: EvaluationCall | undefined;
  for (const input of inputs) {
    const namespaceKey = input.namespaceKey || 'default';
    const compiled = resolve(namespaceKey);
    const flag = compiled?.flags.get(input.flagKey) as FlagPlan | undefined;
    if (flag === undefined) {
      items.push({ kind: 'notFound', flagKey: input.flagKey, namespaceKey: input.namespaceKey ?? '' });
    } else if (flag.isVariant) {
      const result = flag.plain ? variantOf(flag, input) : gatedVariantOf(compiled!.flags, flag, input, (call ??= new EvaluationCall(env)));
      if (isFailure(result)) return result;
      items.push({ kind: 'variant', flagKey: input.flagKey, result });
    } else {
      const result = flag.plain ? booleanOf(flag, input) : gatedBooleanOf(compiled!.flags, flag, input, (call ??= new EvaluationCall(env)));
      if (isFailure(result)) return result;
      items.push({ kind: 'boolean', flagKey: input.flagKey, result });
    }
  }
  return items;
}
