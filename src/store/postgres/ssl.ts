// libpq's sslmode values, as libpq users expect them, on the pg driver. The driver reads sslmode
// its own way (prefer, require and verify-ca all verify the certificate like verify-full, with a
// nine-line SECURITY WARNING on stderr) unless told to follow libpq (uselibpqcompat=true):
//   disable      no TLS
//   allow        no TLS (libpq tries plaintext first; see the limits in docs/deploy.md)
//   prefer       TLS, certificate not verified (no plaintext fallback, unlike libpq)
//   require      TLS, certificate not verified; with sslrootcert, verified as verify-ca
//   verify-ca    TLS, certificate chain verified against sslrootcert (required), host name not
//   verify-full  TLS, certificate and host name verified (system CAs, or sslrootcert)
// No sslmode: no TLS, as the driver has always done here.

/** The URL to hand the pg driver for a libpq-style connection URL: same meaning, no warning. */
export function libpqCompatUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  const mode = u.searchParams.get('sslmode');
  // The driver's own no-verify (and an explicit uselibpqcompat) are left as given.
  if (mode === null || mode === 'no-verify' || u.searchParams.has('uselibpqcompat')) return url;
  if (mode === 'allow') u.searchParams.set('sslmode', 'disable');
  u.searchParams.set('uselibpqcompat', 'true');
  return u.toString();
}
