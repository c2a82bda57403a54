// List parameters (propertyType, amenities, platforms, childAges) name the bad value in the CLI
// (a child process, remote mode) against a `stays serve`. Over HTTP: test/http/list-params.inprocess.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stays, type TestAccount, startStays } from '../helpers/stays.js';
import { freshSandbox, stays } from '../cli/helpers.js';

let s: Stays;
let a: TestAccount;
beforeAll(async () => {
  s = await startStays();
  a = await s.account();
});
afterAll(async () => {
  await s.stop();
});

const TYPES = 'hotel, apartment, house, villa, cottage, other';
const ENABLED = 'vrbo, booking, airbnb, google';

describe('list parameters in the CLI (remote, same server)', () => {
  const cli = (args: string[]) => stays(['search', 'Lisbon', ...args, '--base-url', s.url, '--api-key', a.sandboxKey], freshSandbox().env);

  it.each([
    [['--property-type', 'flat'], `--property-type "flat" is not one of ${TYPES}.`, '--property-type'],
    [['--platforms', 'airbnbb'], `--platforms "airbnbb" is not one of ${ENABLED}.`, '--platforms'],
    [['--amenities', 'wifii'], '--amenities "wifii" is not one of pool,', '--amenities'],
  ])('stays search Lisbon %j names the value and the flag', async (args, message, flag) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`error: ${message}`);
    expect(r.stderr).toContain(`param: ${flag}`);
    expect(r.stderr).not.toMatch(/undefined|expedia/);
  });

  it('--json keeps the API envelope: parameter names as the API spells them', async () => {
    const r = await cli(['--property-type', 'flat', '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr)).toMatchObject({ error: { code: 'invalid_property_type', param: 'propertyType', message: `propertyType "flat" is not one of ${TYPES}.` } });
  });
});
