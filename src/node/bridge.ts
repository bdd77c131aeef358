// Composition of the ISO 20022 bridge (src/iso20022/bridge/README.md): the signer from the bridge key
// file, the record store under `<data>/bridge/`, the reference data, and the adapter from the concrete
// pipeline and ledger to the bridge's port. The key is read here and handed to the signer only.

import { isAbsolute, join } from 'node:path';
import { loadKeyFile } from '../crypto/keyfile.js';
import type { BridgeLedgerPort, LedgerSubmitOutcome, LedgerTxStatus } from '../iso20022/bridge/ports.js';
import { Bridge } from '../iso20022/bridge/service.js';
import { accountSigner } from '../iso20022/bridge/signer.js';
import { BridgeStore } from '../iso20022/bridge/store.js';
import { EMPTY_REFERENCE_DATA, loadReferenceData, type ReferenceData } from '../iso20022/reference-data.js';
import { nodeFiles } from './files.js';
import type { Node } from './node.js';

/** The bridge's directory under the node's data directory. */
export const BRIDGE_DATA_DIR = 'bridge';

export class BridgeConfigError extends Error {
  override readonly name = 'BridgeConfigError';
}

export function bridgeLedgerPort(node: Node): BridgeLedgerPort {
  const { pipeline, ledger } = node;
  return {
    chainId: node.config.node.chainId,
    nowMs: () => node.clock.nowMs(),
    async submit(bytes): Promise<LedgerSubmitOutcome> {
      const r = await pipeline.submit(bytes);
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
    },
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

/**
 * Builds and starts the bridge of a started node. `dir` is the node directory (key file and data).
 * The bridge account defaults to the genesis transaction's authority (the dev genesis admin).
 */
export async function startBridge(node: Node, dir: string, onError?: (e: unknown) => void): Promise<Bridge> {
  const c = node.config.iso20022;
  const files = nodeFiles(dir);
  const account = c.bridgeAccount === '' ? node.genesis.transaction.payload.authority : c.bridgeAccount;
  const keyPath = isAbsolute(c.bridgeKeyFile) ? c.bridgeKeyFile : join(files.dir, c.bridgeKeyFile);
  if (node.ledger.state.account(account) === undefined)
    throw new BridgeConfigError(`iso20022.bridge_account: ${account} is not a registered account`);
  const signer = accountSigner(account, await loadKeyFile(keyPath));
  const reference = {
    ...(await referenceData(files.dir, c.referenceDataDir)),
    nonIbanAccounts: c.allowNonIbanAccounts,
  };
  const store = await BridgeStore.open(join(files.data, BRIDGE_DATA_DIR), {
    fsync: node.config.storage.fsync,
    nowMs: () => node.clock.nowMs(),
  });
  const options = {
    ledger: bridgeLedgerPort(node),
    signer,
    store,
    reference,
    xmlLimits: {
      bodyBytesMax: c.xmlBodyBytesMax,
      depthMax: c.xmlDepthMax,
      attributeValueCharsMax: c.xmlAttributeBytesMax,
    },
    retryIntervalMs: c.retryIntervalMs,
    ...(onError === undefined ? {} : { onError }),
  };
  try {
    return await Bridge.start(options);
  } catch (e) {
    await store.close();
    throw e;
  }
}
