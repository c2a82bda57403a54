// `stays doctor` against a server (a base URL from --base-url, STAYS_BASE_URL or the profile):
// what matters there is not the local upstream settings but whether the server answers, its
// version, whether it accepts the key and for which environment, how far its clock is from ours
// (its Date header), and what it reports of its upstream per platform (GET /v1/health).
import { StaysApiError, StaysConnectionError } from '../../src/client/errors.js';
import type { UpstreamReport } from '../../src/sources/upstream-report.js';
import { readProfile } from '../_lib/config/profiles.js';
import { type Ctx, keyPrefix } from '../_lib/runtime/context.js';
import type { GlobalOpts } from '../_lib/flags/options.js';

/** Past this, signed webhooks (±300 s) and Retry-After/reset times read wrong: said, not failed. */
const SKEW_WARN_S = 60;

interface RemoteRow {
  platform: string;
  need: string;
  source: string;
  status: 'builtin' | 'configured' | 'not_configured';
  detail: string;
}

export interface RemoteDoctorReport {
  mode: 'remote';
  baseUrl: string;
  profile: string;
  server: { reachable: boolean; version: string | null; detail: string };
  clock: { skewSeconds: number | null; ok: boolean; detail: string };
  key: { ok: boolean; prefix: string | null; env: 'sandbox' | 'live' | null; from: Ctx['keySource']; account: string | null; detail: string };
  upstream: UpstreamReport | null;
  rows: RemoteRow[];
  ok: boolean;
}

const FROM = { flag: '--api-key', env: 'STAYS_API_KEY', config: 'the config', local: 'the local key' } as const;

function rowsOf(u: UpstreamReport): RemoteRow[] {
  const rows: RemoteRow[] = [];
  for (const [platform, needs] of Object.entries(u.platforms)) {
    for (const [need, sources] of Object.entries(needs)) {
      const list = sources ?? [];
      if (u.kind === 'none' || list.length === 0) {
        rows.push({
          platform,
          need,
          source: '-',
          status: 'not_configured',
          detail: u.kind === 'none' ? 'the server runs with STAYS_UPSTREAM=none: live calls answer 503' : 'no source configured on the server: these calls answer upstream_unavailable',
        });
      } else if (u.kind === 'simulated') {
        rows.push({ platform, need, source: 'simulated', status: 'builtin', detail: 'the simulated upstream (demo data)' });
      } else {
        const fallbacks = list.slice(1);
        rows.push({ platform, need, source: list[0]!, status: 'configured', detail: `${fallbacks.length ? `then ${fallbacks.join(', ')}; ` : ''}run stays doctor on the server to check the actors` });
      }
    }
  }
  return rows;
}

