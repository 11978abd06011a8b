/**
 * Server-Sent Events read from text as it arrives (the WHATWG rules an `EventSource` follows):
 * lines end with CRLF, LF or CR; `data:` lines accumulate; a blank line dispatches a `message`
 * event; comments and other fields are skipped. Only `message` events are handed on, as
 * `EventSource.onmessage` sees them.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private type = '';

  constructor(private readonly onMessage: (data: string) => void) {}

  push(text: string): void {
    this.buffer += text;
    for (;;) {
      const end = this.buffer.search(/\r\n|\n|\r/);
      // A CR at the very end may be the first half of a CRLF: wait for what follows.
      if (end < 0 || (end === this.buffer.length - 1 && this.buffer[end] === '\r')) return;
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + (this.buffer.startsWith('\r\n', end) ? 2 : 1));
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length > 0 && (this.type === '' || this.type === 'message')) this.onMessage(this.data.join('\n'));
      this.data = [];
      this.type = '';
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.type = value;
  }
}
