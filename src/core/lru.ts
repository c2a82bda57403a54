// A least-recently-used map bounded by an estimate of the bytes its entries keep alive, for
// memoising pure results (sandbox pages, sandbox candidate sets). A count bound alone let a client
// asking for a new location on every request hold 1,024 pages of up to ~400 KB each, rows and
// JSON bytes (issue 8).

export interface LruOptions<K, V> {
  /** Most bytes (by sizeOf) the entries may hold together; an entry larger than this is not kept. */
  maxBytes: number;
  /** The bytes an entry keeps alive, key included (see approxBytes). Called once, when it is set. */
  sizeOf: (value: V, key: K) => number;
  /** An optional bound on the number of entries as well. */
  maxEntries?: number;
}

/** What an entry costs besides its key and value: the Map's slots and our record (77 bytes measured). */
export const ENTRY_OVERHEAD = 80;

export class Lru<K, V> {
  private readonly map = new Map<K, { value: V; bytes: number }>();
  private readonly maxBytes: number;
  private readonly maxEntries: number;
  private readonly sizeOf: (value: V, key: K) => number;
  private total = 0;
  /** The most recently used key, which get() need not move (a hot key is asked for again and again). */
  private newest: K | undefined;

  constructor(o: LruOptions<K, V>) {
    this.maxBytes = o.maxBytes;
    this.maxEntries = o.maxEntries ?? Infinity;
    this.sizeOf = o.sizeOf;
  }

  /** Entries held. */
  get size(): number {
    return this.map.size;
  }

  /** Estimated bytes held, by sizeOf. */
  get bytes(): number {
    return this.total;
  }

  get(key: K): V | undefined {
    const e = this.map.get(key);
    if (e === undefined) return undefined;
    // Map iteration order is insertion order: re-inserting marks it most recent.
    if (key !== this.newest) {
      this.map.delete(key);
      this.map.set(key, e);
      this.newest = key;
    }
    return e.value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const bytes = this.sizeOf(value, key) + ENTRY_OVERHEAD;
    // Keeping it would evict everything else and still not fit.
    if (!(bytes <= this.maxBytes) || this.maxEntries < 1) return;
    this.map.set(key, { value, bytes });
    this.newest = key;
    this.total += bytes;
    while (this.total > this.maxBytes || this.map.size > this.maxEntries) {
      this.delete(this.map.keys().next().value as K);
    }
  }

  delete(key: K): boolean {
    const e = this.map.get(key);
    if (e === undefined) return false;
    this.map.delete(key);
    if (key === this.newest) this.newest = undefined;
    this.total -= e.bytes;
    return true;
  }

  clear(): void {
    this.map.clear();
    this.newest = undefined;
    this.total = 0;
  }
}

/**
 * The walk below against what V8 really spends, measured as heapUsed deltas (after gc) over 300
 * unique-location searches held at once (Node 20, x64, `node --expose-gc`, no pointer
 * compression): a candidate set of 60 rows costs 68.2 KB and walks to 72.9 KB (90.5 vs 100.3 KB
 * with dates and prices); a limit=40 page of 160 rows keeps 183 KB alive and walks to 196 KB
 * (243 vs 269 KB dated). The walk over-counts strings the rows share (platforms, amenities,
 * cities), so it is scaled by 0.92 (within 2% of each figure). Its JSON estimate scaled by 0.94
 * is within 1% of the bytes JSON.stringify gives (114.1 vs 114.6 KB; 163.0 vs 162.1 KB dated).
 * A Map entry with its { value, bytes } record costs 77 bytes (ENTRY_OVERHEAD).
 */
const HEAP_FACTOR = 0.92;
const JSON_FACTOR = 0.94;

/** Arrays longer than this are sized from an even sample of their elements. */
const SAMPLE = 24;

interface Tally {
  heap: number;
  json: number;
}

function walk(v: unknown, t: Tally): void {
  switch (typeof v) {
    case 'string':
      t.heap += 16 + ((v.length + 7) & ~7);
      t.json += v.length + 2;
      return;
    case 'number':
      // A non-integer is a boxed HeapNumber; JSON digits average about 8 in our data.
      if (!Number.isInteger(v)) t.heap += 16;
      t.json += 8;
      return;
    case 'boolean':
      t.json += 5;
      return;
    case 'object': {
      if (v === null) {
        t.json += 4;
        return;
      }
      if (Array.isArray(v)) {
        t.heap += 48 + 8 * v.length;
        t.json += 1 + v.length;
        walkElements(v, t);
        return;
      }
      t.heap += 24;
      t.json += 1;
      for (const k in v) {
        t.heap += 8;
        t.json += k.length + 4;
        walk((v as Record<string, unknown>)[k], t);
      }
      return;
    }
    default:
      return;
  }
}

function walkElements(a: readonly unknown[], t: Tally): void {
  const n = a.length;
  if (n <= SAMPLE) {
    for (const x of a) walk(x, t);
    return;
  }
  // An odd stride that is not a multiple of 3, so a round-robin mix of 2, 3 or 4 platforms (a
  // recommended-order page) is sampled evenly rather than one platform every time.
  let stride = Math.floor(n / SAMPLE);
  while (stride % 2 === 0 || stride % 3 === 0) stride++;
  const sample: Tally = { heap: 0, json: 0 };
  let taken = 0;
  for (let i = Math.floor(stride / 2); i < n; i += stride, taken++) walk(a[i], sample);
  t.heap += (sample.heap * n) / taken;
  t.json += (sample.json * n) / taken;
}

/**
 * The bytes a tree of plain data (objects, arrays, strings, numbers) keeps alive on the V8 heap,
 * estimated by one walk (long arrays sampled) calibrated against heapUsed (HEAP_FACTOR). With
 * `json`, the length of its JSON text is added: a memoised sandbox page's serialisation is cached
 * for as long as the page lives (http/render.ts, a WeakMap keyed by the page's data), in a Buffer
 * outside the heap. Shared substructures are counted once per reference, so a page whose rows a
 * candidate set also holds is counted in full by both caches: the estimate errs on the high side.
 */
export function approxBytes(value: unknown, opts: { json?: boolean } = {}): number {
  const t: Tally = { heap: 0, json: 0 };
  walk(value, t);
  return Math.round(t.heap * HEAP_FACTOR + (opts.json ? t.json * JSON_FACTOR : 0));
}

/** The bytes of a string key (one byte per character, as V8 stores ASCII). */
export function keyBytes(key: string): number {
  return 16 + ((key.length + 7) & ~7);
}

/** sizeOf for memoised sandbox pages (Composed answers whose JSON bytes are cached too), key included. */
export function pageBytes(page: unknown, key: string): number {
  return approxBytes(page, { json: true }) + keyBytes(key);
}
