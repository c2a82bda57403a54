// `stays auth login` and `stays auth logout`: the API key of a profile. Login reads the key from a
// hidden prompt on a terminal, or from stdin with --with-token (as `gh auth login --with-token`),
// checks it with GET /v1/account (free) on the server, or in-process on the local store, and only
// then stores it; the key is never printed. Logout removes the stored key of the profile.
import { StaysApiError } from '../src/client/errors.js';
import { keyPrefix } from './_lib/runtime/context.js';
import { configFile, unknownProfile } from './_lib/config/profiles.js';
import { type Ctx, createContext } from './_lib/runtime/context.js';
import { UsageError, reportError } from './_lib/runtime/errors.js';
import { EXIT, io } from './_lib/runtime/io.js';
import { makeTerm } from './_lib/runtime/term.js';

export interface LoginOpts {
  profile: string;
  withToken?: boolean;
  baseUrl?: string;
  dataDir?: string;
  input?: boolean;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of io().stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function readKey(o: LoginOpts): Promise<string> {
  const term = makeTerm({ input: o.input });
  let raw: string;
  if (o.withToken) raw = await readStdin();
  else if (term.inTTY && term.errTTY && !term.ci && o.input !== false) {
    const { password } = await import('@inquirer/prompts');
    // The prompt talks on stderr: stdout is data.
    raw = await password({ message: 'Paste your API key (stay_test_… or stay_live_…):', mask: false }, { input: io().stdin, output: io().stderr });
  } else {
    throw new UsageError('No terminal to prompt for the key: pipe it on stdin with --with-token, e.g. stays auth login --with-token < key.txt', 'with-token');
  }
  const key = raw.trim();
  if (key === '') throw new UsageError(o.withToken ? 'No key on stdin (--with-token reads the key from standard input).' : 'No key given.', 'with-token');
  if (/\s/.test(key)) throw new UsageError('The key has whitespace inside; give one key, alone.', 'with-token');
  return key;
}

/** A key the server (or the local store) refused, in words: nothing was stored. */
function refusal(e: StaysApiError, ctx: Ctx, profile: string): string {
  const flag = profile === 'default' ? '' : ` --profile ${profile}`;
  if (ctx.inProcess) {
    return `The key is not a key of the local in-process store (no base URL for profile ${profile}), so nothing was stored. For a server, give its root: stays auth login --base-url URL${flag}`;
  }
  return `${ctx.base} refused the key (${e.code}); nothing was stored.`;
}

export async function login(o: LoginOpts): Promise<void> {
  const term = makeTerm({ input: o.input });
  let ctx: Ctx | undefined;
  try {
    const key = await readKey(o);
    ctx = await createContext({ profile: o.profile, apiKey: key, baseUrl: o.baseUrl, dataDir: o.dataDir, output: 'json', input: false }, io().env, { newProfile: true });
    let account: Awaited<ReturnType<typeof ctx.client.account>>['data'];
    try {
      account = (await ctx.client.account()).data;
    } catch (e) {
      if (e instanceof StaysApiError && (e.status === 401 || e.status === 403)) {
        io().stderr.write(`error: ${refusal(e, ctx, o.profile)}\n`);
        io().exitCode = EXIT.auth;
        return;
      }
      throw e;
    }
    const { openConfig } = await import('./_lib/config/profiles.js');
    const conf = await openConfig();
    conf.set(o.profile, 'api-key', key);
    // A base URL given on the command line belongs to this login: the profile keeps it.
    if (ctx.baseSource === 'flag' && o.baseUrl) conf.set(o.profile, 'base-url', o.baseUrl);
    const where = ctx.inProcess ? 'the local in-process store' : ctx.base;
    io().stderr.write(`stays: logged in to ${where} with ${keyPrefix(key)} (${account.key.env}${account.id ? `, account ${account.id}` : ''}); stored in profile ${o.profile} (${configFile()})\n`);
    if (io().env.STAYS_API_KEY) io().stderr.write('stays: note: STAYS_API_KEY is set and takes precedence over the stored key; unset it to use this one.\n');
  } catch (e) {
    io().exitCode = await reportError(e, ctx?.term ?? term, false);
  } finally {
    await ctx?.close();
  }
}

export async function logout(o: { profile: string }): Promise<void> {
  const unknown = unknownProfile(o.profile);
  if (unknown !== null) {
    io().stderr.write(`error: ${unknown}\n`);
    io().exitCode = EXIT.usage;
    return;
  }
  const { openConfig } = await import('./_lib/config/profiles.js');
  const dropped = (await openConfig()).dropKey(o.profile);
  io().stderr.write(dropped ? `stays: removed the API key of profile ${o.profile}\n` : `stays: profile ${o.profile} has no stored API key; nothing to remove\n`);
  if (io().env.STAYS_API_KEY) io().stderr.write('stays: note: STAYS_API_KEY is still set in this environment, and commands use it.\n');
}
