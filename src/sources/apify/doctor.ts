// `stays doctor`: what will serve each platform and need, checked without starting a paid run:
// the token (GET /v2/users/me), and per configured actor that it exists, its build (the pinned
// one, else latest) and that the build's input schema accepts the input we would send (required
// fields present, types agreeing; fields the schema does not know are reported, not failed).
import type { Config } from '../../config.js';
import { ENABLED_PLATFORMS, type EnabledPlatform } from '../../core/platforms.js';
import { NEEDS, type Need } from '../../core/upstream.js';
import { type ActorSpec, SYNC_MAX_SECS, resolveActors, unservedWhy } from './actors.js';
import { inputFor, sampleAsk } from './inputs.js';
import { clientFor } from './run.js';

interface DoctorRow {
  platform: EnabledPlatform;
  need: Need;
  /** 1 for the primary, 2… for fallbacks. */
  rank: number;
  source: string;
  status: 'ok' | 'warning' | 'missing' | 'input_rejected' | 'error' | 'not_configured' | 'builtin' | 'unchecked';
  build: string | null;
  builtAt: string | null;
  mode: 'sync' | 'async' | null;
  detail: string;
}

export interface DoctorReport {
  upstream: Config['upstream'];
  baseUrl: string | null;
  token: { ok: boolean; user: string | null; detail: string } | null;
  rows: DoctorRow[];
  ok: boolean;
}

interface JsonSchema {
  type?: string;
  required?: string[];
  properties?: Record<string, { type?: string; enum?: unknown[] }>;
}

const TYPE_OF = (v: unknown) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v);

/** Problems (rejections) and notes (ignored fields) of our input against an actor's input schema. */
export function checkInput(schema: JsonSchema, input: Record<string, unknown>): { problems: string[]; notes: string[] } {
  const problems: string[] = [];
  const notes: string[] = [];
  for (const r of schema.required ?? []) if (!(r in input)) problems.push(`needs ${r}, which we do not send`);
  const props = schema.properties ?? {};
  for (const [k, v] of Object.entries(input)) {
    const p = props[k];
    if (!p) {
      notes.push(k);
      continue;
    }
    const t = TYPE_OF(v);
    const want = p.type;
    const fits = !want || want === t || (want === 'number' && t === 'integer') || (want === 'integer' && t === 'string' && /^\d+$/.test(String(v)));
    if (!fits) problems.push(`${k} is ${want} in its schema, we send ${t}`);
    else if (p.enum && !p.enum.includes(v)) problems.push(`${k} must be one of ${p.enum.map((e) => JSON.stringify(e)).join(', ')}`);
  }
  // An actor that knows none of what we send would run on its own defaults: not our question.
  if (Object.keys(props).length > 0 && notes.length > 0 && notes.length === Object.keys(input).length) problems.push(`its schema knows none of our fields (${notes.join(', ')})`);
  return { problems, notes };
}

interface ActorFacts {
  found: boolean;
  build: string | null;
  builtAt: string | null;
  schema: JsonSchema | null;
  error: string | null;
}

type Client = Awaited<ReturnType<typeof clientFor>>;

async function factsOf(client: Client, spec: ActorSpec): Promise<ActorFacts> {
  try {
    const actor = await client.actor(spec.id).get();
    if (!actor) return { found: false, build: null, builtAt: null, schema: null, error: null };
    const tagged = (actor.taggedBuilds ?? {}) as Record<string, { buildId?: string; buildNumber?: string; finishedAt?: Date | string }>;
    const tag = tagged[spec.build ?? 'latest'] ?? (spec.build ? undefined : Object.values(tagged)[0]);
    let schema: JsonSchema | null = null;
    if (tag?.buildId) {
      const build = (await client.build(tag.buildId).get()) as { inputSchema?: string; actorDefinition?: { input?: JsonSchema } } | undefined;
      const text = build?.inputSchema;
      schema = build?.actorDefinition?.input ?? (typeof text === 'string' ? (JSON.parse(text) as JsonSchema) : null);
    }
    const builtAt = tag?.finishedAt ? new Date(tag.finishedAt).toISOString() : null;
    // A pinned build number that is not a tag is taken as it is (the platform resolves it at run time).
    return { found: true, build: tag?.buildNumber ?? spec.build ?? null, builtAt, schema, error: null };
  } catch (e) {
    const err = e as { statusCode?: number; type?: string; message?: string };
    if (err.statusCode === 404) return { found: false, build: null, builtAt: null, schema: null, error: null };
    return { found: false, build: null, builtAt: null, schema: null, error: `${err.statusCode ?? ''} ${err.type ?? ''} ${String(err.message ?? e).slice(0, 160)}`.trim() };
  }
}

