/** What the console reads of an answer about timing and prerequisites: the failed prerequisite OFREP names, and the rules or rollouts outside their window. */
import type { Rollout, Rule } from '@ensign/core';
import { windowState } from './validity-window.js';

/** OFREP's answer for one flag: its reason says more than Flipt's (`PREREQUISITE_FAILED`), its metadata which prerequisite failed. */
export interface OfrepFlagAnswer {
  key: string;
  reason: string;
  variant?: string;
  value?: string | boolean;
  metadata?: Record<string, unknown>;
  flagMetadata?: Record<string, unknown>;
}

/** The parent OFREP says failed (`PREREQUISITE_FAILED`, its key in the metadata), or undefined. */
export function failedPrerequisiteOf(answer: OfrepFlagAnswer): string | undefined {
  if (answer.reason !== 'PREREQUISITE_FAILED') return undefined;
  const key = answer.metadata?.['failedPrerequisite'] ?? answer.flagMetadata?.['failedPrerequisite'];
  return typeof key === 'string' && key !== '' ? key : undefined;
}

/** A rule or rollout skipped at the time: its position (1-based, by rank), whether its window is still to open or over, and that bound. */
export interface Skipped {
  position: number;
  state: 'before' | 'after';
  bound: string;
}

export function skippedByWindow(items: readonly (Rule | Rollout)[], at: number): Skipped[] {
  return [...items]
    .sort((a, b) => a.rank - b.rank)
    .flatMap((item, i): Skipped[] => {
      const state = windowState(item, at);
      if (state === 'before') return [{ position: i + 1, state, bound: item.validFrom ?? '' }];
      if (state === 'after') return [{ position: i + 1, state, bound: item.validUntil ?? '' }];
      return [];
    });
}
