// GET /v1/openapi.json: an OpenAPI 3.1 document generated from the route table and the same zod
// schemas the core validates with, so the document cannot drift from the behaviour.
import { z } from 'zod';
import { ALL_ERROR_CODES, ERROR_TYPES, errorInfo } from '../core/errors.js';
import {
  AccountSchema,
  AvailabilitySchema,
  ErrorEnvelopeSchema,
  ErrorSchema,
  MetaSchema,
  PaginationSchema,
  PlatformFailureErrorSchema,
  PlatformResultSchema,
  PlatformSchema,
  PriceCompareSchema,
  PriceSchema,
  PropertySchema,
  ReviewSchema,
  WarningSchema,
} from '../core/schemas/resources.js';
import { JobSummarySchema } from '../core/schemas/jobs.js';
import { BatchMetaSSchema, ListMetaSSchema, ObjectMetaSSchema, SSearchBody, StayListSchema, StaySchema } from '../core/schemas/stays.js';
import { webhooksOpenApi } from './docs/webhook-events.js';
import type { RouteDef } from './route.js';

type Json = Record<string, unknown>;

const NAMED: [z.ZodType, string][] = [
  [PropertySchema, 'Property'],
  [PriceSchema, 'Price'],
  [AvailabilitySchema, 'Availability'],
  [ReviewSchema, 'Review'],
  [PriceCompareSchema, 'PriceCompare'],
  [AccountSchema, 'Account'],
  [MetaSchema, 'Meta'],
  [ErrorSchema, 'Error'],
  [PlatformResultSchema, 'PlatformResult'],
  [WarningSchema, 'Warning'],
  [PaginationSchema, 'Pagination'],
  [PlatformFailureErrorSchema, 'PlatformFailureError'],
  [PlatformSchema, 'Platform'],
  [ErrorEnvelopeSchema, 'ErrorEnvelope'],
  [JobSummarySchema, 'JobSummary'],
  [StaySchema, 'Stay'],
  [StayListSchema, 'StayList'],
];

const NAMED_BODIES: [z.ZodType, string][] = [[SSearchBody, 'StaySearchRequest']];

/** Parameters stay inline: they are small and read best in place. */
function schemaOf(s: z.ZodType, io: 'input' | 'output' = 'output'): Json {
  const out = z.toJSONSchema(s, { unrepresentable: 'any', io, target: 'draft-2020-12' }) as Json;
  delete out.$schema;
  return out;
}

/**
 * Resources, each route's data and each body are converted together from one registry, so a
 * resource is one named component and everything else points at it with $ref.
 */
