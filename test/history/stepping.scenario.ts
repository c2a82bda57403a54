// Issue 26's acceptance, one scenario for every way of running the service: the simulated world
// observed every six hours for 30 days (a clock stepped as STAYS_NOW=… would start it, 120 steps),
// by a watch of one quote with a drop rule whose runs are the only calls. Checked against the
// world's own truth: the price series holds exactly one row per run of equal prices (no duplicate
// while unchanged), the watch raises exactly one event per drop of at least its percent, each one
// signed webhook delivery, and the history answers are the same read in-process and remote.
// Run by stepping.inprocess.test.ts (the app in-process), stepping-serve.inprocess.test.ts (`stays
// serve` on SQLite, over HTTP) and stepping.pg.test.ts (`stays serve` on PostgreSQL).
import { expect } from 'vitest';
import type { manualClock } from '../../src/core/clock.js';
import { worldTruth } from '../../src/sources/sandbox/moving.js';
import { verifyWebhook } from '../../src/webhooks/sign.js';
import type { Receiver } from '../helpers/receiver.js';
import type { Api, TestAccount } from '../helpers/stays.js';
import { createHook } from '../helpers/webhooks.js';

const HOUR = 3_600_000;
export const START = Date.UTC(2027, 0, 1);
const STEPS = 120;
const LISTING = { platform: 'airbnb' as const, id: '12345678' };
const STAY = { checkIn: '2027-02-20', checkOut: '2027-02-23', adults: 2 };
const DROP_PERCENT = 3;

export interface Target {
  clock: ReturnType<typeof manualClock>;
  /** Where the calls go: the app in-process, or a server over HTTP. */
  api: Pick<Api, 'req'>;
  /** The same store read in-process (the app over the same database), to compare answers with. */
  local: Pick<Api, 'req'>;
  account: TestAccount;
  /** What the server does on its tick: run the due watches. */
  runDue(): Promise<unknown>;
  receiver: Receiver;
}

/** The price the world quotes for LISTING and STAY at an instant: its truth, not an observation. */
const truth = (at: number) => worldTruth.priceAt(LISTING.platform, LISTING.id, { ...STAY, children: 0, childAges: [], currency: 'USD' }, at).nightlyPrice;

const json = async (r: Response) => (await r.json()) as { data: unknown; meta: { requestId: string } & Record<string, unknown> };
const withoutRequestId = (b: { data: unknown; meta: Record<string, unknown> }) => ({ data: b.data, meta: { ...b.meta, requestId: null } });

