/**
 * Globs as Flipt's `.flipt.yml` reads them: gobwas/glob compiled without separators, so `*` and
 * `**` both match any run of characters, `/` included. Also `?` (one character), `[abc]`, `[a-z]`,
 * `[!a-z]`, `{a,b}` (alternatives, nesting allowed) and `\` (escape).
 */

/** A pattern that cannot be compiled (an unclosed `[` or `{`, a dangling `\`). */
export class GlobSyntaxError extends Error {
  override readonly name = 'GlobSyntaxError';
}

/** Escapes a character for use outside a character class. */
const literal = (char: string): string => char.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
/** Escapes a character for use inside a character class. */
const member = (char: string): string => char.replace(/[\\^[\]-]/g, '\\$&');

/** Compiles one glob to an anchored regular expression matching whole paths. */
export function compileGlob(pattern: string): RegExp {
  let i = 0;

  const fail = (reason: string): never => {
    throw new GlobSyntaxError(`glob ${JSON.stringify(pattern)}: ${reason}`);
  };

  const readClass = (): string => {
    // At the character after `[`.
    let negate = false;
    if (pattern[i] === '!') {
      negate = true;
      i++;
    }
    let body = '';
    let first = true;
    while (i < pattern.length && (pattern[i] !== ']' || first)) {
      first = false;
      let char = pattern[i] as string;
      if (char === '\\') {
        i++;
        if (i >= pattern.length) fail('dangling escape in a character class');
        char = pattern[i] as string;
      }
      i++;
      if (pattern[i] === '-' && i + 1 < pattern.length && pattern[i + 1] !== ']') {
        let end = pattern[i + 1] as string;
        i += 2;
        if (end === '\\') {
          if (i >= pattern.length) fail('dangling escape in a character class');
          end = pattern[i] as string;
          i++;
        }
        if (end < char) fail(`bad range ${char}-${end}`);
        body += `${member(char)}-${member(end)}`;
      } else {
        body += member(char);
      }
    }
    if (pattern[i] !== ']') fail('unclosed [');
    i++;
    return negate ? `[^${body}]` : `[${body}]`;
  };

  /** Reads until the end, or (inside `{…}`) until the `,` or `}` that ends the alternative. */
  const readSequence = (nested: boolean): string => {
    let out = '';
    while (i < pattern.length) {
      const char = pattern[i] as string;
      if (nested && (char === ',' || char === '}')) return out;
      i++;
      switch (char) {
        case '*':
          while (pattern[i] === '*') i++;
          out += '[\\s\\S]*';
          break;
        case '?':
          out += '[\\s\\S]';
          break;
        case '[':
          out += readClass();
          break;
        case '{': {
          const alternatives = [readSequence(true)];
          while (pattern[i] === ',') {
            i++;
            alternatives.push(readSequence(true));
          }
          if (pattern[i] !== '}') fail('unclosed {');
          i++;
          out += `(?:${alternatives.join('|')})`;
          break;
        }
        case '\\':
          if (i >= pattern.length) fail('dangling escape');
          out += literal(pattern[i] as string);
          i++;
          break;
        default:
          out += literal(char);
      }
    }
    if (nested) fail('unclosed {');
    return out;
  };

  const source = readSequence(false);
  return new RegExp(`^${source}$`, 'u');
}
