// Test support for the ISO 20022 bridge (not a test file): a served node with the bridge enabled, a
// `bank` domain with funded accounts and asset definitions, realistic messages built from the ISO
// message definitions (same shapes as src/modules/iso20022/samples/), and HTTP helpers.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { loadKeyFile } from '../../src/crypto/keyfile.js';
import { accountId } from '../../src/model/ids.js';
import type { Instruction } from '../../src/model/instructions.js';
import { numeric } from '../../src/model/numeric.js';
import type { Bridge } from '../../src/modules/iso20022/bridge/service.js';
import type { Iso20022Family } from '../../src/modules/iso20022/descriptor.js';
import { nodeFiles } from '../../src/node/files.js';
import { GENESIS_DOMAIN } from '../../src/node/init.js';
import { type ServedNode, serveNode } from '../../src/node/serve.js';
import { signRequest } from '../../src/sdk/signed-request.js';
import { run, startTestNode, type TestNode } from '../helpers/node.js';
import { newAccount, type TestAccount } from '../helpers/tx.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field.
export type Answer = Record<string, any>;

export const DOMAIN = 'bank';
export const EUR = `eur#${DOMAIN}`;
export const JPY = `jpy#${DOMAIN}`;
export const BUND = `bund#${DOMAIN}`;
export const OAT = `oat#${DOMAIN}`;
export const WHOLE_EUR = `weur#${DOMAIN}`;
export const IBAN = {
  alice: 'DE89370400440532013000',
  bob: 'GB29NWBK60161331926819',
  carol: 'FR1420041010050500013M02606',
};
export const BIC = { alice: 'DEUTDEFFXXX', bob: 'NWBKGB2LXXX', carol: 'COBADEFFXXX' };
/** Domestic account numbers (`Othr/Id`) of the non-IBAN samples (src/modules/iso20022/samples/pacs008-othr.xml). */
export const OTHER_ID = { alice: '0532013000', bob: '31926819' };
/** The ISO 20022 schemas the tests validate against (a copy inside the project: xsd/README.md). */
export const XSD_DIR = new URL('./xsd/', import.meta.url);

/** Every BIC the test messages and samples use as an instructing or debited institution. */
export const BANK_BICS = [BIC.alice, BIC.bob, BIC.carol, 'BNPAFRPPXXX', 'DAKVDEFFXXX'];

/** The test accounts: fixed keys, so reference data naming them can be written before the node starts. */
export function fixtureAccounts() {
  return { alice: newAccount(DOMAIN, 11), bob: newAccount(DOMAIN, 12), carol: newAccount(DOMAIN, 13) };
}

/** The participant the tests sign bridge requests as: every test BIC, acting for alice, bob and carol. */
export function fixtureBank(): TestAccount {
  return newAccount(DOMAIN, 20);
}

/** participants.json (docs/iso20022.md "Participants") of the fixture bank, plus `extra` entries. */
export async function writeParticipants(dir: string, extra: Record<string, unknown> = {}): Promise<void> {
  const { alice, bob, carol } = fixtureAccounts();
  const bank = { bics: BANK_BICS, account_ids: [alice.id, bob.id, carol.id] };
  await writeFile(join(dir, 'participants.json'), JSON.stringify({ [fixtureBank().id]: bank, ...extra }));
}

/** The bridge account `torana init` created (its own key, a TransferDelegate). */
export async function bridgeAccountOf(dir: string): Promise<string> {
  const key = await loadKeyFile(nodeFiles(dir).bridgeKey);
  return accountId(key.publicKeyText(), GENESIS_DOMAIN);
}

/** `account` lets the bridge debit it (its owner signs; the ledger checks it, state/authorize.ts). */
export function grantBridge(account: string, bridge: string): Instruction {
  return {
    kind: 'GrantPermission',
    account: bridge,
    permission: { name: 'CanTransferFrom', payload: { account } },
  };
}

