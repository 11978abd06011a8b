import test from 'ava';
import { checkAttachment, checkJson, formatJson, lineColumn } from '../src/lib/json-text.js';

test('valid JSON passes, any kind of value', (t) => {
  for (const text of ['{}', '[]', '{"a":[1,2,{"b":null}]}', ' "text" ', '-1.5e3', 'true']) t.deepEqual(checkJson(text), { ok: true }, text);
});

test('invalid JSON says what and where, by line and column', (t) => {
  t.deepEqual(checkJson('{"a": 1,\n "b" 2}'), { ok: false, message: "Expected ':' after the property name but found '2' at line 2, column 6", line: 2, column: 6 });
  t.deepEqual(checkJson('{"a": 1 "b": 2}'), { ok: false, message: "Expected ',' or '}' but found '\"' at line 1, column 9", line: 1, column: 9 });
  t.deepEqual(checkJson('{"a": 1,}'), { ok: false, message: 'Expected a property name (no comma before }) but found \'}\' at line 1, column 9', line: 1, column: 9 });
  t.deepEqual(checkJson("{'a': 1}"), { ok: false, message: "Expected a property name in double quotes but found ''' at line 1, column 2", line: 1, column: 2 });
  t.deepEqual(checkJson('[1, 2'), { ok: false, message: "Expected ',' or ']' before the end of the text at line 1, column 6", line: 1, column: 6 });
  t.deepEqual(checkJson('{"a": tru}'), { ok: false, message: "Expected a value but found 't' at line 1, column 7", line: 1, column: 7 });
  t.deepEqual(checkJson('{"a": "x\ny"}'), { ok: false, message: 'Unterminated string (a line break must be written \\n) at line 1, column 9', line: 1, column: 9 });
  t.deepEqual(checkJson('{} {}'), { ok: false, message: "Unexpected '{' after the end of the value at line 1, column 4", line: 1, column: 4 });
  t.deepEqual(checkJson(''), { ok: false, message: 'Expected a JSON value at line 1, column 1', line: 1, column: 1 });
  t.deepEqual(checkJson('01'), { ok: false, message: "Unexpected '1' after the end of the value at line 1, column 2", line: 1, column: 2 });
  t.deepEqual(checkJson('"\\x"'), { ok: false, message: 'Invalid escape in a string at line 1, column 2', line: 1, column: 2 });
});

test('an attachment may be empty, must be JSON, and stays under 1000 KB', (t) => {
  t.true(checkAttachment('').ok);
  t.true(checkAttachment('  \n').ok);
  t.false(checkAttachment('{').ok);
  const big = JSON.stringify({ text: 'x'.repeat(1_024_001) });
  const check = checkAttachment(big);
  t.false(check.ok);
  t.is(check.ok ? '' : check.message, 'The attachment must be less than 1000 KB');
});

test('formatting pretty-prints and keeps every token as typed', (t) => {
  t.is(formatJson('{"a":1.0,"b":[12345678901234567890,{}],"c":{"d":"x, y: {z}","e":[]}}'), '{\n  "a": 1.0,\n  "b": [\n    12345678901234567890,\n    {}\n  ],\n  "c": {\n    "d": "x, y: {z}",\n    "e": []\n  }\n}');
  t.is(formatJson('{ }'), '{}');
  t.is(formatJson('"a \\" quote"'), '"a \\" quote"');
  t.is(formatJson('{"a":'), '{"a":', 'invalid text is left alone');
  t.is(formatJson(formatJson('{"a":[1,2]}')), '{\n  "a": [\n    1,\n    2\n  ]\n}', 'formatting twice changes nothing');
});

test('line and column of an offset', (t) => {
  t.deepEqual(lineColumn('ab\ncd', 0), { line: 1, column: 1 });
  t.deepEqual(lineColumn('ab\ncd', 4), { line: 2, column: 2 });
});
