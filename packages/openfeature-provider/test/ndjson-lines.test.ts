/** Lines of a stream split wherever its chunks end, blank lines skipped. */
import test from 'ava';
import { NdjsonLines } from '../src/source/ndjson-lines.js';

test('a line split over chunks is joined; several lines in one chunk are apart', (t) => {
  const lines: string[] = [];
  const splitter = new NdjsonLines((line) => lines.push(line));
  for (const chunk of ['{"a"', ':1}\n{"b":2}\n', '\n{"c"', '', ':3}', '\n']) splitter.push(chunk);
  t.deepEqual(lines, ['{"a":1}', '{"b":2}', '{"c":3}']);
});
