/**
 * The package graph says what the code does. The package table of docs/architecture.md (its
 * "imports (of ours)" column) is the rule: every import under packages/<p>/src (type-only and
 * `import()` included), p's package.json `dependencies` and p's production tsconfig references keep
 * to p's row, and testkit is never a runtime dependency. Every package a file imports is declared:
 * what src imports in `dependencies`, what only tests and tooling import in `devDependencies`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';
import { repositoryRoot } from '@ensign/testkit';
import test from 'ava';
import ts from 'typescript';

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

interface Tsconfig {
  include?: string[];
  references?: Array<{ path: string }>;
}

const SCOPE = '@ensign/';
const TESTKIT = 'testkit';
const at = (...parts: string[]): string => join(repositoryRoot, ...parts);
const shown = (path: string): string => relative(repositoryRoot, path);
const manifestOf = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/** The package folders, by the name after `@ensign/`. */
const packages = readdirSync(at('packages'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(at('packages', entry.name, 'package.json')))
  .map((entry) => entry.name)
  .sort();

/** The table's rows: package → the cell of its "imports (of ours)" column, as names. */
function packageTable(): Map<string, string[]> {
  const lines = readFileSync(at('docs', 'architecture.md'), 'utf8').split('\n');
  const header = lines.findIndex((line) => line.startsWith('|') && line.includes('imports (of ours)'));
  if (header < 0) throw new Error('docs/architecture.md has no table with an "imports (of ours)" column');
  const cells = (line: string): string[] => line.split('|').slice(1, -1).map((cell) => cell.trim().replaceAll('`', ''));
  const column = cells(lines[header]!).indexOf('imports (of ours)');
  const rows = new Map<string, string[]>();
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const row = cells(line);
    // "snapshots (types)" allows snapshots; "—" allows none.
    const names = (row[column] ?? '').replace(/\([^)]*\)/g, '').split(',').map((name) => name.trim());
    rows.set(row[0]!, names.filter((name) => name !== '' && name !== '—'));
  }
  return rows;
}

const table = packageTable();

/** What `p` may import of ours: its row, where `all` is every package but itself and testkit. */
function allowed(p: string): Set<string> {
  const row = table.get(p) ?? [];
  return new Set(row.includes('all') ? packages.filter((q) => q !== p && q !== TESTKIT) : row);
}

/** The TypeScript files under `dir`, builds and installs left out. */
function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'dist' || entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.[cm]?tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** `require` itself, or one made by `createRequire(...)`. */
const isRequire = (node: ts.Expression): boolean =>
  (ts.isIdentifier(node) && node.text === 'require') ||
  (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'createRequire');

/** Each file is parsed once: several tests read the same files. */
const specifiers = new Map<string, string[]>();

/** Every module `file` names: imports and re-exports (type-only too), `import()` in code and types, `require` and `require.resolve`. */
function specifiersOf(file: string): string[] {
  const known = specifiers.get(file);
  if (known !== undefined) return known;
  const found: string[] = [];
  const literal = (node: ts.Node | undefined): void => {
    if (node !== undefined && ts.isStringLiteralLike(node)) found.push(node.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) literal(node.moduleReference.expression);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const loads = callee.kind === ts.SyntaxKind.ImportKeyword || isRequire(callee);
      const resolves = ts.isPropertyAccessExpression(callee) && callee.name.text === 'resolve' && isRequire(callee.expression);
      if (loads || resolves) literal(node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true));
  specifiers.set(file, found);
  return found;
}

/** The package a specifier loads (`@ensign/grpc/evaluation` → `@ensign/grpc`); none for relative paths and Node's modules. */
function packageOf(specifier: string): string | undefined {
  if (/^[./#]/.test(specifier) || isBuiltin(specifier)) return undefined;
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

test('every package has a row in the package table, and every row is a package', (t) => {
  t.deepEqual(packages.filter((p) => !table.has(p)), [], 'packages without a row');
  t.deepEqual([...table.keys()].filter((row) => !packages.includes(row)), [], 'rows of no package');
});

test('src imports only the packages of its row (type-only and dynamic imports too)', (t) => {
  const violations = packages.flatMap((p) =>
    sourceFiles(at('packages', p, 'src')).flatMap((file) =>
      specifiersOf(file)
        .filter((specifier) => {
          const name = packageOf(specifier);
          if (!name?.startsWith(SCOPE)) return false;
          const ours = name.slice(SCOPE.length);
          return ours !== p && !allowed(p).has(ours);
        })
        .map((specifier) => `${shown(file)} imports ${specifier}, which the ${p} row does not allow`),
    ),
  );
  t.deepEqual(violations, []);
});

test('package.json dependencies name only the packages of its row, and never testkit', (t) => {
  const violations = packages.flatMap((p) => {
    const manifest = manifestOf(at('packages', p));
    return Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })
      .filter((name) => name.startsWith(SCOPE))
      .filter((name) => name === SCOPE + TESTKIT || !allowed(p).has(name.slice(SCOPE.length)))
      .map((name) => `packages/${p}/package.json depends on ${name}, which the ${p} row does not allow`);
  });
  t.deepEqual(violations, []);
});

test('a production tsconfig compiles src only and references only the production projects of its row, never testkit', (t) => {
  const violations = packages.flatMap((p) => {
    const dir = at('packages', p);
    const { config, error } = ts.readConfigFile(join(dir, 'tsconfig.json'), ts.sys.readFile);
    if (error !== undefined) return [`packages/${p}/tsconfig.json: ${ts.flattenDiagnosticMessageText(error.messageText, '\n')}`];
    const { include = [], references = [] } = config as Tsconfig;
    const outside = include.filter((path) => path !== 'src' && !path.startsWith('src/')).map((path) => `packages/${p}/tsconfig.json compiles ${path}`);
    const refused = references
      .filter(({ path }) => {
        const [q, ...below] = relative(at('packages'), resolve(dir, path.replace(/\/?tsconfig\.json$/, ''))).split(sep);
        return q === undefined || q === TESTKIT || below.length > 0 || !allowed(p).has(q);
      })
      .map(({ path }) => `packages/${p}/tsconfig.json references ${path}, which the ${p} row does not allow`);
    return [...outside, ...refused];
  });
  t.deepEqual(violations, []);
});

test('every package a file imports is declared: src in dependencies, tests and tooling in either', (t) => {
  const undeclared = (files: string[], manifest: Manifest, runtimeOnly: (file: string) => boolean): string[] => {
    const runtime = new Set([manifest.name, ...Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })]);
    const any = new Set([...runtime, ...Object.keys(manifest.devDependencies ?? {})]);
    return files.flatMap((file) =>
      specifiersOf(file)
        .map(packageOf)
        .filter((name): name is string => name !== undefined && !(runtimeOnly(file) ? runtime : any).has(name))
        .map((name) => `${shown(file)} imports ${name}, not in the ${runtimeOnly(file) ? 'dependencies' : 'dependencies or devDependencies'} of ${manifest.name}`),
    );
  };
  const violations = [
    ...packages.flatMap((p) => {
      const src = at('packages', p, 'src') + sep;
      return undeclared(sourceFiles(at('packages', p)), manifestOf(at('packages', p)), (file) => file.startsWith(src));
    }),
    ...undeclared([...sourceFiles(at('test')), ...sourceFiles(at('benchmarks'))], manifestOf(repositoryRoot), () => false),
  ];
  t.deepEqual([...new Set(violations)], []);
});
