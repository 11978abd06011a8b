/**
 * A key cut where a line may break: after `_`, `.`, `,`, `/` and `:`, and after a `-` before a
 * digit (browsers break after the other hyphens already, but not before a number).
 */
const BREAK_AFTER = /(?<=[_.,/:])|(?<=-)(?=\d)/;

export const keyParts = (key: string): string[] => key.split(BREAK_AFTER);
