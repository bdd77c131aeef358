// The workload of the hosts test: transfers of one asset among a few accounts, sent through the
// gateways of the peers named in `targets` (round-robin, changed while it runs), every acknowledged
// (202) transfer recorded with its amount. Each transfer moves 1..5 units out of balances of a million,
// so none can be refused for funds: after the run, every acknowledged transfer must be committed and
// every balance must be what the acknowledged transfers make of it, on every peer (`expected`), the
// total conserved.

import { ToranaClient } from '../../src/sdk/client.js';
import { ToranaApiError } from '../../src/sdk/errors.js';
import { instructions as ix } from '../../src/sdk/instructions.js';
import { accountOf, type Ed25519KeyPair, generateKeyPair } from '../../src/sdk/keys.js';

export interface Account {
  id: string;
  key: Ed25519KeyPair;
}

export interface Acknowledged {
  hash: string;
  from: string;
  to: string;
  amount: bigint;
  url: string;
}

export const INITIAL_BALANCE = 1_000_000n;

export class Transfers {
  readonly accounts: Account[] = [];
  readonly acknowledged: Acknowledged[] = [];
  /** Answers other than 202, by code (`transport` when no answer came). */
  readonly refused: Record<string, number> = {};
  private targets: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly pending = new Set<Promise<void>>();
  private sent = 0;

  constructor(
    private readonly o: { chainId: string; admin: Account; asset: string; accounts?: number; rate?: number },
  ) {}

  /** Registers the asset and the accounts and funds them, through `url`; committed when it resolves. */
  async setup(url: string): Promise<void> {
    for (let i = 0; i < (this.o.accounts ?? 4); i++) {
      const key = generateKeyPair();
      this.accounts.push({ id: accountOf(key, 'system'), key });
    }
    const admin = new ToranaClient({
      url,
      chainId: this.o.chainId,
      account: this.o.admin.id,
      signer: this.o.admin.key,
    });
    const tx = await admin.build([
      ix.registerAssetDefinition(this.o.asset),
      ...this.accounts.map((a) => ix.registerAccount(a.id)),
      ...this.accounts.map((a) => ix.mintAsset(this.o.asset, a.id, INITIAL_BALANCE.toString())),
    ]);
    await admin.submitAndWait(tx, { timeoutMs: 120_000 });
  }

  /** Sends at `rate` a second (default 10) to the current targets until stop(). */
  start(targets: string[]): void {
    this.targets = [...targets];
    const rate = this.o.rate ?? 10;
    this.timer = setInterval(() => {
      if (this.targets.length === 0 || this.pending.size >= 32) return;
      this.track(this.sendOne());
    }, 1000 / rate);
  }

  /** From now on send to `targets` only; resolves once nothing sent to another peer is unanswered. */
  async retarget(targets: string[]): Promise<void> {
    this.targets = [...targets];
    await Promise.all([...this.pending]);
  }

  async stop(): Promise<{ sent: number; acknowledged: number; refused: Record<string, number> }> {
    clearInterval(this.timer);
    this.targets = [];
    await Promise.all([...this.pending]);
    return { sent: this.sent, acknowledged: this.acknowledged.length, refused: { ...this.refused } };
  }

  private track(p: Promise<void>): void {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  private async sendOne(): Promise<void> {
    const n = this.sent++;
    const url = this.targets[n % this.targets.length]!;
    const from = this.accounts[n % this.accounts.length]!;
    const to = this.accounts[(n + 1 + (n % 3)) % this.accounts.length]!;
    const amount = BigInt(1 + (n % 5));
    const client = new ToranaClient({
      url,
      chainId: this.o.chainId,
      account: from.id,
      signer: from.key,
      retries: 0,
    });
    try {
      const tx = await client.build([ix.transferAsset(this.o.asset, from.id, to.id, amount.toString())], {
        nonce: n,
      });
      await client.submit(tx);
      this.acknowledged.push({ hash: tx.hash, from: from.id, to: to.id, amount, url });
    } catch (e) {
      const code = e instanceof ToranaApiError ? e.code : 'transport';
      this.refused[code] = (this.refused[code] ?? 0) + 1;
    }
  }

  /** Each account's balance once every acknowledged transfer is committed. */
  expected(): Map<string, bigint> {
    const out = new Map(this.accounts.map((a) => [a.id, INITIAL_BALANCE]));
    for (const t of this.acknowledged) {
      out.set(t.from, out.get(t.from)! - t.amount);
      out.set(t.to, out.get(t.to)! + t.amount);
    }
    return out;
  }

  /** `account`'s balance on the peer at `url` (a query signed by that account). */
  async balance(url: string, account: string): Promise<bigint> {
    const key = this.accounts.find((a) => a.id === account)?.key;
    if (key === undefined) throw new Error(`${account} is not an account of the workload`);
    const out = await new ToranaClient({ url, chainId: this.o.chainId, account, signer: key }).find({
      kind: 'FindAssetById',
      id: `${this.o.asset}#${account}`,
    });
    if (out.kind !== 'Asset') throw new Error(`FindAssetById answered ${out.kind}`);
    return out.value.value.mantissa;
  }
}
