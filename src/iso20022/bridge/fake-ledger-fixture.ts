// Test support (excluded from the build by its -fixture suffix): an in-memory ledger port whose
// submissions, statuses and events a test drives by hand, and a flat pacs.008 to submit.

import { Ed25519KeyPair } from '../../crypto/signer.js';
import type { EventEnvelope } from '../../model/events.js';
import { accountId } from '../../model/ids.js';
import { fromHex, toHex } from '../../util/hex.js';
import type { BridgeLedgerPort, LedgerSubmitOutcome, LedgerTxStatus } from './ports.js';
import { accountSigner, type BridgeSigner } from './signer.js';

export type SubmitMode = 'queue' | 'busy' | 'hang' | 'expired';

export class FakeLedger implements BridgeLedgerPort {
  readonly chainId = 'fake-chain';
  now = 1_750_000_000_000;
  mode: SubmitMode = 'queue';
  readonly submitted: Uint8Array[] = [];
  readonly statuses = new Map<string, LedgerTxStatus>();
  private readonly listeners = new Set<(e: EventEnvelope) => void>();
  private nextId = 1;

  nowMs(): number {
    return this.now;
  }

  async submit(bytes: Uint8Array): Promise<LedgerSubmitOutcome> {
    if (this.mode === 'hang') return new Promise(() => undefined);
    if (this.mode === 'busy') return { kind: 'busy' };
    this.submitted.push(bytes);
    if (this.mode === 'expired')
      return { kind: 'rejected', code: 'transaction_expired', message: 'ttl passed' };
    return { kind: 'queued' };
  }

  async status(hash: Uint8Array): Promise<LedgerTxStatus> {
    return this.statuses.get(toHex(hash)) ?? { kind: 'unknown' };
  }

  subscribe(listener: (e: EventEnvelope) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  assetScale(definitionId: string): number | undefined {
    return definitionId.startsWith('eur#') ? 2 : undefined;
  }

  blockTimeMs(): number {
    return this.now;
  }

  /** Commits a transaction in block `height` and announces it as the pipeline would. */
  commit(hashHex: string, height: number): void {
    this.statuses.set(hashHex, { kind: 'committed', height });
    this.emit({
      kind: 'Transaction',
      hash: fromHex(hashHex, 32)!,
      status: { kind: 'Committed' },
      blockHeight: height,
    });
    this.emit({ kind: 'Block', height, hash: new Uint8Array(32), status: { kind: 'Applied' } });
  }

  /** Rejects a transaction in block `height` (ledger rejection `code`, instruction 0). */
  reject(hashHex: string, height: number, code: string): void {
    const reason = { code, instructionIndex: 0, message: code };
    this.statuses.set(hashHex, { kind: 'rejected', height, code, message: code, instructionIndex: 0 });
    this.emit({
      kind: 'Transaction',
      hash: fromHex(hashHex, 32)!,
      status: { kind: 'Rejected', reason },
      blockHeight: height,
    });
    this.emit({ kind: 'Block', height, hash: new Uint8Array(32), status: { kind: 'Applied' } });
  }

  private emit(event: EventEnvelope['event']): void {
    const env = { id: this.nextId++, event };
    for (const l of this.listeners) l(env);
  }
}

export function testSigner(): BridgeSigner {
  const key = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(7));
  return accountSigner(accountId(key.publicKeyText(), 'bank'), key);
}

export function account(seed: number): string {
  return accountId(Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(seed)).publicKeyText(), 'bank');
}

/** A flat pacs.008 moving EUR 12.50 between two pinned accounts. */
export function flatPacs008(messageId: string): Record<string, string> {
  return {
    message_id: messageId,
    amount: '12.50',
    currency: 'EUR',
    settlement_date: '2025-03-14',
    debtor_iban: 'DE89370400440532013000',
    debtor_bic: 'DEUTDEFFXXX',
    creditor_iban: 'GB29NWBK60161331926819',
    creditor_bic: 'NWBKGB2LXXX',
    source_account_id: account(1),
    target_account_id: account(2),
    asset_definition_id: 'eur#bank',
  };
}
