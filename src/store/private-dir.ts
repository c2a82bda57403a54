// The data directory holds key hashes, the ledger, every job's result and the key that seals
// webhook secrets: it is private to its user. A new one is made 0700; one that already exists
// and is open to others (issue 21: 0755 stayed 0755) is tightened when it is ours and holds only
// our files, else left as is with a warning on stderr saying how to fix it, as ssh does for its keys
// (chmod-ing a home or project directory someone pointed --data-dir at would be a surprise).
import { chmodSync, mkdirSync, readdirSync, statSync } from 'node:fs';

/** What a data directory of ours may hold: the SQLite file and its companions, the secret key, the provisioning lock. */
const OUR_FILES = /^(stays\.db(-wal|-shm|-journal)?|secret\.key|\.provisioning\.lock)$/;

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/** Creates `dir` 0700, or makes an existing one private (see above); `warn` gets a sentence when it cannot. */
export function makePrivateDir(dir: string, warn: (message: string) => void = (m) => process.stderr.write(`stays: ${m}\n`)): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  const st = statSync(dir);
  if ((st.mode & 0o077) === 0) return;
  const why = 'it holds key hashes, the ledger and job results';
  const fix = `chmod 700 '${dir}'`;
  if (process.getuid?.() !== st.uid) {
    warn(`the data directory ${dir} is open to other users (mode ${octal(st.mode)}) and belongs to another user; ${why}: ${fix}`);
    return;
  }
  const others = readdirSync(dir).filter((n) => !OUR_FILES.test(n));
  if (others.length > 0) {
    warn(
      `the data directory ${dir} is open to other users (mode ${octal(st.mode)}) and holds other files (${others.slice(0, 3).join(', ')}${others.length > 3 ? ', …' : ''}), so it was left as is; ${why}: ${fix}, or give stays a directory of its own (--data-dir)`,
    );
    return;
  }
  try {
    chmodSync(dir, 0o700);
  } catch (e) {
    warn(`the data directory ${dir} is open to other users (mode ${octal(st.mode)}) and could not be made private (${(e as NodeJS.ErrnoException).code ?? String(e)}); ${why}: ${fix}`);
  }
}
