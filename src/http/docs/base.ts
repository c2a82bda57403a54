// The base of this request's docUrls: STAYS_DOCS_URL when set; else, on `stays serve`, the
// server's own /docs at its public URL (STAYS_PUBLIC_URL, else the request's origin, as the OAuth
// metadata does); else (in-process, no server) the documentation shipped with the package.
import type { Context } from 'hono';
import type { Config } from '../../config.js';
import type { Meta } from '../../core/schemas/resources.js';
import { docPageUrl } from '../../core/errors.js';
import { publicBase } from '../public-url.js';
import type { Env } from '../route.js';

/**
 * The one rule for a server's docs base: STAYS_DOCS_URL when set, else its own /docs at its public
 * URL (STAYS_PUBLIC_URL), else at `origin` (the address the request reached).
 */
export function serverDocsBase(config: Pick<Config, 'docsUrl' | 'docsUrlFixed' | 'publicUrl'>, origin: string): string {
  return config.docsUrlFixed ? config.docsUrl : `${config.publicUrl ?? origin}/docs`;
}

export function docsBase(c: Context<Env>): string {
  let base = c.get('docsBase');
  if (base === undefined) {
    const config = c.get('services').config;
    base = c.get('ownDocs') ? serverDocsBase(config, publicBase(c)) : config.docsUrl;
    c.set('docsBase', base);
  }
  return base;
}

/**
 * Warnings get their docUrl when the answer is rendered: core builds meta without knowing the
 * request (a job's meta is built in the background and read later, maybe at another address).
 * The keys keep their order, so envelopes are otherwise unchanged.
 */
export function withWarningDocs(c: Context<Env>, meta: Meta): Meta {
  if (meta.warnings.length === 0) return meta;
  const base = docsBase(c);
  return { ...meta, warnings: meta.warnings.map((w) => ({ ...w, docUrl: docPageUrl(base, 'warnings', w.code) })) };
}
