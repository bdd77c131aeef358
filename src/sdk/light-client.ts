// A light client (docs/ledger-proofs.md "Light client"): reads from a node it does not trust and
// believes only what the node proves. From a trusted validator set (the genesis roster, or the set of a
// trusted height) it follows the chain's certified headers (`GET /v1/ledger/headers`), taking a new
// validator set only from a header that the new set certifies and that more than a third of the set it
// already trusts signed too. Reads are checked against a header it verified itself:
//   - state reads (account, holding, asset definition, any state key): the state tree proof against the
//     header's state root, for the key the client computed itself and the value bytes it decodes itself;
//   - a transaction's status: its hash in the header's transactions root and its result in the results
//     root, at one index.
// Any answer that fails a check is refused with ToranaLightClientError (`light_client_proof_invalid`).
// What no proof can show: that a transaction the node calls unknown or queued was not committed.

import type { Codec } from '../codec/codec.js';
import { decode, encode } from '../codec/frame.js';
import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { signerIndexes } from '../consensus/certificate-check.js';
import type { Validator, ValidatorSet } from '../consensus/validator-set.js';
import { TransactionStatusView } from '../gateway/views/transactions.js';
import {
  type BlockHeader,
  blockHash,
  type TransactionResult,
  TransactionResultCodec,
} from '../model/block.js';
import {
  type Account,
  AccountCodec,
  type Asset,
  AssetCodec,
  type AssetDefinition,
  AssetDefinitionCodec,
  type Domain,
  DomainCodec,
} from '../model/entities.js';
import { assetId, canonicalAccountId } from '../model/ids.js';
import { TABLE_TAGS } from '../model/tags.js';
import { LedgerEntryProofView, LedgerHeadersView, LedgerStateProofView } from '../proofs/views.js';
import { stateKey } from '../state/keys.js';
import { bytesEqual, fromHex, toHex } from '../util/hex.js';
import { decodeAnswer } from './answers.js';
import { isToranaApiError, ToranaLightClientError } from './errors.js';
import { Http, type HttpOptions } from './http.js';
import { validatorSetOf, verifyCertifiedHeader, verifyEntryProof, verifyStateAnswer } from './proofs.js';

export interface LightClientOptions extends Omit<HttpOptions, 'baseUrl'> {
  /** The node to read from (not trusted). */
  url: string;
  /** The chain's id: part of every vote message. */
  chainId: string;
  /** The validator set trusted from `trustedHeight + 1` on: the genesis roster by default. */
  validators: readonly Validator[];
  /** The height whose successors `validators` certifies (0: genesis, the default). */
  trustedHeight?: number;
  /** Headers asked for per request while following the chain (default 100, at most 500). */
  headersPerRequest?: number;
}

/** A header this client verified itself. */
export interface VerifiedHeader {
  height: number;
  hash: string;
  header: BlockHeader;
}

/** A state read, verified: the value (undefined: the key holds nothing) at the verified height. */
export interface VerifiedRead<T> {
  height: number;
  value: T | undefined;
}

export interface VerifiedTransactionStatus {
  hash: string;
  status: 'Committed' | 'Rejected';
  blockHeight: number;
  result: TransactionResult;
}

/** The validator sets this client trusts, each with the first height it certifies. */
interface TrustedSet {
  from: number;
  set: ValidatorSet;
}

/** How many state reads retry when the value moved on between the header and the proof. */
const READ_ATTEMPTS = 3;

export class LightClient {
  private readonly http: Http;
  private readonly sets: TrustedSet[];
  /** The newest height whose header this client has looked at while following the chain. */
  private followed: number;
  private latest: VerifiedHeader | undefined;

  constructor(readonly opts: LightClientOptions) {
    this.http = new Http({ ...opts, baseUrl: opts.url });
    const set = validatorSetOf(opts.validators);
    if (set === undefined)
      throw new ToranaLightClientError('bad_trusted_roster', 'the trusted roster is not a validator set');
    this.followed = opts.trustedHeight ?? 0;
    this.sets = [{ from: this.followed + 1, set }];
  }

  /** The validator set trusted at `height`. */
  private setAt(height: number): ValidatorSet {
    let found = this.sets[0]!.set;
    for (const s of this.sets) if (s.from <= height) found = s.set;
    return found;
  }

  private refuse(reason: string, detail: string): never {
    throw new ToranaLightClientError(reason, `${detail} (node ${this.opts.url})`);
  }

