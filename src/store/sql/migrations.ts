// The schema, written once for both engines (issue 24): applied in order, each entry once.
// SQLite records how many have run in PRAGMA user_version, PostgreSQL in the table
// schema_migrations (under an advisory lock: src/store/postgres/store.ts). An entry is the same
// tables, columns and indexes on both, spelled by `Types` where the engines differ: BIGINT for
// milliseconds and credits on PostgreSQL (SQLite's INTEGER is 64-bit), an identity column for
// SQLite's AUTOINCREMENT, the outbox's `seq` for SQLite's implicit rowid. Booleans are 0/1 integers
// and JSON is text on both, so one set of row mappers reads both (src/store/rows.ts). Entries
// marked `only: 'postgres'` are what only a shared store has (rate buckets, flights): SQLite keeps
// them in the process, and its version count skips them (test/store/schema-equivalence.test.ts
// compares the two schemas).
// Append new entries; never edit a shipped one (an entry's text may be reformatted, not changed).

interface Types {
  /** Milliseconds and credits. */
  big: string;
  /** An integer primary key the database assigns, increasing. */
  serial: string;
  /** The outbox's insertion order, as a column line (SQLite: none, its rowid is that order). */
  seq: string;
  /** The number at `field` of the JSON text `column`, or NULL when it is absent or not a number. */
  jsonNumber(column: string, field: string): string;
  /** Whether the text `expr` is a stay's series suffix: `@YYYY-MM-DD/YYYY-MM-DD/` (its adults stripped). */
  isStaySuffix(expr: string): string;
}

const TYPES: Record<'sqlite' | 'postgres', Types> = {
  sqlite: {
    big: 'INTEGER',
    serial: 'INTEGER PRIMARY KEY AUTOINCREMENT',
    seq: '',
    jsonNumber: (c, f) => `CASE WHEN json_type(${c}, '$.${f}') IN ('integer', 'real') THEN json_extract(${c}, '$.${f}') END`,
    isStaySuffix: (e) => `(${e}) GLOB '@[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]/[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]/'`,
  },
  postgres: {
    big: 'BIGINT',
    serial: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY',
    seq: '    seq BIGINT GENERATED ALWAYS AS IDENTITY,\n',
    jsonNumber: (c, f) => `CASE WHEN jsonb_typeof(CAST(${c} AS jsonb)->'${f}') = 'number' THEN CAST(CAST(${c} AS jsonb)->>'${f}' AS DOUBLE PRECISION) END`,
    isStaySuffix: (e) => `(${e}) ~ '^@[0-9]{4}-[0-9]{2}-[0-9]{2}/[0-9]{4}-[0-9]{2}-[0-9]{2}/$'`,
  },
};

type Migration = ((t: Types) => string) | { only: 'postgres'; sql: () => string };

