// What a data command runs with: the terminal, the output format, and a client on the right
// transport with the right key. Mode: remote when a base URL is set (flag, STAYS_BASE_URL or
// config), else in-process on the embedded store. Key: --api-key, STAYS_API_KEY, config, in that
// order; in-process with none, a local sandbox account and key are provisioned on first use.
import pkg from '../../package.json' with { type: 'json' };
import { type StaysClient, createClient } from '../../src/client/index.js';
import { type InProcessTransport, inProcessTransport } from '../../src/client/in-process.js';
import { type Transport, remoteTransport } from '../../src/client/transport.js';
import type { RequestEvent } from '../../src/client/types.js';
import { readProfile } from './config.js';
import { UsageError } from './errors.js';
import { localKey } from './local-key.js';
import { type GlobalOpts, parseDuration } from './options.js';
import { FORMATS, type Format } from './output.js';
import { type Term, makeTerm } from './term.js';
import { type WaitUi, createWaitUi } from './waiting.js';

export interface Ctx {
  term: Term;
  format: Format;
  /** Errors as one-line JSON envelopes on stderr. */
  jsonErrors: boolean;
  wait: boolean;
  timeoutMs: number;
  ui: WaitUi;
  client: StaysClient;
  /** The in-process transport, when there is no base URL: live jobs then run in this very process. */
  inProcess: InProcessTransport | null;
  close(): Promise<void>;
}

export const redact = (key: string) => `${key.slice(0, key.startsWith('stay_') ? 10 : 3)}…(redacted)`;

function debugLine(e: RequestEvent): string {
  const parts = [`${e.method} ${e.url}`, e.status === null ? `failed: ${e.error}` : `→ ${e.status}`, `${e.ms} ms`];
  if (e.requestId) parts.push(e.requestId);
  if (e.rateLimit) parts.push(`ratelimit ${e.rateLimit.remaining}/${e.rateLimit.limit} reset ${e.rateLimit.reset}`);
  if (e.creditsCharged !== null) parts.push(`credits ${e.creditsCharged}`);
  if (e.attempt > 1) parts.push(`attempt ${e.attempt}`);
  return `stays debug: ${parts.join(' · ')}\n`;
}

export async function createContext(opts: GlobalOpts, env: NodeJS.ProcessEnv = process.env): Promise<Ctx> {
  const term = makeTerm({ color: opts.color, input: opts.input }, env);
  const profileName = opts.profile ?? 'default';
  const profile = readProfile(profileName, env);
  const format = (opts.json ? 'json' : (opts.output ?? profile.output ?? (term.outTTY ? 'table' : 'tsv'))) as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`output must be one of ${FORMATS.join(', ')} (config has ${JSON.stringify(format)}).`, 'output');
  const timeoutMs = parseDuration(opts.timeout ?? profile.timeout ?? '300s') * 1000;
  const debug = opts.debug === true || env.STAYS_DEBUG === '1';

  const baseUrl = opts.baseUrl ?? profile['base-url'];
  const dataDir = opts.dataDir ?? env.STAYS_DATA_DIR ?? profile['data-dir'];
  const transport: Transport = baseUrl ? remoteTransport({ baseUrl }) : inProcessTransport({ dataDir });
  let apiKey = opts.apiKey ?? profile['api-key'];
  if (!apiKey && transport.kind === 'in-process') apiKey = await localKey(transport as InProcessTransport, profileName);
  if (debug) process.stderr.write(`stays debug: ${transport.kind} ${transport.base} · profile ${profileName} · key ${apiKey ? redact(apiKey) : '(none)'}\n`);

  const ui = createWaitUi(term);
  const client = createClient({
    transport,
    apiKey,
    timeoutMs,
    userAgent: `stays-cli/${pkg.version}`,
    onRequest: debug ? (e) => process.stderr.write(debugLine(e)) : undefined,
    onWait: (e) => ui.onWait(e),
  });
  return {
    term,
    format,
    jsonErrors: opts.json === true || format === 'json' || format === 'jsonl',
    wait: opts.wait !== false,
    timeoutMs,
    ui,
    client,
    inProcess: transport.kind === 'in-process' ? (transport as InProcessTransport) : null,
    close: async () => {
      ui.stop();
      await client.close();
    },
  };
}
