import test from 'ava';
import { SseParser } from '../src/sse-parser.js';

const parsed = (...chunks: string[]): string[] => {
  const messages: string[] = [];
  const parser = new SseParser((data) => messages.push(data));
  for (const chunk of chunks) parser.push(chunk);
  return messages;
};

test('an event is dispatched at its blank line, whatever the chunks', (t) => {
  t.deepEqual(parsed('id: 123\ndata: {"etag":"a"}\n\n'), ['{"etag":"a"}']);
  t.deepEqual(parsed('id: 1', '23\nda', 'ta: {"etag":"a"}\n', '\n'), ['{"etag":"a"}']);
  t.deepEqual(parsed('data: x\n'), [], 'nothing before the blank line');
});

test('CRLF, LF and CR end lines, a CR split from its LF included', (t) => {
  t.deepEqual(parsed('data: a\r\n\r\ndata: b\r\rdata: c\n\n'), ['a', 'b', 'c']);
  t.deepEqual(parsed('data: a\r', '\n\r', '\n'), ['a']);
});

test('data lines join with newlines; comments, other fields and other event types are skipped', (t) => {
  t.deepEqual(parsed(': keep-alive\ndata: one\ndata:two\nretry: 10\n\n'), ['one\ntwo']);
  t.deepEqual(parsed('event: ping\ndata: skipped\n\nevent: message\ndata: kept\n\n'), ['kept']);
});
