// Composition of the ISO 20022 bridge (src/iso20022/bridge/README.md): the signer from the bridge key
// file, the record store under `<data>/bridge/`, the reference data, the participants, and the adapter
// from the concrete pipeline and ledger to the bridge's port. The key is read here and handed to the
// signer only.

import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { loadKeyFile } from '../crypto/keyfile.js';
import { buildParticipants, type Participants } from '../iso20022/bridge/participants.js';
import type { BridgeLedgerPort, LedgerSubmitOutcome, LedgerTxStatus } from '../iso20022/bridge/ports.js';
import { Bridge } from '../iso20022/bridge/service.js';
import { accountSigner } from '../iso20022/bridge/signer.js';
import { BridgeStore } from '../iso20022/bridge/store.js';
import { EMPTY_REFERENCE_DATA, loadReferenceData, type ReferenceData } from '../iso20022/reference-data.js';
import { accountId, parseAccountId } from '../model/ids.js';
import { PERMISSIONS } from '../model/permissions.js';
import type { SubmitResult } from '../pipeline/pipeline.js';
import { nodeFiles } from './files.js';
import type { Node } from './node.js';

/** The bridge's directory under the node's data directory. */
export const BRIDGE_DATA_DIR = 'bridge';

export class BridgeConfigError extends Error {
  override readonly name = 'BridgeConfigError';
}

function outcomeOf(r: SubmitResult): LedgerSubmitOutcome {
  if (r.ok) return { kind: 'queued' };
  switch (r.kind) {
    case 'duplicate':
      return { kind: 'duplicate' };
    case 'queue_full':
      return { kind: 'busy' };
    case 'rejected':
      return { kind: 'rejected', code: r.rejection.code, message: r.rejection.message };
    case 'codec':
      return { kind: 'rejected', code: r.error.code, message: r.error.message };
  }
}

export function bridgeLedgerPort(node: Node): BridgeLedgerPort {
  const { pipeline, ledger } = node;
  return {
    chainId: node.config.node.chainId,
    nowMs: () => node.clock.nowMs(),
    submit: async (bytes) => outcomeOf(await pipeline.submit(bytes)),
    // One batched admission: every check for each, signatures verified together, results in order.
    submitMany: async (bytes) => (await pipeline.admitMany(bytes)).map(outcomeOf),
    async status(hash): Promise<LedgerTxStatus> {
      const s = await pipeline.status(hash);
      if (s?.status === 'Committed') return { kind: 'committed', height: s.blockHeight };
      if (s?.status === 'Rejected') {
        const index = s.reason.instructionIndex;
        return {
          kind: 'rejected',
          height: s.blockHeight,
          code: s.reason.code,
          message: s.reason.message,
          ...(index === undefined ? {} : { instructionIndex: index }),
        };
      }
      if (s?.status === 'Expired') return { kind: 'expired' };
      return { kind: 'unknown' };
    },
    subscribe: (listener) => pipeline.events.subscribe(listener),
    assetScale: (id) => ledger.state.assetDefinition(id)?.scale,
    blockTimeMs: (height) => ledger.blockSync(height)?.header.creationTimeMs,
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
function bridgeAccount(node: Node, configured: string, keyText: string): string {
  const authority = node.genesis.transaction.payload.authority;
  const account =
    configured === '' ? accountId(keyText, parseAccountId(authority)?.domain ?? '') : configured;
  const where = `iso20022.bridge_account: ${account}`;
  if (account === authority)
    throw new BridgeConfigError(`${where} is the genesis authority; the bridge needs its own account`);
  if (node.ledger.state.account(account) === undefined)
    throw new BridgeConfigError(`${where} is not a registered account`);
  const marked = node.ledger.state
    .permissionsOfAccount(account)
    .some((p) => p.name === PERMISSIONS.TransferDelegate);
  if (!marked)
    throw new BridgeConfigError(`${where} does not hold TransferDelegate, so the ledger would not limit it`);
  return account;
}

/** Builds and starts the bridge of a started node. `dir` is the node directory (key file and data). */
export async function startBridge(node: Node, dir: string, onError?: (e: unknown) => void): Promise<Bridge> {
  const c = node.config.iso20022;
  const files = nodeFiles(dir);
  const keyPath = isAbsolute(c.bridgeKeyFile) ? c.bridgeKeyFile : join(files.dir, c.bridgeKeyFile);
  const key = await loadKeyFile(keyPath);
  const signer = accountSigner(bridgeAccount(node, c.bridgeAccount, key.publicKeyText()), key);
  const reference = {
    ...(await referenceData(files.dir, c.referenceDataDir)),
    nonIbanAccounts: c.allowNonIbanAccounts,
  };
  const participants = await loadParticipants(files.dir, c.participantsFile);
  const store = await BridgeStore.open(join(files.data, BRIDGE_DATA_DIR), {
    fsync: node.config.storage.fsync,
    nowMs: () => node.clock.nowMs(),
  });
  const options = {
    ledger: bridgeLedgerPort(node),
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
