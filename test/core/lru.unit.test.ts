import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ENTRY_OVERHEAD, Lru, approxBytes, keyBytes, pageBytes } from '../../src/core/lru.js';
import { createSandboxWorld } from '../../src/sources/sandbox/world.js';

/** Values are their own size: an entry of value n costs n + ENTRY_OVERHEAD bytes. */
const sized = (maxBytes: number, maxEntries?: number) => new Lru<string, number>({ maxBytes, sizeOf: (n) => n, ...(maxEntries === undefined ? {} : { maxEntries }) });
const E = ENTRY_OVERHEAD;

describe('Lru bounded by bytes', () => {
  it('evicts the least recently used entries until the bytes fit', () => {
    const lru = sized(3 * (100 + E));
    lru.set('a', 100);
    lru.set('b', 100);
    lru.set('c', 100);
    expect(lru.bytes).toBe(3 * (100 + E));
    lru.set('d', 100);
    expect(lru.get('a')).toBeUndefined();
    expect([lru.get('b'), lru.get('c'), lru.get('d')]).toEqual([100, 100, 100]);
    // One large entry pushes out as many old ones as it needs.
    lru.set('e', 250);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('c')).toBeUndefined();
    expect(lru.get('d')).toBe(100);
    expect(lru.get('e')).toBe(250);
    expect(lru.bytes).toBe(350 + 2 * E);
  });

  it('a read makes an entry the most recent', () => {
    const lru = sized(2 * (10 + E));
    lru.set('a', 10);
    lru.set('b', 10);
    expect(lru.get('a')).toBe(10);
    lru.set('c', 10);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(10);
    expect(lru.get('c')).toBe(10);
  });

  it('does not keep an entry larger than the budget, nor evict others for it', () => {
    const lru = sized(1000);
    lru.set('small', 10);
    lru.set('huge', 1000); // 1000 + overhead > 1000
    expect(lru.get('huge')).toBeUndefined();
    expect(lru.get('small')).toBe(10);
    expect(lru.size).toBe(1);
    expect(lru.bytes).toBe(10 + E);
  });

  it('replacing a key counts it once, and an oversized replacement drops the stale value', () => {
    const lru = sized(1000);
    lru.set('k', 100);
    lru.set('k', 300);
    expect(lru.bytes).toBe(300 + E);
    expect(lru.size).toBe(1);
    lru.set('k', 5000);
    expect(lru.get('k')).toBeUndefined();
    expect(lru.bytes).toBe(0);
  });

  it('sizes an entry once, when it is set', () => {
    let calls = 0;
    const lru = new Lru<string, number>({ maxBytes: 1e6, sizeOf: (n) => (calls++, n) });
    lru.set('a', 1);
    lru.get('a');
    lru.get('a');
    expect(calls).toBe(1);
  });

  it('keeps an optional count bound as well', () => {
    const lru = sized(1e9, 2);
    lru.set('a', 1);
    lru.set('b', 1);
    lru.set('c', 1);
    expect(lru.size).toBe(2);
    expect(lru.get('a')).toBeUndefined();
  });

  it('pages sized by pageBytes stay within a byte budget well before the entry bound', () => {
    const lru = new Lru<string, unknown>({ maxBytes: 32 * 1024 * 1024, maxEntries: 1024, sizeOf: pageBytes });
    const page = { data: Array.from({ length: 100 }, (_, i) => ({ name: 'x'.repeat(10_000), i })) };
    for (let i = 0; i < 100; i++) lru.set(`p${i}`, page);
    expect(lru.bytes).toBeLessThanOrEqual(32 * 1024 * 1024);
    expect(lru.size).toBeLessThan(100);
    expect(lru.get('p99')).toBe(page);
  });

  it('matches a reference model and never holds more than its budget (random operations)', () => {
    const op = fc.oneof(
      fc.record({ t: fc.constant('set' as const), k: fc.integer({ min: 0, max: 9 }), n: fc.integer({ min: 0, max: 600 }) }),
      fc.record({ t: fc.constant('get' as const), k: fc.integer({ min: 0, max: 9 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), fc.integer({ min: 50, max: 2000 }), (ops, max) => {
        const lru = sized(max);
        let model: [string, number][] = []; // oldest first
        for (const o of ops) {
          const k = String(o.k);
          if (o.t === 'get') {
            const hit = model.find(([mk]) => mk === k);
            expect(lru.get(k)).toBe(hit?.[1]);
            if (hit) model = [...model.filter(([mk]) => mk !== k), hit];
          } else {
            lru.set(k, o.n);
            model = model.filter(([mk]) => mk !== k);
            if (o.n + E <= max) {
              model.push([k, o.n]);
              while (model.reduce((s, [, n]) => s + n + E, 0) > max) model.shift();
            }
          }
          expect(lru.bytes).toBeLessThanOrEqual(max);
          expect(lru.bytes).toBe(model.reduce((s, [, n]) => s + n + E, 0));
          expect(lru.size).toBe(model.length);
        }
      }),
    );
  });
});

describe('approxBytes', () => {
  it('grows with content', () => {
    expect(approxBytes('x'.repeat(1000))).toBeGreaterThan(approxBytes('x'.repeat(10)) + 900 * 0.9);
    const row = (i: number) => ({ id: `r${i}`, name: 'Casa Azul', rating: 4.5, tags: ['wifi', 'pool'] });
    const ten = approxBytes(Array.from({ length: 10 }, (_, i) => row(i)));
    const thousand = approxBytes(Array.from({ length: 1000 }, (_, i) => row(i)));
    expect(thousand / ten).toBeGreaterThan(90);
    expect(thousand / ten).toBeLessThan(110);
  });

  it('samples a long array of alternating shapes without bias', () => {
    // A recommended-order page interleaves platforms whose rows differ in size; a stride that
    // followed the interleaving would see only one platform's rows.
    for (const kinds of [2, 3, 4]) {
      const shapes = Array.from({ length: kinds }, (_, k) => ({ text: 'y'.repeat(50 + 400 * k) }));
      const mixed = Array.from({ length: 240 }, (_, i) => shapes[i % kinds]);
      const exact = shapes.reduce((s, x) => s + approxBytes([x]) - approxBytes([]), 0) * (240 / kinds) + approxBytes(new Array(240).fill(0));
      expect(Math.abs(approxBytes(mixed) / exact - 1)).toBeLessThan(0.1);
    }
  });

  it("estimates a sandbox candidate set's JSON length within 5%", () => {
    const rows = createSandboxWorld().searchPlatform('booking', 'Lisbon', { currency: 'EUR', rooms: 1 });
    const json = Buffer.byteLength(JSON.stringify(rows));
    const estimate = approxBytes(rows, { json: true }) - approxBytes(rows);
    expect(Math.abs(estimate / json - 1)).toBeLessThan(0.05);
  });

  it('pageBytes adds the JSON bytes and the key to the heap estimate', () => {
    const page = { data: [{ name: 'a'.repeat(5000) }] };
    expect(pageBytes(page, 'k'.repeat(100))).toBeGreaterThanOrEqual(approxBytes(page) + 0.9 * 5000 + keyBytes('k'.repeat(100)));
  });
});

describe('sandbox candidate-set memo', () => {
  const search = (w: ReturnType<typeof createSandboxWorld>, location: string) => w.searchPlatform('airbnb', location, { currency: 'USD', rooms: 1 });

  it('returns the memoised set while it fits the budget', () => {
    const w = createSandboxWorld();
    expect(search(w, 'Lisbon')).toBe(search(w, 'Lisbon'));
  });

  it('keeps no more sets than memoBytes allows, the answers unchanged', () => {
    const one = approxBytes(search(createSandboxWorld(), 'Porto'));
    const w = createSandboxWorld({ memoBytes: Math.floor(one * 3.5) });
    const first = search(w, 'Porto');
    for (const city of ['Paris', 'Rome', 'Berlin', 'Madrid']) search(w, city);
    const again = search(w, 'Porto');
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    expect(search(w, 'Madrid')).toBe(search(w, 'Madrid'));
  });
});
