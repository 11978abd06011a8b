/**
 * The jump bar's search (Ctrl-K / ⌘K): what it can open (flags, segments, pages, namespaces),
 * ranked against what was typed and cut to a few per group. Pure and synchronous over lists
 * already in memory, so every key filters at once and no key sends a request.
 */

export type JumpKind = 'flag' | 'segment' | 'page' | 'namespace';

export interface JumpTarget {
  kind: JumpKind;
  /** Unique within its kind (the key, or the page's name); not searched. */
  id: string;
  /** What the option says: the name, or the key when there is no name. */
  name: string;
  /** The key, searched and shown beside a name that differs from it. */
  key?: string;
  /** Other words that find it, not shown ("settings", "history"). */
  keywords?: readonly string[];
  /** Where choosing it goes. */
  path: string;
  /** A short note beside it ("Current"). */
  note?: string;
}

export interface JumpMatch {
  target: JumpTarget;
  /** Lower is better: 0 an exact key or name … 5 every word somewhere. */
  score: number;
}

export interface JumpGroup {
  kind: JumpKind;
  heading: string;
  /** The best matches, at most the limit. */
  matches: JumpMatch[];
  /** How many matched in all (more than `matches` when cut). */
  total: number;
}

/** The groups when nothing sets them apart (nothing typed, or equally good matches). */
export const GROUP_ORDER: readonly JumpKind[] = ['flag', 'segment', 'page', 'namespace'];
export const GROUP_HEADINGS: Readonly<Record<JumpKind, string>> = { flag: 'Flags', segment: 'Segments', page: 'Pages', namespace: 'Namespaces' };
/** The most options one group shows. */
export const GROUP_LIMIT = 8;

/** What was typed, lower-cased with its spaces collapsed. */
export const normalizeQuery = (query: string): string => query.trim().toLowerCase().replace(/\s+/g, ' ');

const BOUNDARY = /[\s\-_./:]/;

/** Whether `needle` starts a word of `text` (at its start or after a space, hyphen, underscore, dot, slash or colon). */
function startsWord(text: string, needle: string): boolean {
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    if (at === 0 || BOUNDARY.test(text[at - 1]!)) return true;
  }
  return false;
}

interface Lowered {
  key: string;
  name: string;
  keywords: string[];
}
/** Each target's text lower-cased once, not once per key typed (a target is not changed once made). */
const loweredCache = new WeakMap<JumpTarget, Lowered>();
function lowered(target: JumpTarget): Lowered {
  let found = loweredCache.get(target);
  if (found === undefined) {
    found = { key: (target.key ?? '').toLowerCase(), name: target.name.toLowerCase(), keywords: (target.keywords ?? []).map((k) => k.toLowerCase()) };
    loweredCache.set(target, found);
  }
  return found;
}

/**
 * How well `target` matches the normalized `phrase` (see `normalizeQuery`), or undefined when it does
 * not: 0 the key or name is the phrase, 1 the key starts with it, 2 the name does, 3 it starts a
 * word of either (or a keyword starts with it), 4 either contains it, 5 each word is in the key,
 * name or keywords. Nothing typed matches everything equally.
 */
export function scoreTarget(target: JumpTarget, phrase: string): number | undefined {
  if (phrase === '') return 0;
  const { key, name, keywords } = lowered(target);
  if (key === phrase || name === phrase) return 0;
  if (key !== '' && key.startsWith(phrase)) return 1;
  if (name.startsWith(phrase)) return 2;
  if (startsWord(key, phrase) || startsWord(name, phrase) || keywords.some((k) => k.startsWith(phrase))) return 3;
  if (key.includes(phrase) || name.includes(phrase)) return 4;
  const text = [key, name, ...keywords].join('\n');
  const words = phrase.split(' ');
  if (words.length > 1 && words.every((word) => text.includes(word))) return 5;
  return undefined;
}

/**
 * The targets matching `query`, grouped by kind: each group best first (then the shorter key, then
 * as given), cut to `limit`; the groups by their best match, then in `GROUP_ORDER`. Empty groups
 * are left out.
 */
