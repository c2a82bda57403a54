// Schema migrations, applied in order; PRAGMA user_version records how many have run.
// Append new entries; never edit a shipped one.
export const MIGRATIONS: string[] = [
  `
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    plan_code TEXT NOT NULL,
    plan_name TEXT NOT NULL,
    plan_status TEXT NOT NULL,
    email_verified INTEGER NOT NULL DEFAULT 1,
    requests_per_minute INTEGER NOT NULL,
    free_tier_budget INTEGER NOT NULL,
    disabled INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
  );

  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    env TEXT NOT NULL CHECK (env IN ('live', 'sandbox')),
    scopes TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE,
    prefix TEXT NOT NULL,
    revoked_at INTEGER,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX api_keys_account ON api_keys(account_id);

  -- One row per account; changed only together with a ledger row.
  CREATE TABLE credit_balances (
    account_id TEXT PRIMARY KEY REFERENCES accounts(id),
    balance INTEGER NOT NULL DEFAULT 0,
    held INTEGER NOT NULL DEFAULT 0 CHECK (held >= 0),
    spent INTEGER NOT NULL DEFAULT 0 CHECK (spent >= 0)
  );

  CREATE TABLE credit_ledger (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    kind TEXT NOT NULL,
    amount INTEGER NOT NULL,
    balance_after INTEGER NOT NULL,
    request_id TEXT,
    job_id TEXT,
    note TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX credit_ledger_account ON credit_ledger(account_id, id);

  -- Reservations placed at admission (D5), released when the call settles.
  CREATE TABLE credit_holds (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    amount INTEGER NOT NULL CHECK (amount >= 0),
    request_id TEXT NOT NULL,
    job_id TEXT,
    created_at INTEGER NOT NULL
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
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    expires_at INTEGER
  );
  CREATE INDEX jobs_status ON jobs(status);

  CREATE TABLE cache_entries (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    stored_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX cache_entries_expiry ON cache_entries(expires_at);

  CREATE TABLE webhooks (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    url TEXT NOT NULL,
    events TEXT NOT NULL,
    description TEXT,
    secret TEXT NOT NULL,
    revoked_at INTEGER,
    created_at INTEGER NOT NULL
  );

  CREATE TABLE webhook_deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    webhook_id TEXT NOT NULL REFERENCES webhooks(id),
    event TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    status_code INTEGER,
    response_preview TEXT,
    delivered INTEGER NOT NULL,
    attempted_at INTEGER NOT NULL
  );
  `,
  `
  ALTER TABLE jobs ADD COLUMN estimated_seconds INTEGER NOT NULL DEFAULT 5;
  CREATE INDEX credit_holds_job ON credit_holds(job_id);
  CREATE INDEX credit_ledger_request ON credit_ledger(request_id);
  `,
  // Job leases (one owner process per job, renewed by a heartbeat), the environment a job
  // belongs to, and the key that made each top-up. Rows from before have lease 0: expired.
  `
  ALTER TABLE jobs ADD COLUMN env TEXT NOT NULL DEFAULT 'live' CHECK (env IN ('live', 'sandbox'));
  ALTER TABLE jobs ADD COLUMN owner TEXT;
  ALTER TABLE jobs ADD COLUMN lease_expires_at INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX jobs_lease ON jobs(status, lease_expires_at);
  CREATE INDEX jobs_owner ON jobs(owner, status);
  CREATE INDEX jobs_expiry ON jobs(expires_at);
  ALTER TABLE credit_holds ADD COLUMN owner TEXT;
  ALTER TABLE credit_holds ADD COLUMN lease_expires_at INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX credit_holds_owner ON credit_holds(owner);
  CREATE INDEX credit_holds_lease ON credit_holds(lease_expires_at);
  ALTER TABLE credit_ledger ADD COLUMN key_id TEXT;
  `,
  // GET /v1/jobs: an account's jobs in one environment, newest first, paged by (created_at, id).
  `
  CREATE INDEX jobs_account_created ON jobs(account_id, env, created_at, id);
  `,
  // Webhooks (issue 10): an outbox of deliveries, each an event for one webhook, claimed with a
  // lease like a job so two processes on one data dir never send it twice; the attempt log names
  // the event id receivers de-duplicate on.
  `
  CREATE TABLE webhook_outbox (
    id TEXT PRIMARY KEY,
    webhook_id TEXT NOT NULL REFERENCES webhooks(id),
    event TEXT NOT NULL,
    body TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'pending',
    next_attempt_at INTEGER,
    owner TEXT,
    lease_expires_at INTEGER,
    created_at INTEGER NOT NULL
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
  `
  CREATE TABLE oauth_clients (
    id TEXT PRIMARY KEY,
    name TEXT,
    redirect_uris TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE oauth_grants (
    id TEXT PRIMARY KEY,
    client_id TEXT NOT NULL REFERENCES oauth_clients(id),
    key_id TEXT NOT NULL REFERENCES api_keys(id),
    scope TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
  );
  CREATE TABLE oauth_codes (
    hash TEXT PRIMARY KEY,
    client_id TEXT NOT NULL REFERENCES oauth_clients(id),
    redirect_uri TEXT NOT NULL,
    challenge TEXT NOT NULL,
    scope TEXT NOT NULL,
    key_id TEXT NOT NULL REFERENCES api_keys(id),
    expires_at INTEGER NOT NULL,
    used_at INTEGER,
    grant_id TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX oauth_codes_expiry ON oauth_codes(expires_at);
  CREATE TABLE oauth_tokens (
    hash TEXT PRIMARY KEY,
    grant_id TEXT NOT NULL REFERENCES oauth_grants(id),
    kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
    expires_at INTEGER NOT NULL,
    used_at INTEGER,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX oauth_tokens_grant ON oauth_tokens(grant_id);
  CREATE INDEX oauth_tokens_expiry ON oauth_tokens(expires_at);
  `,
  // Idempotency keys (issue 21): a POST's first answer, kept 24 hours for retries with the same key.
  // One row per account, environment and key; while its request runs the row is a claim with a lease.
  `
  CREATE TABLE idempotency_keys (
    account_id TEXT NOT NULL,
    env TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    owner TEXT,
    lease_expires_at INTEGER NOT NULL,
    status INTEGER,
    headers TEXT,
    body TEXT,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX idempotency_keys_key ON idempotency_keys(account_id, env, key);
  CREATE INDEX idempotency_keys_expiry ON idempotency_keys(expires_at);
  `,
  // Issue 21 (7): dynamic registration is bounded per address (counted over registered_from and
  // created_at) and clients never used are purged (found through their grants and codes).
  `
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
  `
  UPDATE api_keys SET scopes = scopes || ',webhooks.write'
    WHERE (',' || scopes || ',') LIKE '%,stays.read,%' AND (',' || scopes || ',') NOT LIKE '%,webhooks.write,%';
  ALTER TABLE webhooks ADD COLUMN env TEXT NOT NULL DEFAULT 'live' CHECK (env IN ('live', 'sandbox'));
  CREATE INDEX webhooks_account_env ON webhooks(account_id, env, created_at);
  `,
  // A webhook that keeps failing is slowed, then disabled (issue 21): failures in a row, the
  // pause before its next delivery, and when and why it was disabled.
  `
  ALTER TABLE webhooks ADD COLUMN consecutive_failures INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE webhooks ADD COLUMN paused_until INTEGER;
  ALTER TABLE webhooks ADD COLUMN disabled_at INTEGER;
  ALTER TABLE webhooks ADD COLUMN disabled_reason TEXT;
  `,
];