  /**
   * Follows the certified headers up to the node's tip and returns the newest one this client verified
   * (its certificate checked against the validator set it trusts there).
   */
  async sync(): Promise<VerifiedHeader> {
    const per = this.opts.headersPerRequest ?? 100;
    let tipItem: { header: BlockHeader; hash: Uint8Array; certificate: unknown } | undefined;
    for (;;) {
      const from = this.followed + 1;
      const page = decodeAnswer(
        LedgerHeadersView,
        await this.http.json({ method: 'GET', path: '/v1/ledger/headers', query: { from, limit: per } }),
        '/v1/ledger/headers',
      );
      if (page.chainId !== this.opts.chainId)
        this.refuse('wrong_chain', `the node serves chain ${page.chainId}, not ${this.opts.chainId}`);
      for (const item of page.items) {
        const h = this.followed + 1;
        if (item.height !== h || item.header.height !== h)
          this.refuse('header_out_of_order', `header ${item.height} where ${h} was due`);
        if (!bytesEqual(item.hash, blockHash(item.header)))
          this.refuse('block_hash_mismatch', `header ${h}: its hash is not the hash of its fields`);
        const trusted = this.setAt(h);
        if (!bytesEqual(item.certificate.validatorSetHash, trusted.hash)) {
          this.takeNewSet(h, item, trusted);
        }
        this.followed = h;
        tipItem = item;
      }
      if (page.items.length === 0 || this.followed >= page.tip) break;
    }
    if (tipItem === undefined) {
      if (this.latest !== undefined) return this.latest;
      this.refuse('no_headers', 'the node has no header past the trusted height');
    }
    const last = tipItem as { header: BlockHeader; certificate: Parameters<typeof verifyCertifiedHeader>[2] };
    const problem = verifyCertifiedHeader(
      this.opts.chainId,
      last.header,
      last.certificate,
      this.setAt(last.header.height),
    );
    if (problem !== undefined)
      this.refuse(problem, `header ${last.header.height}: its certificate does not verify`);
    this.latest = { height: last.header.height, hash: toHex(blockHash(last.header)), header: last.header };
    return this.latest;
  }

  /**
   * A header whose certificate names another validator set than the trusted one: the new roster must
   * hash to the certificate's set hash, certify the header, and count among its signers more than a
   * third (f + 1) of the trusted set, so at least one honest validator the client already trusts vouches.
   */
  private takeNewSet(
    h: number,
    item: {
      header: BlockHeader;
      certificate: Parameters<typeof verifyCertifiedHeader>[2];
      validators?: Validator[];
    },
    trusted: ValidatorSet,
  ): void {
    const roster = item.validators;
    const next = roster === undefined ? undefined : validatorSetOf(roster);
    if (next === undefined || !bytesEqual(next.hash, item.certificate.validatorSetHash))
      this.refuse('validator_set_unproved', `header ${h}: a new validator set without its roster`);
    const problem = verifyCertifiedHeader(this.opts.chainId, item.header, item.certificate, next);
    if (problem !== undefined)
      this.refuse(problem, `header ${h}: the new validator set's certificate does not verify`);
    const signers = signerIndexes(item.certificate.signers, next.size) ?? [];
    const vouching = signers.filter((i) => {
      const v = next.validators[i]!;
      return trusted.validators.some((t) => t.peer === v.peer && t.blsKey === v.blsKey);
    }).length;
    if (vouching < trusted.f + 1)
      this.refuse(
        'validator_set_unvouched',
        `header ${h}: ${vouching} of the trusted validators signed the new set's certificate, ${trusted.f + 1} needed`,
      );
    this.sets.push({ from: h, set: next });
  }

  /** The verified header of `height` (at or below the followed height). */
  async header(height: number): Promise<VerifiedHeader> {
    if (height > this.followed) await this.sync();
    if (this.latest?.height === height) return this.latest;
    if (height > this.followed || height < this.sets[0]!.from)
      this.refuse('height_not_followed', `height ${height} is outside the followed chain`);
    const page = decodeAnswer(
      LedgerHeadersView,
      await this.http.json({ method: 'GET', path: '/v1/ledger/headers', query: { from: height, limit: 1 } }),
      '/v1/ledger/headers',
    );
    const item = page.items[0];
    if (item === undefined || item.header.height !== height)
      this.refuse('header_missing', `no header ${height}`);
    const problem = verifyCertifiedHeader(
      this.opts.chainId,
      item.header,
      item.certificate,
      this.setAt(height),
    );
    if (problem !== undefined) this.refuse(problem, `header ${height}: its certificate does not verify`);
    return { height, hash: toHex(blockHash(item.header)), header: item.header };
  }

