/**
 * `tools/build-ui.mjs`, which `npm run build` and `npm start` run: the UI is bundled when anything
 * it is built from changed since its last build, and left as it is otherwise, so a start right after
 * `npm ci` does not build it a second time. Run here on a small UI of its own in a scratch checkout.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repositoryRoot, scratchDir } from '@ensign/testkit';
import test from 'ava';

const script = join(repositoryRoot, 'tools/build-ui.mjs');

/** A checkout holding a UI of two modules that uses the compiled core, with the real Vite configuration. */
function checkout(): string {
  const root = scratchDir('ensign-build-ui-');
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  symlinkSync(join(repositoryRoot, 'node_modules'), join(root, 'node_modules'));
  write('package-lock.json', '{}\n');
  write('tsconfig.base.json', '{}\n');
  write('packages/core/package.json', '{"name": "core", "type": "module"}\n');
  write('packages/core/dist/src/index.js', "export const product = 'Ensign';\n");
  write('packages/ui/package.json', '{"name": "ui", "type": "module"}\n');
  write('packages/ui/tsconfig.json', '{}\n');
  write('packages/ui/vite.config.ts', readFileSync(join(repositoryRoot, 'packages/ui/vite.config.ts'), 'utf8'));
  write('packages/ui/public/favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>\n');
  write('packages/ui/index.html', '<!doctype html><html><body><script type="module" src="/src/main.js"></script></body></html>\n');
  write('packages/ui/src/main.js', "import { product } from '../../core/dist/src/index.js';\nimport { greeting } from './greeting.js';\ndocument.title = `${greeting} ${product}`;\n");
  write('packages/ui/src/greeting.js', "export const greeting = 'hello';\n");
  write('packages/ui/src/unused.js', 'export {};\n');
  return root;
}

const run = (root: string, ...args: string[]): Promise<{ code: number; stderr: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, [script, '--root', root, ...args], { timeout: 90_000 }, (err, _stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : -1, stderr });
    });
  });

/** The bundle's JavaScript, and when its index.html was written. */
function bundle(root: string): { js: string; writtenAt: number } {
  const web = join(root, 'packages/ui/dist/web');
  const assets = join(web, 'assets');
  const js = readdirSync(assets).filter((name) => name.endsWith('.js')).map((name) => readFileSync(join(assets, name), 'utf8')).join('\n');
  return { js, writtenAt: statSync(join(web, 'index.html')).mtimeMs };
}

/** Dates a file (or directory) an hour back, as a file untouched since long before the build. */
const age = (path: string) => {
  const past = new Date(Date.now() - 3_600_000);
  utimesSync(path, past, past);
};

/** Every input dated before the first build, so only what a step changes is newer than the build. */
function ageInputs(root: string): void {
  const walk = (path: string) => {
    if (statSync(path).isDirectory()) for (const entry of readdirSync(path)) walk(join(path, entry));
    age(path);
  };
  for (const input of ['package-lock.json', 'tsconfig.base.json', 'packages/core', 'packages/ui']) walk(join(root, input));
}

test.serial('builds when there is no build; leaves an up-to-date build alone; rebuilds after an edit, a deleted file, a new core, a new lock file', async (t) => {
  const root = checkout();
  ageInputs(root);
  const first = await run(root);
  t.is(first.code, 0, first.stderr);
  const built = bundle(root);
  t.regex(built.js, /hello/);

  t.is((await run(root)).code, 0);
  t.is(bundle(root).writtenAt, built.writtenAt, 'nothing changed: the build was not run again');

  writeFileSync(join(root, 'packages/ui/src/greeting.js'), "export const greeting = 'bonjour';\n");
  t.is((await run(root)).code, 0);
  t.regex(bundle(root).js, /bonjour/, 'an edited source is bundled');

  const beforeDelete = bundle(root).writtenAt;
  rmSync(join(root, 'packages/ui/src/unused.js'));
  t.is((await run(root)).code, 0);
  t.not(bundle(root).writtenAt, beforeDelete, 'a deleted source rebuilds');

  writeFileSync(join(root, 'packages/core/dist/src/index.js'), "export const product = 'Ensign 2';\n");
  t.is((await run(root)).code, 0);
  t.regex(bundle(root).js, /Ensign 2/, 'a newly compiled core is bundled');

  const beforeLock = bundle(root).writtenAt;
  writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion": 3}\n');
  t.is((await run(root)).code, 0);
  t.not(bundle(root).writtenAt, beforeLock, 'new dependencies rebuild');

  const beforeForce = bundle(root).writtenAt;
  t.is((await run(root, '--force')).code, 0);
  t.not(bundle(root).writtenAt, beforeForce, '--force rebuilds');
});

test.serial('a failed build fails the command and is tried again next time; so is a build whose output was removed', async (t) => {
  const root = checkout();
  ageInputs(root);
  t.is((await run(root)).code, 0);

  writeFileSync(join(root, 'packages/ui/src/greeting.js'), 'export const greeting = ;\n');
  const failed = await run(root);
  t.not(failed.code, 0);
  t.regex(failed.stderr, /greeting\.js/);
  const again = await run(root);
  t.not(again.code, 0, 'the failure is not taken for an up-to-date build');

  writeFileSync(join(root, 'packages/ui/src/greeting.js'), "export const greeting = 'hallo';\n");
  t.is((await run(root)).code, 0);
  t.regex(bundle(root).js, /hallo/);

  rmSync(join(root, 'packages/ui/dist/web'), { recursive: true });
  t.is((await run(root)).code, 0);
  t.true(existsSync(join(root, 'packages/ui/dist/web/index.html')));
});
