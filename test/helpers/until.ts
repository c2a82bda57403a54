// Waiting on a child process's output (the CLI's `webhooks listen` tests): polls until a pattern
// shows, within a bound; the bound is a test's documented wait, never a race.

/** Resolves once `re` matches `text()`, or fails after `ms` with the output's tail. */
export async function untilOutput(text: () => string, re: RegExp, ms = 15_000): Promise<RegExpExecArray> {
  const end = Date.now() + ms;
  for (;;) {
    const m = re.exec(text());
    if (m) return m;
    if (Date.now() > end) throw new Error(`timed out waiting for ${re}: ${text().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