export async function doctor(config: Config): Promise<DoctorReport> {
  const rows: DoctorRow[] = [];
  if (config.upstream !== 'apify') {
    for (const platform of ENABLED_PLATFORMS)
      for (const need of NEEDS) {
        if (need === 'compare' && platform !== 'google') continue;
        if (need === 'reviews' && platform === 'google') continue;
        rows.push({
          platform,
          need,
          rank: 1,
          source: config.upstream === 'none' ? '-' : 'simulated',
          status: config.upstream === 'none' ? 'not_configured' : 'builtin',
          build: null,
          builtAt: null,
          mode: null,
          detail: config.upstream === 'none' ? 'STAYS_UPSTREAM=none: live calls answer 503' : 'the simulated upstream (demo data)',
        });
      }
    return { upstream: config.upstream, baseUrl: null, token: null, rows, ok: config.upstream !== 'none' };
  }
  const table = resolveActors(config.actors);
  // Without a token the actors cannot be checked, but the table still says what would serve each need.
  const client = config.apifyToken ? await clientFor({ token: config.apifyToken, baseUrl: config.apifyBaseUrl, maxRetries: 1 }) : null;
  let token: DoctorReport['token'];
  if (!client) token = { ok: false, user: null, detail: "STAYS_APIFY_TOKEN is not set (or the profile's apify-token)" };
  else {
    try {
      const me = (await client.user('me').get()) as { username?: string } | undefined;
      token = { ok: true, user: me?.username ?? null, detail: 'accepted' };
    } catch (e) {
      const err = e as { statusCode?: number; type?: string };
      token = { ok: false, user: null, detail: err.statusCode === 401 ? `refused (${err.type ?? 'invalid-token'})` : `not checked: ${String((e as Error).message ?? e).slice(0, 160)}` };
    }
  }
  const unchecked = client ? 'not checked: the token was refused' : 'not checked: no token';
  const facts = new Map<string, Promise<ActorFacts>>();
  for (const platform of ENABLED_PLATFORMS)
    for (const need of NEEDS) {
      const specs = table[platform][need];
      if (specs.length === 0) {
        if ((need === 'compare' && platform !== 'google') || (need === 'reviews' && platform === 'google')) continue;
        rows.push({
          platform,
          need,
          rank: 1,
          source: '-',
          status: 'not_configured',
          build: null,
          builtAt: null,
          mode: null,
          detail: `not served: ${unservedWhy(platform, need)}; a call that needs only this is refused up front (400 platform_not_enabled, free)`,
        });
        continue;
      }
      for (const [i, spec] of specs.entries()) {
        const key = `${spec.id}@${spec.build ?? 'latest'}`;
        const mode = spec.mode ?? (spec.timeoutSecs <= SYNC_MAX_SECS ? 'sync' : 'async');
        if (!token.ok || !client) {
          rows.push({ platform, need, rank: i + 1, source: spec.id, status: 'unchecked', build: spec.build ?? null, builtAt: null, mode, detail: unchecked });
          continue;
        }
        if (!facts.has(key)) facts.set(key, factsOf(client, spec));
        const f = await facts.get(key)!;
        const base = { platform, need, rank: i + 1, source: spec.id, build: f.build, builtAt: f.builtAt, mode } as const;
        if (f.error) rows.push({ ...base, status: 'error', detail: f.error });
        else if (!f.found) rows.push({ ...base, status: 'missing', detail: 'actor not found on the platform' });
        else if (!f.schema) rows.push({ ...base, status: 'warning', detail: 'its build publishes no input schema; our input is unchecked' });
        else {
          const { problems, notes } = checkInput(f.schema, inputFor(platform, sampleAsk(need)));
          if (problems.length > 0) rows.push({ ...base, status: 'input_rejected', detail: problems.join('; ') });
          else rows.push({ ...base, status: 'ok', detail: notes.length > 0 ? `input accepted (not in its schema, ignored: ${notes.join(', ')})` : 'input accepted' });
        }
      }
    }
  const ok = token.ok && rows.every((r) => r.status === 'ok' || r.status === 'warning' || r.status === 'not_configured' || r.rank > 1);
  return { upstream: 'apify', baseUrl: config.apifyBaseUrl, token, rows, ok };
}

/** The report as a plain text table (stdout is data: no colour). */
export function doctorText(r: DoctorReport): string {
  const lines: string[] = [];
  lines.push(`upstream: ${r.upstream}${r.baseUrl ? ` (${r.baseUrl})` : ''}`);
  if (r.token) lines.push(`token: ${r.token.ok ? 'ok' : 'FAILED'}${r.token.user ? ` (user ${r.token.user})` : ''}: ${r.token.detail}`);
  const head = ['PLATFORM', 'NEED', '#', 'SOURCE', 'STATUS', 'BUILD', 'MODE', 'DETAIL'];
  const cells = r.rows.map((x) => [x.platform, x.need, String(x.rank), x.source, x.status, x.build ?? '-', x.mode ?? '-', x.detail]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const fmt = (c: string[]) => c.map((v, i) => (i === c.length - 1 ? v : v.padEnd(widths[i]!))).join('  ');
  if (cells.length > 0) lines.push('', fmt(head), ...cells.map(fmt));
  lines.push(
    '',
    r.ok ? 'ok: every primary source is ready' : r.token && !r.token.ok ? 'problems found: the token (see token: above); the actors are not checked without it' : 'problems found: see STATUS above',
  );
  return `${lines.join('\n')}\n`;
}
