// Bundles the CLI and the library to dist/ with esbuild. Dependencies stay external (the native
// SQLite binding cannot be bundled); dynamic imports become separate chunks so each command
// loads only what it needs.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'commands/main.ts', index: 'src/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  chunkNames: 'chunks/[name]-[hash]',
});
