// GET /docs (the interactive API reference, Swagger UI over /v1/openapi.json), its assets, and the
// error and warning pages. Public like /v1/openapi.json, rate limited per client address.
//
// The renderer's files are read from the installed swagger-ui-dist package on first request and
// kept in memory: nothing comes from a CDN, and nothing of it loads unless /docs is asked for.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Context, Hono } from 'hono';
import { publicBase } from '../public-url.js';
import type { Env } from '../route.js';
import { esc } from './html.js';

export interface DocsMountOptions {
  /** Takes one request from the caller's anonymous bucket and sets the X-RateLimit-* headers; 429 past the limit. */
  limitAnonymous: (c: Context<Env>) => void;
}

/** The renderer's files /docs uses, and their content types. */
const ASSETS: Record<string, string> = {
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

// Runs in the page: loads the served document, points the try-it console at this server only, and
// refuses (before sending) any request the console would make elsewhere.
const INIT_JS = `(() => {
  const root = document.documentElement;
  const server = root.dataset.server;
  const origin = new URL(server, location.href).origin;
  fetch(root.dataset.spec, { headers: { accept: 'application/json' } })
    .then((r) => r.json())
    .then((spec) => {
      spec.servers = [{ url: server, description: 'this server' }];
      window.ui = SwaggerUIBundle({
        spec,
        dom_id: '#swagger-ui',
        deepLinking: true,
        validatorUrl: null,
        presets: [SwaggerUIBundle.presets.apis],
        layout: 'BaseLayout',
        requestInterceptor: (req) => {
          if (new URL(req.url, location.href).origin !== origin) throw new Error('The console sends requests only to this server.');
          return req;
        },
      });
    })
    .catch((e) => { document.getElementById('swagger-ui').textContent = 'Could not load the API document: ' + e; });
})();
`;

// Dark mode for the renderer (it has none of its own): invert its light theme, keeping images.
const DARK_CSS = `@media (prefers-color-scheme: dark) {
  html { background: #111; }
  #swagger-ui { filter: invert(88%) hue-rotate(180deg); }
  #swagger-ui img, #swagger-ui svg { filter: invert(100%) hue-rotate(180deg); }
}
body { margin: 0; }
.stays-links { font: 14px system-ui, sans-serif; padding: 10px 20px; max-width: 1460px; margin: 0 auto; }
@media (prefers-color-scheme: dark) { .stays-links { color: #ddd; } .stays-links a { color: #58a6ff; } }
`;

function referencePage(server: string, root: string): string {
  const r = esc(root);
  return `<!doctype html>
<html lang="en" data-spec="${esc(root.replace(/\/docs$/, ''))}/v1/openapi.json" data-server="${esc(server)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>API reference · stays</title>
<link rel="icon" type="image/png" href="${r}/assets/favicon-32x32.png">
<link rel="stylesheet" href="${r}/assets/swagger-ui.css">
<link rel="stylesheet" href="${r}/assets/stays.css">
</head>
<body>
<div class="stays-links"><a href="${r}/errors">Error codes</a> · <a href="${r}/warnings">Warning codes</a> · <a href="${r.replace(/\/docs$/, '')}/v1/openapi.json">OpenAPI document</a></div>
<noscript><p class="stays-links">The interactive reference needs JavaScript. The API is described by <a href="${r.replace(/\/docs$/, '')}/v1/openapi.json">/v1/openapi.json</a>; the error codes are at <a href="${r}/errors">/docs/errors</a>.</p></noscript>
<div id="swagger-ui"></div>
<script src="${r}/assets/swagger-ui-bundle.js"></script>
<script src="${r}/assets/init.js"></script>
</body>
</html>
`;
}

/** The path of /docs as clients see it (STAYS_PUBLIC_URL may put the server under a prefix). */
const docsRoot = (c: Context<Env>) => `${new URL(publicBase(c)).pathname.replace(/\/+$/, '')}/docs`;

const HTML = { 'Content-Type': 'text/html; charset=utf-8' };
// Pages: no script (error pages) or only this server's (the reference); requests only to this server.
const csp = (connect: string) =>
  `default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src ${connect}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

export function mountDocs(app: Hono<Env>, opts: DocsMountOptions): void {
  const limited = opts.limitAnonymous;
  const files = new Map<string, Promise<Buffer>>();
  const asset = (name: string) => {
    let p = files.get(name);
    if (!p) {
      const dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
      p = readFile(join(dir, name));
      p.catch(() => files.delete(name));
      files.set(name, p);
    }
    return p;
  };
  const send = (c: Context<Env>, status: 200 | 404, body: string) => {
    c.header('Content-Security-Policy', csp("'none'"));
    return c.body(body, status, HTML);
  };

  const reference = (c: Context<Env>) => {
    limited(c);
    // The console's server: STAYS_PUBLIC_URL, else the origin the page was asked at.
    const server = publicBase(c);
    c.header('Content-Security-Policy', csp(`'self' ${new URL(server).origin}`));
    return c.body(referencePage(server, docsRoot(c)), 200, HTML);
  };
  app.get('/docs', reference);
  app.get('/docs/', reference);
  app.get('/docs/assets/:name', async (c) => {
    limited(c);
    const name = c.req.param('name');
    c.header('Cache-Control', 'public, max-age=3600');
    if (name === 'init.js') return c.body(INIT_JS, 200, { 'Content-Type': ASSETS['swagger-ui-bundle.js']! });
    if (name === 'stays.css') return c.body(DARK_CSS, 200, { 'Content-Type': ASSETS['swagger-ui.css']! });
    const type = ASSETS[name];
    if (!type) return c.text('No such file.', 404);
    return c.body(new Uint8Array(await asset(name)), 200, { 'Content-Type': type });
  });

  // The pages (and the catalogue's texts) load with the first page asked for.
  const pages = () => import('./pages.js');
  app.get('/docs/errors', async (c) => {
    limited(c);
    const { errorsIndex } = await pages();
    return send(c, 200, errorsIndex(docsRoot(c)));
  });
  // A list typed with a trailing slash is the list, not an unknown page.
  app.get('/docs/errors/', (c) => c.redirect('/docs/errors', 308));
  app.get('/docs/warnings/', (c) => c.redirect('/docs/warnings', 308));
  app.get('/docs/errors/:code', async (c) => {
    limited(c);
    const { errorPage, isErrorCode, unknownCodePage } = await pages();
    const code = c.req.param('code');
    return isErrorCode(code) ? send(c, 200, errorPage(docsRoot(c), code)) : send(c, 404, unknownCodePage(docsRoot(c), 'errors', code));
  });
  app.get('/docs/warnings', async (c) => {
    limited(c);
    const { warningsIndex } = await pages();
    return send(c, 200, warningsIndex(docsRoot(c)));
  });
  app.get('/docs/warnings/:code', async (c) => {
    limited(c);
    const { unknownCodePage, warningPage } = await pages();
    const code = c.req.param('code');
    const body = warningPage(docsRoot(c), code);
    return body === null ? send(c, 404, unknownCodePage(docsRoot(c), 'warnings', code)) : send(c, 200, body);
  });
}
