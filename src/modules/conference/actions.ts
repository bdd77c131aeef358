// The code of `torana conference …` (commands.ts), imported only when one runs.

import { join as joinPath } from 'node:path';
import { type Flags, parseJsonFlag, submit } from '../../cli/client-actions.js';
import { CliError } from '../../cli/errors.js';
import { accountArg } from '../../cli/id-args.js';
import { printJson, printRecord } from '../../cli/output.js';
import { resolveClient } from '../../cli/settings.js';
import type { Json } from '../../codec/codec.js';
import { formatNumeric, type Numeric, numeric } from '../../model/numeric.js';
import type { ToranaClient } from '../../sdk/client.js';
import { instructions as ix } from '../../sdk/instructions.js';
import { conferenceGas } from './model.js';
import { newRosterKey, payEntryFee, rosterProof } from './private.js';
import type { RelayHopLike } from './sdk-instructions.js';
import type { Signal } from './sdk-signals.js';
import { CallView } from './views.js';

/**
 * The client of a read, signing it when an account and key are configured: `authenticated` calls are
 * served only to signed requests (docs/conference.md "Routes and CLI").
 */
async function readClient(flags: Flags): Promise<{ client: ToranaClient; signed: boolean }> {
  try {
    return { client: (await resolveClient(flags, true)).client, signed: true };
  } catch (e) {
    if (!(e instanceof CliError && e.code === 'client_not_configured')) throw e;
    return { client: (await resolveClient(flags, false)).client, signed: false };
  }
}

function whole(name: string, text: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER) {
  const n = text === undefined ? Number.NaN : Number(text);
  if (!/^\d+$/.test(text ?? '') || !Number.isSafeInteger(n) || n < min || n > max)
    throw new CliError('invalid_argument', `--${name} must be a whole number from ${min} to ${max}`, 2);
  return n;
}

function amountFlag(name: string, text: string): Numeric {
  try {
    return numeric(text);
  } catch {
    throw new CliError('invalid_argument', `--${name} must be a decimal amount, e.g. 0.5`, 2);
  }
}

/** Manifest hops from `--relay r1[:weight]`, each with the key the relay registered. */
async function hopsOf(client: ToranaClient, specs: readonly string[]): Promise<RelayHopLike[]> {
  const hops: RelayHopLike[] = [];
  for (const spec of specs) {
    const [relay, weight] = spec.split(':');
    const r = await client.getRelay(relay!).catch((e: { code?: string }) => {
      if (e?.code !== 'conference_relay_not_found') throw e;
      const hint = `torana conference relay register ${relay} --public-key <hex> --endpoint <url>`;
      throw new CliError('conference_relay_not_found', `no relay ${relay} is registered (${hint})`);
    });
    hops.push({
      relay: r.id,
      publicKey: r.publicKey,
      weight: weight === undefined ? 1 : whole('relay weight', weight, 1, 1000),
    });
  }
  return hops;
}

type CreateFlags = Flags & {
  dir: string;
  private?: boolean;
  invite?: string[];
  noteFile?: string;
  title: string;
  description: string;
  policy: string;
  start?: string;
  end?: string;
  maxParticipants: string;
  gasRate: string;
  billingAccount?: string;
  metadata?: string;
  relay?: string[];
  manifestTtlMs: string;
};

