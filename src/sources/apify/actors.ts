// Which actors serve each platform and need (primary first, then fallbacks), with each actor's
// run options: the documented defaults (shared/research/upstream-actors.md §2), merged under
// STAYS_ACTORS, a JSON object or the path of a JSON file:
//   { "airbnb": { "search": ["tri_angle~airbnb-scraper", { "id": "me~my-airbnb", "timeoutSecs": 120 }] },
//     "actors": { "tri_angle~airbnb-scraper": { "memoryMbytes": 4096, "build": "0.0.61" } } }
// A need named in STAYS_ACTORS replaces that need's default list; an empty list turns it off.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../../config.js';
import { ENABLED_PLATFORMS, type EnabledPlatform } from '../../core/platforms.js';
import { NEEDS, type Need } from '../../core/upstream.js';

export interface ActorSpec {
  /** owner~name (a slash is accepted and turned into the tilde) or a 17-character id. */
  id: string;
  /** The run's own timeout on the platform. At most SYNC_MAX_SECS: one synchronous call; longer: an async run polled. */
  timeoutSecs: number;
  memoryMbytes?: number | undefined;
  /** A build tag or number to pin (e.g. "0.0.61"). */
  build?: string | undefined;
  /** Caps what one run may charge. */
  maxTotalChargeUsd?: number | undefined;
  /** Forces the async run + poll path (tests; actors that stream slowly). */
  mode?: 'sync' | 'async' | undefined;
}

export type ActorTable = Record<EnabledPlatform, Record<Need, ActorSpec[]>>;

/** The platform cuts a synchronous run off at 300 s (408); we stay well under it. */
export const SYNC_MAX_SECS = 270;
const DEFAULT_TIMEOUT_SECS = 240;

const A = (id: string, o: Partial<ActorSpec> = {}): ActorSpec => ({ id, timeoutSecs: DEFAULT_TIMEOUT_SECS, ...o });

/**
 * The documented defaults. Empty lists are needs no public actor is documented to serve (booking
 * and google calendars): configure one in STAYS_ACTORS, or those calls answer upstream_unavailable.
 */
export function defaultActors(): ActorTable {
  return {
    airbnb: {
      search: [A('tri_angle~airbnb-scraper', { memoryMbytes: 4096 })],
      listing: [A('tri_angle~airbnb-rooms-urls-scraper', { memoryMbytes: 4096 }), A('tri_angle~airbnb-scraper', { memoryMbytes: 4096 })],
      price: [A('tri_angle~airbnb-rooms-urls-scraper', { memoryMbytes: 4096 }), A('tri_angle~airbnb-scraper', { memoryMbytes: 4096 })],
      availability: [A('rigelbytes~airbnb-availability-calendar')],
      reviews: [A('tri_angle~airbnb-reviews-scraper')],
      compare: [],
    },
    booking: {
      search: [A('voyager~booking-scraper')],
      listing: [A('voyager~booking-scraper')],
      price: [A('voyager~booking-scraper')],
      availability: [],
      reviews: [A('voyager~booking-reviews-scraper')],
      compare: [],
    },
    vrbo: {
      search: [A('jupri~vrbo-property')],
      listing: [A('jupri~vrbo-property')],
      price: [A('jupri~vrbo-property')],
      availability: [A('jupri~vrbo-property')],
      reviews: [A('powerai~vrbo-reviews-scraper')],
      compare: [],
    },
    google: {
      search: [A('martin.forejt~google-hotels-scraper')],
      listing: [A('martin.forejt~google-hotels-scraper')],
      price: [A('martin.forejt~google-hotels-scraper')],
      availability: [],
      reviews: [],
      compare: [A('martin.forejt~google-hotels-scraper')],
    },
  };
}

/**
 * What the documented actors cannot do, and why: the reason a call for that need is refused up
 * front (400 platform_not_enabled, free, no run) when no actor is configured for it, and why
 * STAYS_ACTORS may not name those actors for it (their rows hold no calendar days).
 */
const CANNOT: Partial<Record<EnabledPlatform, Partial<Record<Need, { actors: string[]; why: string }>>>> = {
  booking: {
    availability: {
      actors: ['voyager~booking-scraper'],
      why: 'the documented booking actor (voyager~booking-scraper) answers with a hotel and its rooms priced for one stay, not with calendar days',
    },
  },
  google: {
    availability: {
      actors: ['martin.forejt~google-hotels-scraper'],
      why: 'the documented Google Hotels actor (martin.forejt~google-hotels-scraper) answers with prices for one stay, not with calendar days',
    },
  },
};

