// `torana iso20022 …` (issue "ISO 20022 bridge", CLI): submit a message file, read a record, fetch a
// status report as XML, and verify the audit manifest against the anchors recorded on the ledger.

import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { type AuditPageJson, type LedgerAnchor, verifyAuditPage } from '../iso20022/bridge/audit-verify.js';
import type { ToranaClient } from '../sdk/client.js';
import { printJson, printRecord } from './output.js';
import { CliError, type ClientFlags, resolveClient } from './settings.js';

type Flags = ClientFlags & { json?: boolean };

const KINDS = [
  'pacs008',
  'pacs009',
  'pacs002',
  'pacs004',
  'camt056',
  'sese023',
  'sese024',
  'sese025',
  'colr012',
];
const REPORTS = ['pacs002', 'pacs004', 'camt029', 'sese024', 'sese025'];
const AUDIT_PAGE = 500;

/** The route kind from the Document namespace, e.g. urn:iso:std:iso:20022:tech:xsd:pacs.008.001.09 → pacs008. */
export function kindFromXml(xml: string): string | undefined {
  const m = /urn:iso:std:iso:20022:tech:xsd:([a-z]{4})\.(\d{3})\.\d{3}\.\d{2}/.exec(xml);
  if (m === null) return undefined;
  const kind = `${m[1]}${m[2]}`;
  return KINDS.includes(kind) ? kind : kind === 'colr010' ? 'colr012' : undefined;
}

function options(cmd: Command): Command {
  return cmd
    .option('--dir <dir>', 'node directory holding client.json', './.torana')
    .option('--url <url>', 'gateway URL')
    .option('--account <id>', 'account to sign requests as (a bridge participant)')
    .option('--key-file <file>', 'key file of that account')
    .option('--json', 'machine-readable output');
}

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

export function registerIsoCommands(program: Command): void {
  const iso = program.command('iso20022').description('the ISO 20022 bridge');
  options(
    iso.command('submit <file>').description('submit an ISO 20022 message (XML, or flat JSON with --type)'),
  )
    .option('--type <kind>', `message type: ${KINDS.join(', ')} (default: from the XML namespace)`)
    .addHelpText(
      'after',
      '\nExample:\n  torana iso20022 submit payment.xml\n  torana iso20022 submit payment.json --type pacs008\n',
    )
    .action(async (file: string, flags: Flags & { type?: string }) => {
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
      const record = (await res.json()) as Record<string, unknown>;
      if (flags.json) printJson(record);
      else printRecord(record as never);
    });
  options(iso.command('status <msg-id>').description('the bridge record of a message')).action(
    async (id: string, flags: Flags) => {
      const { client } = await resolveClient(flags, true);
      const record = await client.signedJson<Record<string, unknown>>({
        method: 'GET',
        path: `/v1/iso20022/messages/${encodeURIComponent(id)}`,
      });
      if (flags.json) printJson(record);
      else printRecord(record as never);
    },
  );
  options(iso.command('report <msg-id>').description('a status report of a message as ISO 20022 XML'))
    .requiredOption('--as <type>', `report type: ${REPORTS.join(', ')}`)
    .addHelpText('after', '\nExample:\n  torana iso20022 report MSG-0001 --as pacs002 > status.xml\n')
    .action(async (id: string, flags: Flags & { as: string }) => {
      if (!REPORTS.includes(flags.as))
        throw new CliError('invalid_argument', `--as must be one of ${REPORTS.join(', ')}`, 2);
      const { client } = await resolveClient(flags, true);
      const res = await client.signedRequest({
        method: 'GET',
        path: `/v1/iso20022/messages/${encodeURIComponent(id)}/${flags.as}`,
        accept: 'application/xml',
      });
      process.stdout.write(await res.text());
    });
  options(
    iso
      .command('verify-audit')
      .description('verify the audit manifest: hashes, links, proofs and the ledger anchors'),
  ).action(async (flags: Flags) => {
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
  });
}
