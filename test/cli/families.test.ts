// One real-process run of each command family whose tests run in this process (the *.inprocess
// files beside this one, through runCli): the built bundle, bin/stays's loader and the process's
// exit code, so a command the bundle or the loader broke still fails the e2e tier. What each
// command prints is its in-process file's to test; here only that it runs and answers its shape.
import { beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, freshSandbox, json, stays } from './helpers.js';

const DATES = ['--check-in', '2027-03-01', '--check-out', '2027-03-04'];
let box: Sandbox;
beforeAll(async () => {
  box = freshSandbox();
  const r = await stays(['account', '--json'], box.env);
  expect(r.code, r.stderr).toBe(0);
}, 60_000);

const data = (r: Awaited<ReturnType<typeof stays>>) => json<{ data: unknown }>(r).data;

describe('each command family through the built CLI (bin/stays)', () => {
  it.each<[string, string[], (out: unknown) => void]>([
    ['search', ['search', 'Lisbon', '--limit', '1', '--platforms', 'booking', '--json'], (d) => expect(d).toEqual([expect.objectContaining({ platform: 'booking' })])],
    ['search --family s', ['search', 'Lisbon', '--family', 's', '--max-items', '1', '--json'], (d) => expect(d).toEqual([expect.objectContaining({ url: expect.stringContaining('airbnb') })])],
    ['listings', ['listings', 'superhost', 'Lisbon', '--max-items', '1', '--json'], (d) => expect(d).toHaveLength(1)],
    ['listing', ['listing', 'airbnb', '12345678', '--json'], (d) => expect(d).toMatchObject({ platformListingId: '12345678' })],
    ['stay', ['stay', 'get', '12345', '--json'], (d) => expect(d).toMatchObject({ id: '12345' })],
    ['price', ['price', 'booking', 'pt/casa-azul', ...DATES, '--json'], (d) => expect(d).toMatchObject({ listingId: 'pt/casa-azul' })],
    ['compare', ['compare', '--listings', 'airbnb:12345678,booking:pt/casa-azul', ...DATES, '--json'], (d) => expect(d).toMatchObject({ checkIn: '2027-03-01' })],
    [
      'availability',
      ['availability', 'vrbo', '4886746', '--start-date', '2027-03-01', '--end-date', '2027-03-05', '--json'],
      (d) => expect(d).toEqual([expect.objectContaining({ listingId: '4886746' })]),
    ],
    ['reviews', ['reviews', 'airbnb', '12345678', '--json'], (d) => expect(Array.isArray(d)).toBe(true)],
    ['jobs', ['jobs', 'list', '--json'], (d) => expect(d).toEqual([])],
    ['webhooks', ['webhooks', 'list', '--json'], (d) => expect(d).toEqual([])],
  ])('%s', async (_, args, check) => {
    const r = await stays(args, box.env);
    expect(r.code, r.stderr).toBe(0);
    check(data(r));
  });

  it('auth status and whoami', async () => {
    for (const args of [
      ['auth', 'status', '--json'],
      ['whoami', '--json'],
    ]) {
      const r = await stays(args, box.env);
      expect(r.code, r.stderr).toBe(0);
      expect(json(r)).toMatchObject({ mode: 'in-process' });
    }
  });

  it('config set, get and list', async () => {
    expect((await stays(['config', 'set', 'timeout', '60s'], box.env)).code).toBe(0);
    const got = await stays(['config', 'get', 'timeout'], box.env);
    expect([got.code, got.stdout]).toEqual([0, '60s\n']);
    const list = await stays(['config', 'list'], box.env);
    expect(list.stdout).toContain('timeout=60s');
  });

  it('doctor: the report, exit 7 with no upstream configured', async () => {
    const r = await stays(['doctor', '--json'], box.env);
    expect(r.code, r.stderr).toBe(7);
    expect(json(r)).toMatchObject({ mode: 'in-process', upstream: 'none' });
  });
});
