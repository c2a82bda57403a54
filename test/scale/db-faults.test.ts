// Issue 21 (1, 2): a `stays serve` on PostgreSQL whose database goes away under load, through a
// real TCP proxy that is killed and restarted, and by pg_terminate_backend of its connections.
// The server never exits; while the database is away it answers a typed, retryable 503
// database_unavailable with Retry-After (never a 500); it serves again by itself once the database
// is back; and afterwards nothing is held that no running job owns, with the ledger equal to the
// sum of the charges the clients were told about.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, type Instance, accountShow, admin, call, liveAccount, sql, startInstance, stopAll } from '../helpers/multi.js';
import { runCli } from '../helpers/stays.js';
import { type TestDatabase, freshDatabase, pgAvailable } from '../helpers/pg.js';
import { type TcpProxy, startTcpProxy } from '../helpers/tcp-proxy.js';

const RATE = 40; // requests a second
const LEASE_MS = 3000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Told {
  /** When the request was sent, and when its first answer came back (epoch ms). */
  sent: number;
  answered: number;
  first: Answer;
  /** The job's end, for a 202 (polled until it ended). */
  final?: Answer;
}

/** GET /v1/jobs/:id until it ends, sitting out 503s and 429s (the database may be away). */
async function settle(i: Instance, key: string, jobId: string): Promise<Answer> {
  const until = Date.now() + 120_000;
  for (;;) {
    const a = await call(i, key, `/v1/jobs/${jobId}`);
    if (a.status === 200 && (a.body.data?.status === 'completed' || a.body.data?.status === 'failed')) return a;
    if (a.status !== 200 && a.status !== 503 && a.status !== 429) throw new Error(`GET /v1/jobs/${jobId}: ${a.status} ${JSON.stringify(a.body)}`);
    if (Date.now() > until) throw new Error(`job ${jobId} did not end: ${JSON.stringify(a.body)}`);
    await sleep(200);
  }
}

/** Live searches at RATE a second for `ms`, each a distinct question now and then, so some are jobs and some cache hits. */
async function load(i: Instance, key: string, ms: number, places: [string, string]): Promise<Told[]> {
  const told: Told[] = [];
  const lost: string[] = [];
  const pending: Promise<void>[] = [];
  const start = Date.now();
  for (let n = 0; Date.now() - start < ms; n++) {
    // Half repeat a few questions (cache hits once fetched), half are new (jobs).
    const path = n % 2 === 0 ? `/v1/search?location=${places[0]}&limit=${1 + (n % 5)}` : `/v1/search?location=${places[1]}&limit=${1 + (n % 20)}&page=${1 + Math.floor(n / 40)}`;
    const sent = Date.now();
    pending.push(
      call(i, key, path)
        .then(async (first) => {
          const t: Told = { sent, answered: Date.now(), first };
          told.push(t);
          if (first.status === 202) t.final = await settle(i, key, first.body.data!.jobId!);
        })
        .catch((e: Error) => {
          lost.push(`request ${n}: ${e.message}`);
        }),
    );
    await sleep(Math.max(0, start + ((n + 1) * 1000) / RATE - Date.now()));
  }
  await Promise.all(pending);
  if (lost.length > 0) throw new Error(`${lost.length} requests got no answer (did the server exit?), first ${lost[0]}; stderr: ${i.stderr().slice(-2000)}`);
  return told;
}

function charged(told: Told[]): number {
  let sum = 0;
  for (const t of told) {
    if (t.first.status === 200) sum += t.first.body.meta!.creditsCharged;
    else if (t.first.status === 202 && t.final!.body.data!.status === 'completed') sum += t.final!.body.meta!.creditsCharged;
  }
  return sum;
}

