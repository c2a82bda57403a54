// --json FIELDS and --jq EXPR, the CLI run in this process (staysIn): fields checked against the
// command's resource before any request, jq evaluated by jq itself (WebAssembly), its output printed
// as gh prints it. select.test.ts (e2e) holds --jq on a real terminal (script(1)).
import { beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_FIELDS, AVAILABILITY_FIELDS, PRICE_COMPARE_FIELDS, PRICE_FIELDS, PROPERTY_FIELDS, REVIEW_FIELDS } from '../../commands/_lib/output/select.js';
import { AccountSchema, AvailabilitySchema, PriceCompareSchema, PriceSchema, PropertySchema, ReviewSchema } from '../../src/core/schemas/resources.js';
import { type Run, type Sandbox, freshSandbox, json, staysIn } from './helpers.js';

let box: Sandbox;
const run = (...args: string[]) => staysIn(args, box.env);
beforeAll(async () => {
  box = freshSandbox();
  await run('account'); // provision the local key once
});

const DATES = ['--check-in', '2027-03-01', '--check-out', '2027-03-04'];
/** The error envelope a --json run prints on stderr. */
const errorOf = (r: Run) => (JSON.parse(r.stderr.trim().split('\n').pop()!) as { error: { message: string; param: string } }).error;
/** --debug logs each request on stderr: none means the check came first. */
const sentRequest = (r: Run) => /stays debug: GET /.test(r.stderr);

describe('--json FIELDS', () => {
  it("the static field lists are the resource schemas' fields", () => {
    expect(PROPERTY_FIELDS).toEqual(Object.keys(PropertySchema.shape));
    expect(PRICE_FIELDS).toEqual(Object.keys(PriceSchema.shape));
    expect(PRICE_COMPARE_FIELDS).toEqual(Object.keys(PriceCompareSchema.shape));
    expect(AVAILABILITY_FIELDS).toEqual(Object.keys(AvailabilitySchema.shape));
    expect(REVIEW_FIELDS).toEqual(Object.keys(ReviewSchema.shape));
    expect(ACCOUNT_FIELDS).toEqual(Object.keys(AccountSchema.shape));
  });

  it('prints only the named fields of each row, as one compact line when piped', async () => {
    const r = await run('search', 'Lisbon', '--limit', '2', '--platforms', 'booking', '--json', 'name,platform,guestRating');
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    const rows = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(Object.keys(row)).toEqual(['name', 'platform', 'guestRating']);
    expect(rows[0]).toMatchObject({ platform: 'booking', name: expect.any(String), guestRating: expect.any(Number) });
    // --json=FIELDS is the same, and leaves the positional argument where it was.
    const eq = await run('search', '--json=name,platform,guestRating', 'Lisbon', '--limit', '2', '--platforms', 'booking');
    expect(JSON.parse(eq.stdout)).toEqual(rows);
  });

  it('bare --json still prints the whole envelope', async () => {
    const body = json(await run('search', 'Lisbon', '--limit', '1', '--json'));
    expect(Object.keys(body)).toEqual(['data', 'meta']);
  });

  it('one object for commands whose data is one object (price, account)', async () => {
    const p = await run('price', 'booking', 'pt/casa-azul', ...DATES, '--json', 'totalPrice,currency,nights');
    expect(p.code).toBe(0);
    expect(JSON.parse(p.stdout)).toEqual({ totalPrice: expect.any(Number), currency: 'USD', nights: 3 });
    const a = await run('account', '--json', 'plan');
    expect(Object.keys(JSON.parse(a.stdout))).toEqual(['plan']);
  });

  it('an unknown field is a usage error before any request, naming it and listing the fields of that command', async () => {
    const r = await run('search', 'Lisbon', '--json', 'name,nme', '--debug');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(sentRequest(r)).toBe(false);
    const e = errorOf(r);
    expect(e.param).toBe('json');
    expect(e.message).toContain('Unknown JSON field "nme" for stays search');
    expect(e.message).toContain(`available: ${[...PROPERTY_FIELDS].sort().join(', ')}.`);
    expect(e.message).not.toContain('--json took');
    // Each command checks against its own resource: reviews rows are Reviews.
    const rv = await run('reviews', 'booking', 'pt/casa-azul', '--json', 'name', '--debug');
    expect(rv.code).toBe(2);
    expect(sentRequest(rv)).toBe(false);
    expect(errorOf(rv).message).toContain(`available: ${[...REVIEW_FIELDS].sort().join(', ')}.`);
    const ok = await run('reviews', 'booking', 'pt/casa-azul', '--limit', '2', '--json', 'reviewId,rating');
    expect(JSON.parse(ok.stdout)).toEqual([
      { reviewId: expect.any(String), rating: expect.any(Number) },
      { reviewId: expect.any(String), rating: expect.any(Number) },
    ]);
  });

  it('a nested path points to --jq', async () => {
    const r = await run('search', 'Lisbon', '--json', 'location.city');
    expect(r.code).toBe(2);
    expect(errorOf(r).message).toContain(`for a nested value use --jq, e.g. --jq '.data[] | .location.city'`);
  });

  it('says so when --json took the positional argument as its field list', async () => {
    const r = await run('search', '--limit', '2', '--json', 'Lisbon');
    expect(r.code).toBe(2);
    const { message } = errorOf(r);
    expect(message).toContain('Unknown JSON field "Lisbon"');
    expect(message).toContain('--json took "Lisbon" as its field list, so stays search is missing an argument');
    expect(message).toContain('(stays search --limit 2 Lisbon --json)');
    expect(message).toContain('--json=FIELDS');
    const p = await run('price', ...DATES, '--json', 'booking', 'pt/casa-azul');
    expect(errorOf(p).message).toContain('so stays price is missing an argument');
  });

  it('applies to every row of an --all walk', async () => {
    const r = await run('search', 'Lisbon', '--limit', '3', '--platforms', 'booking', '--all', '--json', 'id');
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as { id: string }[];
    expect(rows.length).toBeGreaterThan(3);
    expect(new Set(rows.map((x) => x.id)).size).toBe(rows.length);
  });
});

