// The analyst commands name the flags and arguments typed, not the API's parameters (issue 36,
// item 15), as `stays price` does; `--json` keeps the API's names, and every refusal is typed and
// free. `stays market LOCATION` without --from/--to reads the last 30 nights. The built CLI as a
// child process on a fresh sandbox (free, no network).
import { beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, freshSandbox, stays } from './helpers.js';

let box: Sandbox;
beforeAll(async () => {
  box = freshSandbox();
  // Makes the local sandbox key once, before the cases run side by side.
  expect((await stays(['account', '--json'], box.env)).code).toBe(0);
});

/** The human error: its first line and its param line. */
async function refused(args: string[]): Promise<{ code: number | null; message: string; param: string | undefined }> {
  const r = await stays(args, box.env);
  return { code: r.code, message: /^error: (.*)$/m.exec(r.stderr)?.[1] ?? r.stderr, param: /^ {2}param: (.*)$/m.exec(r.stderr)?.[1] };
}

describe('errors in the words typed', () => {
  it.each([
    [['history', 'bookings', 'foo:4242', '--from', '2027-01-01', '--to', '2027-02-01'], /^PLATFORM must be one of .*\(got "foo"\)/, 'PLATFORM'],
    [['history', 'price', 'airbnb', '1', '--check-in', '2027-01-05', '--check-out', '2027-01-01'], /^--check-out must be after --check-in\.$/, undefined],
    [['history', 'calendar', 'airbnb', '1', '--start-date', '2027-01-05', '--end-date', '2027-01-01'], /^--end-date must be after --start-date\.$/, undefined],
    [['history', 'listings', 'Lisbon', '--from', '2027-01-05', '--to', '2026-01-01'], /^--from \(.*\) must not be after --to \(/, '--from'],
    [['market', 'Lisbon', '--from', '2027-02-01', '--to', '2027-01-01'], /^--to must be after --from\.$/, '--to'],
    [['market', '--from', '2027-01-01', '--to', '2027-02-01'], /^Give one of LOCATION, --bbox, --compset, --collection /, undefined],
    [['market', '--compset', 'nope', '--from', '2027-01-01', '--to', '2027-02-01'], /^No comp set "nope"/, '--compset'],
    [['compset', 'create', 'far', '--near', 'airbnb:62959578', '--radius', '99km'], /^--radius must be at most 50 km \(got 99 km\)/, '--radius'],
    [['match', 'foo:4242'], /^PLATFORM must be one of .*\(got "foo"\)/, 'PLATFORM'],
    [['match', 'airbnb:62959578', '--threshold', '3'], /^--threshold must be at most 1/, '--threshold'],
  ])('stays %s', async (args, message, param) => {
    const r = await refused(args as string[]);
    expect(r.code).not.toBe(0);
    expect(r.message).toMatch(message as RegExp);
    expect(r.message).not.toMatch(/\b(?:checkIn|checkOut|startDate|endDate|radiusMeters|compSet|listingId)\b|Missing LISTING_ID/);
    if (param !== undefined) expect(r.param).toBe(param);
  });

  it('--json keeps the API names, typed and free', async () => {
    const r = await stays(['market', 'Lisbon', '--from', '2027-02-01', '--to', '2027-01-01', '--json'], box.env);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr.trim().split('\n').pop()!)).toMatchObject({
      error: { type: 'invalid_request', code: 'invalid_date_range', param: 'to', message: 'to must be after from.', creditsCharged: 0 },
    });
  });
});

describe('stays market without --from/--to', () => {
  it('reads the last 30 nights up to today (UTC)', async () => {
    const before = new Date().toISOString().slice(0, 10);
    const r = await stays(['market', 'Lisbon', '--json'], box.env);
    const after = new Date().toISOString().slice(0, 10);
    expect(r.code, r.stderr).toBe(0);
    const nights = (JSON.parse(r.stdout) as { data: { nights: { from: string; to: string; count: number } } }).data.nights;
    expect([before, after]).toContain(nights.to);
    expect(nights.count).toBe(30);
    expect(Date.parse(nights.to) - Date.parse(nights.from)).toBe(30 * 86_400_000);
    const from = await stays(['market', 'Lisbon', '--from', '2027-06-01', '--json'], box.env);
    expect(from.code, from.stderr).toBe(0);
    expect((JSON.parse(from.stdout) as { data: { nights: unknown } }).data.nights).toEqual({ from: '2027-06-01', to: '2027-07-01', count: 30 });
  });
});
