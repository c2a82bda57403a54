// Settings (src/config.ts, src/core/settings.ts): the built-in defaults are taken unchecked, so
// each must be valid and unchanged by its schema; every value the environment gives is checked
// and converted, and the first problem in Config's key order is reported under its variable.
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULTS, loadConfig } from '../../src/config.js';
import { type Config, parseSettings } from '../../src/core/settings.js';

const base = { STAYS_DATA_DIR: '/tmp/stays-config-test', STAYS_DOCS_URL: 'https://docs.example/stays' };

describe('settings', () => {
  it('has defaults that are valid and that their schemas leave unchanged', () => {
    const raw = { ...DEFAULTS, dataDir: '/tmp/x', docsUrl: 'https://docs.example/', docsUrlFixed: true } as Record<keyof Config, unknown>;
    // No defaults given: every value is checked.
    const all = parseSettings(raw, {});
    expect(all.ok).toBe(true);
    if (all.ok) expect(all.config).toStrictEqual(raw);
  });

  it('reads the same config as checking every value would, keys in the same order', () => {
    const config = loadConfig({}, base);
    const checked = parseSettings(config as Record<keyof Config, unknown>, {});
    expect(checked.ok && Object.keys(checked.config)).toStrictEqual(Object.keys(config));
    expect(checked.ok && checked.config).toStrictEqual(config);
    expect(config.databasePoolMax).toBe(10);
  });

  it('checks and converts what the environment gives, a default value included', () => {
    expect(loadConfig({}, { ...base, STAYS_DATABASE_POOL_MAX: '10' }).databasePoolMax).toBe(10);
    expect(loadConfig({}, { ...base, STAYS_APIFY_BASE_URL: 'https://api.apify.com/v2/' }).apifyBaseUrl).toBe('https://api.apify.com');
    expect(() => loadConfig({}, { ...base, STAYS_LOG_LEVEL: 'loud' })).toThrow(/^invalid setting STAYS_LOG_LEVEL: /);
    expect(() => loadConfig({ memoryCacheMb: 0 }, base, { memoryCacheMb: '--memory-cache-mb' })).toThrow(/^invalid option --memory-cache-mb: /);
  });

  it('takes the calendars of the simulated upstream as moving or families[:SEED], and nothing else', async () => {
    const { parseSimCalendars } = await import('../../src/sources/sandbox/families-upstream.js');
    const read = (v: string | undefined) => parseSimCalendars(loadConfig({}, v === undefined ? base : { ...base, STAYS_SIM_CALENDARS: v }).simCalendars);
    expect(read(undefined)).toEqual({ kind: 'moving' });
    expect(read('moving')).toEqual({ kind: 'moving' });
    expect(read('families')).toEqual({ kind: 'families', seed: 0 });
    expect(read('families:42')).toEqual({ kind: 'families', seed: 42 });
    expect(read('families:42:prep,notice')).toEqual({ kind: 'families', seed: 42, families: ['notice', 'prep'] });
    expect(read('families:7:none')).toEqual({ kind: 'families', seed: 7, families: [] });
    for (const bad of ['family', 'families:', 'families:-1', 'families:1.5', 'families:1234567890', 'moving:3', 'families:1:', 'families:1:prep,', 'families:1:holiday', 'families:prep'])
      expect(() => loadConfig({}, { ...base, STAYS_SIM_CALENDARS: bad }), bad).toThrow(/^invalid setting STAYS_SIM_CALENDARS: must be moving, families, families:SEED or families:SEED:FAMILIES/);
  });

  it('names the calendar families STAYS_SIM_CALENDARS takes as the families world has them', async () => {
    const { SIM_FAMILIES } = await import('../../src/core/settings.js');
    const { FAMILIES } = await import('../../src/sources/sandbox/calendar-families.js');
    expect([...SIM_FAMILIES]).toEqual([...FAMILIES]);
  });

  it('reports the first problem in key order', () => {
    const e = (() => {
      try {
        loadConfig({}, { ...base, STAYS_ANON_RPM: '0', STAYS_DATABASE_POOL_MAX: '0' });
      } catch (x) {
        return x;
      }
    })();
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as Error).message).toMatch(/^invalid setting STAYS_DATABASE_POOL_MAX: /);
  });
});
