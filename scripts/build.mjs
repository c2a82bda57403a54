// Builds dist/ with esbuild: the library (ESM, dist/index.js) and the CLI (CommonJS, dist/cli.cjs,
// run by bin/stays). Pure-JS dependencies are bundled, which spares start-up hundreds of module
// resolutions (docs/benchmarks.md); the native SQLite binding stays external. Remote mode speaks
// HTTP with node:http(s), so no HTTP client package is loaded at all.
//
// The CLI is one CommonJS file, not ESM chunks, because on Node 20 only a classic script can use a
// V8 code cache (bin/stays keeps one per build), and compiling the bundle was the largest share of
// a cold start. Modules load lazily inside it (esbuild's per-module init functions), and the heavy
// dependencies only some commands need are separate files under dist/vendor/, so the common path
// reads less source.
import { build, transform } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// zod re-exports all of its ~60 message locales as `z.locales`, a third of its code to compile at
// every start. stays never reads them (zod installs English itself), so the bundles get English only.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => (/[\\/]zod[\\/]/.test(args.importer) ? { path: join(dirname(args.importer), '../locales/en.js') } : undefined));
  },
};

// Dependencies one command or another needs, never an in-process data command: prompts (a missing
// argument at a terminal), conf (writing settings), ora (the spinner), and
// the server's own. bin/stays gives them the code cache too.
// The value is what the file exports: CommonJS importers in Node's mode (ours: stays is a
// "type": "module" package) see module.exports as the default export, so an ESM package whose
// default export is used exports that.
// apify-client (axios, proxy-agent…, ~1.5 MB bundled) only with STAYS_UPSTREAM=apify and `stays doctor`;
// pg (node-postgres) only with STAYS_DATABASE_URL; hyparquet-writer only for `history export -o parquet`.
const VENDOR = { '@inquirer/prompts': '', conf: '.default', ora: '.default', pino: '', '@hono/node-server': '', 'apify-client': '', pg: '', 'hyparquet-writer': '' };
const vendorFile = (name) => `./vendor/${name.replace(/^@/, '').replace(/\//g, '-')}.cjs`;
// Our own modules that are vendor files, for dependencies used through several subpaths: the MCP
// SDK (with ajv and its own zod, ~0.8 MB) is only for `stays mcp` and /mcp, through src/mcp/sdk.ts.
const LOCAL_VENDOR = { 'mcp-sdk': 'src/mcp/sdk.ts' };
const toVendor = {
  name: 'vendor',
  setup(b) {
    b.onResolve(
      {
        filter: new RegExp(
          `^(${Object.keys(VENDOR)
            .map((v) => v.replace('/', '\\/'))
            .join('|')})$`,
        ),
      },
      (args) => ({ path: vendorFile(args.path), external: true }),
    );
    b.onResolve({ filter: /^\.\/sdk\.js$/ }, (args) => (/[\\/]src[\\/]mcp$/.test(dirname(args.importer)) ? { path: vendorFile('mcp-sdk'), external: true } : undefined));
  },
};

// commander requires node:child_process at load for executable subcommands, which stays has none
// of: in the CLI bundles it gets a stand-in that loads the module on first use (~1.5 ms a start).
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) => (/[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'lazy-builtin' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, () => ({ loader: 'js', contents: "module.exports = new Proxy({}, { get: (_, k) => require('node:child_process')[k] });" }));
  },
};

// bin/stays reads an ASCII bundle as Latin-1, sparing a UTF-8 decode of the whole file at every
// start. esbuild escapes non-ASCII text in code (charset ascii, its default) but keeps comments as
// they are: a dependency file with non-ASCII characters is bundled without its comments.
const asciiDeps = {
  name: 'ascii-deps',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/].*\.[cm]?js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!/[^\x00-\x7f]/.test(text)) return undefined;
      return { loader: 'js', contents: (await transform(text, { loader: 'js', minifyWhitespace: true })).code };
    });
  },
};

