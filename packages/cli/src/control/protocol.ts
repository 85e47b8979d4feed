import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';

/**
 * While the embedded server runs it owns the PGlite database, so operator commands are routed
 * through it: the CLI sends its argv over a local socket and the server runs the command
 * in-process, streaming output lines back. Messages are newline-delimited JSON:
 *   client → server  {"argv": [...]}, then {"cancel": true} when the operator interrupts it
 *   server → client  {"out": "line"}* then {"exit": code}
 * A cancel, or the connection closing before the exit (a killed CLI), aborts the command: an
 * import stops reading, rolls back, and nothing of it becomes current.
 */
export type ControlMessage = { out: string } | { exit: number };

export type ControlRequest = { argv: string[] } | { cancel: true };

export function controlSocketPath(dataDir: string): string {
  const preferred = path.join(dataDir, 'control.sock');
  // Unix socket paths are limited to ~107 bytes; fall back to a short path derived from the dir.
  if (Buffer.byteLength(preferred) < 100) return preferred;
  const digest = createHash('sha256').update(dataDir).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `landscreen-${digest}.sock`);
}