function componentSchemas(ids: Map<z.ZodType, string>, io: 'input' | 'output'): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of ids) registry.add(schema, { id });
  const all = z.toJSONSchema(registry, { unrepresentable: 'any', io, target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}` }) as { schemas: Record<string, Json> };
  for (const v of Object.values(all.schemas)) {
    delete v.$schema;
    delete v.$id;
    delete v.id;
  }
  return all.schemas;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function parameters(obj: z.ZodObject | undefined, where: 'query' | 'path'): Json[] {
  if (!obj) return [];
  return Object.entries(obj.shape).map(([name, field]) => {
    const f = field as z.ZodType;
    const schema = schemaOf(f);
    const description = typeof schema.description === 'string' ? schema.description : undefined;
    delete schema.description;
    const isList = schema.type === 'array';
    return {
      name,
      in: where,
      required: where === 'path' || !f.safeParse(undefined).success,
      ...(description ? { description } : {}),
      schema,
      ...(isList ? { style: 'form', explode: false } : {}),
    };
  });
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request (invalid_request).',
  401: 'Missing, malformed, unknown or revoked API key (authentication_error).',
  402: 'Available credits below the worst-case cost of the call (credit_balance_too_low).',
  403: `Permission denied (${ALL_ERROR_CODES.filter((c) => errorInfo(c).type === 'permission_denied').join(', ')}).`,
  404: 'Not found (listing_not_found, identity_mismatch, no_availability, price_not_found, job_not_found, webhook_not_found).',
  415: 'The body is not application/json (unsupported_media_type).',
  409: 'Another request with this Idempotency-Key is still executing (idempotency_key_in_use, retryable); carries Retry-After.',
  413: 'Body larger than 1 MiB.',
  429: 'Rate limited (rate_limit_exceeded); carries Retry-After.',
  503: 'Every upstream source failed or was blocked (no charge).',
  504: 'Upstream work timed out without data (no charge).',
};

/** Every authenticated POST takes an Idempotency-Key (src/http/idempotency.ts). */
const idempotent = (r: RouteDef) => r.method === 'post' && r.doc.auth;

const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the same key with the same request (method, path, query and body bytes) within 24 hours answers the first answer again, ' +
    'executed and charged once (Idempotent-Replayed: true). The same key with another request: 400 idempotency_key_reused; while the first still runs: ' +
    '409 idempotency_key_in_use (retryable). Per account and environment. Answers that say "try again" (429, 5xx) are not kept.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
};

const replayedHeader = { 'Idempotent-Replayed': { schema: { const: 'true' }, description: 'Present on an answer replayed for a repeated Idempotency-Key.' } };

function responses(route: RouteDef, ids: Map<z.ZodType, string>): Json {
  const d = route.doc;
  const familyS = route.family === 'S';
  const requestIdHeader = { 'X-Request-Id': { schema: { type: 'string' }, description: familyS ? 'Equals request_id.' : 'Equals meta.requestId / error.requestId.' } };
  const rateHeaders = {
    'X-RateLimit-Limit': { schema: { type: 'integer' } },
    'X-RateLimit-Remaining': { schema: { type: 'integer' } },
    'X-RateLimit-Reset': { schema: { type: 'integer' }, description: 'Unix time (seconds) when the bucket is full again.' },
  };
  const envelope = d.envelope ?? 'meta';
  const data = ref(ids.get(d.data)!);
  const okSchema =
    envelope === 'bare'
      ? { type: 'object', required: ['data'], properties: { data } }
      : envelope === 'job'
        ? ref('JobResponse')
        : envelope === 's'
          ? { type: 'object', required: ['data', 'request_id'], properties: { data, meta: ref('ObjectMetaS'), request_id: { type: 'string' } } }
          : envelope === 's-list' || envelope === 's-batch'
            ? { type: 'object', required: ['data', 'meta', 'request_id'], properties: { data, meta: ref(envelope === 's-list' ? 'ListMetaS' : 'BatchMetaS'), request_id: { type: 'string' } } }
            : { type: 'object', required: ['data', 'meta'], properties: { data, meta: ref('Meta') } };
  // POST /v1/search serves both families (D8): the body's keys choose.
  const okBody = d.alsoS
    ? { anyOf: [okSchema, { type: 'object', required: ['data', 'meta', 'request_id'], properties: { data: ref(ids.get(StayListSchema)!), meta: ref('ListMetaS'), request_id: { type: 'string' } } }] }
    : okSchema;
  // A create answers 201 Created.
  const okStatus = d.created ? 201 : 200;
  const idem = idempotent(route);
  const replayed = idem ? replayedHeader : {};
  const out: Json = {
    [okStatus]: { description: okStatus === 201 ? 'Created.' : 'Success.', headers: { ...requestIdHeader, ...rateHeaders, ...replayed }, content: { 'application/json': { schema: okBody } } },
  };
  if (d.async) {
    out[202] = {
      description: 'Accepted: a live call that must fetch upstream became a job; poll data.pollUrl.',
      headers: { ...requestIdHeader, 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait before polling.' }, ...replayed },
      content: { 'application/json': { schema: d.alsoS ? { anyOf: [ref('AsyncAccepted'), ref('AsyncAcceptedS')] } : ref(familyS ? 'AsyncAcceptedS' : 'AsyncAccepted') } },
    };
  }
  const statuses = [...new Set([...d.errors, ...(d.auth ? [401, 429] : []), ...(route.scopes.length > 0 ? [403] : []), ...(d.body ? [413] : []), ...(idem ? [400, 409] : [])])].sort();
  for (const s of statuses) {
    const errorSchema = d.alsoS ? { anyOf: [ref('ErrorEnvelope'), ref('ErrorEnvelopeS')] } : ref(familyS ? 'ErrorEnvelopeS' : 'ErrorEnvelope');
    out[s] = { description: d.errorText?.[s] ?? STATUS_TEXT[s] ?? 'Error.', headers: requestIdHeader, content: { 'application/json': { schema: errorSchema } } };
  }
  return out;
}

const JobMeta = z.object({ requestId: z.string(), creditsCharged: z.literal(0), platforms: z.array(PlatformSchema) });
const InProgress = z.object({
  jobId: z.string(),
  status: z.enum(['pending', 'running']),
  pollUrl: z.string(),
  estimatedSeconds: z.number().int(),
});

export function buildOpenApi(routes: RouteDef[]): Json {
  const ids = new Map<z.ZodType, string>(NAMED);
  for (const r of routes) if (!ids.has(r.doc.data)) ids.set(r.doc.data, `${r.doc.operationId}Data`);
  // A body several routes share (the S SearchRequest) is one component, named by its first route.
  const bodies = new Map<z.ZodType, string>(NAMED_BODIES);
  for (const r of routes) if (r.doc.body && !bodies.has(r.doc.body)) bodies.set(r.doc.body, `${r.doc.operationId}Body`);
  const paths: Json = {};
  for (const r of routes) {
    const d = r.doc;
    const op: Json = {
      operationId: d.operationId,
      summary: d.summary,
      ...(d.description ? { description: d.description } : {}),
      tags: d.tags,
      parameters: [...parameters(d.path, 'path'), ...parameters(d.query, 'query'), ...(idempotent(r) ? [idempotencyKeyParameter] : [])],
      responses: responses(r, ids),
    };
    if (d.body) {
      const schema = d.alsoS ? { anyOf: [ref(bodies.get(d.body)!), ref(bodies.get(SSearchBody)!)] } : ref(bodies.get(d.body)!);
      op.requestBody = { required: true, content: { 'application/json': { schema } } };
    }
    // OpenAPI 3.1 lets an http scheme name the roles an operation needs: here, the key's scopes.
    if (!d.auth) op.security = [];
    else if (r.scopes.length > 0) op.security = [{ bearerAuth: [...r.scopes] }];
    paths[r.path] = { ...(paths[r.path] as Json | undefined), [r.method]: op };
  }
  paths['/v1/health'] = {
    get: {
      operationId: 'health',
      summary: 'Liveness, version and upstream',
      description: "Free and unauthenticated. Besides `status`, the server's version and what serves each platform's live data (no secrets), which `stays doctor` reads.",
      security: [],
      tags: ['Service'],
      responses: {
        200: {
          description: 'Ready.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  status: { const: 'ok' },
                  version: { type: 'string', description: "The server's version (stays package version)." },
                  upstream: {
                    type: 'object',
                    description: 'Where live keys get data.',
                    properties: {
                      kind: { type: 'string', enum: ['none', 'simulated', 'apify'], description: "none: live calls answer 503; simulated: demo data; apify: the scraping platform's actors." },
                      platforms: {
                        type: 'object',
                        description: 'Per platform, per need (search, listing, price, availability, reviews, compare): the sources tried, primary first; empty when that need is not served.',
                        additionalProperties: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  };
  paths['/v1/openapi.json'] = {
    get: {
      operationId: 'openapi',
      summary: 'This document',
      security: [],
      tags: ['Service'],
      responses: { 200: { description: 'OpenAPI 3.1 document.', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'stays',
      version: '1.0.0',
      description: `Accommodation data across booking platforms in one unified schema. Errors: ${Object.keys(ERROR_TYPES).join(', ')}.`,
    },
    servers: [{ url: '/' }],
    tags: [
      { name: 'Data', description: 'Family U: unified platform routes, camelCase fields, `{ data, meta }`.' },
      {
        name: 'Stays',
        description:
          "Family S: stay-centric routes (airbnb stays), snake_case fields, `{ data, meta, request_id }`; errors `{ error, request_id }` (D9). POST /v1/search takes either family's body (D8).",
      },
      { name: 'Webhooks', description: 'Family S: signed deliveries of job and stay events.' },
      { name: 'Account', description: 'Plan, credits and top-ups.' },
      { name: 'Jobs', description: 'Async jobs of live calls (D17, D18).' },
      { name: 'History', description: 'What this deployment observed over time (issue 26): free reads of its own store.' },
      { name: 'Watches', description: 'Calls the server makes again on an interval, and the events their rules raise (issue 26): watch.triggered webhooks.' },
      { name: 'Market', description: 'Market metrics and comp sets (issue 27): figures computed from what this deployment observed, each with its method and sample size.' },
      {
        name: 'Collections',
        description: 'Whole markets covered (issue 38): every listing of an area found past the platforms’ caps, its calendar kept each cadence, within a daily budget.',
      },
      { name: 'Matches', description: "The same property on other platforms (issue 27): candidates scored with their evidence, and the account's pins and rejections." },
      { name: 'Service', description: 'Health and this document.' },
    ],
    security: [{ bearerAuth: [] }],
    paths,
    // What receivers get POSTed (OpenAPI 3.1): the reference at /docs lists the events too.
    webhooks: webhooksOpenApi(),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            "stay_test_ keys: deterministic sandbox, 0 credits. stay_live_ / sk_live_: live. An operation's security lists the scopes it needs " +
            '(else 403 scope_insufficient): stays.read (data, reading webhooks), webhooks.write (creating, deleting webhooks), watches.write (creating, deleting watches), billing.write (top-ups); ' +
            'none: any valid key (its account, its jobs). OAuth access tokens (stays_at_) carry stays.read only.',
        },
      },
      schemas: {
        ...componentSchemas(ids, 'output'),
        ...componentSchemas(bodies, 'input'),
        // D9: Family S errors carry request_id beside the error object.
        ErrorEnvelopeS: { type: 'object', required: ['error', 'request_id'], properties: { error: ref('Error'), request_id: { type: 'string' } } },
        // Family S metas: the spec's list meta { count, limit, has_more, next_page_token }, plus credits_charged.
        ListMetaS: schemaOf(ListMetaSSchema),
        ObjectMetaS: schemaOf(ObjectMetaSSchema),
        BatchMetaS: schemaOf(BatchMetaSSchema),
        AsyncAccepted: schemaOf(z.object({ data: InProgress.extend({ status: z.literal('pending') }), meta: JobMeta })),
        // D10: an async S search answers D18's job shape plus request_id.
        AsyncAcceptedS: schemaOf(z.object({ data: InProgress.extend({ status: z.literal('pending') }), meta: JobMeta, request_id: z.string() })),
        JobResponse: {
          oneOf: [
            schemaOf(z.object({ data: InProgress, meta: JobMeta })),
            schemaOf(z.object({ data: z.object({ jobId: z.string(), status: z.literal('completed'), result: z.unknown() }), meta: MetaSchema })),
            schemaOf(z.object({ data: z.object({ jobId: z.string(), status: z.literal('failed'), error: PlatformFailureErrorSchema }), meta: JobMeta })),
          ],
        },
      },
    },
  };
}
