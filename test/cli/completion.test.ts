// `stays completion bash|zsh|fish`: each script is loaded into its real shell and asked what it
// completes. zsh (through a pseudo-terminal, compinit and all) and fish run only where installed.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FORMATS } from '../../commands/_lib/output/print.js';
import { PROPERTY_FIELDS } from '../../commands/_lib/output/select.js';
import { ENABLED_PLATFORMS, REVIEW_PLATFORMS } from '../../src/core/platforms.js';
import { REVIEW_SORTS, SEARCH_SORTS } from '../../src/core/schemas/params.js';
import { AMENITIES, PROPERTY_TYPES } from '../../src/core/schemas/resources.js';
import { tempDir } from '../helpers/stays.js';
import { type Sandbox, freshSandbox, stays } from './helpers.js';

const has = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
const HAS_ZSH = has('zsh');
const HAS_FISH = has('fish');

let box: Sandbox;
const dir = tempDir('stays-completion-');
const scripts: Record<string, string> = {};
beforeAll(async () => {
  box = freshSandbox();
  for (const shell of ['bash', 'zsh', 'fish']) {
    const r = await stays(['completion', shell], box.env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    scripts[shell] = join(dir, shell === 'zsh' ? 'zfunc/_stays' : `stays.${shell}`);
    mkdirSync(join(dir, 'zfunc'), { recursive: true });
    writeFileSync(scripts[shell]!, r.stdout);
  }
});

/** What bash completes for the words (the last one being completed), sorted. */
function bash(...words: string[]): string[] {
  const line = words.map((w) => `'${w}'`).join(' ');
  const out = execFileSync('bash', ['-c', `source "$0"; COMP_WORDS=(${line}); COMP_CWORD=${words.length - 1}; _stays; printf '%s\\n' "\${COMPREPLY[@]}"`, scripts.bash!], { encoding: 'utf8' });
  return out.split('\n').filter(Boolean).sort();
}

/** What fish completes for a command line (`complete -C`), values only. */
function fish(line: string): string[] {
  const out = execFileSync('fish', ['-c', 'source $argv[1]; complete -C $argv[2]', scripts.fish!, line], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t')[0]!)
    .sort();
}

// zsh completes only in an interactive shell: run one in a pseudo-terminal (zsh's zpty), load
// _stays from fpath through compinit (or source it after compinit, as the install line does),
// press Tab, and record every candidate handed to compadd.
const ZSH_DRIVER = `
zmodload zsh/zpty
zpty z zsh -f -i
if [[ $3 == source ]]; then
  zpty -w z "PROMPT='> '; autoload -U compinit; compinit -u -D; stays() { : }; source \${(q)1}/_stays"
else
  zpty -w z "PROMPT='> '; fpath=(\${(q)1} \\$fpath); autoload -U compinit; compinit -u -D; stays() { : }"
fi
zpty -w z 'compadd () { local -a __a; builtin compadd -O __a "$@"; print -r -- "CA""ND: \${__a[*]}"; builtin compadd "$@" }'
zpty -n -w z "$2"$'\\t'
# Read until the candidates have come and the shell has been quiet for half a second, however
# slowly it gets to them (a fixed one-second pause missed them on a busy machine).
local out='' chunk
integer deadline=$(( SECONDS + 12 )) quiet=0
while (( SECONDS < deadline )); do
  if zpty -r -t z chunk; then
    out+=$chunk; quiet=0
  else
    [[ $out == *CAND:* ]] && (( ++quiet >= 10 )) && break
    sleep 0.05
  fi
done
zpty -d z
print -r -- "$out"
`;
function zsh(line: string, load: 'fpath' | 'source' = 'fpath'): string[] {
  const out = execFileSync('zsh', ['-f', '-c', ZSH_DRIVER, 'zsh', join(dir, 'zfunc'), line, load], { encoding: 'utf8', timeout: 15_000 });
  // eslint-disable-next-line no-control-regex
  const found = [...out.replace(/\r|\x1b\[[0-9;?]*[a-zA-Z]/g, '').matchAll(/CAND: ([^\n]*)/g)].flatMap((m) => m[1]!.trim().split(/\s+/));
  return [...new Set(found.filter(Boolean))].sort();
}

const sorted = (xs: readonly string[]) => [...xs].sort();

describe('stays completion bash', () => {
  it('completes every command and subcommand stays --help lists, and every flag of a command', async () => {
    const help = (await stays(['--help'], box.env)).stdout;
    const commands = [
      ...help
        .split('Commands:')[1]!
        .split('\n\n')[0]!
        .matchAll(/^ {2}([a-z]+)\b/gm),
    ].map((m) => m[1]!);
    expect(commands).toContain('completion');
    expect(bash('stays', '')).toEqual(sorted(commands));
    expect(bash('stays', 'se')).toEqual(['search', 'serve']);
    expect(bash('stays', 'jobs', '')).toEqual(expect.arrayContaining(['get', 'wait']));
    const searchHelp = (await stays(['search', '--help'], box.env)).stdout;
    const flags = [...searchHelp.matchAll(/^ {2}(?:(-\w), )?(--[\w-]+)/gm)].flatMap((m) => [m[1], m[2]].filter((f): f is string => Boolean(f)));
    expect(flags.length).toBeGreaterThan(20);
    expect(bash('stays', 'search', 'Lisbon', '-')).toEqual(sorted(flags));
    // stays help: every command, and the topics its own description names.
    const topics = (/help \[topic\.\.\.\] .*topics?: ([a-z, -]+)/.exec(help)?.[1] ?? '').split(/,\s*/).filter(Boolean);
    expect(topics).toContain('exit-codes');
    expect(bash('stays', 'help', '')).toEqual(sorted([...commands, ...topics]));
  });

  it('completes enum values from the constants the API validates with', () => {
    expect(bash('stays', 'search', '--platforms', '')).toEqual(sorted(ENABLED_PLATFORMS));
    expect(bash('stays', 'search', '--platform', '')).toEqual(sorted(ENABLED_PLATFORMS));
    expect(bash('stays', 'search', 'Lisbon', '--sort', '')).toEqual(sorted(SEARCH_SORTS));
    expect(bash('stays', 'reviews', '--sort', '')).toEqual(sorted(REVIEW_SORTS));
    expect(bash('stays', 'search', '--property-type', '')).toEqual(sorted(PROPERTY_TYPES));
    expect(bash('stays', 'search', '--amenities', '')).toEqual(sorted(AMENITIES));
    expect(bash('stays', 'account', '-o', '')).toEqual(sorted(FORMATS));
    expect(bash('stays', 'search', '--json', '')).toEqual(sorted(PROPERTY_FIELDS));
    expect(bash('stays', 'price', '')).toEqual(sorted(ENABLED_PLATFORMS));
    expect(bash('stays', 'reviews', '')).toEqual(sorted(REVIEW_PLATFORMS));
    expect(bash('stays', 'completion', '')).toEqual(['bash', 'fish', 'zsh']);
    expect(bash('stays', 'config', 'set', '')).toEqual(expect.arrayContaining(['api-key', 'base-url']));
  });

  it('completes the item after the last comma of a list, --flag=value, and skips flag values when finding the command', () => {
    expect(bash('stays', 'search', '--platforms', 'airbnb,bo')).toEqual(['airbnb,booking']);
    expect(bash('stays', 'search', '--json', 'name,pl')).toEqual(['name,platform', 'name,platformListingId']);
    expect(bash('stays', 'search', '--sort=price_a')).toEqual(['--sort=price_asc']);
    // COMP_WORDBREAKS splits --sort=value into three words in a real shell.
    expect(bash('stays', 'search', '--sort', '=', 'price_a')).toEqual(['price_asc']);
    expect(bash('stays', 'search', '--limit', '5', '--so')).toEqual(['--sort']);
    expect(bash('stays', 'search', '--data-dir', dir.slice(0, -3))).toContain(dir);
  });

  it('refuses an unknown shell with a usage error, and its help says how to install', async () => {
    const r = await stays(['completion', 'powershell'], box.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/'powershell' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish/);
    const h = await stays(['completion', '--help'], box.env);
    expect(h.stdout).toContain("echo 'source <(stays completion bash)' >> ~/.bashrc");
    expect(h.stdout).toContain('stays completion fish > ~/.config/fish/completions/stays.fish');
    expect(h.stdout).toContain("echo 'source <(stays completion zsh)' >> ~/.zshrc");
  });
});

describe.skipIf(!HAS_ZSH)(`stays completion zsh${HAS_ZSH ? '' : ' (skipped: zsh is not installed)'}`, () => {
  it('parses, and completes commands, flags and values in a real interactive zsh', () => {
    execFileSync('zsh', ['-n', join(dir, 'zfunc/_stays')]);
    expect(zsh('stays se')).toEqual(['search', 'serve']);
    expect(zsh('stays search --pl')).toEqual(['--platform', '--platforms']);
    expect(zsh('stays search --sort ')).toEqual(sorted(SEARCH_SORTS));
    expect(zsh('stays search --platforms airbnb,bo')).toEqual(['booking']);
    expect(zsh('stays reviews ')).toEqual(sorted(REVIEW_PLATFORMS));
    expect(zsh('stays search --sort ', 'source')).toEqual(sorted(SEARCH_SORTS));
  });
});

describe.skipIf(!HAS_FISH)(`stays completion fish${HAS_FISH ? '' : ' (skipped: fish is not installed)'}`, () => {
  it('parses, and completes commands, flags and values in fish (complete -C)', () => {
    execFileSync('fish', ['-n', scripts.fish!]);
    expect(fish('stays se')).toEqual(['search', 'serve']);
    expect(fish('stays search --pl')).toEqual(['--platform', '--platforms']);
    expect(fish('stays search Lisbon --sort ')).toEqual(sorted(SEARCH_SORTS));
    expect(fish('stays search --platforms airbnb,bo')).toEqual(['airbnb,booking']);
    expect(fish('stays price booking ')).toEqual([]);
    expect(fish('stays jobs ')).toEqual(expect.arrayContaining(['get', 'wait']));
  });
});
