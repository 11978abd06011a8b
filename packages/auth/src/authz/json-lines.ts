/**
 * JSON text read with the line of every value, so a problem in a policy data file can be reported
 * as `data.json:7: roles[1].rules[0].actions ...`. JSON.parse says neither where a syntax error is
 * (Node 20's messages carry no position) nor where a value was.
 */
import { PolicyFileError } from './policy-file-error.js';

/** A parsed document and where its values start. */
export interface JsonWithLines {
  value: unknown;
  /** 1-based line where the value at `path` (as `jsonPath` spells it) starts; undefined for unknown paths. */
  lineOf(path: string): number | undefined;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** The path of a member: `roles[1].rules`, `data["io.flipt"]`; the root is `''`. */
export function jsonPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  if (!IDENTIFIER.test(key)) return `${parent}[${JSON.stringify(key)}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

/** Parses `text`; a syntax error throws a PolicyFileError naming `file` and the line. */
export function parseJsonWithLines(text: string, file: string): JsonWithLines {
  const reader = new Reader(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, file);
  const value = reader.document();
  const lines = reader.lines;
  return { value, lineOf: (path) => lines.get(path) };
}

class Reader {
  readonly lines = new Map<string, number>();
  private i = 0;
  private line = 1;

  constructor(
    private readonly text: string,
    private readonly file: string,
  ) {}

  document(): unknown {
    this.space();
    const value = this.value('');
    this.space();
    if (this.i < this.text.length) this.fail('nothing after the end of the document');
    return value;
  }

  private value(path: string): unknown {
    if (this.i >= this.text.length) this.fail('a value');
    this.lines.set(path, this.line);
    const ch = this.text[this.i];
    if (ch === '{') return this.object(path);
    if (ch === '[') return this.array(path);
    if (ch === '"') return this.string();
    for (const [word, value] of WORDS) {
      if (this.text.startsWith(word, this.i)) {
        this.i += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = this.i;
    const match = NUMBER.exec(this.text);
    if (match === null) this.fail('a value');
    this.i += match[0].length;
    return Number(match[0]);
  }

  private object(path: string): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.i++;
    this.space();
    if (this.text[this.i] === '}') {
      this.i++;
      return out;
    }
    for (;;) {
      if (this.text[this.i] !== '"') this.fail('a member name in double quotes');
      const key = this.string();
      this.space();
      this.expect(':');
      this.space();
      const member = this.value(jsonPath(path, key));
      Object.defineProperty(out, key, { value: member, enumerable: true, writable: true, configurable: true });
      this.space();
      if (this.text[this.i] === ',') {
        this.i++;
        this.space();
        continue;
      }
      this.expect('}', "',' or '}'");
      return out;
    }
  }

  private array(path: string): unknown[] {
    const out: unknown[] = [];
    this.i++;
    this.space();
    if (this.text[this.i] === ']') {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value(jsonPath(path, out.length)));
      this.space();
      if (this.text[this.i] === ',') {
        this.i++;
        this.space();
        continue;
      }
      this.expect(']', "',' or ']'");
      return out;
    }
  }

  /** Finds the closing quote, then lets JSON.parse decode the escapes (and refuse bad ones). */
  private string(): string {
    const start = this.i;
    let j = start + 1;
    for (;;) {
      const code = this.text.charCodeAt(j);
      if (Number.isNaN(code) || code === 0x0a) this.fail('a closing double quote');
      if (code === 0x5c) j += 2;
      else if (code === 0x22) break;
      else j++;
    }
    this.i = j + 1;
    try {
      return JSON.parse(this.text.slice(start, this.i)) as string;
    } catch {
      this.i = start;
      return this.fail('a valid string (control character or bad escape)');
    }
  }

  private expect(ch: string, what = `'${ch}'`): void {
    if (this.text[this.i] !== ch) this.fail(what);
    this.i++;
  }

  private space(): void {
    for (;;) {
      const ch = this.text[this.i];
      if (ch === '\n') this.line++;
      else if (ch !== ' ' && ch !== '\t' && ch !== '\r') return;
      this.i++;
    }
  }

  private fail(expected: string): never {
    const found = this.i >= this.text.length ? 'the end of the text' : `'${this.text[this.i]}'`;
    throw new PolicyFileError(this.file, this.line, `invalid JSON: expected ${expected}, found ${found}`);
  }
}

const WORDS: ReadonlyArray<readonly [string, unknown]> = [
  ['true', true],
  ['false', false],
  ['null', null],
];
