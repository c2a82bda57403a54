// The consent page: one small HTML form, no script, no external asset, light or dark as the
// user's system prefers. The user pastes an API key of their account; the application then acts
// for that key's account and environment with the stays.read scope.
import type { AuthRequest } from './authorize.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `
:root{color-scheme:light dark;--bg:#f6f7f9;--fg:#1b1f24;--muted:#5b6470;--card:#fff;--line:#d5d9e0;--accent:#0b5cd5;--err:#b42318}
@media (prefers-color-scheme:dark){:root{--bg:#0f1216;--fg:#e6e9ee;--muted:#9aa4b2;--card:#171b21;--line:#2c333d;--accent:#5b9cff;--err:#ff8a7a}}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;background:var(--bg);color:var(--fg);display:flex;min-height:100vh;align-items:center;justify-content:center;padding:1rem}
main{background:var(--card);border:1px solid var(--line);border-radius:12px;max-width:30rem;width:100%;padding:1.75rem}
h1{font-size:1.25rem;margin:0 0 .75rem}p,li{color:var(--muted)}ul{padding-left:1.2rem}code{font-size:.9em}
label{display:block;font-weight:600;margin:1rem 0 .35rem}input[type=password]{width:100%;padding:.6rem .7rem;border:1px solid var(--line);border-radius:8px;background:var(--bg);color:var(--fg);font:inherit}
.row{display:flex;gap:.75rem;margin-top:1.25rem}button{flex:1;padding:.65rem;border-radius:8px;border:1px solid var(--line);font:inherit;font-weight:600;cursor:pointer;background:var(--card);color:var(--fg)}
button.primary{background:var(--accent);border-color:var(--accent);color:#fff}.error{color:var(--err);font-weight:600}`;

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer"><title>${esc(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

export function consentPage(r: AuthRequest, csrf: string, error: string | null, action: string): string {
  const name = r.client.name ?? 'An application';
  const host = new URL(r.redirectUri).host;
  const hidden = {
    response_type: 'code',
    client_id: r.client.id,
    redirect_uri: r.redirectUri,
    code_challenge: r.challenge,
    code_challenge_method: 'S256',
    scope: r.scope,
    ...(r.state !== null ? { state: r.state } : {}),
    csrf,
  };
  const fields = Object.entries(hidden)
    .map(([k, v]) => `<input type="hidden" name="${k}" value="${esc(v)}">`)
    .join('');
  return layout(
    'Connect to stays',
    `<h1>${esc(name)} wants to use stays for you</h1>
<p>It will be able to:</p><ul><li>search stays and read listings, prices, availability and reviews (<code>${esc(r.scope)}</code>, read-only)</li><li>spend the credits of the account of the key below on live calls (sandbox keys are free)</li></ul>
<p>You will be sent back to <strong>${esc(host)}</strong>.</p>
${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}
<form method="post" action="${esc(action)}">${fields}
<label for="api_key">API key of your account</label>
<input type="password" id="api_key" name="api_key" autocomplete="off" spellcheck="false" placeholder="stay_test_… or stay_live_…">
<p>The key itself is not given to the application: it gets a token acting for the key's account and environment, which you can end by revoking the key.</p>
<div class="row"><button type="submit" name="decision" value="deny">Cancel</button><button class="primary" type="submit" name="decision" value="allow">Allow</button></div>
</form>`,
  );
}

export function errorPage(message: string): string {
  return layout('Cannot connect to stays', `<h1>This request cannot be completed</h1><p class="error">${esc(message)}</p><p>Go back to the application and start again.</p>`);
}
