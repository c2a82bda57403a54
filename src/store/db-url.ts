// A database URL as it may be shown: in messages, `stays auth status`, `--debug` and logs.

/** The URL without its password (nor libpq's secret query parameters), for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    // libpq also takes secrets as query parameters.
    for (const k of [...u.searchParams.keys()]) if (/pass|secret|key/i.test(k)) u.searchParams.set(k, '***');
    return u.toString();
  } catch {
    return 'the database URL';
  }
}
