// The code of `torana explorer …` (declared in commands.ts, imported when one runs). Reads the
// routes' JSON through the SDK's HTTP layer (typed errors, 429/503 retries) and prints tables of the
// list items, key: value lines of one item, or the JSON document with --json.

import { CliError } from '../../cli/errors.js';
import { printJson, printRecord, printTable } from '../../cli/output.js';
import { type ClientFlags, resolveClient } from '../../cli/settings.js';
import type { Json } from '../../codec/codec.js';
import { readableRejection } from '../../model/rejection-text.js';

type Flags = ClientFlags & Record<string, string | boolean | undefined> & { json?: boolean };
type Query = Record<string, string | undefined>;
type Doc = { items?: Record<string, Json>[]; pagination?: Record<string, Json> } & Record<string, Json>;

const STREAMS = ['blocks', 'transactions', 'instructions'];
const enc = encodeURIComponent;
const str = (v: string | boolean | undefined) => (typeof v === 'string' ? v : undefined);

async function get(flags: Flags, path: string, query: Query = {}): Promise<Doc> {
  const { client } = await resolveClient(flags, false);
  return client.http.json<Doc>({ method: 'GET', path: `/v1/explorer${path}`, query });
}

function pageQuery(f: Flags): Query {
  return { page: str(f.page), per_page: str(f.perPage) };
}

function txQuery(f: Flags): Query {
  return { authority: str(f.authority), block: str(f.block), asset_id: str(f.asset), status: str(f.status) };
}

function insQuery(f: Flags): Query {
  return {
    ...txQuery(f),
    status: undefined,
    account: str(f.account),
    transaction_hash: str(f.tx),
    transaction_status: str(f.txStatus),
    kind: str(f.kind),
  };
}

/** A list: items as a table of `columns` and the page line on stderr, or the whole document. */
async function list(f: Flags, path: string, query: Query, columns: string[]): Promise<void> {
  const doc = await get(f, path, query);
  if (f.json) return printJson(doc);
  printTable(doc.items ?? [], columns);
  const p = doc.pagination;
  if (p !== undefined) process.stderr.write(`page ${p.page} of ${p.total_pages} (${p.total_items} items)\n`);
}

async function one(f: Flags, path: string, query: Query = {}): Promise<void> {
  const doc = await get(f, path, query);
  if (f.json) printJson(doc);
  // lazyAction has loaded the registry, which added the modules' rejection forms.
  else printRecord(readableRejectionOf(doc));
}

/**
 * A transaction as a person reads it: its rejection's message with amounts at their scale (the
 * committed message keeps base units; `--json` prints it as the node sent it).
 */
export function readableRejectionOf(doc: Doc): Doc {
  const r = doc['rejection_reason'];
  if (typeof r !== 'object' || r === null || Array.isArray(r)) return doc;
  const json = r['json'];
  const code = typeof json === 'object' && json !== null && !Array.isArray(json) ? json['code'] : undefined;
  const message = r['message'];
  if (typeof code !== 'string' || typeof message !== 'string') return doc;
  return { ...doc, rejection_reason: { ...r, message: readableRejection(code, message) } };
}

const BLOCK = ['height', 'hash', 'creation_time_ms', 'transaction_count', 'rejected_count'];
const TX = ['block_height', 'index', 'hash', 'authority', 'status', 'instruction_count'];
const INS = ['block_height', 'transaction_index', 'index', 'kind', 'transaction_status', 'authority'];

export const blocks = (f: Flags) => list(f, '/blocks', pageQuery(f), BLOCK);
export const accounts = (f: Flags) =>
  list(f, '/accounts', pageQuery(f), ['id', 'owned_assets', 'owned_nfts', 'owned_domains', 'role_count']);
export const domains = (f: Flags) =>
  list(f, '/domains', pageQuery(f), [
    'id',
    'owned_by',
    'account_count',
    'asset_definition_count',
    'nft_count',
  ]);