  /** The value of state key `key` (decoded with `codec`) at the newest verified height. */
  async read<T>(key: Uint8Array, codec: Codec<T>): Promise<VerifiedRead<T>> {
    for (let attempt = 1; ; attempt++) {
      const head = await this.sync();
      let json: unknown;
      try {
        json = await this.http.json({
          method: 'GET',
          path: `/v1/ledger/state-proof/${head.height}`,
          query: { key: toHex(key) },
        });
      } catch (e) {
        // The value moved on after the header: read again at the new tip.
        if (attempt < READ_ATTEMPTS && isToranaApiError(e, 'state_proof_value_changed')) continue;
        throw e;
      }
      const answer = decodeAnswer(LedgerStateProofView, json, '/v1/ledger/state-proof');
      if (answer.height !== head.height)
        this.refuse('wrong_height', `a proof at ${answer.height}, not ${head.height}`);
      const value = answer.present ? answer.value : undefined;
      if (answer.present && value === undefined)
        this.refuse('value_missing', 'a present key without its value');
      if (!verifyStateAnswer(head.header.stateRoot, key, value, answer.proof))
        this.refuse(
          'state_proof_invalid',
          `the state proof of ${toHex(key)} does not verify at height ${head.height}`,
        );
      if (value === undefined) return { height: head.height, value: undefined };
      const d = decode(codec, value, DEFAULT_DECODE_LIMITS);
      if (!d.ok) this.refuse('value_undecodable', `the proved value of ${toHex(key)} does not decode`);
      return { height: head.height, value: d.value };
    }
  }

  account(id: string): Promise<VerifiedRead<Account>> {
    return this.read(stateKey(TABLE_TAGS.account, canonicalAccountId(id) ?? id), AccountCodec);
  }

  domain(id: string): Promise<VerifiedRead<Domain>> {
    return this.read(stateKey(TABLE_TAGS.domain, id), DomainCodec);
  }

  assetDefinition(id: string): Promise<VerifiedRead<AssetDefinition>> {
    return this.read(stateKey(TABLE_TAGS.assetDefinition, id), AssetDefinitionCodec);
  }

  /** An account's holding of an asset definition (undefined value: it holds none). */
  balance(account: string, definition: string): Promise<VerifiedRead<Asset>> {
    const id = assetId(definition, canonicalAccountId(account) ?? account);
    return this.read(stateKey(TABLE_TAGS.asset, id), AssetCodec);
  }

  /**
   * The committed outcome of transaction `hashHex`, verified against its block's header. A node that
   * does not name a block for it answers ToranaApiError / an unverified status: only inclusion is provable.
   */
  async transactionStatus(hashHex: string): Promise<VerifiedTransactionStatus> {
    const entry = fromHex(hashHex, 32);
    if (entry === undefined)
      throw new ToranaLightClientError('bad_hash', `${hashHex} is not a transaction hash`);
    const said = decodeAnswer(
      TransactionStatusView,
      await this.http.json({
        method: 'GET',
        path: '/v1/pipeline/transactions/status',
        query: { hash: hashHex },
      }),
      '/v1/pipeline/transactions/status',
    );
    if (said.blockHeight === undefined)
      this.refuse(
        'not_in_a_block',
        `the node names no block for ${hashHex} (status ${said.status}): nothing to verify`,
      );
    const head = await this.header(said.blockHeight);
    const path = `/v1/ledger/block/${head.height}/proof/${toHex(entry)}`;
    const p = decodeAnswer(LedgerEntryProofView, await this.http.json({ method: 'GET', path }), path);
    if (!verifyEntryProof(head.header, entry, p))
      this.refuse(
        'entry_proof_invalid',
        `the inclusion proof of ${hashHex} does not verify in block ${head.height}`,
      );
    const d = decode(TransactionResultCodec, p.resultBytes, DEFAULT_DECODE_LIMITS);
    if (!d.ok || !bytesEqual(encode(TransactionResultCodec, d.value), p.resultBytes))
      this.refuse('result_undecodable', `the proved result of ${hashHex} does not decode`);
    const status = d.value.kind;
    if (said.status !== status)
      this.refuse('status_mismatch', `the node said ${said.status}, the proof shows ${status}`);
    return { hash: toHex(entry), status, blockHeight: head.height, result: d.value };
  }
}
