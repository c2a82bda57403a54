// Baseline for the HTTP benchmarks: a bare Hono hello-world route served the same way as
// `stays serve` (@hono/node-server, one process). Prints its URL on stderr like stays does.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono();
app.get('/v1/hello', (c) => c.json({ data: 'hello' }));
const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
  process.stderr.write(`listening on http://127.0.0.1:${info.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
