// A TCP proxy on loopback between a server and its database, for fault tests: `cut()` kills it
// (every connection through it is reset and new ones are refused), `restore()` listens again on
// the same port, as a database that went away and came back.
import { type Server, type Socket, connect, createServer } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Connections ever accepted. */
  readonly accepted: number;
  /** Resets every open connection and stops listening. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  let server: Server | null = null;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        accepted++;
        const upstream = connect(target.port, target.host);
        sockets.add(client).add(upstream);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
        client.pipe(upstream);
        upstream.pipe(client);
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as { port: number }).port;
        server = s;
        resolve();
      });
    });

  await listen();
  const stop = async () => {
    const s = server;
    server = null;
    for (const so of sockets) so.resetAndDestroy();
    sockets.clear();
    if (s) await new Promise<void>((r) => s.close(() => r()));
  };
  return {
    get port() {
      return port;
    },
    get accepted() {
      return accepted;
    },
    cut: stop,
    async restore() {
      if (server) return;
      // The port was ours a moment ago; another process may take it in between, so retry briefly.
      for (let i = 0; ; i++) {
        try {
          return await listen();
        } catch (e) {
          if (i >= 50) throw e;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    },
    close: stop,
  };
}