/** Writes crosswalks (README "Reference data") for the fixture accounts into `dir`. */
export async function writeReferenceData(dir: string, chainId = 'torana-test'): Promise<void> {
  const { alice, bob, carol } = fixtureAccounts();
  await mkdir(dir, { recursive: true });
  const bic = {
    [BIC.alice]: { ledger_id: chainId, account_ids: [alice.id] },
    [BIC.bob]: { ledger_id: chainId, account_ids: [bob.id] },
    [BIC.carol]: { ledger_id: chainId, account_ids: [carol.id] },
  };
  const iban = { [IBAN.alice]: alice.id, [IBAN.bob]: bob.id, [IBAN.carol]: carol.id };
  await writeFile(join(dir, 'bic.json'), JSON.stringify(bic));
  await writeFile(join(dir, 'iban.json'), JSON.stringify(iban));
  const account = { [OTHER_ID.alice]: alice.id, [OTHER_ID.bob]: bob.id };
  await writeFile(join(dir, 'account.json'), JSON.stringify(account));
  await writeFile(join(dir, 'currency.json'), JSON.stringify({ EUR, JPY }));
}

export interface BridgeNode extends TestNode {
  url: string;
  served: ServedNode;
  alice: TestAccount;
  bob: TestAccount;
  carol: TestAccount;
  /** The participant bridge requests are signed as by default. */
  bank: TestAccount;
  /** The bridge account (a TransferDelegate; alice, bob and carol granted it CanTransferFrom). */
  bridgeAccount: string;
  /** Stops the HTTP server and bridge, restarts the node (same directory), serves it again. */
  restartServed(overrides?: Record<string, unknown>): Promise<void>;
  stopAll(): Promise<void>;
}

const BASE_CONFIG = {
  'log.level': 'silent',
  'iso20022.enabled': true,
  'gateway.rate_per_ip_per_s': 100_000,
  'gateway.rate_burst': 100_000,
};

/** The bridge service behind the served node's `iso20022` routes. */
export function bridgeOf(b: { served: ServedNode }): Bridge {
  const family = b.served.families.find((f) => f.name === 'iso20022') as Iso20022Family | undefined;
  assert.ok(family !== undefined, 'the node serves no iso20022 family');
  return family.bridge;
}

/** `participants`: entries added to the fixture bank in participants.json. */
export async function startBridgeNode(
  overrides: Record<string, unknown> = {},
  participants: Record<string, unknown> = {},
): Promise<BridgeNode> {
  const config = { ...BASE_CONFIG, ...overrides };
  const t = await startTestNode(config);
  const { alice, bob, carol } = fixtureAccounts();
  const bank = fixtureBank();
  const bridgeAccount = await bridgeAccountOf(t.dir);
  await writeParticipants(t.dir, participants);
  const def = (id: string, scale: number) => ({
    kind: 'RegisterAssetDefinition' as const,
    id,
    scale,
    mintable: { kind: 'Infinitely' as const },
    metadata: new Map(),
  });
  const setup = await run(t, t.admin, [
    { kind: 'RegisterDomain', id: DOMAIN, metadata: new Map() },
    ...[alice, bob, carol, bank].map((a) => ({
      kind: 'RegisterAccount' as const,
      id: a.id,
      metadata: new Map(),
    })),
    def(EUR, 2),
    def(JPY, 0),
    def(BUND, 0),
    def(OAT, 0),
    def(WHOLE_EUR, 0),
    { kind: 'MintAsset', asset: `${EUR}#${alice.id}`, amount: numeric('100000.00') },
    { kind: 'MintAsset', asset: `${EUR}#${carol.id}`, amount: numeric('10000000.00') },
    { kind: 'MintAsset', asset: `${JPY}#${alice.id}`, amount: numeric('1000000') },
    { kind: 'MintAsset', asset: `${BUND}#${alice.id}`, amount: numeric('10000000') },
    { kind: 'MintAsset', asset: `${OAT}#${carol.id}`, amount: numeric('10000000') },
  ]);
  assert.equal(setup.status.kind, 'Committed', JSON.stringify(setup.status));
  for (const a of [alice, bob, carol]) {
    const g = await run(t, a, [grantBridge(a.id, bridgeAccount)]);
    assert.equal(g.status.kind, 'Committed', JSON.stringify(g.status));
  }
  const served = await serveNode(t.node, { dir: t.dir });
  const b = Object.assign(t, {
    url: served.url,
    served,
    alice,
    bob,
    carol,
    bank,
    bridgeAccount,
  }) as BridgeNode;
  b.restartServed = async (o = {}) => {
    await b.served.close();
    await t.restart({ ...config, ...o });
    b.served = await serveNode(t.node, { dir: t.dir });
    b.url = b.served.url;
  };
  b.stopAll = async () => {
    await b.served.close();
    await t.cleanup();
  };
  return b;
}

