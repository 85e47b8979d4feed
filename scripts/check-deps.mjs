#!/usr/bin/env node
// Every workspace declares in its package.json what its source imports, and imports what it
// declares. npm hoists every package to the root node_modules, so an undeclared import works here
// and breaks only when the workspace is installed or deployed on its own; an unused declaration
// costs install time and audit noise. Run by `npm run check:deps`, `npm run check` and CI.
//
// Rules:
// - Imports are the bare specifiers of static `import`/`export … from`, `import type`, dynamic
//   `import()`, `typeof import()` and `require()` in .ts/.js/.mjs/.cjs files (read with the
//   TypeScript scanner, so comments and strings do not count), and the literal argument of
//   `require.resolve()` / `import.meta.resolve()` (files of a package read from disk, such as the
//   Swagger UI assets, are a dependency too). `node:` and other builtins,
//   relative paths and `#` subpath imports are not dependencies.
// - An import is declared when the workspace lists the package in dependencies, devDependencies or
//   peerDependencies, or it is the workspace's own name. Type-only packages count as used when the
//   package they type is imported (`@types/pg` by `pg`, `@types/scope__name` by `@scope/name`).
// - Test code (`*.test.ts`, `*.test-helper.ts`, `test-*.ts`, and every file of the `test/`
//   workspace, which holds only tests) may also import the root devDependencies: the test runner
//   and its tools (vitest, fast-check) are the repository's, not each package's.
// - The root (bench/, scripts/, configuration files) may import any workspace of the repository.
// - One version of each external package across the repository, pinned exactly (`1.2.3`), as
//   npm would otherwise install two copies side by side; workspaces depend on each other with `*`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// The repository this script lives in, or the one named by the first argument (the tests' fixtures).
const ROOT = process.argv[2] ? resolve(process.argv[2]) : fileURLToPath(new URL('..', import.meta.url));

/**
 * Declared but never imported by design: each entry says what uses it. Keyed by workspace
 * directory ('.' is the root).
 */
const USED_OUTSIDE_IMPORTS = {
  '.': {
    '@bufbuild/buf': 'the `buf` binary: npm run lint:proto / generate',
    '@bufbuild/protoc-gen-es': 'the protoc plugin `buf generate` runs (buf.gen.yaml)',
    '@types/node': 'ambient types of every node: import',
    'kysely-codegen': 'the `kysely-codegen` binary scripts/table-types.ts runs (npm run generate:tables)',
    tsx: 'the `tsx` binary that runs bench/ and scripts/*.ts',
    turbo: 'the `turbo` binary: npm run check',
    typescript: 'the `tsc` binary: npm run typecheck',
  },
};

const SOURCE = /\.(?:[cm]?ts|[cm]?js)$/;
const SKIPPED_DIRS = new Set(['node_modules', '.git', '.data', '.turbo', 'dist', 'coverage']);
const TEST_FILE = /(?:\.test\.ts|\.test-helper\.ts)$|(?:^|\/)test-[^/]*\.ts$/;
const TEST_WORKSPACE = 'test';
const BUILTINS = new Set(builtinModules);
const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[\w.]+)?$/;

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

/** Workspace directories (relative to the root) named by the root package.json's patterns. */
function workspaceDirs(patterns) {
  return patterns.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [pattern];
    const parent = pattern.slice(0, -2);
    return readdirSync(join(ROOT, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && exists(join(ROOT, parent, entry.name, 'package.json')))
      .map((entry) => `${parent}/${entry.name}`);
  });
}

function exists(path) {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Source files under `dir`, not descending into `excluded` (other workspaces, for the root). */
function sourceFiles(dir, excluded = new Set()) {
  const files = [];
  const walk = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name) && !excluded.has(relative(ROOT, path))) walk(path);
      } else if (SOURCE.test(entry.name)) {
        files.push(path);
      }
    }
  };
  walk(dir);
  return files.sort();
}

