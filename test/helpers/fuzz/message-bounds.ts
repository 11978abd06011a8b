/**
 * What an error message may hold, on every transport: at most core's bound in length, and no more
 * of any long input than the quoted-input bound (the fuzzers' long strings repeat a unit, so a run
 * of that unit longer than the bound is input echoed whole).
 */
import { MAX_ERROR_MESSAGE, MAX_QUOTED_INPUT } from '@ensign/core';

/** core's cut adds a note of the length to the kept characters. */
export const MESSAGE_BOUND = MAX_ERROR_MESSAGE + 64;

/** Why `message` is not bounded, or undefined when it is. */
export function unboundedMessage(message: string): string | undefined {
  if (message.length > MESSAGE_BOUND) return `an error message of ${message.length} characters (at most ${MESSAGE_BOUND})`;
  for (const run of message.matchAll(/(long\d+-)\1+/g)) {
    if (run[0].length > MAX_QUOTED_INPUT) return `an error message quotes ${run[0].length} characters of one input (at most ${MAX_QUOTED_INPUT})`;
  }
  return undefined;
}
