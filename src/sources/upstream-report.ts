// What serves each platform's live data, as GET /v1/health reports it (no secrets: the kind of
// upstream and, on the scraping platform, the actor ids in the order they are tried). `stays
// doctor` against a server reads it to say what live calls will reach there.
import type { Config } from '../config.js';
import { ENABLED_PLATFORMS, type EnabledPlatform } from '../core/platforms.js';
import { NEEDS, type Need } from '../core/upstream.js';

export interface UpstreamReport {
  /** STAYS_UPSTREAM: none (live calls answer 503), simulated (demo data) or apify. */
  kind: Config['upstream'];
  /** Per platform and need: the sources tried, primary first; [] when that need is not served. */
  platforms: Record<EnabledPlatform, Partial<Record<Need, string[]>>>;
}

/** The needs a platform has at all: compare is Google's, reviews every other platform's. */
const platformNeeds = (platform: EnabledPlatform): Need[] => NEEDS.filter((n) => !((n === 'compare' && platform !== 'google') || (n === 'reviews' && platform === 'google')));

export async function upstreamReport(config: Pick<Config, 'upstream' | 'actors'>): Promise<UpstreamReport> {
  const platforms = {} as UpstreamReport['platforms'];
  const table = config.upstream === 'apify' ? (await import('./apify/actors.js')).resolveActors(config.actors) : null;
  for (const p of ENABLED_PLATFORMS) {
    const needs: Partial<Record<Need, string[]>> = {};
    for (const n of platformNeeds(p)) needs[n] = table ? table[p][n].map((a) => a.id) : config.upstream === 'simulated' ? ['simulated'] : [];
    platforms[p] = needs;
  }
  return { kind: config.upstream, platforms };
}
