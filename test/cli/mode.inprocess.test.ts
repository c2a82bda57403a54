// Which bundle bin/stays runs (commands/_lib/runtime/mode.ts): the remote one only when the context will
// be remote, read from the same settings in the same order.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runsRemote } from '../../commands/_lib/runtime/mode.js';

function configDir(profiles: Record<string, Record<string, string>>): string {
  const dir = mkdtempSync(join(tmpdir(), 'stays-mode-'));
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles }));
  return dir;
}

describe('runsRemote', () => {
  const none = { STAYS_CONFIG_DIR: configDir({}) };

  it('a data command with a base URL from the flag, the variable or the profile', () => {
    expect(runsRemote(['search', 'Lisbon', '--base-url', 'http://h'], none)).toBe(true);
    expect(runsRemote(['search', 'Lisbon', '--base-url=http://h'], none)).toBe(true);
    expect(runsRemote(['account'], { ...none, STAYS_BASE_URL: 'http://h' })).toBe(true);
    const withProfiles = { STAYS_CONFIG_DIR: configDir({ default: {}, prod: { 'base-url': 'http://h' } }) };
    expect(runsRemote(['account', '--profile', 'prod'], withProfiles)).toBe(true);
    expect(runsRemote(['account', '--profile=prod'], withProfiles)).toBe(true);
    expect(runsRemote(['account'], { ...withProfiles, STAYS_PROFILE: 'prod' })).toBe(true);
    expect(runsRemote(['account'], withProfiles)).toBe(false);
    // A named profile inherits the default profile's base URL, as the context reads it.
    expect(runsRemote(['account', '--profile', 'ci'], { STAYS_CONFIG_DIR: configDir({ default: { 'base-url': 'http://h' }, ci: {} }) })).toBe(true);
  });

  it('the flag wins over the variable, the variable over the profile; an empty one means in-process', () => {
    const remoteProfile = { STAYS_CONFIG_DIR: configDir({ default: { 'base-url': 'http://h' } }) };
    expect(runsRemote(['search'], { ...remoteProfile, STAYS_BASE_URL: '' })).toBe(false);
    expect(runsRemote(['search', '--base-url', ''], { ...remoteProfile })).toBe(false);
    expect(runsRemote(['search', '--base-url', 'http://h'], { ...none, STAYS_BASE_URL: '' })).toBe(true);
  });

  it('no base URL, a command that needs the service, or any doubt: the full bundle', () => {
    expect(runsRemote(['search', 'Lisbon'], none)).toBe(false);
    for (const c of ['serve', 'admin', 'mcp', 'doctor', 'help', 'completion', 'config', 'auth', 'webhooks']) expect(runsRemote([c], { ...none, STAYS_BASE_URL: 'http://h' }), c).toBe(false);
    expect(runsRemote([], { ...none, STAYS_BASE_URL: 'http://h' })).toBe(false);
    expect(runsRemote(['search', '--base-url'], none)).toBe(false);
    expect(runsRemote(['search', '--', '--base-url', 'http://h'], none)).toBe(false);
    const broken = mkdtempSync(join(tmpdir(), 'stays-mode-'));
    writeFileSync(join(broken, 'config.json'), '{not json');
    expect(runsRemote(['search'], { STAYS_CONFIG_DIR: broken })).toBe(false);
  });
});