export async function remoteDoctor(ctx: Ctx, opts: GlobalOpts): Promise<RemoteDoctorReport> {
  const report: RemoteDoctorReport = {
    mode: 'remote',
    baseUrl: ctx.base,
    profile: ctx.profileName,
    server: { reachable: false, version: null, detail: '' },
    clock: { skewSeconds: null, ok: true, detail: 'not checked' },
    key: { ok: false, prefix: null, env: null, from: ctx.keySource, account: null, detail: '' },
    upstream: null,
    rows: [],
    ok: false,
  };
  try {
    const sent = Date.now();
    const res = await fetch(`${ctx.base}/v1/health`, { signal: AbortSignal.timeout(Math.min(ctx.timeoutMs, 15_000)) });
    const received = Date.now();
    const body = (await res.json().catch(() => null)) as { status?: string; version?: string; upstream?: UpstreamReport } | null;
    report.server = { reachable: res.ok, version: body?.version ?? null, detail: res.ok ? 'answers GET /v1/health' : `GET /v1/health answered ${res.status}` };
    const date = res.headers.get('date');
    if (date && !Number.isNaN(Date.parse(date))) {
      // The Date header has whole seconds: the server's time was in [D, D + 1 s) when it answered,
      // so only a distance outside that second (from the middle of the exchange) is skew.
      const d = Date.parse(date);
      const mid = (sent + received) / 2;
      const skew = Math.round((mid < d ? d - mid : mid >= d + 1000 ? d + 1000 - mid : 0) / 1000);
      const ok = Math.abs(skew) <= SKEW_WARN_S;
      report.clock = {
        skewSeconds: skew,
        ok,
        detail:
          skew === 0
            ? 'in step with this machine'
            : `the server's clock is ${Math.abs(skew)} s ${skew > 0 ? 'ahead of' : 'behind'} this machine's${ok ? '' : ': webhook signatures (±300 s) and reset times may read wrong'}`,
      };
    } else report.clock = { skewSeconds: null, ok: true, detail: 'the server sends no Date header' };
    if (body?.upstream) {
      report.upstream = body.upstream;
      report.rows = rowsOf(body.upstream);
    }
  } catch (e) {
    report.server = { reachable: false, version: null, detail: `cannot be reached: ${(e as Error).message}` };
  }
  const profileFlag = ctx.profileName === 'default' ? '' : ` --profile ${ctx.profileName}`;
  const key = ctx.keySource === null ? null : (opts.apiKey ?? readProfile(ctx.profileName)['api-key'] ?? null);
  report.key.prefix = key ? keyPrefix(key) : null;
  if (key === null) {
    report.key.detail = `no API key for this server: stays auth login${profileFlag}, or STAYS_API_KEY=KEY, or --api-key KEY`;
  } else if (report.server.reachable) {
    try {
      const acct = (await ctx.client.account()).data;
      report.key = { ...report.key, ok: true, env: acct.key.env, account: acct.id ?? null, detail: `accepted (${acct.key.env})` };
    } catch (e) {
      if (e instanceof StaysApiError) report.key.detail = `refused (${e.code}): check the key (stays auth login${profileFlag}) and that it belongs to this server`;
      else if (e instanceof StaysConnectionError) report.key.detail = `not checked: ${e.message}`;
      else throw e;
    }
  } else report.key.detail = 'not checked: the server cannot be reached';
  report.ok = report.server.reachable && report.key.ok && report.upstream?.kind !== 'none';
  return report;
}

/** The report as plain text (stdout is data: no colour). */
export function remoteDoctorText(r: RemoteDoctorReport): string {
  const lines: string[] = [];
  lines.push(`server: ${r.baseUrl}: ${r.server.reachable ? `ok, ${r.server.version ? `stays ${r.server.version}` : 'version not reported'}` : `FAILED: ${r.server.detail}`}`);
  lines.push(`clock: ${r.clock.ok ? '' : 'WARNING: '}${r.clock.detail}`);
  lines.push(
    `key: ${r.key.ok ? 'ok' : r.key.prefix === null ? 'MISSING' : 'FAILED'}${r.key.prefix ? ` ${r.key.prefix}${r.key.from ? ` (from ${FROM[r.key.from]})` : ''}` : ''}: ${r.key.detail}${r.key.account ? `, account ${r.key.account}` : ''}`,
  );
  lines.push(`upstream: ${r.upstream ? r.upstream.kind : r.server.reachable ? 'not reported by this server' : 'unknown'}`);
  if (r.rows.length > 0) {
    const head = ['PLATFORM', 'NEED', 'SOURCE', 'STATUS', 'DETAIL'];
    const cells = r.rows.map((x) => [x.platform, x.need, x.source, x.status, x.detail]);
    const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
    const fmt = (c: string[]) => c.map((v, i) => (i === c.length - 1 ? v : v.padEnd(widths[i]!))).join('  ');
    lines.push('', fmt(head), ...cells.map(fmt));
  }
  const problems = [!r.server.reachable && 'the server', r.server.reachable && !r.key.ok && 'the key', r.upstream?.kind === 'none' && 'the upstream (none)'].filter(Boolean);
  lines.push('', r.ok ? 'ok: the server answers, accepts the key and serves live data' : `problems found: ${problems.join(', ')} (see above)`);
  return `${lines.join('\n')}\n`;
}
