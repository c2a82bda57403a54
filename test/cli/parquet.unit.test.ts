// The Parquet writer of `history export -o parquet` (commands/_lib/output/parquet.ts) on its own:
// rows added page by page become row groups of the size asked (the memory bound), read back
// whole and in order; a row that breaks the schema, or an abort, leaves no file and no temp
// directory; stdout that is a terminal is refused. The CLI around it: history-parquet.test.ts.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../commands/_lib/runtime/errors.js';
import { observationColumns, openParquet } from '../../commands/_lib/output/parquet.js';
import { tempDir } from '../helpers/stays.js';

const obs = (i: number) => ({
  platform: 'airbnb',
  listingId: String(1000 + i),
  kind: i % 2 ? 'quote' : 'search',
  key: i % 2 ? '2027-03-01/2027-03-04/2' : 'lisbon',
  currency: i % 2 ? 'EUR' : null,
  value: i % 3 ? { nightlyPrice: 100 + i, note: 'ação' } : null,
  source: 'simulated',
  firstSeen: new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString(),
  lastSeen: new Date(Date.UTC(2026, 10, 2) + i * 1001).toISOString(),
  timesSeen: i + 1,
});

describe('openParquet', () => {
  it('writes a row group each N rows as pages arrive; the rows read back typed and in order', async () => {
    const dir = tempDir('stays-pq-');
    const file = join(dir, 'o.parquet');
    const out = await openParquet(file, observationColumns(), false, 4);
    const rows = Array.from({ length: 11 }, (_, i) => obs(i));
    // Pages of 3: groups of 4, 4 and the 3 left at the end.
    for (let i = 0; i < rows.length; i += 3) await out.add(rows.slice(i, i + 3));
    expect(readdirSync(dir)).not.toContain('o.parquet');
    await out.close();
    expect(readdirSync(dir)).toEqual(['o.parquet']);
    const buf = await asyncBufferFromFile(file);
    expect((await parquetMetadataAsync(buf)).row_groups.map((g) => Number(g.num_rows))).toEqual([4, 4, 3]);
    expect(await parquetReadObjects({ file: buf })).toEqual(
      rows.map((o) => ({
        platform: o.platform,
        listing_id: o.listingId,
        kind: o.kind,
        key: o.key,
        currency: o.currency,
        value: o.value === null ? null : JSON.stringify(o.value),
        source: o.source,
        first_seen: new Date(o.firstSeen),
        last_seen: new Date(o.lastSeen),
        times_seen: BigInt(o.timesSeen),
      })),
    );
  });

  it('a row without a required column, or an abort, leaves nothing behind', async () => {
    const dir = tempDir('stays-pq-');
    const bad = await openParquet(join(dir, 'bad.parquet'), observationColumns(), false, 2);
    await bad.add([obs(0)]);
    await expect(bad.add([{ ...obs(1), firstSeen: null }])).rejects.toThrow(/without first_seen/);
    const unparsable = await openParquet(join(dir, 'bad.parquet'), observationColumns(), false, 1);
    await expect(unparsable.add([{ ...obs(1), lastSeen: 'yesterday' }])).rejects.toThrow(/last_seen is not an instant/);
    const aborted = await openParquet(join(dir, 'aborted.parquet'), observationColumns(), false, 1);
    await aborted.add([obs(0), obs(1)]);
    aborted.abort();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('--out - on a terminal is a usage error naming out', async () => {
    const e = await openParquet('-', observationColumns(), true).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).param).toBe('out');
  });
});
