// Seeded pseudo-randomness for the sandbox (D21): a cyrb128 string hash seeds an sfc32 generator.
// Only 32-bit integer operations (Math.imul, shifts) and IEEE-exact float operations are used, so
// the same seed parts give the same sequence on every machine and Node release. Never Math.random.

/** cyrb128: a fast, well-mixed 128-bit hash of a string, as four unsigned 32-bit words. */
function cyrb128(str: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** The separator between seed parts: a character no caller input is expected to contain. */
const SEP = '\u241f';

export type SeedPart = string | number | boolean | null | undefined;

/** An sfc32 generator with a few convenience draws. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: readonly [number, number, number, number]) {
    [this.a, this.b, this.c, this.d] = seed;
    for (let i = 0; i < 12; i++) this.u32(); // warm up: decorrelate from the raw hash
  }

  /** An unsigned 32-bit integer. */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }

  /** An integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** A float in [lo, hi). */
  range(lo: number, hi: number): number {
    return lo + this.next() * (hi - lo);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.pick on an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A weighted choice; weights need not sum to anything in particular. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of entries) total += w;
    let x = this.next() * total;
    for (const [v, w] of entries) {
      if (x < w) return v;
      x -= w;
    }
    const last = entries[entries.length - 1];
    if (!last) throw new Error('Rng.weighted on an empty list');
    return last[0];
  }

  /** k distinct items, in the order of the input list. */
  sample<T>(items: readonly T[], k: number): T[] {
    const keys = items.map((item, i) => ({ item, i, key: this.next() }));
    const chosen = [...keys].sort((x, y) => x.key - y.key || x.i - y.i).slice(0, Math.max(0, k));
    return chosen.sort((x, y) => x.i - y.i).map((x) => x.item);
  }

  /** A string of n characters drawn from alphabet. */
  chars(alphabet: string, n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet.charAt(Math.floor(this.next() * alphabet.length));
    return s;
  }
}

/** A generator seeded from a stable hash of the parts (joined with a separator). */
export function rng(...parts: readonly SeedPart[]): Rng {
  return new Rng(cyrb128(parts.map((p) => String(p)).join(SEP)));
}

/** A stable unsigned 32-bit hash of the parts. */
export function hash32(...parts: readonly SeedPart[]): number {
  return cyrb128(parts.map((p) => String(p)).join(SEP))[0];
}
