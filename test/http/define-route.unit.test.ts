// defineRoute: a route's doc (its schemas) is made when first read, once; the OpenAPI document
// names a schema by its identity, so every read must give the same doc.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRoute } from '../../src/http/route.js';

describe('defineRoute', () => {
  it('makes the doc on its first read only, and keeps it', () => {
    let made = 0;
    const route = defineRoute({
      method: 'get',
      path: '/v1/example',
      scopes: [],
      doc: () => {
        made++;
        return { operationId: 'example', summary: 'An example', tags: [], data: z.string(), errors: [], auth: true };
      },
      handle: async () => new Response(''),
    });
    expect(made).toBe(0);
    expect(route.path).toBe('/v1/example');
    const doc = route.doc;
    expect(route.doc).toBe(doc);
    expect(route.doc.data).toBe(doc.data);
    expect(made).toBe(1);
    expect(Object.keys(route)).toContain('doc');
  });
});
