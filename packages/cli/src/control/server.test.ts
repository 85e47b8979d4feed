import { mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { controlSocketPath } from './protocol.js';
import { serveControlSocket } from './server.js';

describe('the control socket cancels a command whose caller goes away', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-control-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  /** A command that reports once, then waits until it is cancelled and answers 130. */
  async function serve() {
    let aborted!: () => void;
    const cancelled = new Promise<void>((resolve) => (aborted = resolve));
    const control = await serveControlSocket(dataDir, async (_argv, out, signal) => {
      out('working');
      await once(signal, 'abort');
      aborted();
      out('rolled back');
      return 130;
    });
    return { control, cancelled };
  }

  it('on {"cancel": true} it aborts the signal and still answers the exit', async () => {
    const { control, cancelled } = await serve();
    const socket = net.connect(controlSocketPath(dataDir));
    socket.write(`${JSON.stringify({ argv: ['import', 'layer'] })}\n`);
    const messages: unknown[] = [];
    for await (const line of createInterface({ input: socket })) {
      messages.push(JSON.parse(line));
      if (messages.length === 1) socket.write(`${JSON.stringify({ cancel: true })}\n`);
    }
    await cancelled;
    expect(messages).toEqual([{ out: 'working' }, { out: 'rolled back' }, { exit: 130 }]);
    await control.close();
  });

  it('when the connection closes mid-command (a killed CLI) it aborts the signal, and the server lives on', async () => {
    const { control, cancelled } = await serve();
    const socket = net.connect(controlSocketPath(dataDir));
    socket.write(`${JSON.stringify({ argv: ['import', 'layer'] })}\n`);
    await once(createInterface({ input: socket }), 'line');
    socket.destroy();
    await cancelled;
    // Writing the last lines to the closed socket does not bring the server down: it serves the next caller.
    const next = net.connect(controlSocketPath(dataDir));
    next.write(`${JSON.stringify({ argv: ['x'] })}\n`);
    const [line] = (await once(createInterface({ input: next }), 'line')) as [string];
    expect(JSON.parse(line)).toEqual({ out: 'working' });
    next.destroy();
    await control.close();
  });
});
