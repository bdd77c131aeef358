// The code of `torana webhook …` (declared in commands.ts, imported when one runs).

import { CliError } from '../../cli/errors.js';
import { printJson, printRecord, printTable } from '../../cli/output.js';
import { type ClientFlags, resolveClient } from '../../cli/settings.js';

type Flags = ClientFlags & { json?: boolean };
type Row = Record<string, string | number | boolean | undefined>;

function parseFilter(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError('invalid_argument', '--filter is not JSON', 2);
  }
}

function count(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new CliError('invalid_argument', `${name} is not a whole number`, 2);
  return Number(text);
}

export async function add(
  url: string,
  flags: Flags & { secret?: string; filter?: string; inactive?: boolean },
): Promise<void> {
  const filter = parseFilter(flags.filter);
  const { client } = await resolveClient(flags, true);
  const hook = await client.createWebhook({
    url,
    ...(flags.secret === undefined ? {} : { secret: flags.secret }),
    ...(flags.inactive ? { active: false } : {}),
    ...(filter === undefined ? {} : { filter }),
  });
  if (flags.json) printJson(hook);
  else printRecord({ ...hook, filter: JSON.stringify(hook.filter) } as never);
}

export async function ls(flags: Flags & { limit?: string; offset?: string }): Promise<void> {
  const { client } = await resolveClient(flags, true);
  const limit = count('--limit', flags.limit);
  const offset = count('--offset', flags.offset);
  const page = await client.listWebhooks({
    ...(limit === undefined ? {} : { limit }),
    ...(offset === undefined ? {} : { offset }),
  });
  if (flags.json) return printJson(page);
  const rows: Row[] = page.items.map((h) => ({
    id: h.id,
    url: h.url,
    active: h.active,
    pending: h.pending,
    dead: h.dead_letters,
    last_error: h.last_error,
  }));
  printTable(rows as never, ['id', 'url', 'active', 'pending', 'dead', 'last_error']);
}

export async function get(id: string, flags: Flags): Promise<void> {
  const { client } = await resolveClient(flags, true);
  const hook = await client.getWebhook(id);
  if (flags.json) printJson(hook);
  else printRecord({ ...hook, filter: JSON.stringify(hook.filter) } as never);
}

/** Polls the test delivery until it leaves the queue (`--wait`), bounded by `TEST_WAIT_MS`. */
const TEST_WAIT_MS = 60_000;
const TEST_POLL_MS = 250;

export async function test(id: string, flags: Flags & { wait?: boolean }): Promise<void> {
  const { client } = await resolveClient(flags, true);
  let d = await client.testWebhook(id);
  const until = Date.now() + TEST_WAIT_MS;
  while (flags.wait && d.state === 'pending' && Date.now() < until) {
    await new Promise((r) => setTimeout(r, TEST_POLL_MS));
    const all = [
      ...(await client.webhookDeliveries(id)).items,
      ...(await client.webhookDeadLetters(id)).items,
    ];
    d = all.find((x) => x.delivery_id === d.delivery_id) ?? d;
  }
  if (flags.json) printJson(d);
  else printRecord(d as never);
  if (flags.wait && d.state !== 'delivered')
    throw new CliError(
      'webhook_test_failed',
      `test delivery ${d.delivery_id} is ${d.state}: ${d.last_error ?? ''}`,
      1,
    );
}

export async function rotateSecret(
  id: string,
  flags: Flags & { secret?: string; overlapMs?: string },
): Promise<void> {
  const overlap = count('--overlap-ms', flags.overlapMs);
  const { client } = await resolveClient(flags, true);
  const hook = await client.rotateWebhookSecret(id, {
    ...(flags.secret === undefined ? {} : { secret: flags.secret }),
    ...(overlap === undefined ? {} : { overlap_ms: overlap }),
  });
  if (flags.json) return printJson(hook);
  printRecord({ ...hook, filter: JSON.stringify(hook.filter) } as never);
  if (hook.secret !== undefined) process.stderr.write('the secret is shown once: keep it now\n');
}

const KINDS = ['transaction', 'block', 'data'];

export async function eventTypes(flags: Flags & { kind?: string }): Promise<void> {
  if (flags.kind !== undefined && !KINDS.includes(flags.kind))
    throw new CliError('invalid_argument', `--kind is one of ${KINDS.join(', ')}`, 2);
  const { client } = await resolveClient(flags, false);
  const all = await client.webhookEventTypes();
  const items = all.items.filter((t) => flags.kind === undefined || t.kind === flags.kind);
  if (flags.json) return printJson({ ...all, items, total: items.length });
  const rows: Row[] = items.map((t) => ({
    kind: t.kind,
    name: t.name,
    filter: JSON.stringify(t.filter),
    fields: (t.fields ?? []).join(' '),
  }));
  printTable(rows as never, ['kind', 'name', 'filter', 'fields']);
}

export async function rm(id: string, flags: Flags): Promise<void> {
  const { client } = await resolveClient(flags, true);
  await client.deleteWebhook(id);
  if (flags.json) printJson({ id, removed: true });
  else process.stdout.write(`removed ${id}\n`);
}

export async function deliveries(id: string, flags: Flags & { dead?: boolean }): Promise<void> {
  const { client } = await resolveClient(flags, true);
  const page = flags.dead ? await client.webhookDeadLetters(id) : await client.webhookDeliveries(id);
  if (flags.json) return printJson(page);
  const rows: Row[] = page.items.map((d) => ({
    delivery_id: d.delivery_id,
    event_id: d.event_id,
    state: d.state,
    attempts: d.attempts,
    last_error: d.last_error,
  }));
  printTable(rows as never, ['delivery_id', 'event_id', 'state', 'attempts', 'last_error']);
}

export async function replay(id: string, deliveryId: string, flags: Flags): Promise<void> {
  const { client } = await resolveClient(flags, true);
  const d = await client.replayWebhookDeadLetter(id, deliveryId);
  if (flags.json) printJson(d);
  else printRecord(d as never);
}
