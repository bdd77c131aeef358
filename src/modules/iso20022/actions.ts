// The code of `torana iso20022 …` (declared in commands.ts, imported when one runs).

import { readFile } from 'node:fs/promises';
import { CliError } from '../../cli/errors.js';
import { printJson, printRecord } from '../../cli/output.js';
import { type ClientFlags, resolveClient } from '../../cli/settings.js';
import type { ToranaClient } from '../../sdk/client.js';
import { type AuditPageJson, type LedgerAnchor, verifyAuditPage } from './bridge/audit-verify.js';
import { REPLAY_HEADER } from './bridge/idempotency.js';
import { KINDS, kindFromXml, REPORTS } from './cli-kinds.js';

type Flags = ClientFlags & { json?: boolean };
const AUDIT_PAGE = 500;

async function ledgerAnchors(
  client: ToranaClient,
  page: { anchors: AuditPageJson['anchors']; bridge_account: string; metadata_key: string },
) {
  const found = new Map<number, LedgerAnchor>();
  for (const a of page.anchors) {
    const out = await client
      .find({ kind: 'FindTransactionByHash', hash: a.transaction_hash })
      .catch(() => undefined);
    if (out?.kind !== 'Transaction' || out.value.result.kind !== 'Committed') continue;
    const tx = out.value.transaction.payload;
    if (tx.authority !== page.bridge_account) continue;
    for (const i of tx.instructions) {
      if (
        i.kind === 'SetKeyValue' &&
        i.key === page.metadata_key &&
        i.target.kind === 'Account' &&
        i.target.id === page.bridge_account
      ) {
        found.set(a.index, i.value as unknown as LedgerAnchor);
      }
    }
  }
  return found;
}

export async function submit(file: string, flags: Flags & { type?: string }): Promise<void> {
  const body = await readFile(file, 'utf8').catch((e: Error) => {
    throw new CliError('invalid_argument', `cannot read ${file}: ${e.message}`, 2);
  });
  const isJson = body.trimStart().startsWith('{');
  const kind = flags.type ?? (isJson ? undefined : kindFromXml(body));
  if (kind === undefined || !KINDS.includes(kind))
    throw new CliError('invalid_argument', `give --type (one of ${KINDS.join(', ')})`, 2);
  const { client } = await resolveClient(flags, true);
  const res = await client.signedRequest({
    method: 'POST',
    path: `/v1/iso20022/${kind}`,
    body,
    contentType: isJson ? 'application/json' : 'application/xml',
  });
  const answer = (await res.json()) as Record<string, unknown>;
  // A resubmission of a message already received answers its record: say so.
  const record = res.headers.get(REPLAY_HEADER) === 'true' ? { ...answer, replayed: true } : answer;
  if (flags.json) printJson(record);
  else printRecord(record as never);
}

export async function status(id: string, flags: Flags): Promise<void> {
  const { client } = await resolveClient(flags, true);
  const record = await client.signedJson<Record<string, unknown>>({
    method: 'GET',
    path: `/v1/iso20022/messages/${encodeURIComponent(id)}`,
  });
  if (flags.json) printJson(record);
  else printRecord(record as never);
}

export async function report(id: string, flags: Flags & { as: string }): Promise<void> {
  if (!REPORTS.includes(flags.as))
    throw new CliError('invalid_argument', `--as must be one of ${REPORTS.join(', ')}`, 2);
  const { client } = await resolveClient(flags, true);
  const res = await client.signedRequest({
    method: 'GET',
    path: `/v1/iso20022/messages/${encodeURIComponent(id)}/${flags.as}`,
    accept: 'application/xml',
  });
  process.stdout.write(await res.text());
}

export async function verifyAudit(flags: Flags): Promise<void> {
  const { client } = await resolveClient(flags, true);
  let offset = 0;
  let checked = 0;
  let anchorsVerified = 0;
  const problems: unknown[] = [];
  for (;;) {
    const page = await client.signedJson<
      AuditPageJson & { total: number; bridge_account: string; metadata_key: string }
    >({
      method: 'GET',
      path: '/v1/iso20022/audit/messages',
      query: { offset, limit: AUDIT_PAGE },
    });
    const anchors = await ledgerAnchors(client, page);
    const found = verifyAuditPage(page, (i) => anchors.get(i));
    problems.push(...found);
    anchorsVerified += page.anchors.filter((a) => !found.some((p) => p.anchor === a.index)).length;
    checked += page.entries.length;
    offset += page.entries.length;
    if (page.entries.length === 0 || offset >= page.total) break;
  }
  const out = {
    entries_checked: checked,
    anchors_verified: anchorsVerified,
    problems,
    ok: problems.length === 0,
  };
  if (flags.json) printJson(out);
  else {
    const verdict =
      problems.length === 0 ? 'OK' : `${problems.length} problems\n${JSON.stringify(problems, null, 1)}`;
    process.stdout.write(
      `${checked} audit entries and ${anchorsVerified} ledger anchors checked: ${verdict}\n`,
    );
  }
  if (problems.length > 0) process.exitCode = 4;
}
