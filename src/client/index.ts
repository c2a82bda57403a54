// The typed client of the /v1 API (the package's library API): one code path over a remote or an
// in-process transport. It waits on 202 jobs, retries at the edge and turns error envelopes into
// StaysApiError. `import { createClient } from 'stays'`.
import { type ClientCoreOptions, type StaysClient, clientOver } from './core.js';
import { type InProcessOptions, inProcessTransport } from './in-process.js';
import { type Transport, remoteTransport } from './transport.js';

export { StaysApiError, StaysConnectionError, StaysPaginationError, StaysWaitTimeoutError } from './errors.js';
export { inProcessTransport } from './in-process.js';
export type * from './types.js';
export type * from './operations.js';

export type { StaysClient } from './core.js';

export interface ClientOptions extends ClientCoreOptions {
  /** A transport, or which kind to build: 'remote' (needs baseUrl) or 'in-process' (default without baseUrl). */
  transport?: Transport | 'remote' | 'in-process';
  /** Service root, e.g. http://127.0.0.1:8787 (a trailing /v1 is accepted). */
  baseUrl?: string;
  /** In-process only: data directory of the embedded store. */
  dataDir?: InProcessOptions['dataDir'];
}

/** A client over the transport `opts` asks for: remote with a baseUrl, else the in-process service. */
export function createClient(opts: ClientOptions = {}): StaysClient {
  const transport: Transport =
    typeof opts.transport === 'object'
      ? opts.transport
      : opts.transport === 'remote' || (opts.transport === undefined && opts.baseUrl)
        ? remoteTransport({ baseUrl: opts.baseUrl ?? '' })
        : inProcessTransport({ dataDir: opts.dataDir });
  return clientOver(transport, opts);
}
