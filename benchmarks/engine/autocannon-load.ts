/** The fallback generator: `autocannon-client.js` in its own process, reading the workload from a file. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HttpWorkload } from './http-workload.js';
import type { GeneratorSetting, LoadGenerator, LoadResult } from './load-generator.js';
import { runLoadProcess } from './load-process.js';

const CLIENT = fileURLToPath(new URL('./autocannon-client.js', import.meta.url));

export function autocannonGenerator(setting: GeneratorSetting): LoadGenerator {
  const files = new Map<HttpWorkload, string>();
  const fileOf = (workload: HttpWorkload): string => {
    let path = files.get(workload);
    if (path === undefined) {
      path = join(setting.dir, `autocannon-${files.size + 1}.json`);
      writeFileSync(path, JSON.stringify(workload));
      files.set(workload, path);
    }
    return path;
  };
  return {
    name: 'autocannon',
    async run(base, workload, seconds): Promise<LoadResult> {
      const args = [CLIENT, base, String(seconds), String(setting.connections), fileOf(workload)];
      const out = await runLoadProcess(process.execPath, args, { cpu: setting.cpu, timeoutMs: (seconds + 30) * 1000 });
      return JSON.parse(out) as LoadResult;
    },
  };
}
