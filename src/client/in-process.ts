// The in-process transport: the same Hono app `stays serve` runs, called through its fetch
// handler with no socket, on a runtime opened lazily on the given data directory. Loading the
// runtime (SQLite, the app, zod) is deferred to the first request so a command that fails
// usage checks never pays for it.
import type { Runtime } from '../runtime.js';
import type { Transport } from './transport.js';

export interface InProcessOptions {
  /** Data directory of the embedded store (default: STAYS_DATA_DIR or the user data dir). */
  dataDir?: string;
}

export interface InProcessTransport extends Transport {
  readonly kind: 'in-process';
  /** The runtime behind the app (for local provisioning through the admin actions). */
  runtime(): Promise<Runtime>;
}

export function inProcessTransport(opts: InProcessOptions = {}): InProcessTransport {
  let opened: Promise<{ rt: Runtime; fetch: (r: Request) => Response | Promise<Response> }> | undefined;
  const open = () =>
    (opened ??= (async () => {
      const [{ createRuntime }, { createApp }] = await Promise.all([import('../runtime.js'), import('../http/app.js')]);
      const rt = createRuntime({ config: opts.dataDir ? { dataDir: opts.dataDir } : {} });
      const app = createApp(rt);
      return { rt, fetch: (r: Request) => app.fetch(r) };
    })());

  return {
    kind: 'in-process',
    base: 'in-process:',
    async runtime() {
      return (await open()).rt;
    },
    async send(req) {
      const { fetch } = await open();
      const res = await fetch(new Request(`http://in-process${req.path}`, { method: req.method, headers: req.headers, body: req.body, signal: req.signal }));
      const headers: Record<string, string> = {};
      res.headers.forEach((v, k) => {
        headers[k] = v;
      });
      return { status: res.status, headers, body: await res.text() };
    },
    async close() {
      if (opened) await (await opened).rt.close();
    },
  };
}
