/** Runs wrk over a workload (its Lua script written to the run's directory) and reads its result line. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GeneratorSetting, LoadGenerator, LoadResult } from './load-generator.js';
import { runLoadProcess } from './load-process.js';
import { RESULT_MARKER, wrkScript } from './wrk-script.js';
import type { HttpWorkload } from './http-workload.js';

interface WrkResult {
  requests: number;
  durationMicros: number;
  p50Micros: number;
  p99Micros: number;
  meanMicros: number;
  connectErrors: number;
  readErrors: number;
  writeErrors: number;
  timeouts: number;
  non2xx: number;
}

const ms = (micros: number) => Math.round(micros / 10) / 100;

export function wrkGenerator(setting: GeneratorSetting): LoadGenerator {
  const scripts = new Map<HttpWorkload, string>();
  const scriptOf = (workload: HttpWorkload): string => {
    let path = scripts.get(workload);
    if (path === undefined) {
      path = join(setting.dir, `wrk-${scripts.size + 1}.lua`);
      writeFileSync(path, wrkScript(workload));
      scripts.set(workload, path);
    }
    return path;
  };
  return {
    name: 'wrk',
    async run(base, workload, seconds): Promise<LoadResult> {
      // One thread: the generator has one CPU, more threads would only take turns on it.
      const args = ['-t1', `-c${setting.connections}`, `-d${Math.max(1, Math.round(seconds))}s`, '--timeout', '5s', '--latency', '-s', scriptOf(workload), base];
      const out = await runLoadProcess('wrk', args, { cpu: setting.cpu, timeoutMs: (seconds + 30) * 1000 });
      const line = out.split('\n').find((l) => l.startsWith(RESULT_MARKER));
      if (line === undefined) throw new Error(`wrk printed no result line:\n${out}`);
      const r = JSON.parse(line.slice(RESULT_MARKER.length)) as WrkResult;
      return {
        requests: r.requests,
        durationSeconds: r.durationMicros / 1e6,
        latencyP50Ms: ms(r.p50Micros),
        latencyP99Ms: ms(r.p99Micros),
        latencyAvgMs: ms(r.meanMicros),
        errors: r.connectErrors + r.readErrors + r.writeErrors + r.timeouts,
        non2xx: r.non2xx,
      };
    },
  };
}