/** Package name of a bare specifier, or undefined for builtins, relative paths and subpath imports. */
function packageOf(specifier) {
  if (/^(?:\.|\/|#|node:|[a-z]+:\/\/)/.test(specifier)) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return BUILTINS.has(name) ? undefined : name;
}

/** The package a `@types/…` package types: `@types/pg` → `pg`, `@types/scope__name` → `@scope/name`. */
function typedPackage(typesName) {
  const bare = typesName.slice('@types/'.length);
  return bare.includes('__') ? `@${bare.replace('__', '/')}` : bare;
}

/** Literal arguments of `require.resolve(…)` and `import.meta.resolve(…)` calls (parsed, so strings do not count). */
function resolvedSpecifiers(file, text) {
  // Parsing is slow next to the scanner: only files that may hold such a call.
  if (!text.includes('.resolve(')) return [];
  const specifiers = [];
  const visit = (node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'resolve' &&
      /^(?:require|import\.meta)$/.test(node.expression.expression.getText()) &&
      node.arguments.length > 0 &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true));
  return specifiers;
}

const packagesByFile = new Map();
/** The packages one file imports, read once however many views of a workspace ask. */
function packagesImportedBy(file) {
  if (!packagesByFile.has(file)) {
    const text = readFileSync(file, 'utf8');
    const specifiers = [
      ...ts.preProcessFile(text, true, true).importedFiles.map((imported) => imported.fileName),
      ...resolvedSpecifiers(file, text),
    ];
    packagesByFile.set(file, specifiers.map(packageOf).filter((name) => name !== undefined));
  }
  return packagesByFile.get(file);
}

/** Map of imported package → the files (relative) importing it. */
function importsOf(files) {
  const imports = new Map();
  for (const file of files) {
    for (const name of packagesImportedBy(file)) {
      if (!imports.has(name)) imports.set(name, new Set());
      imports.get(name).add(relative(ROOT, file));
    }
  }
  return imports;
}

function declared(manifest) {
  return { ...manifest.peerDependencies, ...manifest.devDependencies, ...manifest.dependencies };
}

const rootManifest = readJson(join(ROOT, 'package.json'));
const dirs = workspaceDirs(rootManifest.workspaces ?? []);
const workspaces = [
  { dir: '.', manifest: rootManifest, files: sourceFiles(ROOT, new Set(dirs)) },
  ...dirs.map((dir) => ({ dir, manifest: readJson(join(ROOT, dir, 'package.json')), files: sourceFiles(join(ROOT, dir)) })),
];
const workspaceNames = new Set(workspaces.slice(1).map((w) => w.manifest.name));
const rootDevDependencies = new Set(Object.keys(rootManifest.devDependencies ?? {}));
/** Root devDependencies imported by some workspace's test code (so used, though not by the root). */
const rootDevDependenciesUsedByTests = new Set();

const problems = [];
for (const { dir, manifest, files } of workspaces) {
  const isRoot = dir === '.';
  const own = declared(manifest);
  const testFiles = files.filter((file) => dir === TEST_WORKSPACE || TEST_FILE.test(relative(ROOT, file)));
  const testOnly = new Set(testFiles);
  const imports = importsOf(files);
  const testImports = importsOf(testFiles);
  const mainImports = importsOf(files.filter((file) => !testOnly.has(file)));
  const where = (importers) => [...importers].slice(0, 3).join(', ') + (importers.size > 3 ? ', …' : '');

  for (const [name, importers] of mainImports) {
    if (name in own || name === manifest.name) continue;
    if (isRoot && workspaceNames.has(name)) continue;
    problems.push(`${dir}: imports ${name} without declaring it (${where(importers)})`);
  }
  for (const [name, importers] of testImports) {
    if (name in own || name === manifest.name) continue;
    if (rootDevDependencies.has(name)) {
      rootDevDependenciesUsedByTests.add(name);
      continue;
    }
    problems.push(`${dir}: test code imports ${name} without declaring it (${where(importers)})`);
  }

  const allowed = USED_OUTSIDE_IMPORTS[dir] ?? {};
  for (const name of Object.keys(own)) {
    const typed = name.startsWith('@types/') ? typedPackage(name) : undefined;
    const used = imports.has(name) || (typed !== undefined && imports.has(typed)) || name in allowed;
    if (used) continue;
    // Decided after every workspace is read: a root devDependency may be used only by tests.
    if (isRoot) continue;
    problems.push(`${dir}: declares ${name} but never imports it`);
  }
}

// The root's declarations, once every workspace's tests have been read.
{
  const root = workspaces[0];
  const imports = importsOf(root.files);
  const allowed = USED_OUTSIDE_IMPORTS['.'];
  const importedAnywhere = (name) => imports.has(name) || rootDevDependenciesUsedByTests.has(name);
  for (const name of Object.keys(declared(rootManifest))) {
    const typed = name.startsWith('@types/') ? typedPackage(name) : undefined;
    if (importedAnywhere(name) || (typed !== undefined && importedAnywhere(typed)) || name in allowed) continue;
    problems.push(`.: declares ${name} but never imports it`);
  }
  for (const name of Object.keys(allowed)) {
    if (!(name in declared(rootManifest))) problems.push(`.: allow-list names ${name}, which is not declared`);
  }
}

// One exact version of each external package; workspaces by `*`.
const versions = new Map();
for (const { dir, manifest } of workspaces) {
  for (const [name, version] of Object.entries(declared(manifest))) {
    if (workspaceNames.has(name)) {
      if (version !== '*') problems.push(`${dir}: depends on workspace ${name} as "${version}" (use "*")`);
      continue;
    }
    if (!EXACT_VERSION.test(version)) problems.push(`${dir}: ${name} "${version}" is not an exact version`);
    if (!versions.has(name)) versions.set(name, new Map());
    const byVersion = versions.get(name);
    byVersion.set(version, [...(byVersion.get(version) ?? []), dir]);
  }
}
for (const [name, byVersion] of versions) {
  if (byVersion.size < 2) continue;
  const listed = [...byVersion].map(([version, dirsOf]) => `${version} in ${dirsOf.join(', ')}`).join('; ');
  problems.push(`${name} is declared at ${byVersion.size} versions: ${listed}`);
}

if (problems.length > 0) {
  console.error(`check-deps: ${problems.length} problem(s)\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exitCode = 1;
} else {
  const fileCount = workspaces.reduce((sum, w) => sum + w.files.length, 0);
  console.log(`check-deps: ${workspaces.length} workspaces (${fileCount} files) declare what they import, one version each`);
}
