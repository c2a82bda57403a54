// `stays help sandbox` (issue 9, item 16): the sandbox's triggers printed from the table the
// sandbox throws from, and each one doing what the help says against the in-process sandbox.
import { describe, expect, it } from 'vitest';
import { sandboxTriggers } from '../../src/core/sandbox-triggers.js';
import { day } from '../helpers/stays.js';
import { freshSandbox, json, staysIn } from './helpers.js';

/** The error envelope: the last line of stderr (the first run also says it made a local key). */
const errorOf = (stderr: string) => JSON.parse(stderr.trim().split('\n').at(-1)!) as { error: { code: string } };

describe('stays help sandbox', () => {
  it('lists every trigger of the sandbox with its status and code; stays help names the topic', async () => {
    const r = await staysIn(['help', 'sandbox'], {});
    expect(r.code, r.stderr).toBe(0);
    for (const t of sandboxTriggers()) {
      const line = new RegExp(`^  ${t.value} +${t.status}${t.code ? ` ${t.code}` : ''} +${t.effect.replace(/[()[\]]/g, '\\$&')}`, 'm');
      expect(r.stdout).toMatch(line);
    }
    expect(r.stdout).toMatch(/^Listing ids, on listing, price, price-compare, availability, reviews/m);
    const top = await staysIn(['--help'], {});
    expect(top.stdout).toMatch(/help \[topic\.\.\.\] +Help for a command, or a topic: exit-codes, sandbox/);
    const unknown = await staysIn(['help', 'sandboxes'], {});
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/topics: exit-codes, sandbox/);
  });

  it('what it says holds: a listing id and a search location, in process', async () => {
    const box = freshSandbox();
    const byValue = (input: string, value: string) => sandboxTriggers().find((t) => t.input === input && t.value === value)!;
    const notFound = byValue('listingId', '404');
    const listing = await staysIn(['listing', 'airbnb', '404', '--json'], box.env);
    expect(listing.code).toBe(3);
    expect(errorOf(listing.stderr)).toMatchObject({ error: { code: notFound.code } });
    const priceOnly = byValue('listingId', '411');
    expect((await staysIn(['listing', 'vrbo', '411', '--json'], box.env)).code).toBe(0);
    const price = await staysIn(['price', 'vrbo', '411', '--check-in', day(30), '--check-out', day(32), '--json'], box.env);
    expect(errorOf(price.stderr)).toMatchObject({ error: { code: priceOnly.code } });
    const partial = await staysIn(['search', 'partial', '--json'], box.env);
    expect(json<{ meta: { partial: boolean; platformResults: { status: string; error?: { code: string } }[] } }>(partial).meta).toMatchObject({ partial: true });
    const failed = json<{ meta: { platformResults: { status: string; error?: { code: string } }[] } }>(partial).meta.platformResults.filter((p) => p.status === 'failed');
    expect(failed.map((p) => p.error?.code)).toEqual([byValue('location', 'partial').code]);
    const fail = await staysIn(['search', 'fail', '--json'], box.env);
    expect(errorOf(fail.stderr)).toMatchObject({ error: { code: byValue('location', 'fail').code } });
  });

  it('what it says holds: the refusals and the long job a CI run cannot otherwise reach (exit 5, 6, 8)', async () => {
    const box = freshSandbox();
    const byValue = (input: string, value: string) => sandboxTriggers().find((t) => t.input === input && t.value === value)!;
    expect(byValue('listingId', '402')).toMatchObject({ code: 'credit_balance_too_low', status: 402 });
    expect(byValue('listingId', '429')).toMatchObject({ code: 'rate_limit_exceeded', status: 429 });
    expect(byValue('location', 'pending')).toMatchObject({ code: null, status: 202 });
    const credits = await staysIn(['listing', 'airbnb', '402', '--json'], box.env);
    expect(credits.code).toBe(5);
    expect(errorOf(credits.stderr)).toMatchObject({ error: { code: 'credit_balance_too_low' } });
    // A whole call is refused, not one leg of it: a direct comparison with one such listing too.
    const compare = await staysIn(['compare', '--listings', 'airbnb:12345678,vrbo:402', '--check-in', day(30), '--check-out', day(32), '--json'], box.env);
    expect(compare.code).toBe(5);
    const limited = await staysIn(['price', 'booking', 'pt/429', '--check-in', day(30), '--check-out', day(32), '--json', '--debug'], box.env);
    expect(limited.code).toBe(6);
    expect(limited.stderr.match(/→ 429/g)).toHaveLength(3); // the first try and two retries after Retry-After
    expect(errorOf(limited.stderr)).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
    const pending = await staysIn(['search', 'pending', '--timeout', '2s', '--json'], box.env);
    expect(pending.code).toBe(8);
    expect(errorOf(pending.stderr)).toMatchObject({ error: { code: 'wait_timeout' } });
  });
});
