// `stays admin`: operator commands on the same store a running server uses.
import { type Command, InvalidArgumentError } from 'commander';
import { EXIT, printJson, io } from './_lib/runtime/io.js';

interface Common {
  dataDir?: string;
  databaseUrl?: string;
  json?: boolean;
}

function intArg(name: string, min: number) {
  return (v: string) => {
    if (!/^\d+$/.test(v) || Number(v) < min || !Number.isSafeInteger(Number(v))) throw new InvalidArgumentError(`${name} must be an integer >= ${min}.`);
    return Number(v);
  };
}

/**
 * Runs one admin action on a runtime opened for it, printing JSON or a human line. A write says
 * on stderr which store it wrote to (the PostgreSQL URL without its password, or the SQLite
 * file): an operator who forgot STAYS_DATABASE_URL sees at once that the servers will not see it.
 */
async function run<T extends object>(opts: Common, action: (rt: import('../src/runtime.js').Runtime) => Promise<T>, human: (r: T) => string, writes = false): Promise<void> {
  const { createRuntime } = await import('../src/runtime.js');
  const { isServiceError } = await import('../src/core/errors.js');
  const rt = createRuntime({
    config: { ...(opts.dataDir ? { dataDir: opts.dataDir } : {}), ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}) },
    flags: { dataDir: '--data-dir', databaseUrl: '--database-url' },
    env: io().env,
  });
  try {
    const result = await action(rt);
    if (opts.json) printJson(result);
    else io().stdout.write(`${human(result)}\n`);
    if (writes) io().stderr.write(`stays admin: written to ${await storeName(rt.config)}\n`);
  } catch (e) {
    if (!isServiceError(e)) throw e;
    if (opts.json) io().stderr.write(`${JSON.stringify({ error: { type: e.type, code: e.code, message: e.message, param: e.param } })}\n`);
    else io().stderr.write(`stays admin: ${e.message}\n`);
    io().exitCode = EXIT.usage;
  } finally {
    await rt.close();
  }
}

/** The store a runtime uses, as an operator recognises it (never the password). */
async function storeName(config: { databaseUrl?: string; dataDir: string }): Promise<string> {
  if (config.databaseUrl) {
    const { redactUrl } = await import('../src/store/db-url.js');
    return `PostgreSQL ${redactUrl(config.databaseUrl)}`;
  }
  const { databaseFile } = await import('../src/config.js');
  return `SQLite ${databaseFile(config.dataDir)}`;
}

const common = (c: Command) =>
  c
    .option('--data-dir <dir>', 'data directory (default: STAYS_DATA_DIR or the user data dir)')
    .option('--database-url <url>', 'PostgreSQL store, postgres://… (default: STAYS_DATABASE_URL, else SQLite in the data directory)')
    .option('--json', 'print one JSON object');

