/**
 * What moving a large Flipt export costs: a 10,000-flag document (two variants, a rule with a
 * 50/50 distribution, one segment; `BENCH_IMPORT_FLAGS`) written as Flipt's YAML, then
 * `ensign import` into a fresh SQLite file and PostgreSQL database, `ensign export` of it back, and
 * `ensign import --address` through a running `ensign server` until its last flag evaluates. The
 * floor beside them: parsing the same YAML text alone, which any importer pays.
 * Run: `npm run bench:import`; writes results/import.json.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonClient, runEnsign, scratchDir, startEnsign } from '@ensign/testkit';
import { parseAllDocuments, stringify } from 'yaml';
import { machineOf, writeResults } from '../engine/results-file.js';
import { createBenchDatabase } from '../writes/bench-database.js';
import { splitFlagsDocument } from './flags-document.js';

const FLAGS = Number(process.env['BENCH_IMPORT_FLAGS'] ?? 10_000);
const NS = 'imported';

/** The document as `flipt export` writes it (version 1.4). */
const bigDocument = (): Record<string, unknown> => splitFlagsDocument({ key: NS, name: 'Imported' }, FLAGS);

const seconds = (ms: number) => Math.round(ms) / 1000;

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await work();
  return [value, performance.now() - started];
}

async function main(): Promise<void> {
  const loadAverage = (await import('node:os')).loadavg();
  const dir = scratchDir();
  const file = join(dir, 'all.yml');
  const text = stringify(bigDocument());
  writeFileSync(file, text);
  const [, parseMs] = await timed(async () => parseAllDocuments(text));
  const figures: Record<string, number> = { flags: FLAGS, bytes: text.length, yamlParseSeconds: seconds(parseMs) };

  for (const db of ['sqlite', 'postgres'] as const) {
    const database = await createBenchDatabase(db);
    try {
      const env = { ENSIGN_DB_URL: database.url };
      const [imported, importMs] = await timed(() => runEnsign(['import', file], { env, cwd: dir, timeoutMs: 600_000 }));
      if (imported.code !== 0) throw new Error(`${db} import failed: ${imported.stderr}`);
      const [exported, exportMs] = await timed(() => runEnsign(['export', '-n', NS], { env, cwd: dir, timeoutMs: 600_000 }));
      if (exported.code !== 0) throw new Error(`${db} export failed: ${exported.stderr}`);
      figures[`${db}ImportSeconds`] = seconds(importMs);
      figures[`${db}ExportSeconds`] = seconds(exportMs);
    } finally {
      await database.drop();
    }
  }

  const database = await createBenchDatabase('sqlite');
  const server = await startEnsign({ env: { ENSIGN_DB_URL: database.url, ENSIGN_SERVER_BODY_LIMIT: String(64 * 1048576) } });
  try {
    const api = jsonClient(server.baseUrl);
    const last = { namespaceKey: NS, flagKey: `flag-${String(FLAGS - 1).padStart(5, '0')}`, entityId: 'u1' };
    const [, remoteMs] = await timed(async () => {
      const imported = await runEnsign(['import', '--address', server.baseUrl, file], { cwd: dir, timeoutMs: 600_000 });
      if (imported.code !== 0) throw new Error(`import --address failed: ${imported.stderr}`);
      while ((await api.post('/evaluate/v1/variant', last)).status !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
    });
    figures.serverImportToEvaluationSeconds = seconds(remoteMs);
  } finally {
    await server.stop();
    await database.drop();
  }

  console.log(`\n${FLAGS.toLocaleString('en-US')} flags, ${(text.length / 1048576).toFixed(1)} MiB of YAML`);
  console.log(`parsing the YAML alone (the floor)              ${seconds(parseMs).toFixed(2)} s`);
  console.log(`ensign import, SQLite (process start to exit)    ${figures.sqliteImportSeconds?.toFixed(2)} s; export ${figures.sqliteExportSeconds?.toFixed(2)} s`);
  console.log(`ensign import, PostgreSQL                        ${figures.postgresImportSeconds?.toFixed(2)} s; export ${figures.postgresExportSeconds?.toFixed(2)} s`);
  console.log(`ensign import --address → last flag evaluates    ${figures.serverImportToEvaluationSeconds?.toFixed(2)} s`);
  const path = writeResults('import.json', { date: new Date().toISOString(), machine: machineOf(loadAverage), figures });
  console.log(`\nwritten ${path}`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
