// The columns the history port reads by (issue 34), derived from an observation when it is
// written; the migration that added them backfilled stored rows by the same rules
// (src/store/sql/migrations.ts).
import type { NewObservation } from '../../core/ports/store.js';

/** A dated search key's stay: `@checkIn/checkOut/adults` at its end. */
const STAY_SUFFIX = /@(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})\/\d+$/;
/** A quote key: `checkIn/checkOut/adults`. */
const QUOTE_KEY = /^(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})\//;

export interface ObservationColumns {
  /** A search row's place: its location key, without the stay. */
  place: string | null;
  /** A quote's or a dated search row's stay. */
  checkIn: string | null;
  checkOut: string | null;
  lat: number | null;
  lng: number | null;
  bedrooms: number | null;
  /** A quote's or search row's nightly price. */
  nightly: number | null;
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function columnsOf(o: NewObservation): ObservationColumns {
  const out: ObservationColumns = { place: null, checkIn: null, checkOut: null, lat: null, lng: null, bedrooms: null, nightly: null };
  if (o.kind === 'quote' || o.kind === 'search') out.nightly = num(o.value.nightlyPrice);
  if (o.kind === 'quote') {
    const m = QUOTE_KEY.exec(o.key);
    if (m) [out.checkIn, out.checkOut] = [m[1]!, m[2]!];
  } else if (o.kind === 'search') {
    const m = STAY_SUFFIX.exec(o.key);
    out.place = m ? o.key.slice(0, m.index) : o.key;
    if (m) [out.checkIn, out.checkOut] = [m[1]!, m[2]!];
  }
  if (o.kind === 'search' || o.kind === 'listing') {
    const lat = num(o.value.lat);
    const lng = num(o.value.lng);
    if (lat !== null && lng !== null) [out.lat, out.lng] = [lat, lng];
    out.bedrooms = num(o.value.bedrooms);
  }
  return out;
}