export function balance(b: BridgeNode, definition: string, account: TestAccount): string {
  const a = b.node.ledger.state.asset(`${definition}#${account.id}`);
  return a === undefined ? '0' : `${a.value.mantissa}e-${a.value.scale}`;
}

/** The signed-request headers of `signer`, or none when `signer` is null. */
export function signedHeaders(
  signer: TestAccount | null,
  method: string,
  url: string,
  body?: string,
  timestampMs?: number,
): Record<string, string> {
  if (signer === null) return {};
  return signRequest({
    method,
    url,
    ...(body === undefined ? {} : { body }),
    ...(timestampMs === undefined ? {} : { timestampMs }),
    account: signer.id,
    signer: signer.key,
  });
}

/** POSTs a message signed as `as` (default: the fixture bank; null: unsigned). */
export async function post(
  b: BridgeNode,
  kind: string,
  body: string | object,
  headers: Record<string, string> = {},
  as: TestAccount | null = b.bank,
) {
  const isText = typeof body === 'string';
  const sent = isText ? body : JSON.stringify(body);
  const path = `/v1/iso20022/${kind}`;
  const res = await fetch(`${b.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': isText ? 'application/xml' : 'application/json',
      ...signedHeaders(as, 'POST', path, sent),
      ...headers,
    },
    body: sent,
  });
  const text = await res.text();
  return {
    status: res.status,
    body: (text.startsWith('{') ? JSON.parse(text) : text) as Answer,
    replayed: res.headers.get('x-ledger-idempotent-replay') === 'true',
  };
}

/** GETs a bridge path signed as `as` (default: the fixture bank; null: unsigned). */
export async function get(b: BridgeNode, path: string, as: TestAccount | null = b.bank) {
  const res = await fetch(`${b.url}${path}`, { headers: signedHeaders(as, 'GET', path) });
  const text = await res.text();
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    text,
    json: () => JSON.parse(text),
  };
}

/** Polls the record until `done` holds (the pipeline settles within a block or two). */
export async function waitFor(b: BridgeNode, id: string, done: (r: Answer) => boolean, ms = 5000) {
  const until = Date.now() + ms;
  for (;;) {
    const r = await get(b, `/v1/iso20022/messages/${encodeURIComponent(id)}`);
    if (r.status === 200 && done(r.json())) return r.json() as Answer;
    if (Date.now() > until) assert.fail(`record ${id} did not settle: ${r.text}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const settledOrRejected = (r: Answer) => r.pacs002_code === 'ACSC' || r.pacs002_code === 'RJCT';

export async function assertXsdValid(schemaFile: string, xml: string): Promise<void> {
  const schema = { fileName: schemaFile, contents: readFileSync(new URL(schemaFile, XSD_DIR), 'utf8') };
  const r = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [schema] });
  assert.ok(r.valid, `${r.errors.map((e) => e.rawMessage).join('\n')}\n${xml}`);
}
