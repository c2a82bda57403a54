// Plans. The spec leaves each plan's rate limit open ("not shown"); these defaults are recorded
// in docs/decisions.md and can be overridden per account.
import type { PlanCode } from './schemas/resources.js';

export const PLANS: Record<PlanCode, { name: string; requestsPerMinute: number; paid: boolean }> = {
  free: { name: 'Free / Sandbox', requestsPerMinute: 60, paid: false },
  starter: { name: 'Starter', requestsPerMinute: 120, paid: true },
  pro: { name: 'Pro', requestsPerMinute: 300, paid: true },
  scale: { name: 'Scale', requestsPerMinute: 600, paid: true },
  enterprise: { name: 'Enterprise', requestsPerMinute: 1200, paid: true },
};

/**
 * Scopes a key can carry. stays.read: the data routes (billed live lookups included: the OAuth
 * consent page says so) and reading webhooks; webhooks.write: registering and deleting webhooks;
 * watches.write: creating and deleting watches (their runs spend credits on their own);
 * collections.write: creating, changing and deleting collections (their passes spend credits);
 * billing.write: top-ups; account.read: reserved. Every route declares the ones it needs
 * (RouteDef.scopes, docs/decisions.md "Scopes on every route").
 */
export const SCOPES = ['stays.read', 'account.read', 'billing.write', 'webhooks.write', 'watches.write', 'collections.write'] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * What a key gets when created without a list. Not billing.write: a top-up adds credits with no
 * payment step on a self-hosted server, so the operator grants it to a key on purpose (D24).
 */
export const DEFAULT_SCOPES: readonly Scope[] = ['stays.read', 'account.read', 'webhooks.write', 'watches.write', 'collections.write'];
