/**
 * Run as a child of the benchmark (`node --expose-gc memory-probe.js <url> <namespace> <evaluations>
 * <flag,flag,…>`): the memory of a process holding one provider of a large namespace, on its own,
 * so nothing else of the benchmark is counted. Prints one line of JSON.
 */
import { readFileSync } from 'node:fs';
import { EnsignProvider } from '@ensign/openfeature-provider';
import { OpenFeature } from '@openfeature/server-sdk';

const [url, namespace, evaluationsText, flagList] = process.argv.slice(2) as [string, string, string, string];
const collect = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const settle = () => {
  collect();
  collect();
  return process.memoryUsage();
};
const peakRss = (): number => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;

const before = settle();
const started = performance.now();
await OpenFeature.setProviderAndWait(new EnsignProvider({ url, namespace, counts: false, initTimeoutMs: 60_000 }));
const readyMs = performance.now() - started;
const held = settle();
const client = OpenFeature.getClient();
const flags = flagList.split(',');
for (let i = 0; i < Number(evaluationsText); i++) {
  await client.getStringValue(flags[i % flags.length]!, 'none', { targetingKey: `user-${i}`, plan: i % 3 === 0 ? 'pro' : 'team', seats: String(i % 40) });
}
const loaded = settle();
console.log(JSON.stringify({ readyMs, before, held, loaded, peakRss: peakRss() }));
await OpenFeature.close();
process.exit(0);
