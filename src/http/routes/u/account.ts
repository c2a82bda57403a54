import { z } from 'zod';
import { account, topup } from '../../../core/ops/account.js';
import { topupBody } from '../../../core/schemas/param-schemas.js';
import { resourceSchemas } from '../../../core/schemas/resource-schemas.js';
import { defineRoute, jsonBody } from '../../route.js';

export const accountGet = defineRoute({
  method: 'get',
  scopes: [],
  path: '/v1/account',
  doc: () => ({
    operationId: 'account',
    summary: 'Plan, credit balance and rate limit',
    description: 'Free, synchronous, works with both key kinds. Bare { data } envelope.',
    tags: ['Account'],
    data: resourceSchemas().AccountSchema,
    envelope: 'bare',
    errors: [],
    auth: true,
  }),
  handle: async (c, ctx) => c.json(await account(c.get('services'), ctx), 200),
});

export const topupPost = defineRoute({
  method: 'post',
  scopes: ['billing.write'],
  path: '/v1/billing/topups',
  doc: () => ({
    operationId: 'createTopup',
    summary: 'Add credits to the account',
    description:
      'Needs a key with the billing.write scope (not a default scope; else 403 scope_insufficient) and an active or trialing paid plan ' +
      '(else 403 subscription_required). A sandbox key gets a test-mode answer: the same shape with the credit figures unchanged, nothing ' +
      'written. A live top-up is limited per account per UTC day by the server (STAYS_TOPUP_MAX_PER_DAY): 403 topups_disabled when the ' +
      'cap is 0 (the default; the operator grants credits instead), 403 topup_limit_exceeded past it. Otherwise the credits are added in ' +
      'one ledger row naming the key, and the new figures are returned.',
    tags: ['Account'],
    body: topupBody(),
    data: z.object({ credits: resourceSchemas().CreditsSchema }),
    envelope: 'bare',
    errors: [400, 403],
    auth: true,
  }),
  handle: async (c, ctx) => c.json(await topup(c.get('services'), ctx, await jsonBody(c)), 200),
});