export const definitions = (f: Flags) =>
  list(f, '/asset-definitions', pageQuery(f), ['id', 'total_quantity', 'scale', 'holder_count', 'owned_by']);
export const nfts = (f: Flags) => list(f, '/nfts', pageQuery(f), ['id', 'owned_by']);
export const assets = (f: Flags) =>
  list(f, '/assets', { ...pageQuery(f), owned_by: str(f.ownedBy), definition: str(f.definition) }, [
    'id',
    'quantity',
  ]);

export const txs = (f: Flags) =>
  f.latest === undefined
    ? list(f, '/transactions', { ...pageQuery(f), ...txQuery(f) }, TX)
    : list(f, '/transactions/latest', { limit: str(f.latest) }, TX);
export const instructions = (f: Flags) =>
  f.latest === undefined
    ? list(f, '/instructions', { ...pageQuery(f), ...insQuery(f) }, INS)
    : list(f, '/instructions/latest', { limit: str(f.latest) }, INS);

export const block = (id: string, f: Flags) => one(f, `/blocks/${enc(id)}`);
export const tx = (hash: string, f: Flags) => one(f, `/transactions/${enc(hash)}`);
export const instruction = (hash: string, index: string, f: Flags) =>
  one(f, `/instructions/${enc(hash)}/${enc(index)}`);
export const account = (id: string, f: Flags) => one(f, `/accounts/${enc(id)}`);
export const domain = (id: string, f: Flags) => one(f, `/domains/${enc(id)}`);
export const definition = (id: string, f: Flags) => one(f, `/asset-definitions/${enc(id)}`);
export const snapshot = (id: string, f: Flags) => one(f, `/asset-definitions/${enc(id)}/snapshot`);
export const asset = (id: string, f: Flags) => one(f, `/assets/${enc(id)}`);
export const nft = (id: string, f: Flags) => one(f, `/nfts/${enc(id)}`);
export const health = (f: Flags) => one(f, '/health');
export const metrics = (f: Flags) => one(f, '/metrics');
export const econometrics = (id: string, f: Flags) =>
  one(f, `/asset-definitions/${enc(id)}/econometrics`, {
    from_height: str(f.from),
    to_height: str(f.to),
    buckets: str(f.buckets),
  });

export async function qr(id: string, f: Flags): Promise<void> {
  const doc = await get(f, `/accounts/${enc(id)}/qr`);
  if (f.json) printJson(doc);
  else process.stdout.write(`${doc.svg}\n`);
}

/** Follows a stream until interrupted: one JSON document per line with --json, else one line per item. */
export async function watch(stream: string, f: Flags): Promise<void> {
  if (!STREAMS.includes(stream))
    throw new CliError('invalid_argument', `stream must be one of ${STREAMS.join(', ')}`, 2);
  const { client } = await resolveClient(f, false);
  const kind = stream as 'blocks' | 'transactions' | 'instructions';
  const o = {
    ...(typeof f.since === 'string' ? { since: f.since } : {}),
    ...(typeof f.authority === 'string' ? { authority: f.authority } : {}),
    ...(typeof f.block === 'string' ? { block: Number(f.block) } : {}),
    ...(typeof f.asset === 'string' ? { assetId: f.asset } : {}),
    ...(typeof f.status === 'string' ? { status: f.status } : {}),
    ...(typeof f.account === 'string' ? { account: f.account } : {}),
    ...(typeof f.tx === 'string' ? { transactionHash: f.tx } : {}),
    ...(typeof f.txStatus === 'string' ? { transactionStatus: f.txStatus } : {}),
    ...(typeof f.kind === 'string' ? { kind: f.kind } : {}),
  };
  const columns = kind === 'blocks' ? BLOCK : kind === 'transactions' ? TX : INS;
  for await (const item of client.explorer.stream(kind, o)) {
    if (f.json) printJson({ id: item.id, ...item.data });
    else process.stdout.write(`${item.id}  ${columns.map((c) => String(item.data[c] ?? '')).join('  ')}\n`);
  }
}