export function defineAdmin(program: Command): void {
  const admin = program.command('admin').description('Operator commands: accounts, keys, credits (safe while a server runs)');

  const account = admin.command('account').description('Manage accounts');
  common(account.command('create'))
    .description('Create an account')
    .option('--plan <plan>', 'free|starter|pro|scale|enterprise', 'free')
    .option('--status <status>', 'trialing|active|past_due|canceled|incomplete|incomplete_expired|unpaid', 'active')
    .option('--credits <n>', 'initial credits', intArg('--credits', 0), 0)
    .option('--rpm <n>', "requests per minute (default: the plan's)", intArg('--rpm', 1))
    .option('--free-tier-budget <n>', 'lifetime free-tier budget in credits (free plan)', intArg('--free-tier-budget', 0))
    .option('--email-unverified', 'mark the account email as unverified (live keys get 403 email_unverified)')
    .action(async (o: Common & { plan: string; status: string; credits: number; rpm?: number; freeTierBudget?: number; emailUnverified?: boolean }) => {
      const { createAccount } = await import('../src/core/admin.js');
      await run(
        o,
        (rt) => createAccount(rt, { plan: o.plan, status: o.status, credits: o.credits, rpm: o.rpm, freeTierBudget: o.freeTierBudget, emailVerified: !o.emailUnverified }),
        (r) => `Created account ${r.id} (${r.plan.code}, ${r.plan.status}, ${r.credits.balance} credits)`,
        true,
      );
    });

  common(account.command('show'))
    .description('Show an account: plan, credits, keys (never their secrets) and the last ledger rows')
    .argument('<accountId>', 'account id (acct_…)')
    .option('--ledger <n>', 'how many of the latest ledger rows to show', intArg('--ledger', 0), 20)
    .action(async (accountId: string, o: Common & { ledger: number }) => {
      const { showAccount } = await import('../src/core/admin.js');
      await run(
        o,
        (rt) => showAccount(rt, { accountId, ledger: o.ledger }),
        (r) =>
          [
            `${r.id}  ${r.plan.code} (${r.plan.status})  ${r.requestsPerMinute} rpm${r.disabled ? '  DISABLED' : ''}`,
            `credits  balance ${r.credits.balance}  held ${r.credits.held}  available ${r.credits.available}  spent ${r.credits.spent}`,
            ...r.keys.map((k) => `key  ${k.id}  ${k.prefix}…  ${k.env}  ${k.revoked ? 'revoked' : 'active'}  ${k.scopes.join(',')}`),
            `ledger  ${r.ledger.length} of ${r.ledgerRows} rows`,
            ...r.ledger.map((l) => `  ${l.createdAt}  ${l.kind.padEnd(6)} ${String(l.amount).padStart(8)}  → ${l.balanceAfter}  ${l.requestId ?? l.note ?? ''}${l.keyId ? `  ${l.keyId}` : ''}`),
          ].join('\n'),
      );
    });
  common(account.command('list'))
    .description('List accounts, oldest first, with credits and active keys')
    .action(async (o: Common) => {
      const { listAccounts } = await import('../src/core/admin.js');
      await run(
        o,
        (rt) => listAccounts(rt),
        (r) =>
          r.accounts.length === 0
            ? 'No accounts.'
            : r.accounts.map((a) => `${a.id}  ${a.plan} (${a.status})  available ${a.credits.available}  keys ${a.activeKeys}  created ${a.createdAt}`).join('\n'),
      );
    });

  const key = admin.command('key').description('Manage API keys');
  common(key.command('create'))
    .description('Create an API key (shown once)')
    .requiredOption('--account <id>', 'account id (acct_…)')
    .requiredOption('--env <env>', 'live or sandbox')
    .option('--scopes <list>', 'comma-separated scopes: stays.read,account.read,webhooks.write,watches.write,collections.write,billing.write (default: all but billing.write, which allows top-ups)')
    .option('--prefix <prefix>', 'live keys: stay_live (default) or sk_live, the prefix of the stay-centric clients (D14)')
    .action(async (o: Common & { account: string; env: string; scopes?: string; prefix?: string }) => {
      const { createKey } = await import('../src/core/admin.js');
      const scopes = o.scopes
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      await run(
        o,
        (rt) => createKey(rt, { accountId: o.account, env: o.env, scopes, prefix: o.prefix }),
        (r) => `Created key ${r.id} (${r.env}). Store it now, it is not shown again:\n${r.key}`,
        true,
      );
    });
  common(key.command('revoke'))
    .description('Revoke an API key')
    .argument('<keyId>', 'key id (key_…)')
    .action(async (keyId: string, o: Common) => {
      const { revokeKey } = await import('../src/core/admin.js');
      await run(
        o,
        (rt) => revokeKey(rt, keyId),
        (r) => `Revoked key ${r.id}`,
        true,
      );
    });

  const credits = admin.command('credits').description('Manage credits');
  common(credits.command('grant'))
    .description('Grant credits to an account (one ledger row)')
    .requiredOption('--account <id>', 'account id (acct_…)')
    .requiredOption('--credits <n>', 'credits to add', intArg('--credits', 1))
    .action(async (o: Common & { account: string; credits: number }) => {
      const { grantCredits } = await import('../src/core/admin.js');
      await run(
        o,
        (rt) => grantCredits(rt, { accountId: o.account, credits: o.credits }),
        (r) => `Granted ${r.granted} credits to ${r.accountId}; balance ${r.credits.balance}`,
        true,
      );
    });
}
