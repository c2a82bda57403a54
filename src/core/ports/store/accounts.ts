// Accounts and their API keys. Part of the store port (../store.ts).
import type { KeyEnv } from '../../ids.js';
import type { PlanCode, PlanStatus } from '../../schemas/resources.js';

export interface AccountRow {
  id: string;
  planCode: PlanCode;
  planName: string;
  planStatus: PlanStatus;
  emailVerified: boolean;
  requestsPerMinute: number;
  freeTierBudget: number;
  disabled: boolean;
  createdAt: number;
}

export interface KeyRow {
  id: string;
  accountId: string;
  env: KeyEnv;
  scopes: string[];
  /** First characters of the key, safe to show (e.g. stay_test_AbC1). */
  prefix: string;
  /** SHA-256 of the key; the key itself is never stored. */
  hash: string;
  revoked: boolean;
  createdAt: number;
  /**
   * Set only when the caller is an OAuth access token acting for this key (its scopes then are
   * the token's): never a stored property of the key.
   */
  oauth?: { clientId: string; grantId: string; expiresAt: number };
}

export type NewAccount = Omit<AccountRow, 'disabled'>;

export interface NewKey {
  id: string;
  accountId: string;
  env: KeyEnv;
  scopes: string[];
  hash: string;
  prefix: string;
  createdAt: number;
}

export interface AccountStore {
  createAccount(a: NewAccount, initialCredits: number, requestId: string | null): Promise<AccountRow>;
  getAccount(id: string): Promise<AccountRow | null>;
  /** Every account, oldest first (operators: `stays admin account list`). */
  listAccounts(): Promise<AccountRow[]>;
  createKey(k: NewKey): Promise<KeyRow>;
  /** The key with that hash and its account, whatever its revocation state. */
  findKeyByHash(hash: string): Promise<{ key: KeyRow; account: AccountRow } | null>;
  listKeys(accountId: string): Promise<KeyRow[]>;
  revokeKey(id: string, at: number): Promise<KeyRow | null>;
}