export async function create(call: string, flags: CreateFlags): Promise<void> {
  if (flags.policy !== 'public' && flags.policy !== 'authenticated')
    throw new CliError('invalid_argument', '--policy must be public or authenticated', 2);
  const metadata = parseJsonFlag(flags.metadata, 'metadata');
  if (
    metadata !== undefined &&
    (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
  )
    throw new CliError('invalid_argument', '--metadata must be a JSON object', 2);
  const now = Date.now();
  const start = flags.start === undefined ? now : whole('start', flags.start, 0);
  const maxParticipants = whole('max-participants', flags.maxParticipants, 1, 0xffffffff);
  const ttl = whole('manifest-ttl-ms', flags.manifestTtlMs, 1);
  const gasRate = amountFlag('gas-rate', flags.gasRate);
  const { client } = await resolveClient(flags, false);
  const billing =
    flags.billingAccount === undefined ? undefined : await accountArg(client, flags.billingAccount);
  const hops = flags.relay === undefined ? undefined : await hopsOf(client, flags.relay);
  const priv = flags.private === true ? await privateCreation(call, flags) : undefined;
  // `--json` answers the call id with the transaction (what `conference show/join/end` take next).
  const created = { call };
  await submit(
    flags,
    (me) => [
      ix.createConference(call, {
        ...(priv === undefined
          ? {}
          : {
              privacy: 'zk-roster-v1' as const,
              rosterCommitments: flags.invite ?? [],
              ...(priv.fee === undefined ? {} : { fee: priv.fee.spend }),
            }),
        policy: flags.policy as 'public',
        title: flags.title,
        description: flags.description,
        scheduledStartMs: start,
        ...(flags.end === undefined ? {} : { scheduledEndMs: whole('end', flags.end, 0) }),
        maxParticipants,
        gasRatePerMinute: gasRate,
        billingAccount: billing ?? me,
        ...(metadata === undefined ? {} : { metadata: metadata as Record<string, Json> }),
        ...(hops === undefined ? {} : { manifest: { hops, expiresAtMs: now + ttl } }),
      }),
    ],
    created,
  );
  await priv?.fee?.keepChange();
}

/** The entry fee of a private create, bound to the call and its creator (docs/conference.md "Shielded fee"). */
async function privateCreation(call: string, flags: CreateFlags) {
  for (const c of flags.invite ?? [])
    if (!/^[0-9a-f]{64}$/.test(c)) throw new CliError('invalid_argument', '--invite takes 64 hex digits', 2);
  const { client, account } = await resolveClient(flags, true);
  const fee = await payEntryFee(client, noteFileOf(flags), (zk) => zk.createFeeBind(call, account!));
  return { fee };
}

const noteFileOf = (flags: { dir: string; noteFile?: string }) =>
  flags.noteFile ?? joinPath(flags.dir, 'shielded-note.json');
const rosterKeyOf = (flags: { dir: string; rosterKey?: string }) =>
  flags.rosterKey ?? joinPath(flags.dir, 'roster-key.json');

type JoinFlags = Flags & {
  dir: string;
  answer?: string;
  private?: boolean;
  rosterKey?: string;
  noteFile?: string;
};

export async function join(call: string, flags: JoinFlags): Promise<void> {
  if (flags.answer !== undefined && !/^([0-9a-fA-F]{2})+$/.test(flags.answer))
    throw new CliError('invalid_argument', '--answer must be hex bytes', 2);
  const answer = flags.answer === undefined ? {} : { answer: flags.answer };
  if (flags.private !== true) {
    await submit(flags, (me) => [ix.joinConference(call, { participant: me, ...answer })]);
    return;
  }
  // A private join names no participant: the roster proof shows membership without saying whose.
  // The proofs are bound to the account that signs the join (docs/conference.md "Privacy limits").
  const { client, account } = await resolveClient(flags, true);
  const roster = await rosterProof(client, call, rosterKeyOf(flags), 'join', account!);
  const fee = await payEntryFee(client, noteFileOf(flags), roster.joinBind);
  await submit(flags, () => [
    ix.joinConference(call, {
      ...answer,
      private: roster.proof,
      ...(fee === undefined ? {} : { fee: fee.spend }),
    }),
  ]);
  await fee?.keepChange();
}

export async function leave(
  call: string,
  flags: Flags & { dir: string; private?: boolean; rosterKey?: string },
) {
  if (flags.private !== true) return submit(flags, (me) => [ix.leaveConference(call, { participant: me })]);
  const { client, account } = await resolveClient(flags, true);
  const roster = await rosterProof(client, call, rosterKeyOf(flags), 'leave', account!);
  return submit(flags, () => [ix.leaveConference(call, { private: roster.proof })]);
}

export const end = (call: string, flags: Flags) => submit(flags, () => [ix.endConference(call)]);

export function relayRegister(
  relay: string,
  flags: Flags & { publicKey: string; endpoint: string; region: string },
): Promise<void> {
  if (!/^[0-9a-fA-F]{64}$/.test(flags.publicKey))
    throw new CliError('invalid_argument', '--public-key must be 64 hex digits (an X25519 key)', 2);
  return submit(flags, () => [
    ix.registerConferenceRelay(relay, flags.publicKey.toLowerCase(), flags.endpoint, flags.region),
  ]);
}

export function relayHealth(
  relay: string,
  flags: Flags & { unavailable?: boolean; latencyMs: string; lossPermille: string },
): Promise<void> {
  const latencyMs = whole('latency-ms', flags.latencyMs, 0, 0xffff_ffff);
  const lossPermille = whole('loss-permille', flags.lossPermille, 0, 1000);
  return submit(flags, () => [
    ix.reportConferenceRelayHealth(relay, { available: flags.unavailable !== true, latencyMs, lossPermille }),
  ]);
}

/**
 * The gas a segment bills (docs/conference.md §Billing): the running total rounded up, ceil((total +
 * durationMs) × rate / 60 000) − ceil(total × rate / 60 000), at the native asset's scale (custom
 * parameter `native_asset`; scale 0 without one).
 */
async function billedGasFor(flags: Flags, call: string, durationMs: bigint): Promise<Numeric> {
  const { client, signed } = await readClient(flags);
  const c = await client.getCall(call, { signed });
  const rate = c.gasRatePerMinute;
  const total = c.usage.durationMs;
  const native = (await client.parameters()).custom.get('native_asset');
  let scale = 0;
  if (typeof native === 'string') {
    const d = await client.get<{ scale: number }>(`/v1/assets/definitions/${encodeURIComponent(native)}`);
    scale = d.scale;
  }
  return {
    mantissa: conferenceGas(rate, total + durationMs, scale) - conferenceGas(rate, total, scale),
    scale,
  };
}

type UsageFlags = Flags & { segment: string; durationMs: string; participant?: string; billedGas?: string };

export async function usage(call: string, flags: UsageFlags): Promise<void> {
  const segment = whole('segment', flags.segment, 0, 0xffffffff);
  const durationMs = BigInt(whole('duration-ms', flags.durationMs, 0));
  let billedGas: Numeric;
  if (flags.billedGas !== undefined) billedGas = amountFlag('billed-gas', flags.billedGas);
  else billedGas = await billedGasFor(flags, call, durationMs);
  const participant =
    flags.participant === undefined
      ? undefined
      : await accountArg((await resolveClient(flags, false)).client, flags.participant);
  return submit(flags, () => [
    ix.recordConferenceUsage(call, {
      segment,
      durationMs,
      billedGas,
      ...(participant === undefined ? {} : { participant }),
    }),
  ]);
}

export async function show(call: string, flags: Flags): Promise<void> {
  const { client, signed } = await readClient(flags);
  const c = await client.getCall(call, { signed });
  const json = CallView.toJson(c) as Record<string, Json>;
  if (flags.json) {
    printJson(json);
    return;
  }
  printRecord({
    id: c.id,
    title: c.title,
    host: c.host,
    status: c.status,
    policy: c.policy,
    privacy: c.privacy,
    participants: `${c.activeParticipants} / ${c.maxParticipants}`,
    gas_rate_per_minute: formatNumeric(c.gasRatePerMinute),
    relays: c.relays.join(', '),
    usage: `${c.usage.durationMs} ms in ${c.usage.segments} segments, ${formatNumeric(c.usage.billedGas)} gas`,
  });
}

type SignalFlags = Flags & { after: string; follow?: boolean; open?: boolean };
type SignalOut = Signal & { description?: string };

/** A signal as printed: the envelope's size instead of its bytes in tables; with --open, the answer. */
async function signalOut(client: ToranaClient, me: string, s: Signal, open: boolean): Promise<SignalOut> {
  if (!open || s.kind !== 'answer' || s.to !== me) return s;
  return { ...s, description: await client.openAnswer(s) };
}

function printSignal(s: SignalOut, json: boolean | undefined): void {
  if (json) {
    printJson(s);
    return;
  }
  const size = Math.floor((s.envelope.length * 3) / 4);
  const tail = s.description === undefined ? `${size} bytes sealed` : s.description;
  process.stdout.write(`${s.id}  ${s.kind.padEnd(6)}  ${s.from} -> ${s.to}  ${tail}\n`);
}

export async function signals(call: string, flags: SignalFlags): Promise<void> {
  const after = whole('after', flags.after, 0);
  const { client, account } = await resolveClient(flags, true);
  const open = flags.open === true;
  if (flags.follow) {
    const abort = new AbortController();
    process.once('SIGINT', () => abort.abort());
    for await (const s of client.watchSignals(call, { since: after, signal: abort.signal }))
      printSignal(await signalOut(client, account!, s, open), flags.json);
    return;
  }
  const page = await client.pollSignals(call, after);
  const items = await Promise.all(page.items.map((s) => signalOut(client, account!, s, open)));
  if (flags.json) printJson({ items, cursor: page.cursor });
  else if (items.length === 0) process.stdout.write('(none)\n');
  else for (const s of items) printSignal(s, false);
}

export async function rosterKey(flags: Flags & { dir: string; out?: string }): Promise<void> {
  const out = flags.out ?? joinPath(flags.dir, 'roster-key.json');
  const key = await newRosterKey(out);
  const shown = { commitment: key.commitment, key_file: out };
  if (flags.json) printJson(shown);
  else printRecord(shown);
}
