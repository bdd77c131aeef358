// Composition of the ISO 20022 bridge (src/modules/iso20022/bridge/README.md): the signer from the bridge
// key file, the record store under `<data>/bridge/`, the reference data, the participants, and the
// adapter from the node's transaction path, event feed and state (the module route env) to the bridge's
// port. The key is read here and handed to the signer only.

import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { sectionValues } from '../../config/schema.js';
import { loadKeyFile } from '../../crypto/keyfile.js';
import { accountId, parseAccountId } from '../../model/ids.js';
import { PERMISSIONS } from '../../model/permissions.js';
import type { ModuleRouteEnv, NodeTransactions } from '../descriptor.js';
import { buildParticipants, type Participants } from './bridge/participants.js';
import type { BridgeLedgerPort } from './bridge/ports.js';
import { Bridge } from './bridge/service.js';
import { accountSigner } from './bridge/signer.js';
import { BridgeStore } from './bridge/store.js';
import { iso20022Config } from './config.js';
import { EMPTY_REFERENCE_DATA, loadReferenceData, type ReferenceData } from './reference-data.js';

export class BridgeConfigError extends Error {
  override readonly name = 'BridgeConfigError';
}

/** The bridge's port to the ledger, from the node's transaction path, event feed and state. */
export function bridgeLedgerPort(env: ModuleRouteEnv, tx: NodeTransactions): BridgeLedgerPort {
  return {
    chainId: tx.chainId,
    nowMs: env.now,
    submit: tx.submit,
    submitMany: tx.submitMany,
    status: tx.status,
    subscribe: (listener) => env.events.subscribe(listener),
    assetScale: (id) => env.state.assetDefinition(id)?.scale,
    blockTimeMs: tx.blockTimeMs,
  };
}

async function referenceData(dir: string, configured: string): Promise<ReferenceData> {
  if (configured === '') return EMPTY_REFERENCE_DATA;
  const r = await loadReferenceData(isAbsolute(configured) ? configured : join(dir, configured));
  if (!r.ok) {
    const first = r.errors.slice(0, 5).map((e) => `${e.path ?? ''} ${e.message}`);
    throw new BridgeConfigError(`iso20022.reference_data_dir: ${first.join('; ')}`);
  }
  return r.value;
}

/** The participants file; a missing file is no participants (every bridge request answers 403). */
export async function loadParticipants(dir: string, configured: string): Promise<Participants> {
  const path = isAbsolute(configured) ? configured : join(dir, configured);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw new BridgeConfigError(`iso20022.participants_file: cannot read ${path}: ${(e as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new BridgeConfigError(`iso20022.participants_file: ${path} is not JSON: ${(e as Error).message}`);
  }
  const r = buildParticipants(json);
  if (!r.ok) throw new BridgeConfigError(`iso20022.participants_file: ${r.errors.slice(0, 5).join('; ')}`);
  return r.value;
}

/**
 * The bridge account, checked: registered, not the genesis authority, and a TransferDelegate, so the
 * ledger itself limits it to debits that account owners granted (state/authorize.ts authorizeDebit).
 * Empty configuration = `<bridge key>@<genesis authority's domain>` (the account `torana init` creates).
 */
function bridgeAccount(env: ModuleRouteEnv, authority: string, configured: string, keyText: string): string {
  const account =
    configured === '' ? accountId(keyText, parseAccountId(authority)?.domain ?? '') : configured;
  const where = `iso20022.bridge_account: ${account}`;
  if (account === authority)
    throw new BridgeConfigError(`${where} is the genesis authority; the bridge needs its own account`);
  if (env.state.account(account) === undefined)
    throw new BridgeConfigError(`${where} is not a registered account`);
  const marked = env.state.permissionsOfAccount(account).some((p) => p.name === PERMISSIONS.TransferDelegate);
  if (!marked)
    throw new BridgeConfigError(`${where} does not hold TransferDelegate, so the ledger would not limit it`);
  return account;
}

/**
 * Builds and starts the bridge of a started node from its module route env: `nodeDir` is the node
 * directory (key file, participants, reference data), `storeDir` the record store's folder
 * (`<data>/bridge/`).
 */
export async function startBridge(
  env: ModuleRouteEnv,
  tx: NodeTransactions,
  nodeDir: string,
  storeDir: string,
  onError?: (e: unknown) => void,
): Promise<Bridge> {
  const c = sectionValues(env.config, iso20022Config);
  const keyPath = isAbsolute(c.bridgeKeyFile) ? c.bridgeKeyFile : join(nodeDir, c.bridgeKeyFile);
  const key = await loadKeyFile(keyPath);
  const signer = accountSigner(
    bridgeAccount(env, tx.genesisAuthority, c.bridgeAccount, key.publicKeyText()),
    key,
  );
  const reference = {
    ...(await referenceData(nodeDir, c.referenceDataDir)),
    nonIbanAccounts: c.allowNonIbanAccounts,
  };
  const participants = await loadParticipants(nodeDir, c.participantsFile);
  const store = await BridgeStore.open(storeDir, {
    fsync: env.config.storage.fsync,
    nowMs: env.now,
  });
  const options = {
    ledger: bridgeLedgerPort(env, tx),
    signer,
    store,
    reference,
    participants,
    xmlLimits: {
      bodyBytesMax: c.xmlBodyBytesMax,
      depthMax: c.xmlDepthMax,
      attributeValueCharsMax: c.xmlAttributeBytesMax,
    },
    retryIntervalMs: c.retryIntervalMs,
    submitBatchMax: c.submitBatchMax,
    ...(onError === undefined ? {} : { onError }),
  };
  try {
    return await Bridge.start(options);
  } catch (e) {
    await store.close();
    throw e;
  }
}
