import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// scripts/check-build.mjs (part of `npm run check:deps`) run on small repositories of its own.
const SCRIPT = fileURLToPath(new URL('../scripts/check-build.mjs', import.meta.url));

type Tree = Record<string, string>;
const exportsOf = (...paths: string[]) =>
  Object.fromEntries(paths.map((path) => [path === 'index' ? '.' : `./${path}`, { '@landscreen/source': `./src/${path}.ts`, default: `./dist/${path}.js` }]));
const manifest = (name: string, fields: Record<string, unknown> = {}) => JSON.stringify({ name, type: 'module', exports: exportsOf('index'), ...fields });

/** Workspaces `packages/a` (imports `@fx/b`, and `@fx/c` in a test only) and `packages/b`, `packages/c`, no tsconfig yet. */
function repository(): Tree {
  return {
    'package.json': JSON.stringify({ name: 'fixture', workspaces: ['packages/*'] }),
    'packages/a/package.json': manifest('@fx/a', { dependencies: { '@fx/b': '*' }, devDependencies: { '@fx/c': '*' } }),
    'packages/a/src/index.ts': "export { b } from '@fx/b';\n",
    'packages/a/src/index.test.ts': "import '@fx/c';\n",
    'packages/b/package.json': manifest('@fx/b'),
    'packages/b/src/index.ts': 'export const b = 1;\n',
    'packages/c/package.json': manifest('@fx/c'),
    'packages/c/src/index.ts': 'export const c = 1;\n',
  };
}

const roots: string[] = [];
afterAll(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function materialise(tree: Tree): string {
  const root = mkdtempSync(join(tmpdir(), 'check-build-'));
  roots.push(root);
  for (const [path, content] of Object.entries(tree)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

function checkBuild(root: string, ...flags: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, root, ...flags], (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }));
  });
}

describe('scripts/check-build.mjs', () => {
  it('names each missing tsconfig.json, then writes them by the recipe, referencing what the built code imports', async () => {
    const root = materialise(repository());
    const before = await checkBuild(root);
    expect(before.code).toBe(1);
    expect(before.output).toContain('packages/a/tsconfig.json is missing');

    expect((await checkBuild(root, '--write')).code).toBe(0);
    expect(JSON.parse(readFileSync(join(root, 'packages/a/tsconfig.json'), 'utf8'))).toEqual({
      extends: '../../tsconfig.workspace.json',
      // @fx/c is imported by a test only: tests are not built.
      references: [{ path: '../b' }],
    });
    expect(JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8')).references).toEqual([
      { path: './packages/a' },
      { path: './packages/b' },
      { path: './packages/c' },
    ]);
    const after = await checkBuild(root);
    expect(after.output).toContain('3 workspaces build to dist/ by the recipe');
    expect(after.code).toBe(0);
  });

  it('refuses an export without the source condition, a source that is not there, and an npm devDependency in built code', async () => {
    const tree = repository();
    tree['packages/b/package.json'] = JSON.stringify({
      name: '@fx/b',
      type: 'module',
      exports: { '.': './src/index.ts', ...exportsOf('gone') },
      devDependencies: { pino: '10.4.0' },
    });
    tree['packages/b/src/log.ts'] = "import pino from 'pino';\nexport const log = pino();\n";
    const root = materialise(tree);
    const { code, output } = await checkBuild(root, '--write');
    expect(code).toBe(1);
    expect(output).toContain('packages/b: exports["."] should be { "@landscreen/source": "./src/<path>.ts", "default": "./dist/<path>.js" }');
    expect(output).toContain('packages/b: exports["./gone"] names ./src/gone.ts, which does not exist');
    expect(output).toContain('packages/b: built code imports pino, a devDependency (packages/b/src/log.ts)');
  });
});
