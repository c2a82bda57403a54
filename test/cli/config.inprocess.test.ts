// `stays config`: settings per profile in an isolated config dir, validated, secrets redacted.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { freshSandbox, staysIn } from './helpers.js';

describe('stays config', () => {
  it('set, get, list, unset, per profile', async () => {
    const { env, configDir } = freshSandbox();
    expect((await staysIn(['config', 'set', 'base-url', 'http://127.0.0.1:8787'], env)).code).toBe(0);
    expect((await staysIn(['config', 'set', 'api-key', 'stay_test_abcdefabcdefabcdefabcdefabcdefab'], env)).code).toBe(0);
    expect((await staysIn(['config', 'set', 'output', 'json', '--profile', 'ci'], env)).code).toBe(0);
    expect((await staysIn(['config', 'get', 'base-url'], env)).stdout).toBe('http://127.0.0.1:8787\n');
    expect((await staysIn(['config', 'get', 'output'], env)).stdout).toBe('');
    expect((await staysIn(['config', 'get', 'output', '--profile', 'ci'], env)).stdout).toBe('json\n');
    expect((await staysIn(['config', 'get', 'output'], { ...env, STAYS_PROFILE: 'ci' })).stdout).toBe('json\n');
    const list = await staysIn(['config', 'list'], env);
    expect(list.stdout).toBe('base-url=http://127.0.0.1:8787\napi-key=stay_test_…(redacted)\n');
    expect(JSON.parse((await staysIn(['config', 'list', '--json'], env)).stdout)).toEqual({ 'base-url': 'http://127.0.0.1:8787', 'api-key': 'stay_test_…(redacted)' });
    expect((await staysIn(['config', 'unset', 'base-url'], env)).code).toBe(0);
    expect((await staysIn(['config', 'get', 'base-url'], env)).stdout).toBe('');
    expect(statSync(`${configDir}/config.json`).mode & 0o777).toBe(0o600);
  });

  it('refuses unknown keys and bad values with exit 2', async () => {
    const { env } = freshSandbox();
    for (const args of [
      ['set', 'colour', 'red'],
      ['set', 'output', 'yaml'],
      ['set', 'timeout', 'soon'],
      ['set', 'base-url', 'ftp://x'],
      ['get', 'nope'],
    ]) {
      const r = await staysIn(['config', ...args], env);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^stays config: /);
    }
  });

  it('a profile output setting is the default format', async () => {
    const { env } = freshSandbox();
    await staysIn(['config', 'set', 'output', 'jsonl'], env);
    const r = await staysIn(['search', 'Lisbon', '--limit', '1', '--platforms', 'vrbo'], env);
    expect(JSON.parse(r.stdout.trim())).toHaveProperty('platform', 'vrbo');
  });

  it('an unknown profile is a usage error (exit 2) with a suggestion, and nothing is written', async () => {
    const { env, configDir, dataDir } = freshSandbox();
    expect((await staysIn(['config', 'set', 'api-key', 'stay_live_abcdefabcdefabcdefabcdefabcdefab', '--profile', 'prod'], env)).code).toBe(0);
    const before = readFileSync(`${configDir}/config.json`, 'utf8');
    for (const [args, extra] of [
      [['account', '--profile', 'prdo'], {}],
      [['search', 'Lisbon', '--limit', '1'], { STAYS_PROFILE: 'prdo' }],
      [['config', 'list', '--profile', 'prdo'], {}],
      [['config', 'get', 'api-key', '--profile', 'prdo'], {}],
      [['config', 'unset', 'api-key', '--profile', 'prdo'], {}],
    ] as [string[], NodeJS.ProcessEnv][]) {
      const r = await staysIn(args, { ...env, ...extra });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('profile prdo');
      expect(r.stderr).toContain('not found; profiles: default, prod. Did you mean prod?');
    }
    // No prdo profile left behind, no local account made for it.
    expect(readFileSync(`${configDir}/config.json`, 'utf8')).toBe(before);
    expect(existsSync(`${dataDir}/stays.db`)).toBe(false);
    // config set creates a profile; the implicit default needs no file at all.
    expect((await staysIn(['config', 'set', 'output', 'json', '--profile', 'prdo'], env)).code).toBe(0);
    expect((await staysIn(['config', 'list', '--profile', 'prdo'], env)).code).toBe(0);
    const fresh = freshSandbox();
    const r = await staysIn(['search', 'Lisbon', '--limit', '1', '--platforms', 'vrbo', '-o', 'jsonl'], fresh.env);
    expect(r.code, r.stderr).toBe(0);
    expect((await staysIn(['config', 'list', '--profile', 'default'], freshSandbox().env)).code).toBe(0);
  });
});