const common = { bundle: true, platform: 'node', target: 'node20', logLevel: 'warning', sourcemap: true, plugins: [zodEnglishOnly] };
// ESM dependencies bundled into CommonJS read import.meta.url (conf, env-paths' callers).
const cjs = {
  format: 'cjs',
  define: { 'import.meta.url': '__staysImportMetaUrl', 'import.meta.dirname': '__dirname', 'import.meta.filename': '__filename' },
  banner: { js: "const __staysImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  // import() of an external becomes require(): the CLI runs as a classic script (bin/stays).
  supported: { 'dynamic-import': false },
};

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

await build({
  ...common,
  entryPoints: { index: 'src/index.ts' },
  outdir: 'dist',
  splitting: true,
  format: 'esm',
  external: ['better-sqlite3', 'apify-client', 'pg'],
  // Bundled CommonJS dependencies call require(); ESM output needs one.
  banner: { js: "import { createRequire as __staysCreateRequire } from 'node:module'; const require = __staysCreateRequire(import.meta.url);" },
  chunkNames: 'chunks/[name]-[hash]',
});

await build({ ...common, ...cjs, entryPoints: { cli: 'commands/main.ts' }, outfile: 'dist/cli.cjs', external: ['bindings'], plugins: [zodEnglishOnly, toVendor, lazyChildProcess, asciiDeps] });

for (const [name, member] of Object.entries(VENDOR)) {
  // pg-native is pg's optional native driver, loaded only if asked for (never here).
  await build({
    ...common,
    ...cjs,
    stdin: { contents: `module.exports = require(${JSON.stringify(name)})${member};`, resolveDir: '.' },
    outfile: join('dist', vendorFile(name)),
    external: ['pg-native'],
  });
}
for (const [name, entry] of Object.entries(LOCAL_VENDOR)) {
  await build({ ...common, ...cjs, entryPoints: [entry], outfile: join('dist', vendorFile(name)) });
}

// The remote bundle (commands/_lib/runtime/mode.ts says when bin/stays runs it): the same program without
// the service. Each module below becomes a stub that throws if it is ever loaded. The in-process
// transport's stub throws when a transport is made, which the context does only when there is no
// base URL, before anything is sent: the error says the full bundle is needed, and bin/stays runs
// dist/cli.cjs instead. Any other stub loaded
// is a bug the remote tests find: a command in REMOTE_COMMANDS reached the service.
const SERVICE_ONLY = [
  'src/client/in-process.ts',
  'src/runtime.ts',
  'src/server.ts',
  'src/config.ts',
  'src/app.ts',
  'src/http/app.ts',
  'src/store/open.ts',
  'src/store/postgres/store.ts',
  'src/core/admin.ts',
  'src/core/auth.ts',
  'src/core/error-docs.ts',
  'src/mcp/stdio.ts',
  'src/core/sandbox-triggers.ts',
  'src/sources/apify/doctor.ts',
  'commands/completion/spec.ts',
];
const root = fileURLToPath(new URL('..', import.meta.url));
// The remote bundle runs only the commands mode.ts sends to it (REMOTE_COMMANDS), and the program
// imports a command's module only when that command runs (commands/program.ts): every other
// command's module is a stub here, which leaves what only those commands use (the analyst
// commands' views, the webhook listener, the MCP tools and their schemas…) out of the bundle that
// every remote call reads (issue 36, item 21). Both lists are read from the sources, so a command
// added to either is handled.
const remoteCommands = new Set(
  [...(/REMOTE_COMMANDS = new Set\(\[([^\]]*)\]/.exec(readFileSync(join(root, 'commands/_lib/runtime/mode.ts'), 'utf8'))?.[1] ?? '').matchAll(/'([a-z-]+)'/g)].map((m) => m[1]),
);
if (remoteCommands.size === 0) throw new Error('build: REMOTE_COMMANDS not found in commands/_lib/runtime/mode.ts');
const definers = [...readFileSync(join(root, 'commands/program.ts'), 'utf8').matchAll(/\[\[([^\]]+)\], async \(\) => \(await import\('\.\/([a-z-]+)\.js'\)\)/g)].map((m) => ({
  names: [...m[1].matchAll(/'([a-z-]+)'/g)].map((n) => n[1]),
  file: `commands/${m[2]}.ts`,
}));
if (definers.length < 10) throw new Error('build: the command definers were not found in commands/program.ts');
const FULL_ONLY_COMMANDS = definers.filter((d) => !d.names.some((n) => remoteCommands.has(n))).map((d) => d.file);
const serviceStubs = {
  name: 'service-stubs',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      const rel = args.path.slice(root.length).replace(/\\/g, '/');
      // A command the remote bundle never runs: if it ever were, the full bundle runs it instead.
      if (FULL_ONLY_COMMANDS.includes(rel))
        return { loader: 'js', contents: `throw Object.assign(new Error(${JSON.stringify(`stays: ${rel} is not in the remote bundle`)}), { name: 'NeedsFullBundle' });` };
      if (!SERVICE_ONLY.includes(rel)) return undefined;
      const error = `Object.assign(new Error(${JSON.stringify(`stays: internal: ${rel} is not in the remote bundle`)}), { name: 'NeedsFullBundle' })`;
      // Imported statically by the client: loading it is harmless, making the transport is not.
      if (rel === 'src/client/in-process.ts') return { loader: 'js', contents: `export function inProcessTransport() { throw ${error}; }` };
      return { loader: 'js', contents: `throw ${error.replace("'NeedsFullBundle'", "'Error'")};` };
    });
  },
};
// A static import of a stubbed module's export would be undefined: the build fails instead.
await build({
  ...common,
  ...cjs,
  entryPoints: { 'cli-remote': 'commands/main.ts' },
  outfile: 'dist/cli-remote.cjs',
  external: ['better-sqlite3'],
  plugins: [zodEnglishOnly, toVendor, serviceStubs, lazyChildProcess, asciiDeps],
  logOverride: { 'import-is-undefined': 'error' },
});
await build({ ...common, ...cjs, entryPoints: ['commands/_lib/runtime/mode.ts'], outfile: 'dist/mode.cjs', sourcemap: false });

