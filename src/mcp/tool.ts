// What a tool is: a name, the words an agent reads, an input schema generated from the core
// parameter schema of its REST operation, the read-only annotations, and a handler that calls
// that operation through the typed client (so validation, billing, limits and errors are REST's).
import { z } from 'zod';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { StaysClient } from '../client/core.js';

/** A tool call's arguments as the agent sent them (the service validates them). */
export type Args = Record<string, unknown>;

/** What a handler runs with: the caller's client and how long a live job may be waited on. */
export interface ToolContext {
  client: StaysClient;
  /** How long a call waits for a live job before answering with its id for get_job, in ms. */
  waitMs: number;
  /** The MCP request's cancellation. */
  signal?: AbortSignal;
  /** Reports progress while a job runs (when the agent asked for progress). */
  progress?: (message: string) => Promise<void>;
}

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  /** The core schema the tool's input schema is generated from. */
  params: z.ZodObject;
  /** What differs from READ_ONLY (the history tools read this deployment's own store). */
  annotations?: ToolAnnotations;
  run(ctx: ToolContext, args: Args): Promise<CallToolResult>;
}

/**
 * Every tool reads: nothing is created, changed or deleted, a repeated call answers alike (live
 * calls bill again, as REST does), and the data comes from booking platforms outside this server.
 */
export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };

/** The history tools read only what this deployment already observed: no platform outside the server is asked. */
export const OWN_STORE: ToolAnnotations = { openWorldHint: false };

type Json = Record<string, unknown>;

/**
 * The JSON Schema of a core parameter object, field by field as the OpenAPI document does: each
 * field as the type it parses to (the core's preprocessing, which accepts query strings too, is
 * not part of the contract), required only when it has no default and may not be left out.
 */
export function inputSchemaOf(params: z.ZodObject): { type: 'object'; properties: Record<string, Json>; required?: string[]; additionalProperties: false } {
  const properties: Record<string, Json> = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(params.shape)) {
    const f = field as z.ZodType;
    const schema = z.toJSONSchema(f, { io: 'output', unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
    delete schema.$schema;
    properties[name] = schema;
    if (!f.safeParse(undefined).success) required.push(name);
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}