export function rankTargets(targets: readonly JumpTarget[], query: string, limit: number = GROUP_LIMIT): JumpGroup[] {
  const phrase = normalizeQuery(query);
  const found = new Map<JumpKind, Array<JumpMatch & { index: number }>>();
  targets.forEach((target, index) => {
    const score = scoreTarget(target, phrase);
    if (score === undefined) return;
    const list = found.get(target.kind) ?? [];
    list.push({ target, score, index });
    found.set(target.kind, list);
  });
  const groups: JumpGroup[] = [];
  for (const kind of GROUP_ORDER) {
    const list = found.get(kind);
    if (list === undefined) continue;
    const length = (m: JumpMatch) => (m.target.key ?? m.target.name).length;
    // Nothing typed: the order given (the list's own); something typed: the best first.
    if (phrase !== '') list.sort((a, b) => a.score - b.score || length(a) - length(b) || a.index - b.index);
    groups.push({ kind, heading: GROUP_HEADINGS[kind], matches: list.slice(0, limit).map(({ target, score }) => ({ target, score })), total: list.length });
  }
  const best = (group: JumpGroup) => group.matches[0]?.score ?? Number.POSITIVE_INFINITY;
  return groups.sort((a, b) => best(a) - best(b) || GROUP_ORDER.indexOf(a.kind) - GROUP_ORDER.indexOf(b.kind));
}

/** The options of `groups` in the order they are shown (what the arrow keys move through). */
export const flattenGroups = (groups: readonly JumpGroup[]): JumpMatch[] => groups.flatMap((group) => group.matches);

/** The keys that move the selection; the others leave it where it is. */
export type MoveKey = 'ArrowDown' | 'ArrowUp' | 'PageDown' | 'PageUp';

/** Where the selection goes from `index` among `count` options: arrows wrap around, page keys move 5 and stop at the ends. */
export function moveSelection(index: number, count: number, key: MoveKey): number {
  if (count <= 0) return 0;
  const from = Math.min(Math.max(index, 0), count - 1);
  switch (key) {
    case 'ArrowDown':
      return (from + 1) % count;
    case 'ArrowUp':
      return (from - 1 + count) % count;
    case 'PageDown':
      return Math.min(from + 5, count - 1);
    case 'PageUp':
      return Math.max(from - 5, 0);
  }
}

export const isMoveKey = (key: string): key is MoveKey => key === 'ArrowDown' || key === 'ArrowUp' || key === 'PageDown' || key === 'PageUp';

/** The parts of a keyboard event the shortcut looks at. */
export interface KeyPress {
  key: string;
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

/**
 * Ctrl-K or ⌘K (either, on every system), without Alt or Shift. On a layout without Latin letters
 * (Cyrillic, Greek) the key in K's place counts; on one that moves the letters (Dvorak) the K does.
 */
export function isJumpShortcut(press: KeyPress): boolean {
  if (!(press.ctrlKey || press.metaKey) || press.altKey || press.shiftKey) return false;
  const key = press.key.toLowerCase();
  if (key === 'k') return true;
  return press.code === 'KeyK' && !/^[a-z]$/.test(key);
}

/** The shortcut as the system writes it: ⌘K on Apple's, Ctrl K elsewhere. */
export const shortcutLabel = (platform: string): string => (/mac|iphone|ipad|ipod/i.test(platform) ? '⌘K' : 'Ctrl K');

/** The kind of namespaced page a path shows, kept when switching namespace (a flag's page and anything outside a namespace → flags). */
export type NamespaceSection = 'flags' | 'segments' | 'console' | 'activity';

export function namespaceSection(pathname: string): NamespaceSection {
  const section = /^\/namespaces\/[^/]+\/(flags|segments|console|activity)(?:\/|$)/.exec(pathname)?.[1];
  return (section as NamespaceSection | undefined) ?? 'flags';
}

/** `text` cut into runs, the first place each typed word occurs marked (for highlighting). */
export function markMatches(text: string, query: string): Array<{ text: string; mark: boolean }> {
  const phrase = normalizeQuery(query);
  if (phrase === '' || text === '') return [{ text, mark: false }];
  const lower = text.toLowerCase();
  // A letter whose lower case is longer ("İ") would shift the marks: then none.
  if (lower.length !== text.length) return [{ text, mark: false }];
  const marked = new Array<boolean>(text.length).fill(false);
  const at = lower.indexOf(phrase);
  if (at !== -1) marked.fill(true, at, at + phrase.length);
  else {
    for (const word of phrase.split(' ')) {
      const from = lower.indexOf(word);
      if (from !== -1) marked.fill(true, from, from + word.length);
    }
  }
  const runs: Array<{ text: string; mark: boolean }> = [];
  for (let i = 0; i < text.length; i++) {
    const last = runs[runs.length - 1];
    if (last !== undefined && last.mark === marked[i]) last.text += text[i];
    else runs.push({ text: text[i]!, mark: marked[i]! });
  }
  return runs;
}
