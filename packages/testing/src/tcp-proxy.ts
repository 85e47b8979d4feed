import net from 'node:net';

/**
 * - `pass`: bytes flow both ways.
 * - `reset`: every connection, open or new, is reset (RST), as by a crashed server or a firewall.
 * - `blackhole`: connections stay open and new ones are accepted, but no byte moves either way
 *   (a network partition that drops packets: nothing refuses, nothing answers). Back to `pass`,
 *   held bytes flow again, as TCP's retransmissions would deliver them once the partition heals.
 */
export type ProxyMode = 'pass' | 'reset' | 'blackhole';

export interface TcpProxy {
  /** `url` with its host and port replaced by the proxy's. */
  through(url: string): string;
  readonly port: number;
  /** Connections open right now. */
  readonly connections: number;
  setMode(mode: ProxyMode): void;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  /** Absent until the upstream connection is made (never during a black-hole). */
  server?: net.Socket;
}

/** A TCP proxy to `target` (e.g. PostgreSQL) on a free loopback port, for outage tests. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'pass';
  const pairs = new Set<Pair>();

  const connectUpstream = (pair: Pair) => {
    const server = net.connect(target.port, target.host);
    pair.server = server;
    server.on('error', () => pair.client.destroy());
    pair.client.on('error', () => server.destroy());
    server.on('close', () => pair.client.destroy());
    pair.client.pipe(server);
    server.pipe(pair.client);
  };
  const reset = (pair: Pair) => {
    pair.client.resetAndDestroy();
    pair.server?.resetAndDestroy();
    pairs.delete(pair);
  };

  const proxy = net.createServer((client) => {
    const pair: Pair = { client };
    pairs.add(pair);
    client.on('close', () => {
      pair.server?.destroy();
      pairs.delete(pair);
    });
    client.on('error', () => {});
    if (mode === 'reset') return reset(pair);
    if (mode === 'blackhole') return void client.pause();
    connectUpstream(pair);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const port = (proxy.address() as net.AddressInfo).port;

  return {
    port,
    get connections() {
      return pairs.size;
    },
    through(url) {
      const parsed = new URL(url);
      parsed.host = `127.0.0.1:${port}`;
      return parsed.toString();
    },
    setMode(next) {
      if (next === mode) return;
      mode = next;
      for (const pair of [...pairs]) {
        if (next === 'reset') reset(pair);
        else if (next === 'blackhole') {
          // Not read, so not forwarded: the bytes wait in the sockets' buffers. (A piped stream
          // that is only paused resumes when its destination drains.)
          pair.client.unpipe();
          pair.server?.unpipe();
          pair.client.pause();
          pair.server?.pause();
        } else if (!pair.server) connectUpstream(pair);
        else {
          pair.client.pipe(pair.server);
          pair.server.pipe(pair.client);
        }
      }
    },
    async close() {
      for (const pair of [...pairs]) {
        pair.client.destroy();
        pair.server?.destroy();
      }
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
