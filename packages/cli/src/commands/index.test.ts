import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROLES } from '@landscreen/auth-service';
import { SERVICE_NAMES } from '@landscreen/config';
import { COMMANDS, findCommand } from './index.js';

const SRC = fileURLToPath(new URL('..', import.meta.url));

/** The specifiers a module loads when it is imported: static imports and re-exports, not import() nor type-only ones. */
function staticImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) => {
    const typeOnly = ts.isImportDeclaration(statement) ? statement.importClause?.isTypeOnly : ts.isExportDeclaration(statement) && statement.isTypeOnly;
    if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) || typeOnly) return [];
    return statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? [statement.moduleSpecifier.text] : [];
  });
}

/** Every module main.ts loads before it runs anything: its static imports, followed through the CLI's own files. */
function loadedAtStart(): { files: string[]; packages: Set<string> } {
  const files: string[] = [];
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.includes(file)) return;
    files.push(file);
    for (const specifier of staticImports(file)) {
      if (specifier.startsWith('.')) visit(path.resolve(path.dirname(file), specifier.replace(/\.js$/, '.ts')));
      else if (!specifier.startsWith('node:')) packages.add(specifier);
    }
  };
  visit(path.join(SRC, 'main.ts'));
  return { files, packages };
}

describe('the command table', () => {
  it('parses arguments without loading a service, the database, the bus or the gateway', () => {
    const { files, packages } = loadedAtStart();
    expect(files.map((file) => path.relative(SRC, file)).sort()).toEqual(['commands/command.ts', 'commands/index.ts', 'commands/serve-usage.ts', 'main.ts']);
    expect([...packages]).toEqual([]);
  });

  it('loads each command implementation on demand', async () => {
    for (const command of COMMANDS) {
      const implementation = await command.load();
      expect(typeof implementation.run, command.words.join(' ')).toBe('function');
    }
  });

  it('names, for each command, every service whose package its module imports', () => {
    const servicePackage = /^@landscreen\/(\w+)-service$/;
    // Each entry of the table, its words and the module its load() imports, read from the source.
    const table = readFileSync(path.join(SRC, 'commands', 'index.ts'), 'utf8');
    const modules = new Map(
      [...table.matchAll(/words: \[([^\]]*)\][\s\S]*?import\('\.\/([\w-]+)\.js'\)/g)].map((match) => [match[1].replace(/'/g, '').split(', ').join(' '), match[2]]),
    );
    expect(modules.size).toBe(COMMANDS.length);
    for (const command of COMMANDS) {
      const module = modules.get(command.words.join(' '));
      expect(module, command.words.join(' ')).toBeDefined();
      const imported = staticImports(path.join(SRC, 'commands', `${module}.ts`))
        .map((specifier) => servicePackage.exec(specifier)?.[1])
        .filter((name) => name !== undefined);
      for (const name of imported) expect(command.services, `${command.words.join(' ')} imports ${name}`).toContain(name);
      for (const name of command.services) expect(SERVICE_NAMES).toContain(name);
    }
  });

  it('lists the roles member add accepts', () => {
    const usage = findCommand(['member', 'add'])!.command.usage;
    expect(usage).toContain(`--role ${ROLES.join('|')}`);
  });

  it('finds the longest command that starts the arguments', () => {
    expect(findCommand(['import', 'layer', '--file', 'x'])).toMatchObject({ command: { words: ['import', 'layer'] }, args: ['--file', 'x'] });
    expect(findCommand(['import'])).toBeUndefined();
    expect(findCommand(['plan', 'get'])).toBeUndefined();
  });
});