/** Why no actor serves a need on a platform, in a phrase (doctor's detail). */
export function unservedWhy(platform: EnabledPlatform, need: Need): string {
  return CANNOT[platform]?.[need]?.why ?? 'no actor is configured for it (STAYS_ACTORS)';
}

/** Why this server cannot serve a need on a platform when no actor is configured for it. */
export function unservedReason(platform: EnabledPlatform, need: Need): string {
  const hint =
    need === 'availability'
      ? ` To check dates on ${platform}, ask for a price for the stay (stays price, GET /v1/price), or configure an actor that returns calendar days under STAYS_ACTORS ${platform}.availability.`
      : ` Configure an actor for it under STAYS_ACTORS ${platform}.${need}.`;
  return `${platform} ${need} is not available on this server's upstream (the scraping platform): ${unservedWhy(platform, need)}.${hint}`;
}

/** The STAYS_ACTORS schema, built on first use: most processes never read the setting. */
function fileSchema() {
  const Options = z
    .object({
      timeoutSecs: z.number().int().min(1).max(86_400).optional(),
      memoryMbytes: z
        .number()
        .int()
        .min(128)
        .refine((n) => (n & (n - 1)) === 0, 'memoryMbytes must be a power of 2')
        .optional(),
      build: z.string().min(1).optional(),
      maxTotalChargeUsd: z.number().min(0).optional(),
      mode: z.enum(['sync', 'async']).optional(),
    })
    .strict();
  const ActorId = z.string().regex(/^(?:[\w.-]+[~/][\w.-]+|[A-Za-z0-9]{17})$/, 'an actor id is owner~name or a 17-character id');
  const Entry = z.union([ActorId, Options.extend({ id: ActorId }).strict()]);
  const NeedLists = z.object(Object.fromEntries(NEEDS.map((n) => [n, z.array(Entry).optional()])) as Record<Need, z.ZodOptional<z.ZodArray<typeof Entry>>>).strict();
  return z
    .object({
      ...(Object.fromEntries(ENABLED_PLATFORMS.map((p) => [p, NeedLists.optional()])) as Record<EnabledPlatform, z.ZodOptional<typeof NeedLists>>),
      actors: z.record(ActorId, Options).optional(),
    })
    .strict();
}

const tilde = (id: string) => id.replace('/', '~');

/** The table to use: defaults, with STAYS_ACTORS (JSON text or a file path) over them. */
export function resolveActors(setting: string | undefined): ActorTable {
  const table = defaultActors();
  if (setting === undefined || setting.trim() === '') return table;
  let text = setting.trim();
  if (!text.startsWith('{')) {
    try {
      text = readFileSync(text, 'utf8');
    } catch (e) {
      throw new ConfigError(`invalid setting STAYS_ACTORS: not a JSON object and not a readable file (${(e as Error).message})`);
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`invalid setting STAYS_ACTORS: ${(e as Error).message}`);
  }
  const parsed = fileSchema().safeParse(json);
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw new ConfigError(`invalid setting STAYS_ACTORS at ${i.path.join('.') || '(top)'}: ${i.message}`);
  }
  const { actors: options = {}, ...platforms } = parsed.data;
  const opts = Object.fromEntries(Object.entries(options).map(([k, v]) => [tilde(k), v]));
  for (const p of ENABLED_PLATFORMS) {
    for (const need of NEEDS) {
      const list = platforms[p]?.[need];
      if (list) table[p][need] = list.map((e) => (typeof e === 'string' ? A(tilde(e)) : { ...A(tilde(e.id)), ...stripUndefined(e), id: tilde(e.id) }));
    }
  }
  // An actor documented not to answer a need cannot serve it, first or as a fallback.
  for (const p of ENABLED_PLATFORMS)
    for (const need of NEEDS) {
      const known = CANNOT[p]?.[need];
      const bad = known && table[p][need].find((s) => known.actors.includes(s.id));
      if (bad) throw new ConfigError(`invalid setting STAYS_ACTORS at ${p}.${need}: ${bad.id} cannot serve ${need}: ${known.why}.`);
    }
  // Per-actor options apply wherever the actor is listed, defaults included.
  for (const p of ENABLED_PLATFORMS) for (const need of NEEDS) table[p][need] = table[p][need].map((s) => (opts[s.id] ? { ...s, ...stripUndefined(opts[s.id]!) } : s));
  return table;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
