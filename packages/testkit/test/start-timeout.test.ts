import test from 'ava';
import { startEnsign } from '@ensign/testkit';

// Stands in for a server that listens but never becomes healthy, and for one that never listens.
const answers503 = "require('node:http').createServer((q, s) => { s.statusCode = 503; s.end(); }).listen(Number(process.env.ENSIGN_SERVER_HTTP_PORT), '127.0.0.1')";
const neverListens = 'setInterval(() => {}, 1000)';

test('a start that never turns healthy fails naming what /health last answered', async (t) => {
  const err = await t.throwsAsync(startEnsign({ launcher: [process.execPath, '-e', answers503], startTimeoutMs: 1500 }));
  t.regex(err!.message, /was not healthy within 1500 ms \(GET \/health last: HTTP 503\)/);
});

test('a start where nothing listens fails naming the refused connection', async (t) => {
  const err = await t.throwsAsync(startEnsign({ launcher: [process.execPath, '-e', neverListens], startTimeoutMs: 1500 }));
  t.regex(err!.message, /was not healthy within 1500 ms \(GET \/health last: ECONNREFUSED\)/);
});