/** Every answer is a 200, a 202 or a typed retryable 503 with Retry-After; never a 500. */
function checkAnswers(told: Told[]) {
  const byStatus = new Map<number, number>();
  for (const t of told) {
    byStatus.set(t.first.status, (byStatus.get(t.first.status) ?? 0) + 1);
    expect([200, 202, 503], JSON.stringify(t.first.body)).toContain(t.first.status);
    if (t.first.status === 503) {
      // The database away, the backlog right after it came back (every connection busy), or a
      // call whose hold's lease ran out while the database was away (released, nothing charged).
      expect(t.first.body.error).toMatchObject({ type: 'upstream_unavailable', retryable: true, creditsCharged: 0 });
      expect(['database_unavailable', 'service_overloaded', 'upstream_degraded']).toContain(t.first.body.error!.code);
      expect(Number(t.first.headers.get('retry-after')), JSON.stringify(t.first.body)).toBeGreaterThan(0);
    }
    // A job that failed did so retryable and free.
    if (t.final?.body.data?.status === 'failed') {
      expect(t.final.body.data.error).toMatchObject({ retryable: true });
      expect(t.final.body.meta!.creditsCharged).toBe(0);
    }
  }
  return byStatus;
}

/** The documented bound for holds of work that died: the lease, plus a sweep beat. */
async function nothingHeld(dbUrl: string, accountId: string) {
  const until = Date.now() + LEASE_MS * 3 + 10_000;
  for (;;) {
    const holds = await sql<{ n: number }>(dbUrl, `SELECT COUNT(*)::int AS n FROM credit_holds WHERE account_id = $1`, [accountId]);
    const running = await sql<{ n: number }>(dbUrl, `SELECT COUNT(*)::int AS n FROM jobs WHERE account_id = $1 AND status IN ('pending', 'running')`, [accountId]);
    if (holds[0]!.n === 0 && running[0]!.n === 0) return;
    if (Date.now() > until) throw new Error(`still ${holds[0]!.n} holds and ${running[0]!.n} unfinished jobs`);
    await sleep(250);
  }
}

