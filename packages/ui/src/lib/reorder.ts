/** Moving one item of a ranked list (rules, rollouts) by drag and drop or by one step. */

/** `items` with the item at `from` moved to index `to`; the same array when nothing moves. */
export function moveItem<T>(items: readonly T[], from: number, to: number): readonly T[] {
  if (from === to || from < 0 || from >= items.length || to < 0 || to >= items.length) return items;
  const next = [...items];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved as T);
  return next;
}

/** `ids` with `id` moved one place up (`-1`) or down (`1`); the same array at either end. */
export function moveBy(ids: readonly string[], id: string, step: -1 | 1): readonly string[] {
  const from = ids.indexOf(id);
  return from === -1 ? ids : moveItem(ids, from, from + step);
}

/** Whether two id lists are in the same order. */
export const sameOrder = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((id, i) => id === b[i]);

/** Items put in the order of `ids`; items `ids` does not name keep their order at the end. */
export function inOrder<T extends { id: string }>(items: readonly T[], ids: readonly string[]): T[] {
  const position = new Map(ids.map((id, i) => [id, i]));
  return [...items].sort((a, b) => (position.get(a.id) ?? ids.length) - (position.get(b.id) ?? ids.length));
}