describe('--jq EXPR', () => {
  it('a string result is printed raw, one a line', async () => {
    const whole = json<{ data: { name: string }[] }>(await run('search', 'Lisbon', '--limit', '2', '--json'));
    const r = await run('search', 'Lisbon', '--limit', '2', '--jq', '.data[].name');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(whole.data.map((d) => `${d.name}\n`).join(''));
  });

  it('other values are JSON, one compact line each when piped', async () => {
    const r = await run('search', 'Lisbon', '--limit', '1', '--jq', '(.data[] | {name, platform}), .meta.pagination.hasMore, .meta.creditsCharged');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    const objects = lines.slice(0, -2).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(objects).toHaveLength(4);
    for (const o of objects) expect(Object.keys(o)).toEqual(['name', 'platform']);
    expect(lines.slice(-2)).toEqual(['true', '0']);
  });

  it('is real jq: builtins, formats, reduce, paths', async () => {
    const q = (expr: string) => run('search', 'Lisbon', '--limit', '3', '--platforms', 'booking,airbnb', '--jq', expr);
    expect((await q('[.data[] | .platform] | group_by(.) | map({(.[0]): length}) | add')).stdout).toBe('{"airbnb":3,"booking":3}\n');
    expect((await q('.data[0] | [.platform, .ratingScale] | @csv')).stdout).toMatch(/^"(booking|airbnb)",(10|5)\n$/);
    expect((await q('reduce .data[] as $r (0; . + 1)')).stdout).toBe('6\n');
    expect((await q('[paths(type == "number")] | length > 0')).stdout).toBe('true\n');
    expect((await q('.data | map(select(.platform == "booking")) | length')).stdout).toBe('3\n');
    expect((await q('[limit(2; .data[])] | map(.id | test("^stays_(booking|airbnb)_")) | all')).stdout).toBe('true\n');
  });

  it('filters the --json FIELDS selection when both are given', async () => {
    const r = await run('search', 'Lisbon', '--limit', '1', '--platforms', 'booking', '--json', 'name,platform', '--jq', '.[0] | keys');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('["name","platform"]\n');
  });

  it("a compile error is a usage error with jq's message, before any request", async () => {
    const r = await run('search', 'Lisbon', '--jq', '.data[', '--debug');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(sentRequest(r)).toBe(false);
    expect(r.stderr).toContain('Invalid --jq expression: jq: error: syntax error, unexpected end of file');
    expect(r.stderr).toContain('jq: 1 compile error');
    const undef = await run('search', 'Lisbon', '--jq', '.data | nosuchfn', '--json', 'name');
    expect(undef.code).toBe(2);
    // Text even beside --json (issue 22, item 14): a jq error is about the filter, not the API's answer.
    expect(undef.stderr).toMatch(/^error: Invalid --jq expression: jq: error: nosuchfn\/0 is not defined/);
  });

  it('a syntax error and a runtime error are reported the same way: text on stderr, exit 2, whatever the mode', async () => {
    for (const mode of [[], ['--json', 'name'], ['-o', 'json']]) {
      const syntax = await run('search', 'Lisbon', '--limit', '1', ...mode, '--jq', '.data[');
      const runtime = await run('search', 'Lisbon', '--limit', '1', ...mode, '--jq', 'error("boom")');
      for (const [r, message] of [
        [syntax, 'Invalid --jq expression: jq: error: syntax error'],
        [runtime, '--jq failed: jq: error: boom'],
      ] as const) {
        expect(r.code, `${mode.join(' ')} ${r.stderr}`).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(new RegExp(`^error: ${message.replace(/[[\]().]/g, '\\$&')}`, 'm'));
        expect(r.stderr).not.toMatch(/^\{"error"/m);
      }
    }
  });

  it("a runtime error prints the values before it, then jq's message, exit 2", async () => {
    const r = await run('search', 'Lisbon', '--limit', '1', '--platforms', 'booking', '--jq', '.data[0].platform, error("boom"), 3');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('booking\n');
    expect(r.stderr).toContain('--jq failed: jq: error: boom');
    const iter = await run('account', '--jq', '.data.plan.code[]');
    expect(iter.code).toBe(2);
    expect(iter.stderr).toMatch(/Cannot iterate over string/);
  });

  it("jq's debug output goes to stderr, the values to stdout", async () => {
    const r = await run('account', '--jq', '.data.plan.code | debug');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('free\n');
    expect(r.stderr).toContain('["DEBUG:","free"]');
  });
});
