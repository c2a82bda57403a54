// The error and warning reference pages (/docs/errors, /docs/warnings and one page per code),
// rendered from the catalogue (errors.ts), its texts (error-docs.ts) and the sandbox's trigger
// table, so they cannot drift from what the service answers.
import { type CodeDoc, ALL_WARNING_CODES, WARNING_DOCS, errorEntry, isWarningCode, suggestCodes, warningDoc } from '../../core/error-docs.js';
import { ALL_ERROR_CODES, type ErrorCode, isErrorCode } from '../../core/errors.js';
import { sandboxTriggers } from '../../core/sandbox-triggers.js';
import { type Html, html, page } from './html.js';

const yesNo = (b: boolean) => (b ? html`<span class="yes">yes</span>` : html`<span class="no">no</span>`);

function docSections(d: CodeDoc): Html {
  return html`<h2>What causes it</h2><p>${d.cause}</p>
<h2>How to fix it</h2><p>${d.fix}</p>
${d.reproduce ? html`<h2>Reproduce it</h2><pre><code>${d.reproduce}</code></pre>` : ''}`;
}

function triggersOf(code: ErrorCode): Html {
  const rows = sandboxTriggers().filter((t) => t.code === code);
  if (rows.length === 0) return html``;
  return html`<h2>Sandbox triggers</h2>
<p>With a <code>stay_test_</code> key these inputs give this code (see <code>stays help sandbox</code>):</p>
<table><thead><tr><th>parameter</th><th>value</th><th>on</th><th>answer</th></tr></thead><tbody>
${rows.map((t) => html`<tr><td><code>${t.input}</code></td><td><code>${t.value}</code></td><td>${t.operations}</td><td>${t.status}: ${t.effect}</td></tr>`)}
</tbody></table>`;
}

export function errorPage(root: string, code: ErrorCode): string {
  const e = errorEntry(code);
  return page(
    root,
    `Error ${code}`,
    html`<h1>Error <code>${code}</code></h1>
<dl class="facts">
<dt>type</dt><dd><code>${e.type}</code></dd>
<dt>HTTP status</dt><dd>${e.status}</dd>
<dt>retryable</dt><dd>${yesNo(e.retryable)}</dd>
<dt>default message</dt><dd>${e.message}</dd>
</dl>
${docSections(e)}
${triggersOf(code)}
<h2>The answer</h2>
<pre><code>${JSON.stringify({ error: { type: e.type, code, message: e.message, param: null, requestId: 'req_…', creditsCharged: 0, retryable: e.retryable, docUrl: '…' } }, null, 2)}</code></pre>
<p>Family S routes (<code>/v1/stays</code>, <code>/v1/listings</code>, <code>/v1/webhooks</code>) add <code>request_id</code> beside <code>error</code>.</p>`,
  );
}

export function errorsIndex(root: string): string {
  return page(
    root,
    'Error codes',
    html`<h1>Error codes</h1>
<p>Every error answer carries <code>error.code</code>, <code>error.type</code>, the HTTP status, <code>error.retryable</code> and a <code>docUrl</code> to its page here. The set grows additively: handle unknown codes by their type.</p>
<table><thead><tr><th>code</th><th>type</th><th>HTTP</th><th>retryable</th><th>meaning</th></tr></thead><tbody>
${ALL_ERROR_CODES.map((c) => {
  const e = errorEntry(c);
  return html`<tr><td><a href="${root}/errors/${c}"><code>${c}</code></a></td><td>${e.type}</td><td>${e.status}</td><td>${yesNo(e.retryable)}</td><td>${e.message}</td></tr>`;
})}
</tbody></table>`,
  );
}

export function warningPage(root: string, code: string): string | null {
  const d = warningDoc(code);
  if (!d) return null;
  const own = isWarningCode(code);
  return page(
    root,
    `Warning ${code}`,
    html`<h1>Warning <code>${code}</code></h1>
<p>The call succeeded (HTTP 200) and its <code>meta.warnings</code> carries this code${own ? '' : html`, the code of an <a href="${root}/errors/${code}">error</a> one part of the call failed with`}.</p>
${docSections(d)}`,
  );
}

export function warningsIndex(root: string): string {
  return page(
    root,
    'Warning codes',
    html`<h1>Warning codes</h1>
<p>A successful answer may carry <code>meta.warnings[]</code>: <code>{ code, message, docUrl }</code>. Besides the codes below, a warning may carry an <a href="${root}/errors">error code</a>: one platform, listing or entry of a multi-part call failed with it and the call answered with the rest.</p>
<table><thead><tr><th>code</th><th>meaning</th></tr></thead><tbody>
${ALL_WARNING_CODES.map((c) => html`<tr><td><a href="${root}/warnings/${c}"><code>${c}</code></a></td><td>${(WARNING_DOCS[c] as CodeDoc).cause}</td></tr>`)}
</tbody></table>`,
  );
}

export function unknownCodePage(root: string, kind: 'errors' | 'warnings', code: string): string {
  const known = kind === 'errors' ? ALL_ERROR_CODES : [...ALL_WARNING_CODES, ...ALL_ERROR_CODES];
  const near = suggestCodes(code, known);
  const what = kind === 'errors' ? 'error' : 'warning';
  return page(
    root,
    `Unknown ${what} code`,
    html`<h1>No ${what} code <code>${code.slice(0, 100)}</code></h1>
<p>This server does not answer with that code.${near.length ? html` Did you mean ${near.map((c, i) => html`${i ? ', ' : ''}<a href="${root}/${kind}/${c}"><code>${c}</code></a>`)}?` : ''}</p>
<p>See <a href="${root}/${kind}">the list of ${what} codes</a>.</p>`,
  );
}

export { isErrorCode };
