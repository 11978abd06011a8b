/** A count with its noun, plural unless the count is one: `1 rule`, `3 variants`. */
export const countNoun = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
