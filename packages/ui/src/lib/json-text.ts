/**
 * JSON typed by a person (variant attachments): whether it parses, where it stops parsing (line and
 * column, the same words in every browser), and a pretty-printed form that keeps every token as
 * typed (`1.0` stays `1.0`, big integers keep their digits), as the service stores them.
 */

export type JsonCheck =
  | { ok: true }
  | {
      ok: false;
      /** What is wrong and where, e.g. `Expected ',' or '}' at line 2, column 9`. */
      message: string;
      line: number;
      column: number;
    };

/** Largest attachment the service accepts, in UTF-8 bytes. */
export const MAX_ATTACHMENT_BYTES = 1_024_000;

/** Line and column (from 1) of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

class JsonSyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly offset: number,
  ) {
    super(reason);
  }
}

/** A recursive-descent reader that only finds the first error; JSON.parse decides validity. */
class Scanner {
  private i = 0;

  constructor(private readonly text: string) {}

  run(): void {
    this.space();
    if (this.i >= this.text.length) throw new JsonSyntaxError('Expected a JSON value', this.i);
    this.value();
    this.space();
    if (this.i < this.text.length) throw new JsonSyntaxError(`Unexpected ${this.describe()} after the end of the value`, this.i);
  }

  private describe(): string {
    const ch = this.text[this.i];
    return ch === undefined ? 'end of text' : `'${ch}'`;
  }

  private space(): void {
    while (this.i < this.text.length && ' \t\n\r'.includes(this.text[this.i] ?? '')) this.i++;
  }

  private fail(expected: string): never {
    throw new JsonSyntaxError(this.i >= this.text.length ? `Expected ${expected} before the end of the text` : `Expected ${expected} but found ${this.describe()}`, this.i);
  }

  private value(): void {
    const ch = this.text[this.i];
    if (ch === '{') return this.object();
    if (ch === '[') return this.array();
    if (ch === '"') return this.string();
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return this.number();
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.i)) {
        this.i += word.length;
        return;
      }
    }
    this.fail('a value');
  }

  private object(): void {
    this.i++;
    this.space();
    if (this.text[this.i] === '}') {
      this.i++;
      return;
    }
    for (;;) {
      this.space();
      if (this.text[this.i] !== '"') this.fail(this.text[this.i] === '}' ? 'a property name (no comma before })' : 'a property name in double quotes');
      this.string();
      this.space();
      if (this.text[this.i] !== ':') this.fail("':' after the property name");
      this.i++;
      this.space();
      this.value();
      this.space();
      if (this.text[this.i] === ',') {
        this.i++;
        continue;
      }
      if (this.text[this.i] === '}') {
        this.i++;
        return;
      }
      this.fail("',' or '}'");
    }
  }

  private array(): void {
    this.i++;
    this.space();
    if (this.text[this.i] === ']') {
      this.i++;
      return;
    }
    for (;;) {
      this.space();
      if (this.text[this.i] === ']') this.fail('a value (no comma before ])');
      this.value();
      this.space();
      if (this.text[this.i] === ',') {
        this.i++;
        continue;
      }
      if (this.text[this.i] === ']') {
        this.i++;
        return;
      }
      this.fail("',' or ']'");
    }
  }

  private string(): void {
    const start = this.i;
    this.i++;
    while (this.i < this.text.length) {
      const ch = this.text[this.i] ?? '';
      if (ch === '"') {
        this.i++;
        return;
      }
      if (ch === '\\') {
        const next = this.text[this.i + 1] ?? '';
        if ('"\\/bfnrt'.includes(next) && next !== '') this.i += 2;
        else if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(this.text.slice(this.i + 2, this.i + 6))) this.i += 6;
        else throw new JsonSyntaxError('Invalid escape in a string', this.i);
        continue;
      }
      if (ch < ' ') throw new JsonSyntaxError(ch === '\n' ? 'Unterminated string (a line break must be written \\n)' : 'Control character in a string', this.i);
      this.i++;
    }
    throw new JsonSyntaxError('Unterminated string', start);
  }

  private number(): void {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(this.i));
    if (match === null) this.fail('a number');
    this.i += match[0].length;
  }
}

/** Whether `text` is one JSON document; if not, the first place it fails. */
export function checkJson(text: string): JsonCheck {
  try {
    JSON.parse(text);
    return { ok: true };
  } catch (parseError) {
    let reason = (parseError as Error).message;
    let offset = text.length;
    try {
      new Scanner(text).run();
    } catch (error) {
      if (error instanceof JsonSyntaxError) {
        reason = error.reason;
        offset = error.offset;
      }
    }
    const { line, column } = lineColumn(text, offset);
    return { ok: false, message: `${reason} at line ${line}, column ${column}`, line, column };
  }
}

/** An attachment as the service will judge it: empty, or JSON within the size limit. */
export function checkAttachment(text: string): JsonCheck {
  if (text.trim() === '') return { ok: true };
  const json = checkJson(text);
  if (!json.ok) return json;
  if (new TextEncoder().encode(text).byteLength > MAX_ATTACHMENT_BYTES) {
    return { ok: false, message: 'The attachment must be less than 1000 KB', line: 1, column: 1 };
  }
  return json;
}

/**
 * Valid JSON laid out with `indent` spaces, tokens unchanged; empty containers stay `{}` / `[]`.
 * Text that is not JSON comes back as it was.
 */
export function formatJson(text: string, indent = 2): string {
  if (!checkJson(text).ok) return text;
  const out: string[] = [];
  let depth = 0;
  const newline = () => `\n${' '.repeat(depth * indent)}`;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? '';
    if (ch === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      out.push(text.slice(i, end + 1));
      i = end;
    } else if (ch === '{' || ch === '[') {
      let next = i + 1;
      while (' \t\n\r'.includes(text[next] ?? 'x')) next++;
      const close = ch === '{' ? '}' : ']';
      if (text[next] === close) {
        out.push(ch + close);
        i = next;
      } else {
        depth++;
        out.push(ch + newline());
      }
    } else if (ch === '}' || ch === ']') {
      depth--;
      out.push(newline() + ch);
    } else if (ch === ',') {
      out.push(`,${newline()}`);
    } else if (ch === ':') {
      out.push(': ');
    } else if (!' \t\n\r'.includes(ch)) {
      out.push(ch);
    }
  }
  return out.join('');
}
