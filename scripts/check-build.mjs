#!/usr/bin/env node
// Every workspace builds the same way (docs/building.md): a `tsconfig.json` that compiles `src/`
// (tests left out) to `dist/`, referencing exactly the workspaces its built code imports; entry
// points in package.json `exports` that name the TypeScript source under the `@landscreen/source`
// condition and the built JavaScript by default; and nothing its built code imports left in
// devDependencies (the image installs dependencies only). `tsconfig.build.json` lists every
// workspace that builds. Run by `npm run check:deps` and CI; `--write` rewrites the tsconfig files
// to the recipe (run it after adding a workspace or a dependency between workspaces).
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const args = process.argv.slice(2);
const WRITE = args.includes('--write');
const ROOT = args.find((arg) => !arg.startsWith('--')) ? resolve(args.find((arg) => !arg.startsWith('--'))) : fileURLToPath(new URL('..', import.meta.url));

const SOURCE_CONDITION = '@landscreen/source';
/** Test code, left out of the build (tsconfig.workspace.json): the names check-deps.mjs treats as tests. */
const TEST_FILE = /(?:\.test\.ts|\.test-helper\.ts)$|(?:^|\/)test-[^/]*\.ts$/;
/** What tsc compiles (JavaScript beside the sources is not emitted, so not part of the build). */
const SOURCE = /\.(?:ts|mts|cts)$/;
const BUILTINS = new Set(builtinModules);

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
/** JSON as the repository writes it: two-space indents, short nested arrays and objects on one line. */
function json(value) {
  const format = (item, indent) => {
    const flat = JSON.stringify(item);
    if (item === null || typeof item !== 'object' || (indent !== '' && indent.length + flat.length <= 100)) return flat.replace(/([,:])(?=[\[{"])/g, '$1 ');
    const inner = `${indent}  `;
    const entries = Array.isArray(item)
      ? item.map((entry) => `${inner}${format(entry, inner)}`)
      : Object.entries(item).map(([key, entry]) => `${inner}${JSON.stringify(key)}: ${format(entry, inner)}`);
    return Array.isArray(item) ? `[\n${entries.join(',\n')}\n${indent}]` : `{\n${entries.join(',\n')}\n${indent}}`;
  };
  return `${format(value, '')}\n`;
}

function workspaceDirs(patterns) {
  return patterns.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [pattern];
    const parent = pattern.slice(0, -2);
    return readdirSync(join(ROOT, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(ROOT, parent, entry.name, 'package.json')))
      .map((entry) => `${parent}/${entry.name}`)
      .sort();
  });
}

function sourceFiles(dir) {
  const files = [];
  const walk = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'dist') walk(path);
      } else if (SOURCE.test(entry.name) && !TEST_FILE.test(entry.name)) {
        files.push(path);
      }
    }
  };
  walk(dir);
  return files;
}

function packageOf(specifier) {
  if (/^(?:\.|\/|#|node:|[a-z]+:\/\/)/.test(specifier)) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return BUILTINS.has(name) ? undefined : name;
}

/** Packages imported by a workspace's built (non-test) source files. */
function builtImports(dir) {
  const imports = new Map();
  for (const file of sourceFiles(join(ROOT, dir, 'src'))) {
    const text = readFileSync(file, 'utf8');
    // Type-only imports count: the declarations the build emits name those packages too.
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      const name = packageOf(fileName);
      if (!name) continue;
      if (!imports.has(name)) imports.set(name, relative(ROOT, file));
    }
  }
  return imports;
}

/** The tsconfig.json a workspace's build should have. */
function expectedTsconfig(dir, references) {
  const up = relative(join(ROOT, dir), ROOT) || '.';
  return { extends: `${up}/tsconfig.workspace.json`, references: references.map((path) => ({ path })) };
}

const rootManifest = readJson(join(ROOT, 'package.json'));
const dirs = workspaceDirs(rootManifest.workspaces ?? []);
const manifests = new Map(dirs.map((dir) => [dir, readJson(join(ROOT, dir, 'package.json'))]));
const dirByName = new Map(dirs.map((dir) => [manifests.get(dir).name, dir]));
/** Workspaces that build: those with a src/ folder (the `test` workspace holds only tests). */
const built = dirs.filter((dir) => existsSync(join(ROOT, dir, 'src')) && statSync(join(ROOT, dir, 'src')).isDirectory());

const problems = [];
const written = [];

function checkFile(path, expected) {
  const text = json(expected);
  const current = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  if (current === text) return;
  if (WRITE) {
    writeFileSync(path, text);
    written.push(relative(ROOT, path));
  } else {
    problems.push(`${relative(ROOT, path)} ${current === undefined ? 'is missing' : 'differs from the recipe'} (node scripts/check-build.mjs --write)`);
  }
}

for (const dir of built) {
  const manifest = manifests.get(dir);
  const imports = builtImports(dir);
  const references = [];
  for (const [name, file] of imports) {
    if (name === manifest.name) continue;
    const target = dirByName.get(name);
    if (target) {
      references.push(relative(join(ROOT, dir), join(ROOT, target)));
    } else if (manifest.devDependencies?.[name] !== undefined && manifest.dependencies?.[name] === undefined) {
      problems.push(`${dir}: built code imports ${name}, a devDependency (${file}): the image installs dependencies only`);
    }
  }
  references.sort();
  checkFile(join(ROOT, dir, 'tsconfig.json'), expectedTsconfig(dir, references));

  if (manifest.type !== 'module') problems.push(`${dir}: package.json needs "type": "module"`);
  const exportsField = manifest.exports;
  if (!exportsField || typeof exportsField !== 'object') {
    problems.push(`${dir}: package.json has no "exports" map`);
    continue;
  }
  for (const [subpath, target] of Object.entries(exportsField)) {
    const source = target?.[SOURCE_CONDITION];
    const match = typeof source === 'string' ? /^\.\/src\/(.+)\.ts$/.exec(source) : null;
    const keys = target && typeof target === 'object' ? Object.keys(target) : [];
    if (!match || keys.length !== 2 || keys[0] !== SOURCE_CONDITION || target.default !== `./dist/${match[1]}.js`) {
      problems.push(
        `${dir}: exports["${subpath}"] should be { "${SOURCE_CONDITION}": "./src/<path>.ts", "default": "./dist/<path>.js" } (got ${JSON.stringify(target)})`,
      );
      continue;
    }
    if (!existsSync(join(ROOT, dir, source))) problems.push(`${dir}: exports["${subpath}"] names ${source}, which does not exist`);
  }
}

checkFile(join(ROOT, 'tsconfig.build.json'), {
  files: [],
  references: built.map((dir) => ({ path: `./${dir}` })),
});

if (written.length > 0) console.log(`check-build: wrote ${written.join(', ')}`);
if (problems.length > 0) {
  console.error(`check-build: ${problems.length} problem(s)\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exitCode = 1;
} else {
  console.log(`check-build: ${built.length} workspaces build to dist/ by the recipe (docs/building.md)`);
}
