// The kept summaries (listing_summaries, src/store/sql/history.ts) this process has read, parsed,
// each under the version it was computed from. A whole-city market read of kept summaries spent
// most of its time moving and parsing their ~2.7 kB rows (docs/benchmarks.md, stop 41); with these
// it reads each listing's version (listing_versions), and a kept summary's row only when this
// process has not parsed one made from that version. Only summaries read from a row made from the
// listing's version then are kept here: a row is never removed, and one made again from the same
// version is the same summary (a summary made from rows of a later version, under the version
// read before them, is never current again: the version has moved past it). So what a read finds
// here is what it would have parsed from the row. Per store, bounded by an estimate of the bytes held.
import type { ListingSummary } from '../../core/ports/history.js';
import { Lru } from '../../core/lru.js';

/**
 * A listing's price row as its kept summary holds it (listing_summaries.prices, in check-in order):
 * the stay's check-in, the currency, the nightly price, first and last seen.
 */
export type KeptPrice = [checkIn: string, currency: string | null, nightly: number | null, firstSeen: number, lastSeen: number];

/** A kept summary as read: the version it was computed from, the summary and the listing's price rows. */
export interface KeptSummary {
  computedVersion: number;
  summary: ListingSummary;
  prices: KeptPrice[];
}

/** Bytes of parsed summaries a store keeps (a summary and its prices take ~4 kB: a city of 4,000 listings ~16 MB). */
const MAX_BYTES = 32 * 1024 * 1024;

/** Parsed kept summaries by `scope|platform|listing id`. */
export type KeptSummaries = Lru<string, KeptSummary & { bytes: number }>;

/** An empty cache; `bytes` of an entry: its row's text lengths, doubled for what parsing makes of the JSON. */
export const keptSummaries = (): KeptSummaries => new Lru({ maxBytes: MAX_BYTES, sizeOf: (v, key) => v.bytes + key.length });
