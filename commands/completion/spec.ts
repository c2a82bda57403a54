// The command tree as `stays completion` needs it: per command path, its subcommands, its flags
// (which take a value, and the values: commander choices, enums of the API's parameter schemas,
// the CLI's constants) and the values of its positional arguments.
import type { Command, Option } from 'commander';
import { SHELLS } from './shells.js';

export interface Flag {
  names: string[];
  help: string;
  /** Takes a value: always, or only when the next word is not a flag (`--json [fields]`). */
  takes: 'no' | 'yes' | 'optional';
  values: readonly string[];
  /** A comma-separated list of values (--platforms airbnb,booking). */
  list: boolean;
  files: '' | 'dir' | 'file';
}
interface Arg {
  values: readonly string[];
  variadic: boolean;
}
export interface Node {
  /** '' for stays itself, else e.g. 'search' or 'jobs get'. */
  path: string;
  subs: { name: string; help: string }[];
  flags: Flag[];
  args: Arg[];
}
interface Values {
  /** By 'path --flag' first, then '--flag'. */
  flags: Record<string, { values: readonly string[]; list?: boolean }>;
  /** By 'path <arg>' first, then '<arg>'. */
  args: Record<string, readonly string[]>;
}

type ZodLike = { _zod?: { def: Record<string, unknown> } };

/** An API parameter's allowed values, through zod's wrappers (optional, default, preprocess, list). */
function enumOf(schema: unknown): { values: readonly string[]; list: boolean } | null {
  const def = (schema as ZodLike)?._zod?.def;
  if (!def) return null;
  if (def.type === 'enum') return { values: Object.values(def.entries as Record<string, string>), list: false };
  if (def.type === 'array') {
    const inner = enumOf(def.element);
    return inner && { values: inner.values, list: true };
  }
  return enumOf(def.out ?? def.innerType);
}

/** Where the values come from: the API's parameter schemas and the CLI's own constants. */
async function valueSources(): Promise<Values> {
  const [params, { JobsListParams }, { ENABLED_PLATFORMS, REVIEW_PLATFORMS }, { PLAN_CODES, PLAN_STATUSES }, { CONFIG_KEYS }, { COMMAND_FIELDS }, { WebhookSchema }, { STAY_FIELD_PATHS }] =
    await Promise.all([
      import('../../src/core/schemas/params.js'),
      import('../../src/core/schemas/jobs.js'),
      import('../../src/core/platforms.js'),
      import('../../src/core/schemas/resources.js'),
      import('../_lib/config/profiles.js'),
      import('../_lib/output/select.js'),
      import('../../src/core/schemas/webhooks.js'),
      import('../../src/core/stays/fields.js'),
    ]);
  // The events a webhook may subscribe to, as the API's schema lists them.
  const WEBHOOK_EVENTS = WebhookSchema.shape.events.element.options;
  const byCommand = {
    search: [params.SearchParams],
    reviews: [params.ReviewsParams],
    price: [params.PriceParams],
    compare: [params.PriceCompareParams],
    availability: [params.AvailabilityParams],
    listing: [params.ListingPathParams, params.ListingParams],
    'jobs list': [JobsListParams],
  };
  const enabled = (vs: readonly string[]) => (vs.includes('airbnb') ? vs.filter((v) => (ENABLED_PLATFORMS as readonly string[]).includes(v)) : vs);
  const v: Values = {
    flags: {
      'admin account create --plan': { values: PLAN_CODES },
      'admin account create --status': { values: PLAN_STATUSES },
      'admin key create --env': { values: ['live', 'sandbox'] },
      'webhooks create --events': { values: WEBHOOK_EVENTS, list: true },
      'webhooks listen --events': { values: WEBHOOK_EVENTS, list: true },
      // Family S projections (search --family s, listings PRESET): the Stay's dotted paths.
      '--fields': { values: [...STAY_FIELD_PATHS], list: true },
    },
    args: { '<platform>': ENABLED_PLATFORMS, 'reviews <platform>': REVIEW_PLATFORMS, '<key>': Object.keys(CONFIG_KEYS), '<shell>': SHELLS },
  };
  for (const [command, schemas] of Object.entries(byCommand)) {
    for (const schema of schemas) {
      for (const [name, field] of Object.entries(schema.shape)) {
        const e = enumOf(field);
        if (e) v.flags[`${command} --${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`] = { values: enabled(e.values), list: e.list };
      }
    }
  }
  for (const [command, { fields }] of Object.entries(COMMAND_FIELDS)) v.flags[`${command} --json`] = { values: fields, list: true };
  return v;
}

function flagOf(o: Option, path: string, v: Values): Flag {
  const names = [o.short, o.long].filter((n): n is string => Boolean(n));
  const found = v.flags[`${path} ${o.long}`] ?? v.flags[o.long ?? ''];
  const placeholder = /<(\w+)>/.exec(o.flags)?.[1] ?? '';
  return {
    names,
    help: o.description,
    takes: o.required ? 'yes' : o.optional ? 'optional' : 'no',
    values: o.argChoices ?? found?.values ?? [],
    list: found?.list ?? false,
    files: placeholder === 'dir' ? 'dir' : placeholder === 'file' ? 'file' : '',
  };
}

/** The topics of `stays help` that are not commands, as its description names them ("…, or a topic: exit-codes, sandbox"). */
function helpTopics(help: Command): string[] {
  const named = /topics?: ([a-z, -]+)/.exec(help.description())?.[1] ?? '';
  return [
    ...new Set([
      'exit-codes',
      ...named
        .split(/,\s*|\s+or\s+/)
        .map((t) => t.trim())
        .filter(Boolean),
    ]),
  ];
}

/** Every command of the tree, depth first. */
export async function specOf(root: Command): Promise<Node[]> {
  const v = await valueSources();
  const nodes: Node[] = [];
  const help: Flag = { names: ['-h', '--help'], help: 'display help for command', takes: 'no', values: [], list: false, files: '' };
  const walk = (cmd: Command, path: string) => {
    const visible = cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
    nodes.push({
      path,
      subs: visible.map((c) => ({ name: c.name(), help: c.description() })),
      flags: [...cmd.options.filter((o) => !o.hidden).map((o) => flagOf(o, path, v)), help],
      args: cmd.registeredArguments.map((a) => ({
        values: a.argChoices ?? v.args[`${path} <${a.name()}>`] ?? v.args[`<${a.name()}>`] ?? (path === 'help' ? [...root.commands.map((c) => c.name()), ...helpTopics(cmd)] : []),
        // `stays help jobs wait`: the topics are the first word only.
        variadic: a.variadic && path !== 'help',
      })),
    });
    for (const c of visible) walk(c, path ? `${path} ${c.name()}` : c.name());
  };
  walk(root, '');
  return nodes;
}