const ENTRIES: Migration[] = [
  (t) => `
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    plan_code TEXT NOT NULL,
    plan_name TEXT NOT NULL,
    plan_status TEXT NOT NULL,
    email_verified INTEGER NOT NULL DEFAULT 1,
    requests_per_minute INTEGER NOT NULL,
    free_tier_budget ${t.big} NOT NULL,
    disabled INTEGER NOT NULL DEFAULT 0,
    created_at ${t.big} NOT NULL
  );

  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    env TEXT NOT NULL CHECK (env IN ('live', 'sandbox')),
    scopes TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE,
    prefix TEXT NOT NULL,
    revoked_at ${t.big},
    created_at ${t.big} NOT NULL
  );
  CREATE INDEX api_keys_account ON api_keys(account_id);

  -- One row per account; changed only together with a ledger row.
  CREATE TABLE credit_balances (
    account_id TEXT PRIMARY KEY REFERENCES accounts(id),
    balance ${t.big} NOT NULL DEFAULT 0,
    held ${t.big} NOT NULL DEFAULT 0 CHECK (held >= 0),
    spent ${t.big} NOT NULL DEFAULT 0 CHECK (spent >= 0)
  );

  CREATE TABLE credit_ledger (
    id ${t.serial},
    account_id TEXT NOT NULL REFERENCES accounts(id),
    kind TEXT NOT NULL,
    amount ${t.big} NOT NULL,
    balance_after ${t.big} NOT NULL,
    request_id TEXT,
    job_id TEXT,
    note TEXT,
    created_at ${t.big} NOT NULL
  );
  CREATE INDEX credit_ledger_account ON credit_ledger(account_id, id);

  -- Reservations placed at admission (D5), released when the call settles.
  CREATE TABLE credit_holds (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    amount ${t.big} NOT NULL CHECK (amount >= 0),
    request_id TEXT NOT NULL,
    job_id TEXT,
    created_at ${t.big} NOT NULL
  );

  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    request_id TEXT NOT NULL,
    operation TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed')),
    platforms TEXT NOT NULL,
    params TEXT,
    result TEXT,
    meta TEXT,
    error TEXT,
    created_at ${t.big} NOT NULL,
    updated_at ${t.big} NOT NULL,
    expires_at ${t.big}
  );
  CREATE INDEX jobs_status ON jobs(status);

  CREATE TABLE cache_entries (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    stored_at ${t.big} NOT NULL,
    expires_at ${t.big} NOT NULL
  );
  CREATE INDEX cache_entries_expiry ON cache_entries(expires_at);

  CREATE TABLE webhooks (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    url TEXT NOT NULL,
    events TEXT NOT NULL,
    description TEXT,
    secret TEXT NOT NULL,
    revoked_at ${t.big},
    created_at ${t.big} NOT NULL
  );

  CREATE TABLE webhook_deliveries (
    id ${t.serial},
    webhook_id TEXT NOT NULL REFERENCES webhooks(id),
    event TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    status_code INTEGER,
    response_preview TEXT,
    delivered INTEGER NOT NULL,
    attempted_at ${t.big} NOT NULL
  );
  `,
  () => `
  ALTER TABLE jobs ADD COLUMN estimated_seconds INTEGER NOT NULL DEFAULT 5;
  CREATE INDEX credit_holds_job ON credit_holds(job_id);
  CREATE INDEX credit_ledger_request ON credit_ledger(request_id);
  `,
  // Job leases (one owner process per job, renewed by a heartbeat), the environment a job
  // belongs to, and the key that made each top-up. Rows from before have lease 0: expired.
  (t) => `
  ALTER TABLE jobs ADD COLUMN env TEXT NOT NULL DEFAULT 'live' CHECK (env IN ('live', 'sandbox'));
  ALTER TABLE jobs ADD COLUMN owner TEXT;
  ALTER TABLE jobs ADD COLUMN lease_expires_at ${t.big} NOT NULL DEFAULT 0;
  CREATE INDEX jobs_lease ON jobs(status, lease_expires_at);
  CREATE INDEX jobs_owner ON jobs(owner, status);
  CREATE INDEX jobs_expiry ON jobs(expires_at);
  ALTER TABLE credit_holds ADD COLUMN owner TEXT;
  ALTER TABLE credit_holds ADD COLUMN lease_expires_at ${t.big} NOT NULL DEFAULT 0;
  CREATE INDEX credit_holds_owner ON credit_holds(owner);
  CREATE INDEX credit_holds_lease ON credit_holds(lease_expires_at);
  ALTER TABLE credit_ledger ADD COLUMN key_id TEXT;
  `,
  // GET /v1/jobs: an account's jobs in one environment, newest first, paged by (created_at, id).
  () => `
  CREATE INDEX jobs_account_created ON jobs(account_id, env, created_at, id);
  `,
  // Webhooks (issue 10): an outbox of deliveries, each an event for one webhook, claimed with a
  // lease like a job so two processes on one data dir never send it twice; the attempt log names
  // the event id receivers de-duplicate on.
  (t) => `
  CREATE TABLE webhook_outbox (
    id TEXT PRIMARY KEY,
${t.seq}    webhook_id TEXT NOT NULL REFERENCES webhooks(id),
    event TEXT NOT NULL,
    body TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'pending',
    next_attempt_at ${t.big},
    owner TEXT,
    lease_expires_at ${t.big},
    created_at ${t.big} NOT NULL
  );
  CREATE INDEX webhook_outbox_due ON webhook_outbox(status, next_attempt_at);
  CREATE INDEX webhook_outbox_hook ON webhook_outbox(webhook_id, status);
  ALTER TABLE webhook_deliveries ADD COLUMN event_id TEXT;
  CREATE INDEX webhook_deliveries_hook ON webhook_deliveries(webhook_id, id);
  CREATE INDEX webhooks_account ON webhooks(account_id, created_at);
  `,
  // OAuth 2.1 for the MCP tool server (issue 12): registered public clients, one-time codes,
  // grants (a token family: every access and refresh token issued from one code) and tokens.
  // Codes and tokens are kept only as SHA-256 hashes.
  (t) => `
  CREATE TABLE oauth_clients (
    id TEXT PRIMARY KEY,
    name TEXT,
    redirect_uris TEXT NOT NULL,
    created_at ${t.big} NOT NULL
  );
  CREATE TABLE oauth_grants (
    id TEXT PRIMARY KEY,
    client_id TEXT NOT NULL REFERENCES oauth_clients(id),
    key_id TEXT NOT NULL REFERENCES api_keys(id),
    scope TEXT NOT NULL,
    created_at ${t.big} NOT NULL,
    revoked_at ${t.big}
  );
  CREATE TABLE oauth_codes (
    hash TEXT PRIMARY KEY,
    client_id TEXT NOT NULL REFERENCES oauth_clients(id),
    redirect_uri TEXT NOT NULL,
    challenge TEXT NOT NULL,
    scope TEXT NOT NULL,
    key_id TEXT NOT NULL REFERENCES api_keys(id),
    expires_at ${t.big} NOT NULL,
    used_at ${t.big},
    grant_id TEXT,
    created_at ${t.big} NOT NULL
  );
  CREATE INDEX oauth_codes_expiry ON oauth_codes(expires_at);
  CREATE TABLE oauth_tokens (
    hash TEXT PRIMARY KEY,
    grant_id TEXT NOT NULL REFERENCES oauth_grants(id),
    kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
    expires_at ${t.big} NOT NULL,
    used_at ${t.big},
    created_at ${t.big} NOT NULL
  );
  CREATE INDEX oauth_tokens_grant ON oauth_tokens(grant_id);
  CREATE INDEX oauth_tokens_expiry ON oauth_tokens(expires_at);
  `,
  // Shared state of several instances (issue 14): rate buckets, taken in one statement by
  // stays_take_token, and flights: an upstream call in flight that other instances wait on (D19).
  {
    only: 'postgres',
    sql: () => `
  CREATE TABLE rate_buckets (
    id TEXT PRIMARY KEY,
    tokens DOUBLE PRECISION NOT NULL,
    capacity INTEGER NOT NULL,
    updated BIGINT NOT NULL
  );
  CREATE INDEX rate_buckets_updated ON rate_buckets(updated);
  CREATE FUNCTION stays_take_token(p_id TEXT, p_capacity INTEGER, p_now BIGINT, OUT o_allowed BOOLEAN, OUT o_tokens DOUBLE PRECISION) AS $$
  DECLARE b rate_buckets%ROWTYPE;
  BEGIN
    INSERT INTO rate_buckets (id, tokens, capacity, updated) VALUES (p_id, p_capacity, p_capacity, p_now) ON CONFLICT (id) DO NOTHING;
    SELECT * INTO b FROM rate_buckets WHERE id = p_id FOR UPDATE;
    IF b.capacity <> p_capacity THEN
      o_tokens := p_capacity;
    ELSE
      -- Clocks of instances differ a little: time never runs backwards for a bucket.
      o_tokens := LEAST(p_capacity::DOUBLE PRECISION, b.tokens + GREATEST(p_now - b.updated, 0) * p_capacity / 60000.0);
    END IF;
    o_allowed := o_tokens >= 1;
    IF o_allowed THEN o_tokens := o_tokens - 1; END IF;
    UPDATE rate_buckets SET tokens = o_tokens, capacity = p_capacity, updated = GREATEST(b.updated, p_now) WHERE id = p_id;
  END
  $$ LANGUAGE plpgsql;

  CREATE TABLE flights (
    key TEXT PRIMARY KEY,
    id TEXT NOT NULL,
    owner TEXT NOT NULL,
    lease_expires_at BIGINT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('running', 'done', 'failed')),
    outcome TEXT,
    ended_at BIGINT
  );
  CREATE INDEX flights_owner ON flights(owner, state);
  CREATE INDEX flights_ended ON flights(ended_at);
  `,
  },
  // Idempotency keys (issue 21): a POST's first answer, kept 24 hours for retries with the same key.
  // One row per account, environment and key; while its request runs the row is a claim with a lease.
  (t) => `
  CREATE TABLE idempotency_keys (
    account_id TEXT NOT NULL,
    env TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    owner TEXT,
    lease_expires_at ${t.big} NOT NULL,
    status INTEGER,
    headers TEXT,
    body TEXT,
    created_at ${t.big} NOT NULL,
    expires_at ${t.big} NOT NULL
  );
  CREATE UNIQUE INDEX idempotency_keys_key ON idempotency_keys(account_id, env, key);
  CREATE INDEX idempotency_keys_expiry ON idempotency_keys(expires_at);
  `,
  // Issue 21 (7): dynamic registration is bounded per address (counted over registered_from and
  // created_at) and clients never used are purged (found through their grants and codes).
  () => `
  ALTER TABLE oauth_clients ADD COLUMN registered_from TEXT;
  CREATE INDEX oauth_clients_from ON oauth_clients(registered_from, created_at);
  CREATE INDEX oauth_clients_created ON oauth_clients(created_at);
  CREATE INDEX oauth_grants_client ON oauth_grants(client_id);
  CREATE INDEX oauth_codes_client ON oauth_codes(client_id);
  `,
  // Scopes on every route and sandbox/live webhooks (issue 21, item 5). Keys that could manage
  // webhooks under stays.read keep that power as webhooks.write (a new default scope); OAuth tokens
  // never carry it. Webhooks belong to the environment of the key that made them; those made
  // before were receiving live events, so they stay live.
  () => `
  UPDATE api_keys SET scopes = scopes || ',webhooks.write'
    WHERE (',' || scopes || ',') LIKE '%,stays.read,%' AND (',' || scopes || ',') NOT LIKE '%,webhooks.write,%';
  ALTER TABLE webhooks ADD COLUMN env TEXT NOT NULL DEFAULT 'live' CHECK (env IN ('live', 'sandbox'));
  CREATE INDEX webhooks_account_env ON webhooks(account_id, env, created_at);
  `,
  // A webhook that keeps failing is slowed, then disabled (issue 21): failures in a row, the
  // pause before its next delivery, and when and why it was disabled.
  (t) => `
  ALTER TABLE webhooks ADD COLUMN consecutive_failures INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE webhooks ADD COLUMN paused_until ${t.big};
  ALTER TABLE webhooks ADD COLUMN disabled_at ${t.big};
  ALTER TABLE webhooks ADD COLUMN disabled_reason TEXT;
  `,
  // Observations (issue 26): what the live path received from upstreams, one row per distinct value
  // of a series (okey: platform, listing, kind and key); `latest` marks each series' newest row,
  // which an equal observation extends (last_seen, times_seen).
  (t) => `
  CREATE TABLE observations (
    id ${t.serial},
    okey TEXT NOT NULL,
    platform TEXT NOT NULL,
    listing_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('search', 'listing', 'rating', 'quote', 'day')),
    key TEXT NOT NULL,
    currency TEXT,
    value TEXT NOT NULL,
    source TEXT NOT NULL,
    first_seen ${t.big} NOT NULL,
    last_seen ${t.big} NOT NULL,
    times_seen INTEGER NOT NULL DEFAULT 1,
    latest INTEGER NOT NULL DEFAULT 1
  );
  CREATE UNIQUE INDEX observations_latest ON observations(okey) WHERE latest = 1;
  CREATE INDEX observations_series ON observations(okey, first_seen);
  CREATE INDEX observations_listing ON observations(platform, listing_id, kind);
  CREATE INDEX observations_search ON observations(kind, key, platform);
  CREATE INDEX observations_seen ON observations(last_seen);
  `,
  // Watches (issue 26, item 4): calls made again on an interval by the key that created them, and
  // the events their rules raised. watches.write, a new default scope, is given to every key that
  // could read data (as webhooks.write was): OAuth tokens, read-only, never carry it.
  (t) => `
  UPDATE api_keys SET scopes = scopes || ',watches.write'
    WHERE (',' || scopes || ',') LIKE '%,stays.read,%' AND (',' || scopes || ',') NOT LIKE '%,watches.write,%';
  CREATE TABLE watches (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    key_id TEXT NOT NULL REFERENCES api_keys(id),
    env TEXT NOT NULL CHECK (env IN ('live', 'sandbox')),
    name TEXT,
    call TEXT NOT NULL,
    rules TEXT NOT NULL,
    interval_minutes INTEGER NOT NULL,
    max_credits_per_day INTEGER,
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'ended', 'deleted')),
    ended_reason TEXT,
    created_at ${t.big} NOT NULL,
    deleted_at ${t.big},
    next_run_at ${t.big} NOT NULL,
    last_run_at ${t.big},
    last_outcome TEXT,
    last_charged INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    state TEXT,
    credits_day TEXT,
    credits_today INTEGER NOT NULL DEFAULT 0,
    runs INTEGER NOT NULL DEFAULT 0,
    triggers INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX watches_due ON watches(status, next_run_at);
  CREATE INDEX watches_account ON watches(account_id, env, created_at);
  CREATE TABLE watch_events (
    id TEXT PRIMARY KEY,
    watch_id TEXT NOT NULL REFERENCES watches(id),
    occurred_at ${t.big} NOT NULL,
    rule TEXT NOT NULL,
    before_value TEXT,
    after_value TEXT,
    changes TEXT NOT NULL
  );
  CREATE INDEX watch_events_watch ON watch_events(watch_id, occurred_at, id);
  `,
  // Comp sets (issue 27, item 2): an account's saved sets of comparable listings (an anchor
  // listing and its observed coordinates, a radius, a bedroom count, platforms).
  (t) => `
  CREATE TABLE compsets (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    env TEXT NOT NULL CHECK (env IN ('live', 'sandbox')),
    name TEXT NOT NULL,
    anchor_platform TEXT NOT NULL,
    anchor_listing_id TEXT NOT NULL,
    anchor_lat DOUBLE PRECISION NOT NULL,
    anchor_lng DOUBLE PRECISION NOT NULL,
    radius_m DOUBLE PRECISION NOT NULL,
    bedrooms INTEGER,
    platforms TEXT,
    created_at ${t.big} NOT NULL,
    deleted_at ${t.big}
  );
  CREATE INDEX compsets_account ON compsets(account_id, env, created_at);
  `,
  // Match decisions (issue 27, item 4): an account's pins and rejections of cross-platform matches,
  // one row per pair of listings (stored in order: a before b), per environment.
  (t) => `
  CREATE TABLE match_decisions (
    account_id TEXT NOT NULL REFERENCES accounts(id),
    env TEXT NOT NULL CHECK (env IN ('live', 'sandbox')),
    a_platform TEXT NOT NULL,
    a_id TEXT NOT NULL,
    b_platform TEXT NOT NULL,
    b_id TEXT NOT NULL,
    decision TEXT NOT NULL CHECK (decision IN ('pinned', 'rejected')),
    decided_at ${t.big} NOT NULL,
    PRIMARY KEY (account_id, env, a_platform, a_id, b_platform, b_id)
  );
  CREATE INDEX match_decisions_b ON match_decisions(account_id, env, b_platform, b_id);
  `,
  // The history port's columns (issue 34): what the analyst wing reads by, as real columns that
  // indexes serve, derived from each row's key and value when it is written (src/store/sql/
  // observation-columns.ts) and backfilled here by the same rules. A search row's place (its
  // location key, without the stay) and a dated row's stay and nightly price (quotes, dated
  // searches); where a search row or a listing's facts put it, and its bedrooms. A day row's night
  // is its key.
  // Indexes: a listing's rows of one kind by key (a window's nights, a listing's quotes; with the
  // instants, so a window's count and span come from the index alone); the listings a place
  // showed; a listing's prices by check-in (covering what the market reads of them); a listing's
  // own bedrooms (covering); the latest coordinates by latitude. The old
  // (platform, listing_id, kind) index lacked key, so a night range read every night.
  // listing_summaries: each listing's booking inference over what was observed of it
  // (src/core/analytics/listing-summary.ts), kept until its observations change: a write of a
  // listing's calendar or prices adds one to `version`; a summary computed from the rows of
  // version v is fresh while version is still v.
  (t) => `
  ALTER TABLE observations ADD COLUMN place TEXT;
  ALTER TABLE observations ADD COLUMN check_in TEXT;
  ALTER TABLE observations ADD COLUMN check_out TEXT;
  ALTER TABLE observations ADD COLUMN lat DOUBLE PRECISION;
  ALTER TABLE observations ADD COLUMN lng DOUBLE PRECISION;
  ALTER TABLE observations ADD COLUMN bedrooms DOUBLE PRECISION;
  ALTER TABLE observations ADD COLUMN nightly DOUBLE PRECISION;
  UPDATE observations SET nightly = ${t.jsonNumber('value', 'nightlyPrice')} WHERE kind IN ('quote', 'search');
  UPDATE observations SET check_in = substr(key, 1, 10), check_out = substr(key, 12, 10) WHERE kind = 'quote';
  UPDATE observations SET place = key WHERE kind = 'search';
  UPDATE observations
    SET place = substr(rtrim(key, '0123456789'), 1, length(rtrim(key, '0123456789')) - 23),
        check_in = substr(rtrim(key, '0123456789'), length(rtrim(key, '0123456789')) - 21, 10),
        check_out = substr(rtrim(key, '0123456789'), length(rtrim(key, '0123456789')) - 10, 10)
    WHERE kind = 'search' AND length(rtrim(key, '0123456789')) < length(key)
      AND ${t.isStaySuffix("substr(rtrim(key, '0123456789'), length(rtrim(key, '0123456789')) - 22)")};
  UPDATE observations SET lat = ${t.jsonNumber('value', 'lat')}, lng = ${t.jsonNumber('value', 'lng')}, bedrooms = ${t.jsonNumber('value', 'bedrooms')}
    WHERE kind IN ('search', 'listing');
  UPDATE observations SET lat = NULL, lng = NULL WHERE lat IS NULL OR lng IS NULL;
  DROP INDEX observations_listing;
  CREATE INDEX observations_listing ON observations(platform, listing_id, kind, key, first_seen, last_seen);
  CREATE INDEX observations_place ON observations(place, platform, listing_id) WHERE kind = 'search';
  CREATE INDEX observations_stay ON observations(platform, listing_id, check_in, currency, nightly, first_seen, last_seen) WHERE check_in IS NOT NULL;
  CREATE INDEX observations_facts ON observations(platform, listing_id, bedrooms) WHERE kind = 'listing' AND latest = 1;
  CREATE INDEX observations_geo ON observations(lat, lng) WHERE latest = 1 AND lat IS NOT NULL;
  CREATE TABLE listing_summaries (
    platform TEXT NOT NULL,
    listing_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1,
    computed_version INTEGER NOT NULL DEFAULT 0,
    summary TEXT,
    states TEXT,
    seen TEXT,
    PRIMARY KEY (platform, listing_id)
  );
  `,
  // A listing's price rows (quotes and dated searches: check-in, currency, nightly, first and last
  // seen) kept beside its summary, so a market read takes a listing's window prices from its kept
  // summary instead of an index range of its rows; NULL (every summary kept before) is stale.
  () => 'ALTER TABLE listing_summaries ADD COLUMN prices TEXT;',
  // Tenancy of the history (issue 35, item 5): each row names the account whose call observed it
  // ('' for rows recorded without one: every row recorded before this migration), and an
  // account's rows are series of their own (okey prefixed by the account). A listing's version
  // (bumped by every write of its calendar or prices) moves to listing_versions, so summaries can
  // be kept per reader's scope (an account's own rows, or the deployment's pool: '*') and each is
  // stale once the listing's version moves past the one it was computed from. Summaries are a
  // cache: the old ones are dropped and made again when read.
  (t) => `
  ALTER TABLE observations ADD COLUMN account_id TEXT NOT NULL DEFAULT '';
  CREATE INDEX observations_account ON observations(account_id, id);
  DROP INDEX observations_place;
  CREATE INDEX observations_place ON observations(place, account_id, platform, listing_id) WHERE kind = 'search';
  DROP INDEX observations_facts;
  CREATE INDEX observations_facts ON observations(platform, listing_id, account_id, bedrooms, last_seen, id) WHERE kind = 'listing' AND latest = 1;
  CREATE TABLE listing_versions (
    platform TEXT NOT NULL,
    listing_id TEXT NOT NULL,
    version ${t.big} NOT NULL DEFAULT 1,
    PRIMARY KEY (platform, listing_id)
  );
  INSERT INTO listing_versions (platform, listing_id, version) SELECT platform, listing_id, version FROM listing_summaries;
  DROP TABLE listing_summaries;
  CREATE TABLE listing_summaries (
    scope TEXT NOT NULL,
    platform TEXT NOT NULL,
    listing_id TEXT NOT NULL,
    computed_version ${t.big} NOT NULL,
    summary TEXT,
    states TEXT,
    seen TEXT,
    prices TEXT,
    PRIMARY KEY (platform, listing_id, scope)
  );
  `,
  // Collections (issue 38, items 1 and 5): an account's standing orders to cover a market, and the
  // items of their passes (a listing to track, an area to search), which any instance on the
  // store claims under a lease (FOR UPDATE SKIP LOCKED on PostgreSQL) and finishes once. The new
  // collections.write scope is given to every key that could write watches (as watches.write
  // was to every key that could read): OAuth tokens, read-only, never carry it.
  (t) => `
  UPDATE api_keys SET scopes = scopes || ',collections.write'
    WHERE (',' || scopes || ',') LIKE '%,watches.write,%' AND (',' || scopes || ',') NOT LIKE '%,collections.write,%';
  CREATE TABLE collections (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    env TEXT NOT NULL CHECK (env IN ('live', 'sandbox')),
    name TEXT NOT NULL,
    area TEXT NOT NULL,
    platforms TEXT NOT NULL,
    horizon_nights INTEGER NOT NULL,
    cadence TEXT NOT NULL CHECK (cadence IN ('daily', 'weekly')),
    rates TEXT NOT NULL CHECK (rates IN ('auto', 'sampled', 'none')),
    max_credits_per_day ${t.big} NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('active', 'paused', 'deleted')),
    created_at ${t.big} NOT NULL,
    updated_at ${t.big} NOT NULL
  );
  CREATE INDEX collections_account ON collections(account_id, env, created_at);
  CREATE TABLE collection_items (
    collection_id TEXT NOT NULL REFERENCES collections(id),
    pass INTEGER NOT NULL,
    item TEXT NOT NULL,
    due_at ${t.big} NOT NULL,
    claimed_by TEXT,
    lease_until ${t.big},
    attempts INTEGER NOT NULL DEFAULT 0,
    done_at ${t.big},
    outcome TEXT,
    charged INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (collection_id, pass, item)
  );
  CREATE INDEX collection_items_due ON collection_items(due_at) WHERE done_at IS NULL;
  `,
  // Collection runs (issue 38, items 3-5): a collection's passes are made as the key that created
  // it (key_id; a collection made before this has none and its runs refuse); its budget of the
  // day is reserved before each call (budget_day, budget_used), so instances sharing its work
  // never spend past maxCreditsPerDay together; the listings its discoveries found, with the first
  // and last pass that found them (a listing not found by the latest discovery is gone).
  (t) => `
  ALTER TABLE collections ADD COLUMN key_id TEXT;
  ALTER TABLE collections ADD COLUMN budget_day TEXT;
  ALTER TABLE collections ADD COLUMN budget_used ${t.big} NOT NULL DEFAULT 0;
  CREATE TABLE collection_listings (
    collection_id TEXT NOT NULL REFERENCES collections(id),
    platform TEXT NOT NULL,
    listing_id TEXT NOT NULL,
    bedrooms INTEGER,
    first_pass INTEGER NOT NULL,
    last_pass INTEGER NOT NULL,
    PRIMARY KEY (collection_id, platform, listing_id)
  );
  `,
  // A discovery's pages, kept while it runs (issue 38, item 5): each page's answer (the few fields
  // discovery reads of its rows, its truncation and next cursor) under the request id it was
  // charged under, so a discovery claimed again after its instance died reads the pages already
  // charged instead of buying them again. Removed when the discovery ends.
  (t) => `
  CREATE TABLE collection_pages (
    collection_id TEXT NOT NULL REFERENCES collections(id),
    pass INTEGER NOT NULL,
    request_id TEXT NOT NULL,
    page TEXT NOT NULL,
    charged INTEGER NOT NULL,
    created_at ${t.big} NOT NULL,
    PRIMARY KEY (collection_id, request_id)
  );
  `,
  // A call's job by its request id (a collection's discovery taken again finds the answer of a page
  // its dead attempt was charged for in the job that charged it: written in the same transaction).
  () => `CREATE INDEX jobs_request ON jobs(account_id, request_id);`,
];

/** The migrations of one engine, in order. */
export function migrationsFor(kind: 'sqlite' | 'postgres'): string[] {
  return ENTRIES.flatMap((m) => (typeof m === 'function' ? [m(TYPES[kind])] : m.only === kind ? [m.sql()] : []));
}
