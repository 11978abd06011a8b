/**
 * Splits a stream of text into lines without rescanning: each chunk is searched once for line
 * ends, and the parts of a long line (a snapshot of thousands of flags) are joined only when its
 * end arrives.
 */
export class NdjsonLines {
  private parts: string[] = [];

  constructor(private readonly line: (text: string) => void) {}

  push(chunk: string): void {
    let start = 0;
    for (let end = chunk.indexOf('\n'); end !== -1; end = chunk.indexOf('\n', start)) {
      this.parts.push(chunk.slice(start, end));
      const text = this.parts.join('');
      this.parts = [];
      if (text.trim() !== '') this.line(text);
      start = end + 1;
    }
    if (start < chunk.length) this.parts.push(chunk.slice(start));
  }
}
