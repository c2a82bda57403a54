// README.md's "First five minutes", run verbatim: every `stays …` line of that block (and of the
// output examples under it) through bash, with `stays` on PATH as the built CLI, on a fresh
// machine (empty data and config directories). The install line is what `npm ci` already did.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stays.js';
import { bash, freshSandbox, pathWithStays } from './helpers.js';

const README = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');

/** The shell lines of the sh blocks of one README section (up to the next heading). */
function section(title: string): string[] {
  const start = README.indexOf(`### ${title}\n`);
  if (start < 0) throw new Error(`README has no section "${title}"`);
  const end = README.indexOf('\n#', start + 4);
  const body = README.slice(start, end < 0 ? undefined : end);
  return [...body.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n')).filter((l) => l.trim() && !l.startsWith('#'));
}

describe('README: first five minutes, verbatim', () => {
  const lines = section('First five minutes');

  it('has the commands a newcomer runs', () => {
    expect(lines.filter((l) => l.startsWith('stays ')).length).toBeGreaterThanOrEqual(8);
  });

  it('every line runs on a fresh machine and exits 0 with output', async () => {
    const box = freshSandbox();
    const work = tempDir('stays-work-');
    const env = { ...box.env, PATH: pathWithStays() };
    for (const line of lines) {
      // The install line: `npm ci` has run; `npm install -g .` would touch the machine.
      if (line.startsWith('npm ')) continue;
      const r = await bash(line, env, work);
      expect(r.code, `${line}\n${r.stderr}`).toBe(0);
      expect(r.stderr, line).not.toMatch(/error:|unexpected/i);
      // Every example either prints rows or writes the file it names.
      if (!/>\s*\S+\s*(#.*)?$/.test(line)) expect(r.stdout.trim().length, line).toBeGreaterThan(0);
    }
  }, 120_000);
});

describe('README: market metrics and comp sets, verbatim', () => {
  const lines = section('Market metrics and comp sets');

  it('every line runs on a fresh machine (the sandbox market) and exits 0 with output', async () => {
    expect(lines.filter((l) => l.startsWith('stays market ')).length).toBeGreaterThanOrEqual(4);
    const box = freshSandbox();
    const work = tempDir('stays-work-');
    const env = { ...box.env, PATH: pathWithStays() };
    for (const line of lines) {
      const r = await bash(line, env, work);
      expect(r.code, `${line}\n${r.stderr}`).toBe(0);
      expect(r.stderr, line).not.toMatch(/error:|unexpected/i);
      expect(r.stdout.trim().length, line).toBeGreaterThan(0);
    }
  }, 120_000);
});

describe('README: stays, batches and presets (Family S), verbatim', () => {
  const lines = section('Stays, batches and presets (Family S)');

  it('every line runs on a fresh machine and exits 0 with output, warnings aside', async () => {
    expect(lines.filter((l) => /(^|\| )stays (stay|search|listings) /.test(l)).length).toBeGreaterThanOrEqual(6);
    const box = freshSandbox();
    const work = tempDir('stays-work-');
    const env = { ...box.env, PATH: pathWithStays() };
    for (const line of lines) {
      const r = await bash(line, env, work);
      expect(r.code, `${line}\n${r.stderr}`).toBe(0);
      expect(r.stderr, line).not.toMatch(/error:|unexpected/i);
      expect(r.stdout.trim().length, line).toBeGreaterThan(0);
    }
  }, 120_000);
});

describe('README: history, verbatim', () => {
  const lines = section('History: price, calendar, supply, export');

  it('every history line runs on a fresh machine (sandbox histories) and exits 0 with output', async () => {
    expect(lines.filter((l) => l.startsWith('stays history ')).length).toBeGreaterThanOrEqual(5);
    const box = freshSandbox();
    const work = tempDir('stays-work-');
    const env = { ...box.env, PATH: pathWithStays() };
    for (const line of lines) {
      const r = await bash(line, env, work);
      expect(r.code, `${line}\n${r.stderr}`).toBe(0);
      expect(r.stderr, line).not.toMatch(/error:|unexpected/i);
      expect(r.stdout.trim().length, line).toBeGreaterThan(0);
    }
  }, 120_000);
});

describe('README: inferred bookings, verbatim', () => {
  const lines = section('Inferred bookings');

  it('every line runs on a fresh machine (a sandbox history) and exits 0 with output', async () => {
    expect(lines.filter((l) => l.startsWith('stays history bookings ')).length).toBeGreaterThanOrEqual(3);
    const box = freshSandbox();
    const work = tempDir('stays-work-');
    const env = { ...box.env, PATH: pathWithStays() };
    for (const line of lines) {
      const r = await bash(line, env, work);
      expect(r.code, `${line}\n${r.stderr}`).toBe(0);
      expect(r.stderr, line).not.toMatch(/error:|unexpected/i);
      expect(r.stdout.trim().length, line).toBeGreaterThan(0);
    }
  }, 120_000);
});

describe('README: honest prices, verbatim', () => {
  const lines = section('Honest prices');

  it('every line runs on a fresh machine (sandbox), exits 0 with output; compare says which offers it did not rank together', async () => {
    expect(lines.filter((l) => /^stays (price|compare) /.test(l)).length).toBe(2);
    const box = freshSandbox();
    const work = tempDir('stays-work-');
    const env = { ...box.env, PATH: pathWithStays() };
    for (const line of lines) {
      const r = await bash(line, env, work);
      expect(r.code, `${line}\n${r.stderr}`).toBe(0);
      expect(r.stderr, line).not.toMatch(/error:|unexpected/i);
      expect(r.stdout.trim().length, line).toBeGreaterThan(0);
      if (line.startsWith('stays compare')) {
        expect(r.stdout.split('\n')[0]).toContain('includes_cleaning,includes_service_fee,includes_taxes');
        expect(r.stderr).toContain('(price_inclusions_differ)');
      }
      if (line.startsWith('stays price')) expect(JSON.parse(r.stdout).includes).toEqual({ cleaning: true, serviceFee: true, taxes: true });
    }
  }, 120_000);
});
