// Operator actions behind `stays admin`: accounts, keys and credit grants on the store.
import type { Services } from './context.js';
import { ServiceError } from './errors.js';
import { type KeyEnv, hashKey, newAccountId, newApiKey, newKeyId } from './ids.js';
import { DEFAULT_SCOPES, PLANS, SCOPES, type Scope } from './plans.js';
import type { PlanCode, PlanStatus } from './schemas/resources.js';
import { PLAN_CODES, PLAN_STATUSES } from './schemas/enums.js';

export interface CreateAccountInput {
  plan?: string;
  status?: string;
  credits?: number;
  rpm?: number;
  emailVerified?: boolean;
  freeTierBudget?: number;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], param: string): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ServiceError('invalid_parameter', `${param} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)}).`, { param });
  }
  return value as T;
}

function count(value: number | undefined, param: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < min) throw new ServiceError('invalid_parameter', `${param} must be an integer >= ${min}.`, { param });
  return value;
}

export async function createAccount(s: Services, input: CreateAccountInput) {
  const planCode: PlanCode = oneOf(input.plan ?? 'free', PLAN_CODES, 'plan');
  const planStatus: PlanStatus = oneOf(input.status ?? 'active', PLAN_STATUSES, 'status');
  const credits = count(input.credits, 'credits', 0) ?? 0;
  const plan = PLANS[planCode];
  const row = await s.store.createAccount(
    {
      id: newAccountId(s.ids),
      planCode,
      planName: plan.name,
      planStatus,
      emailVerified: input.emailVerified ?? true,
      requestsPerMinute: count(input.rpm, 'rpm', 1) ?? plan.requestsPerMinute,
      freeTierBudget: count(input.freeTierBudget, 'freeTierBudget', 0) ?? s.config.freeTierBudget,
      createdAt: s.clock.now(),
    },
    credits,
    null,
  );
  const c = await s.store.getCredits(row.id);
  return {
    id: row.id,
    plan: { code: row.planCode, name: row.planName, status: row.planStatus },
    emailVerified: row.emailVerified,
    requestsPerMinute: row.requestsPerMinute,
    freeTierBudget: row.freeTierBudget,
    credits: { balance: c.balance, held: c.held, available: c.balance - c.held },
  };
}

export async function createKey(s: Services, input: { accountId: string; env: string; scopes?: string[]; prefix?: string | undefined }) {
  const env: KeyEnv = oneOf(input.env, ['live', 'sandbox'] as const, 'env');
  // D14: sk_live_ is a live prefix too (the stay-centric clients' samples use it).
  const prefix = input.prefix === undefined ? undefined : oneOf(input.prefix.replace(/_$/, ''), env === 'live' ? (['stay_live', 'sk_live'] as const) : (['stay_test'] as const), 'prefix');
  const scopes: Scope[] = (input.scopes ?? [...DEFAULT_SCOPES]).map((x) => oneOf(x, SCOPES, 'scopes'));
  if (!(await s.store.getAccount(input.accountId))) {
    throw new ServiceError('invalid_parameter', `No account ${input.accountId}.`, { param: 'account' });
  }
  const key = newApiKey(s.ids, env, prefix === 'sk_live' ? 'sk_live_' : undefined);
  const row = await s.store.createKey({
    id: newKeyId(s.ids),
    accountId: input.accountId,
    env,
    scopes: [...new Set(scopes)],
    hash: hashKey(key),
    prefix: key.slice(0, 14),
    createdAt: s.clock.now(),
  });
  return { id: row.id, key, accountId: row.accountId, env: row.env, scopes: row.scopes };
}

export async function revokeKey(s: Services, keyId: string) {
  const row = await s.store.revokeKey(keyId, s.clock.now());
  if (!row) throw new ServiceError('invalid_parameter', `No key ${keyId}.`, { param: 'keyId' });
  return { id: row.id, accountId: row.accountId, env: row.env, revoked: row.revoked };
}

export async function grantCredits(s: Services, input: { accountId: string; credits: number }) {
  count(input.credits, 'credits', 1);
  if (!(await s.store.getAccount(input.accountId))) {
    throw new ServiceError('invalid_parameter', `No account ${input.accountId}.`, { param: 'account' });
  }
  const c = await s.store.grantCredits(input.accountId, input.credits, { requestId: null, note: 'admin grant' }, s.clock.now());
  return { accountId: input.accountId, granted: input.credits, credits: { balance: c.balance, held: c.held, available: c.balance - c.held } };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** One account as an operator needs it: plan, credits, keys (never their secrets) and the ledger's tail. */
export async function showAccount(s: Services, input: { accountId: string; ledger?: number }) {
  const last = count(input.ledger, 'ledger', 0) ?? 20;
  const a = await s.store.getAccount(input.accountId);
  if (!a) throw new ServiceError('invalid_parameter', `No account ${input.accountId}.`, { param: 'account' });
  const [c, keys, ledger] = await Promise.all([s.store.getCredits(a.id), s.store.listKeys(a.id), s.store.ledger(a.id)]);
  return {
    id: a.id,
    plan: { code: a.planCode, name: a.planName, status: a.planStatus },
    emailVerified: a.emailVerified,
    disabled: a.disabled,
    requestsPerMinute: a.requestsPerMinute,
    freeTierBudget: a.freeTierBudget,
    createdAt: iso(a.createdAt),
    credits: { balance: c.balance, held: c.held, available: c.balance - c.held, spent: c.spent },
    keys: keys.map((k) => ({ id: k.id, prefix: k.prefix, env: k.env, scopes: k.scopes, revoked: k.revoked, createdAt: iso(k.createdAt) })),
    ledgerRows: ledger.length,
    ledger: ledger.slice(Math.max(0, ledger.length - last)).map((l) => ({
      id: l.id,
      kind: l.kind,
      amount: l.amount,
      balanceAfter: l.balanceAfter,
      requestId: l.requestId,
      jobId: l.jobId,
      keyId: l.keyId,
      note: l.note,
      createdAt: iso(l.createdAt),
    })),
  };
}

/** Every account, oldest first, with its credits and how many keys are active. */
export async function listAccounts(s: Services) {
  const accounts = await s.store.listAccounts();
  return {
    accounts: await Promise.all(
      accounts.map(async (a) => {
        const [c, keys] = await Promise.all([s.store.getCredits(a.id), s.store.listKeys(a.id)]);
        return {
          id: a.id,
          plan: a.planCode,
          status: a.planStatus,
          createdAt: iso(a.createdAt),
          credits: { balance: c.balance, held: c.held, available: c.balance - c.held },
          activeKeys: keys.filter((k) => !k.revoked).length,
        };
      }),
    ),
  };
}
