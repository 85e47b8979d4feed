import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// scripts/check-deps.mjs (CI's "declared dependencies" step) run on small repositories of its own.
const SCRIPT = fileURLToPath(new URL('../scripts/check-deps.mjs', import.meta.url));

// The root tools the script knows are used as binaries only; a fixture root declares them too.
const ROOT_TOOLS = {
  '@bufbuild/buf': '1.75.0',
  '@bufbuild/protoc-gen-es': '2.13.0',
  '@types/node': '20.19.43',
  'kysely-codegen': '0.20.0',
  tsx: '4.23.15',
  turbo: '2.11.11',
  typescript: '5.9.3',
};

type Manifest = { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
type Tree = Record<string, string>;

const manifest = (name: string, deps: Manifest = {}) => JSON.stringify({ name, version: '0.0.0', ...deps });

/** A repository with workspaces `packages/a` (imports `b` and `pg`) and `packages/b`. */
function cleanRepository(): Tree {
  return {
    'package.json': JSON.stringify({
      name: 'fixture',
      workspaces: ['packages/*'],
      devDependencies: { ...ROOT_TOOLS, vitest: '3.2.7' },
    }),
    'packages/a/package.json': manifest('@fx/a', {
      dependencies: { '@fx/b': '*', pg: '8.23.1' },
      devDependencies: { '@types/pg': '8.23.1' },
    }),
    'packages/a/src/index.ts': [
      "import { readFileSync } from 'node:fs';",
      "import type { Pool } from 'pg';",
      "export { b } from '@fx/b/sub';",
      "// import 'commented-out';",
      "export const text = \"import 'in-a-string'; require.resolve('in-a-string')\";",
    ].join('\n'),
    'packages/a/src/index.test.ts': "import { it } from 'vitest';\nimport '../src/index.js';\n",
    'packages/b/package.json': manifest('@fx/b'),
    'packages/b/src/index.ts': 'export const b = 1;\n',
  };
}

const roots: string[] = [];
afterAll(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

async function checkDeps(tree: Tree): Promise<{ code: number; output: string }> {
  const root = mkdtempSync(join(tmpdir(), 'check-deps-'));
  roots.push(root);
  for (const [path, content] of Object.entries(tree)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, root], (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr });
    });
  });
}

// Each run loads the TypeScript scanner, seconds on a busy two-core machine: two runs in all.
describe('scripts/check-deps.mjs', () => {
  it('passes a repository whose workspaces declare exactly what they import', async () => {
    const { code, output } = await checkDeps(cleanRepository());
    expect(output).toContain('3 workspaces');
    expect(code).toBe(0);
  });

  describe('on a repository with one mistake of each kind', () => {
    let result: { code: number; output: string };
    beforeAll(async () => {
      const tree = cleanRepository();
      tree['packages/b/package.json'] = manifest('@fx/b', { dependencies: { pino: '10.4.0', 'swagger-ui-dist': '5.35.0' } });
      tree['packages/b/src/late.ts'] = "const { connect } = await import('nats');\nexport { connect };\n";
      tree['packages/b/src/assets.ts'] = "export const dir = require.resolve('swagger-ui-dist/package.json');\n";
      tree['packages/b/src/helper.ts'] = "import { expect } from 'vitest';\nexport { expect };\n";
      tree['packages/c/package.json'] = manifest('@fx/c', { dependencies: { pg: '^8.0.0' } });
      tree['packages/c/src/index.ts'] = "import pg from 'pg';\nexport const c = pg;\n";
      result = await checkDeps(tree);
    });

    it('exits 1', () => {
      expect(result.code).toBe(1);
    });

    it('names an import the workspace does not declare, with the file', () => {
      expect(result.output).toContain('packages/b: imports nats without declaring it (packages/b/src/late.ts)');
    });

    it('names a declared dependency nothing imports, and counts require.resolve as a use', () => {
      expect(result.output).toContain('packages/b: declares pino but never imports it');
      expect(result.output).not.toContain('swagger-ui-dist');
    });

    it('lets test code, and only test code, use the root devDependencies', () => {
      expect(result.output).toContain('packages/b: imports vitest without declaring it (packages/b/src/helper.ts)');
      expect(result.output).not.toContain('packages/a:');
    });

    it('names a package declared at two versions or at a range', () => {
      expect(result.output).toContain('packages/c: pg "^8.0.0" is not an exact version');
      expect(result.output).toContain('pg is declared at 2 versions: 8.23.1 in packages/a; ^8.0.0 in packages/c');
    });
  });
});
