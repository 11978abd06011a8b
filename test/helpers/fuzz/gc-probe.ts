/**
 * Loaded into the fuzzed server (`NODE_OPTIONS=--expose-gc --import=<this file>`): on SIGUSR2 it
 * collects garbage and prints the resident set, so the fuzzer compares memory that is really held.
 */
export const RSS_LINE = 'ensign-fuzz-rss';

process.on('SIGUSR2', () => {
  globalThis.gc?.();
  globalThis.gc?.();
  const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
  process.stderr.write(`${RSS_LINE} ${rss} heap ${heapUsed} external ${external} committed ${heapTotal}\n`);
});
