// Bundles the CLI and the library to dist/ with esbuild. Pure-JS dependencies are bundled, which
// spares the CLI's start-up hundreds of module resolutions (docs/benchmarks.md); the native
// SQLite binding and undici (whose own lazy loading breaks when bundled) stay external. Dynamic
// imports become separate chunks so each command loads only what it needs.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

// zod re-exports all of its ~60 message locales as `z.locales`, a third of the CLI's code to
// compile at every start. stays never reads them (zod installs English itself), so the bundle
// gets English only.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: join(dirname(args.importer), '../locales/en.js') } : undefined,
    );
  },
};

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'commands/main.ts', index: 'src/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3', 'undici'],
  // Bundled CommonJS dependencies call require(); ESM output needs one.
  banner: { js: "import { createRequire as __staysCreateRequire } from 'node:module'; const require = __staysCreateRequire(import.meta.url);" },
  sourcemap: true,
  logLevel: 'warning',
  chunkNames: 'chunks/[name]-[hash]',
  plugins: [zodEnglishOnly],
});
