// `--help` after any command prints its summary and usage and exits 0, before any configuration,
// database or service is loaded (so it answers even where the environment is not set up).

import { describe, expect, it, vi } from 'vitest';
import { COMMANDS } from './commands/index.js';
import { main } from './main.js';

async function output(argv: string[]): Promise<{ code: number; text: string }> {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    const code = await main(argv);
    return { code, text: lines.join('') };
  } finally {
    spy.mockRestore();
  }
}

describe('--help of every command', () => {
  it.each(COMMANDS.map((command) => [command.words.join(' '), command] as const))('%s --help prints its usage', async (_, command) => {
    for (const flag of ['--help', '-h']) {
      const { code, text } = await output([...command.words, flag]);
      expect(code).toBe(0);
      expect(text).toBe(`${command.summary}\n\nusage: ${command.usage}\n`);
    }
  });

  it('import layer --help names --where and the limits, even after other options', async () => {
    const { code, text } = await output(['import', 'layer', '--source', 'x', '--help']);
    expect(code).toBe(0);
    expect(text).toContain('[--where EXPRESSION]');
    expect(text).toContain('LAYER_MAX_ZIP_RATIO');
  });

  it('serve --help prints the serve usage', async () => {
    const { code, text } = await output(['serve', '--help']);
    expect(code).toBe(0);
    expect(text).toContain('usage: landscreen serve [--service');
  });
});
