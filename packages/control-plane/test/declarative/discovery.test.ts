/**
 * Which files declarative storage reads: Flipt's default globs without `.flipt.yml`, the index's
 * include and exclude globs (compiled without separators, so `*` crosses `/`), and the order files
 * are read in (Go's WalkDir: each directory's entries by name).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import test from 'ava';
import { compileGlob, DeclarativeError, defaultFliptIndex, directoryTree, parseFliptIndex, readStateFiles, walkOrder } from '../../src/declarative/index.js';

const dirs: string[] = [];
test.after.always(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A directory holding `files` (path → content). */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'ensign-discovery-'));
  dirs.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

const pathsRead = async (files: Record<string, string>): Promise<string[]> => (await readStateFiles(directoryTree(tree(files)))).files.map((f) => f.path);

test('without .flipt.yml, Flipt\'s default globs keep any path ending in features.yml or features.yaml', (t) => {
  const index = defaultFliptIndex();
  for (const path of ['features.yml', 'features.yaml', 'a/b/features.yml', 'x.features.yaml', 'team/x.features.yml', 'myfeatures.yml', 'deep/er/myfeatures.yaml']) {
    t.true(index.match(path), path);
  }
  for (const path of ['features.json', 'flags.yml', 'features.yml.bak', 'features.ymlx', 'README.md', '.flipt.yml']) {
    t.false(index.match(path), path);
  }
});

test('the defaults applied to a directory: only matching files, in walk order', async (t) => {
  const paths = await pathsRead({
    'z.features.yml': 'flags: []',
    'features.yml': 'flags: []',
    'a/b/features.yml': 'flags: []',
    'a.features.yaml': 'flags: []',
    'notes.txt': 'not read',
    'flags.yml': 'not read either',
  });
  // WalkDir visits "a" (a directory) before "a.features.yaml": entries are sorted by name.
  t.deepEqual(paths, ['a/b/features.yml', 'a.features.yaml', 'features.yml', 'z.features.yml']);
});

test('.flipt.yml: a path is kept when it matches an include and no exclude; the defaults no longer apply', async (t) => {
  const paths = await pathsRead({
    '.flipt.yml': 'version: "1.0"\ninclude:\n  - "flags/**/*.yml"\n  - "*.json"\nexclude:\n  - "**/draft-*"\n',
    'flags/a.yml': 'flags: []',
    'flags/team/b.yml': 'flags: []',
    'flags/team/draft-c.yml': 'flags: []',
    'root.json': '{}',
    'features.yml': 'not matched: the defaults do not apply with an index',
  });
  // As in gobwas/glob, `**/` is no special "any directories": `flags/**/*.yml` needs a directory below flags/.
  t.deepEqual(paths, ['flags/team/b.yml', 'root.json']);
});

test('.flipt.yml without include keeps nothing (as in Flipt)', async (t) => {
  t.deepEqual(await pathsRead({ '.flipt.yml': 'version: "1.0"\nexclude: ["x"]\n', 'features.yml': 'flags: []' }), []);
});

test('a bad .flipt.yml is refused naming the file and the list', async (t) => {
  const cases: Array<[string, RegExp]> = [
    ['include: "*.yml"\n', /^\.flipt\.yml: include: include must be a list of glob strings$/],
    ['include: ["[a-"]\n', /^\.flipt\.yml: include: compiling include glob: glob "\[a-": unclosed \[$/],
    ['exclude: ["{a,b"]\ninclude: ["*"]\n', /^\.flipt\.yml: exclude: compiling exclude glob: glob "\{a,b": unclosed \{$/],
    ['include: [a\n', /^\.flipt\.yml: invalid YAML: /],
    ['', /^\.flipt\.yml: the file is empty; it needs an include list$/],
    ['- a\n- b\n', /^\.flipt\.yml: must be a mapping of version, include and exclude$/],
  ];
  for (const [text, message] of cases) {
    const err = await t.throwsAsync(readStateFiles(directoryTree(tree({ '.flipt.yml': text }))), { instanceOf: DeclarativeError });
    t.regex(err?.message ?? '', message, JSON.stringify(text));
    t.is(err?.file, '.flipt.yml');
  }
});

test('globs: * and ** cross /, ?, classes, ranges, negation, alternatives and escapes', (t) => {
  const cases: Array<[string, string, boolean]> = [
    ['*.yml', 'a/b/c.yml', true],
    ['**.yml', 'c.yml', true],
    ['flags/*', 'flags/a/b', true],
    ['?.yml', 'a.yml', true],
    ['?.yml', 'ab.yml', false],
    ['[ab].yml', 'b.yml', true],
    ['[ab].yml', 'c.yml', false],
    ['[!ab].yml', 'c.yml', true],
    ['[!ab].yml', 'a.yml', false],
    ['[a-c]x', 'bx', true],
    ['[a-c]x', 'dx', false],
    ['{prod,staging}/*.yml', 'staging/x.yml', true],
    ['{prod,staging}/*.yml', 'dev/x.yml', false],
    ['{a,{b,c}d}', 'cd', true],
    ['\\*.yml', '*.yml', true],
    ['\\*.yml', 'a.yml', false],
    ['a.yml', 'aXyml', false],
    ['(x)+.yml', '(x)+.yml', true],
  ];
  for (const [glob, path, expected] of cases) t.is(compileGlob(glob).test(path), expected, `${glob} ~ ${path}`);
  for (const bad of ['[abc', '{a,b', 'a\\', '[z-a]']) t.throws(() => compileGlob(bad), undefined, bad);
});

test('walk order is per directory by name', (t) => {
  t.deepEqual(walkOrder(['b.yml', 'a.yml', 'a/z.yml', 'a-b/x.yml', 'a/b/c.yml']), ['a/b/c.yml', 'a/z.yml', 'a-b/x.yml', 'a.yml', 'b.yml']);
});

test('an index parsed from text matches as the file says', (t) => {
  const index = parseFliptIndex('include: ["**/*.features.yml"]\nexclude: ["vendor/**"]\n');
  t.deepEqual(index.include, ['**/*.features.yml']);
  t.true(index.match('team/a.features.yml'));
  t.false(index.match('vendor/x/a.features.yml'));
  t.false(index.match('a.features.yml'), 'the include needs a slash before the name');
});

test('symbolic links to files are read; links to directories are not followed', async (t) => {
  const root = tree({ 'real/one.features.yml': 'flags: []' });
  symlinkSync(join(root, 'real/one.features.yml'), join(root, 'linked.features.yml'));
  symlinkSync(join(root, 'real'), join(root, 'linked-dir'));
  const files = (await readStateFiles(directoryTree(root))).files;
  t.deepEqual(files.map((f) => f.path), ['linked.features.yml', 'real/one.features.yml']);
  t.is(files[0]?.content.toString(), 'flags: []');
});
