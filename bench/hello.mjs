// Baselines for the HTTP benchmarks, served the same way as `stays serve` (@hono/node-server,
// one process): a bare hello-world route, and a route answering a fixed body (BENCH_BODY_FILE:
// the bytes stays answers, so payload size is factored out). Prints its URL like stays does.
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const fixed = process.env.BENCH_BODY_FILE ? readFileSync(process.env.BENCH_BODY_FILE) : Buffer.from('{}');
const app = new Hono();
app.get('/v1/hello', (c) => c.json({ data: 'hello' }));
app.get('/v1/fixed', (c) => c.body(fixed, 200, { 'Content-Type': 'application/json' }));
const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
  process.stderr.write(`listening on http://127.0.0.1:${info.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