describe.skipIf(!(await pgAvailable()))('the database goes away under load', { timeout: 240_000 }, () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let a: Instance;
  beforeAll(async () => {
    db = await freshDatabase();
    const u = new URL(db.url);
    proxy = await startTcpProxy({ host: u.hostname, port: Number(u.port || 5432) });
    u.port = String(proxy.port);
    a = await startInstance('A', u.toString(), { STAYS_UPSTREAM: 'simulated', STAYS_SIM_LATENCY_MS: '300', STAYS_JOB_LEASE_MS: String(LEASE_MS) });
  });
  afterAll(async () => {
    if (a && a.child.exitCode !== null) process.stderr.write(`instance A exited (${a.child.exitCode}):\n${a.stderr().slice(-4000)}\n${a.stdout().slice(-4000)}\n`);
    await stopAll();
    await proxy?.close();
    await db?.drop();
  });

  /**
   * Live searches at RATE a second for 8 s with `fault` run from the second second on; then the
   * checks. Returns the answers to requests sent while the fault lasted.
   */
  async function scenario(places: [string, string], fault: () => Promise<void>) {
    const START = 1_000_000;
    const acct = await liveAccount(db.url, { credits: START });
    // The repeated questions answered once first: the load then has cache hits however slow its jobs are.
    const warm: Told[] = [];
    for (let limit = 1; limit <= 5; limit++) {
      const sent = Date.now();
      const r = await call(a, acct.liveKey, `/v1/search?location=${places[0]}&limit=${limit}`);
      const t: Told = { sent, answered: Date.now(), first: r };
      warm.push(t);
      if (r.status === 202) t.final = await settle(a, acct.liveKey, r.body.data!.jobId!);
    }
    const running = load(a, acct.liveKey, 8000, places);
    running.catch(() => undefined); // awaited below
    await sleep(2000);
    const faultFrom = Date.now();
    await fault();
    const faultTo = Date.now();
    // Serving again within seconds of the database returning.
    const probes: Told[] = [];
    for (;;) {
      const sent = Date.now();
      const r = await call(a, acct.liveKey, `/v1/search?location=${places[0]}&limit=1`);
      const t: Told = { sent, answered: Date.now(), first: r };
      probes.push(t);
      if (r.status === 202) t.final = await settle(a, acct.liveKey, r.body.data!.jobId!);
      if (r.status === 200 || r.status === 202) break;
      expect(r.status, JSON.stringify(r.body)).toBe(503);
      expect(Date.now() - faultTo).toBeLessThan(15_000);
      await sleep(200);
    }
    const told = [...warm, ...(await running), ...probes];
    expect(a.child.exitCode, a.stderr()).toBeNull();
    const seen = checkAnswers(told);
    // Both paths ran: answers from the cache, and jobs.
    expect(seen.get(200) ?? 0).toBeGreaterThan(0);
    expect(seen.get(202) ?? 0).toBeGreaterThan(0);
    expect(told.some((t) => t.final?.body.data?.status === 'completed')).toBe(true);

    await nothingHeld(db.url, acct.id);
    const show = await accountShow(db.url, acct.id);
    const ledgerCharges = (await sql<{ n: number }>(db.url, `SELECT COALESCE(-SUM(amount), 0)::int AS n FROM credit_ledger WHERE account_id = $1 AND kind = 'charge'`, [acct.id]))[0]!.n;
    expect(show.credits.held).toBe(0);
    expect(show.credits.balance).toBe(START - show.credits.spent);
    expect(ledgerCharges).toBe(show.credits.spent);
    // Every credit charged is one a client was told about, and the reverse.
    expect(show.credits.spent).toBe(charged(told));
    expect(show.credits.spent).toBeGreaterThan(0);
    return told.filter((t) => t.sent >= faultFrom && t.sent <= faultTo);
  }

  it('the proxy to PostgreSQL is killed and restarted mid-load: 503 database_unavailable while it is away, served again after, ledger exact', async () => {
    let cutAt = 0;
    let restoring = 0;
    const during = await scenario(['Lisbon', 'Porto'], async () => {
      await proxy.cut();
      cutAt = Date.now();
      await sleep(3000);
      restoring = Date.now();
      await proxy.restore();
    });
    // Every request sent after the connections in flight failed and answered before the proxy was
    // restored was a typed 503: nothing could reach the database between the two. (Not the requests
    // merely sent before the restore: on a loaded machine the server may read them after it.)
    const away = during.filter((t) => t.sent > cutAt + 500 && t.answered < restoring);
    expect(away.length).toBeGreaterThan(RATE / 4);
    for (const t of away) {
      expect(t.first.status, JSON.stringify(t.first.body)).toBe(503);
      expect(t.first.body.error!.code).toBe('database_unavailable');
    }
  });

  it('its connections are ended with pg_terminate_backend mid-load: the same', async () => {
    const terminate = () => sql(db.url, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'stays' AND datname = current_database() AND pid <> pg_backend_pid()`);
    // Ended again and again for two seconds while requests keep opening new connections.
    await scenario(['Faro', 'Braga'], async () => {
      for (let i = 0; i < 10; i++) {
        await terminate();
        await sleep(200);
      }
    });
  });

  it('the CLI sits out a database outage: a remote call made while the database is away retries after Retry-After and succeeds once it is back (a sandbox key too)', async () => {
    const acct = await liveAccount(db.url, { credits: 1000 });
    const sandbox = (await admin<{ key: string }>(db.url, 'key', 'create', '--account', acct.id, '--env', 'sandbox')).key;
    await proxy.cut();
    // Back after two seconds, while the command waits to retry.
    const back = sleep(2000).then(() => proxy.restore());
    const r = await runCli(['search', 'Lisbon', '--json', '--debug', '--base-url', a.url, '--api-key', sandbox]);
    await back;
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ data: expect.any(Array) });
    // It met the outage first: a 503, then a retry that was answered.
    expect(r.stderr).toMatch(/ 503 /);
    expect(r.stderr).toMatch(/attempt 2|#2/);
  });
});