export async function runScenario(t: Target): Promise<void> {
  const { clock, api, account } = t;
  clock.set(START);
  const hook = await createHook(api as Api, account.liveKey, t.receiver.url, ['watch.triggered']);
  const made = await api.req('/v1/watches', {
    method: 'POST',
    key: account.liveKey,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'six-hourly',
      call: { type: 'price', params: { platform: LISTING.platform, listingId: LISTING.id, ...STAY } },
      rules: [{ type: 'price_drop', percent: DROP_PERCENT }],
      intervalMinutes: 360,
    }),
  });
  expect(made.status).toBe(201);
  const watchId = ((await json(made)).data as { id: string }).id;

  const truths: number[] = [];
  for (let k = 0; k < STEPS; k++) {
    clock.set(START + k * 6 * HOUR);
    await t.runDue();
    truths.push(truth(clock.now()));
  }

  // The world moved, and fell by the percent at least once, in the window: the checks below check something.
  expect(new Set(truths).size).toBeGreaterThan(2);
  // One row per run of equal prices, in order, each seen as often as the runs saw it.
  const runs: { price: number; times: number }[] = [];
  for (const p of truths) {
    if (runs.at(-1)?.price === p) runs.at(-1)!.times++;
    else runs.push({ price: p, times: 1 });
  }
  const q = `platform=${LISTING.platform}&listingId=${LISTING.id}&checkIn=${STAY.checkIn}&checkOut=${STAY.checkOut}&adults=${STAY.adults}&from=2026-12-31&to=2027-02-01&limit=1000`;
  const history = await json(await api.req(`/v1/history/price?${q}`, { key: account.liveKey }));
  const rows = history.data as { nightlyPrice: number; timesSeen: number; firstSeen: string; source: string }[];
  expect(rows.map((r) => ({ price: r.nightlyPrice, times: r.timesSeen }))).toEqual(runs);
  expect(rows.every((r) => r.source === 'simulated')).toBe(true);
  expect(history.meta.creditsCharged).toBe(0);

  // One event per drop of at least the percent, between two runs.
  const drops = truths.flatMap((p, i) => (i > 0 && p <= truths[i - 1]! * (1 - DROP_PERCENT / 100) ? [{ before: truths[i - 1], after: p }] : []));
  expect(drops.length).toBeGreaterThan(0);
  const events = (await json(await api.req(`/v1/watches/${watchId}/events?limit=1000`, { key: account.liveKey }))).data as {
    id: string;
    before: { nightlyPrice: number };
    after: { nightlyPrice: number };
  }[];
  expect(events.map((e) => ({ before: e.before.nightlyPrice, after: e.after.nightlyPrice }))).toEqual(drops);
  // Each event is one signed delivery.
  const delivered = drops.length === 0 ? [] : await t.receiver.waitFor(drops.length, 30_000, (r) => r.body.event === 'watch.triggered');
  await new Promise((r) => setTimeout(r, 200));
  const mine = t.receiver.received.filter((r) => r.body.event === 'watch.triggered');
  expect(mine).toHaveLength(drops.length);
  expect(delivered.map((r) => r.body.data.watch_event_id).sort()).toEqual(events.map((e) => e.id).sort());
  for (const r of mine) expect(verifyWebhook(r.raw, String(r.headers['x-service-signature']), hook.secret, { toleranceSeconds: 1e10 }).ok).toBe(true);

  // The same answers read in-process and remote.
  for (const path of [`/v1/history/price?${q}`, `/v1/watches/${watchId}/events?limit=1000`, `/v1/watches/${watchId}`]) {
    const remote = withoutRequestId(await json(await api.req(path, { key: account.liveKey })));
    const local = withoutRequestId(await json(await t.local.req(path, { key: account.liveKey })));
    expect(local, path).toEqual(remote);
  }
  // The watch ran every six hours, each run billed.
  const shown = (await json(await api.req(`/v1/watches/${watchId}`, { key: account.liveKey }))).data as { runs: number; triggers: number };
  expect(shown).toMatchObject({ runs: STEPS, triggers: drops.length });
}

/**
 * `stays serve` (src/server.ts's startServer, as the command runs it) on a loopback port with the
 * clock injected as STAYS_NOW would start it, and the app in-process over the same store (`local`,
 * delivering nothing itself), for the serve runs of the scenario.
 */
export async function servedTarget(env: NodeJS.ProcessEnv, receiver: Receiver, clock: ReturnType<typeof manualClock>) {
  const { startServer } = await import('../../src/server.js');
  const { startApp } = await import('../helpers/app.js');
  const { accountOn } = await import('../helpers/seed.js');
  const { tempDir } = await import('../helpers/stays.js');
  const pino = (await import('pino')).default;
  const { rmSync } = await import('node:fs');
  const dataDir = tempDir();
  const settings = { STAYS_LOG_LEVEL: 'warn', STAYS_SHUTDOWN_GRACE_MS: '0', STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '0', ...env };
  const server = await startServer({ port: 0, config: { dataDir }, env: settings, logger: pino({ level: 'silent' }), clock });
  const local = await startApp(settings, { dataDir, clock, deliver: false });
  const account = await accountOn(server.runtime, { credits: 100_000, rpm: 100_000 });
  const api: Pick<Api, 'req'> = {
    req(path, init = {}) {
      const { key, headers, ...rest } = init;
      const h = new Headers(headers);
      if (key !== undefined) h.set('authorization', `Bearer ${key}`);
      return fetch(server.url + path, { ...rest, headers: h });
    },
  };
  return {
    server,
    target: { clock, api, local, account, receiver, runDue: () => server.watches.runDue() } satisfies Target,
    async stop() {
      await local.stop({ keepData: true });
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
