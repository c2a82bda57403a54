// Accounts for tests, made by the functions `stays admin` calls (src/core/admin.ts): the
// in-process harness (./app.ts) calls them on its app's runtime; the e2e harness (./stays.ts) on
// a runtime it opens on the server's data directory for the call, as the command does, without
// the command's child process. `stays admin` itself is tested as a command in test/cli-admin.test.ts.
import { createAccount, createKey } from '../../src/core/admin.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';

export interface AccountOpts {
  plan?: string;
  status?: string;
  credits?: number;
  rpm?: number;
  emailUnverified?: boolean;
  freeTierBudget?: number;
  /**
   * Comma-separated scopes of both keys (`stays admin key create --scopes`). Unset: the product's
   * defaults, stays.read and account.read; a test that tops up asks for billing.write.
   */
  scopes?: string;
}

export interface TestAccount {
  id: string;
  sandboxKey: string;
  liveKey: string;
  sandboxKeyId: string;
  liveKeyId: string;
}

/** An account with one key of each kind, as `stays admin account create` and two `key create` make it. */
export async function accountOn(rt: Runtime, o: AccountOpts = {}): Promise<TestAccount> {
  const acct = await createAccount(rt, {
    plan: o.plan ?? 'pro',
    status: o.status,
    credits: o.credits ?? 1000,
    rpm: o.rpm,
    freeTierBudget: o.freeTierBudget,
    emailVerified: !o.emailUnverified,
  });
  const scopes = o.scopes
    ?.split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const sk = await createKey(rt, { accountId: acct.id, env: 'sandbox', scopes });
  const lk = await createKey(rt, { accountId: acct.id, env: 'live', scopes });
  return { id: acct.id, sandboxKey: sk.key, liveKey: lk.key, sandboxKeyId: sk.id, liveKeyId: lk.id };
}

/**
 * `accountOn` on the store of a data directory another process (`stays serve`) has open: a
 * runtime opened and closed for the call, as `stays admin` opens one (commands/admin.ts), with
 * this process's environment as the command's child had. The SQLite file is shared in WAL mode;
 * the server's authentication cache holds only keys it has found, so new keys are valid at once.
 */
export async function accountIn(dataDir: string, o: AccountOpts = {}): Promise<TestAccount> {
  const rt = createRuntime({ config: { dataDir } });
  try {
    return await accountOn(rt, o);
  } finally {
    await rt.close();
  }
}