// The code cache of bin/stays is keyed by this digest of the bundle and its vendor files, written
// into the bundle's first line: V8 itself only checks a cache against the source's length.
const bundles = ['dist/cli.cjs', 'dist/cli-remote.cjs'];
const hash = createHash('sha256');
for (const f of bundles) hash.update(readFileSync(f));
for (const name of [...Object.keys(VENDOR), ...Object.keys(LOCAL_VENDOR)]) hash.update(readFileSync(join('dist', vendorFile(name))));
const digest = hash.digest('hex').slice(0, 16);
for (const f of bundles) {
  const text = readFileSync(f, 'utf8');
  // Still correct if not, only slower to read (bin/stays).
  if (/[^\x00-\x7f]/.test(text)) console.warn(`build: ${f} is not ASCII (a comment or a tagged template's text): bin/stays decodes it as UTF-8`);
  writeFileSync(f, `// stays-build ${digest}\n${text}`);
  // One line more at the top: shift the source map to match.
  const map = JSON.parse(readFileSync(`${f}.map`, 'utf8'));
  map.mappings = `;${map.mappings}`;
  writeFileSync(`${f}.map`, JSON.stringify(map));
}

// The error and warning reference the package ships (generated from src/core/error-docs.ts, checked
// by test/docs): in-process answers' docUrls point into dist/docs. The /docs renderer's files are
// not copied: `stays serve` reads them from the installed swagger-ui-dist on first request.
mkdirSync('dist/docs', { recursive: true });
for (const f of ['errors.md', 'warnings.md']) copyFileSync(join('docs', f), join('dist/docs', f));

// Type declarations of the library (`import { createClient } from 'stays'`), from the sources.
const tsc = spawnSync(process.execPath, [fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url)), '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
