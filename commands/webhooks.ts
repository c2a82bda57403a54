// `stays webhooks create|list|get|delete|deliveries|resend|trigger|verify|listen`: the account's
// webhooks (Family S routes /v1/webhooks), test events, checking a delivery's signature, and a
// local receiver.
import type { Command } from 'commander';
import { columnListHelp } from './_lib/output/columns.js';
import { type GlobalOpts, withGlobals } from './_lib/flags/options.js';

const EVENTS = 'job.queued, job.running, job.succeeded, job.failed, stay.cached, watch.triggered';

export function defineWebhooks(program: Command): void {
  const hooks = program.command('webhooks').description('Signed event deliveries to your URL: create, list, get, delete, deliveries, resend, trigger, verify, listen');

  withGlobals(
    hooks
      .command('create')
      .description('Register a webhook; prints its signing secret, which is shown only this once')
      .requiredOption('--url <url>', 'where deliveries are POSTed (http or https)')
      .requiredOption('--events <list>', `comma list of events: ${EVENTS}`)
      .option('--description <text>', 'a note for yourself (at most 500 characters)'),
    { wait: false },
  )
    .addHelpText(
      'after',
      `
The signing secret (whsec_…) is printed once: store it where your receiver can read it. There is
no way to see it again; to replace it, delete the webhook and create another.

Examples:
  stays webhooks create --url https://example.com/hooks --events job.succeeded,job.failed
  stays webhooks create --url https://example.com/hooks --events job.succeeded --json --jq .data.signing_secret > secret.txt`,
    )
    .action(async (opts: GlobalOpts & { url: string; events: string; description?: string }) => {
      const [{ execute }, { createHook }] = await Promise.all([import('./_lib/runtime/run.js'), import('./webhooks-run.js')]);
      await execute(opts, (ctx) => createHook(ctx, opts));
    });

  withGlobals(
    hooks
      .command('list')
      .description('Your webhooks, newest first; deleted and disabled ones show active no (no secrets)')
      .option('--active', 'only webhooks that get deliveries (neither deleted nor disabled)'),
    { wait: false },
  )
    .addHelpText(
      'after',
      `\nExamples:\n  stays webhooks list\n  stays webhooks list --active --json id,url,active\n${columnListHelp(['id', 'url', 'events', 'active', 'description', 'created_at', 'status', 'consecutive_failures', 'disabled_reason'], 'events is a comma list.')}`,
    )
    .action(async (opts: GlobalOpts & { active?: boolean }) => {
      const [{ execute }, { listHooks }] = await Promise.all([import('./_lib/runtime/run.js'), import('./webhooks-run.js')]);
      await execute(opts, (ctx) => listHooks(ctx, opts.active === true));
    });

  withGlobals(hooks.command('get').description('Show one webhook (without its secret)').argument('<id>', 'wh_… id'), { wait: false })
    .addHelpText('after', '\nExample:\n  stays webhooks get wh_01J8ZK4R2ABCDEF0123456789A --json')
    .action(async (id: string, opts: GlobalOpts) => {
      const [{ execute }, { getHook }] = await Promise.all([import('./_lib/runtime/run.js'), import('./webhooks-run.js')]);
      await execute(opts, (ctx) => getHook(ctx, id));
    });

  withGlobals(hooks.command('delete').description('Delete (revoke) a webhook: deliveries stop at once; the record stays, active no').argument('<id>', 'wh_… id'), { wait: false })
    .addHelpText('after', '\nA webhook already deleted is left as it is: the command says so and exits 0. An unknown id exits 3.\n\nExample:\n  stays webhooks delete wh_01J8ZK4R2ABCDEF0123456789A')
    .action(async (id: string, opts: GlobalOpts) => {
      const [{ execute }, { deleteHook }] = await Promise.all([import('./_lib/runtime/run.js'), import('./webhooks-run.js')]);
      await execute(opts, (ctx) => deleteHook(ctx, id));
    });

  withGlobals(hooks.command('deliveries').description("A webhook's most recent 200 delivery attempts, newest first").argument('<id>', 'wh_… id'), { wait: false })
    .addHelpText(
      'after',
      `\nExample:\n  stays webhooks deliveries wh_01J8ZK4R2ABCDEF0123456789A -o csv\n${columnListHelp(['attempted_at', 'event', 'event_id', 'attempt', 'status_code', 'delivered', 'response_preview'])}`,
    )
    .action(async (id: string, opts: GlobalOpts) => {
      const [{ execute }, { listDeliveries }] = await Promise.all([import('./_lib/runtime/run.js'), import('./webhooks-run.js')]);
      await execute(opts, (ctx) => listDeliveries(ctx, id));
    });

  withGlobals(
    hooks
      .command('resend')
      .description('Queue one delivery again: 3 fresh attempts, the same event id and body')
      .argument('<eventId>', 'the evt_… event_id of the delivery (stays webhooks deliveries ID lists them)')
      .option('--webhook <id>', "the wh_… webhook it belongs to (default: found in your webhooks' attempt logs)"),
    { wait: false },
  )
    .addHelpText(
      'after',
      `
A delivery still queued is left as it is. Unknown (or older than 30 days): exit 3.

Example:
  stays webhooks resend evt_01J8ZK4R2ABCDEF0123456789A`,
    )
    .action(async (eventId: string, opts: GlobalOpts & { webhook?: string }) => {
      const [{ execute }, { resendHook }] = await Promise.all([import('./_lib/runtime/run.js'), import('./webhooks-run.js')]);
      await execute(opts, (ctx) => resendHook(ctx, eventId, opts.webhook));
    });

  withGlobals(
    hooks
      .command('trigger')
      .description('Make a test event happen, free (sandbox keys): a sandbox job and its events, for testing a receiver')
      .argument('<event>', 'job.succeeded (job.queued, job.running, job.succeeded), job.failed (job.queued, job.running, job.failed) or stay.cached'),
    { wait: false },
  )
    .addHelpText(
      'after',
      `
As stripe trigger does: the job is a real sandbox job (pollable with stays jobs get, nothing
charged) and its events go, in order, to your active sandbox webhooks subscribed to them, among
them a running stays webhooks listen. Needs a sandbox (stay_test_) key; in-process the local key
is one, and the command delivers the events before it exits. A live key: exit 4
(sandbox_key_required).

Examples:
  stays webhooks trigger job.succeeded
  stays webhooks trigger job.failed --json --jq .data.job_id`,
    )
    .action(async (event: string, opts: GlobalOpts) => {
      const [{ execute }, { triggerHook }] = await Promise.all([import('./_lib/runtime/run.js'), import('./webhooks-run.js')]);
      await execute(opts, (ctx) => triggerHook(ctx, event));
    });

  hooks
    .command('verify')
    .description("Check a delivery's signature: the raw body on stdin, the x-service-signature header, the secret in a file")
    .requiredOption('--secret-file <file>', 'file holding the signing secret (whsec_…)')
    .requiredOption('--header <value>', 'the x-service-signature header as received: t=<unix>,v1=<hex>')
    .option('--tolerance <seconds>', 'how old (or how far ahead) the signature may be, in seconds (default 300)')
    .addHelpText(
      'after',
      `
Exit 0 when the body was signed with the secret within the tolerance; otherwise exit 1 with the
reason (malformed header, stale, from the future, or mismatch). Pass the body exactly as received.

Example:
  stays webhooks verify --secret-file secret.txt --header "t=1767225600,v1=5d41…" < body.json`,
    )
    .action(async (opts: { secretFile: string; header: string; tolerance?: string }) => {
      const { verifyCmd } = await import('./webhooks-run.js');
      await verifyCmd(opts);
    });

  withGlobals(
    hooks
      .command('listen')
      .description('Receive deliveries locally: registers a webhook pointing here, verifies and prints each event, deletes it on exit')
      .option('--port <port>', 'port on 127.0.0.1 (default: any free port)')
      .option('--forward-to <url>', 'also POST each verified delivery (raw body and its headers) to this URL')
      .option('--events <list>', `comma list of events (default all: ${EVENTS})`),
    { wait: false },
  )
    .addHelpText(
      'after',
      `
On a terminal each event is one line (time, event, event id, subject); piped, or with --json, one
JSON line per event (the delivery body). The signing secret of the temporary webhook is printed on
stderr for --forward-to receivers that verify. Ctrl-C (exit 130) or SIGTERM (exit 0) deletes the
webhook first. Against a remote server (--base-url), the server must be able to reach 127.0.0.1
of this machine.

Examples:
  stays webhooks listen
  stays webhooks listen --events job.succeeded,job.failed --forward-to http://localhost:3000/hooks
  stays webhooks listen --json | jq -c '{event, job: .data.job_id}'   # then: stays webhooks trigger job.succeeded`,
    )
    .action(async (opts: GlobalOpts & { port?: string; forwardTo?: string; events?: string }) => {
      const { listen } = await import('./webhooks-listen.js');
      await listen(opts);
    });
}
