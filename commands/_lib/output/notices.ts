// What the data alone does not say, on stderr in every format but the bare `--json` envelope
// (which carries it in meta): a platform that failed (the results are partial), a platform that
// was skipped, a warning (a filter ignored, simulated data…). One line each, after the data.
// `--fail-on-partial` then turns a failed leg into exit 7.
import { EXIT, io } from '../runtime/io.js';
import { type Term, chalkAt } from '../runtime/term.js';

export interface NoticeMeta {
  partial?: boolean;
  platformResults?: { platform: string; status: string; error?: { code?: string; message?: string } | null }[];
  warnings?: { code: string; message: string }[];
  /** Family S: instant-book's "experimental". */
  warning?: string;
  /** Family S batches: entries asked for, and those the upstream could not resolve. */
  requested?: number;
  missing?: number;
}

/** Notices gathered over one result or every page of an --all walk, each said once. */
export class Notices {
  /** A failed platform and its legs' codes (a direct comparison can fail two listings of one platform). */
  private readonly failed = new Map<string, Set<string>>();
  private readonly skipped = new Map<string, string>();
  private readonly warnings = new Map<string, string>();
  private missing = 0;
  private requested = 0;

  add(meta: NoticeMeta | undefined): void {
    for (const r of meta?.platformResults ?? []) {
      if (r.status === 'failed') this.failed.set(r.platform, (this.failed.get(r.platform) ?? new Set<string>()).add(r.error?.code ?? 'error'));
      else if (r.status === 'skipped') this.skipped.set(r.platform, r.error?.code ?? 'skipped');
    }
    if (meta?.partial && this.failed.size === 0) this.failed.set('a platform', new Set(['error']));
    // The code once: a message that already names it ("… (listing_not_found).") is said as it is.
    for (const w of meta?.warnings ?? []) this.warnings.set(`${w.code}\u0000${w.message}`, w.message.includes(`(${w.code})`) ? w.message : `${w.message} (${w.code})`);
    if (typeof meta?.warning === 'string') this.warnings.set(`${meta.warning}\u0000`, `results are ${meta.warning}`);
    if (typeof meta?.missing === 'number') {
      this.missing += meta.missing;
      this.requested += meta.requested ?? 0;
    }
  }

  /** A failed leg, or batch entries that could not be resolved: what --fail-on-partial exits 7 on. */
  get partial(): boolean {
    return this.failed.size > 0 || this.missing > 0;
  }

  /** The notice lines, without a trailing newline each. */
  lines(): { kind: 'partial' | 'skipped' | 'warning' | 'missing'; text: string }[] {
    const out: { kind: 'partial' | 'skipped' | 'warning' | 'missing'; text: string }[] = [];
    const said = new Set<string>();
    // The service also warns about each failed or skipped leg ("google: …", with the leg's code):
    // that warning's words go on the leg's own line rather than on a second line about it.
    // A direct comparison's warnings name the listing too ("vrbo:404: …"): one line each, naming it.
    const details = (platform: string, codes: Set<string>): { subject: string; code: string; text: string }[] => {
      const out: { subject: string; code: string; text: string }[] = [];
      for (const k of this.warnings.keys()) {
        const [code, message] = k.split('\u0000') as [string, string];
        const m = codes.has(code) && message.startsWith(platform) ? /^([^\s:]+(?::\S+?)?): /.exec(message) : null;
        if (m && (m[1] === platform || m[1]!.startsWith(`${platform}:`))) {
          said.add(k);
          out.push({ subject: m[1]!, code, text: `: ${message.slice(m[0].length).replace(` (${code})`, '').replace(/\.$/, '')}` });
        }
      }
      return out;
    };
    // A skipped platform (D12) is said by its own warning when the service sent one.
    const warned = (platform: string) => [...this.warnings.keys()].some((k) => k.split('\u0000')[1]!.startsWith(`${platform} `));
    for (const [platform, codes] of this.failed) {
      const legs = details(platform, codes);
      for (const code of codes) if (!legs.some((l) => l.code === code)) legs.push({ subject: platform, code, text: '' });
      for (const d of legs) out.push({ kind: 'partial', text: `${d.subject} failed (${d.code})${d.text}; results are partial` });
    }
    for (const [platform, code] of this.skipped) if (!warned(platform)) out.push({ kind: 'skipped', text: `${platform} skipped (${code})` });
    for (const [k, text] of this.warnings) if (!said.has(k)) out.push({ kind: 'warning', text });
    if (this.missing > 0) out.push({ kind: 'missing', text: `${this.missing} of ${this.requested} entries could not be resolved` });
    return out;
  }

  /**
   * Prints the notices on stderr (unless `quiet`: the whole envelope is on stdout) and, with
   * --fail-on-partial and a failed leg, sets exit code 7.
   */
  async print(term: Term, o: { quiet: boolean; failOnPartial: boolean }): Promise<void> {
    if (!o.quiet) {
      const c = await chalkAt(term.errColor);
      for (const l of this.lines()) io().stderr.write(l.kind === 'missing' ? `stays: ${l.text}\n` : `${c.yellow('warning:')} ${l.text}\n`);
    }
    if (o.failOnPartial && this.partial) {
      const why = this.failed.size > 0 ? 'results are partial' : `${this.missing} of ${this.requested} entries could not be resolved`;
      if (!o.quiet) io().stderr.write(`stays: exiting ${EXIT.upstream} because ${why} (--fail-on-partial)\n`);
      io().exitCode = EXIT.upstream;
    }
  }
}
