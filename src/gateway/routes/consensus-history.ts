// Consensus history routes: commit certificates read from the chain (every block
// carries its certificate), checkpoints, validator-set history and the consensus keys with their lifecycle.

import { Type } from 'typebox';
import type { ConsensusSnapshot } from '../../consensus/engine.js';
import type { ValidatorSet } from '../../consensus/validator-set.js';
import { toHex } from '../../util/hex.js';
import type { RouteDeps } from '../deps.js';
import { gatewayError } from '../errors.js';
import type { ConsensusKeyRecord } from '../ports.js';
import { defineRoute, type RouteDef } from '../route-table.js';
import { respond, viewRoute, viewSchema } from '../view.js';
import {
  BlsKeysView,
  CheckpointsView,
  CommitCertificatesView,
  ConsensusKeysView,
  KeyLifecycleView,
  ValidatorSetEntryView,
  ValidatorSetsView,
} from '../views/consensus.js';
import {
  CERTIFICATE_LIST_LIMIT_MAX,
  certificateSummary,
  fromHeight,
  HeightParam,
  JSON_OR_CODEC,
  LimitParam,
  pageLimit,
  TAGS as tags,
} from './consensus-shared.js';

/**
 * Keys in force for the next block (height tip + 1), sorted by peer id: the committed peer rows with
 * `activeFrom <= tip + 1` and no `disabledAt <= tip + 1` (consensus/membership.ts `validatorSetAt`).
 */
function activeKeys(d: RouteDeps): ConsensusKeyRecord[] {
  const next = d.ports.chain.height() + 1;
  return d.ports.consensus
    .keyLifecycle()
    .filter((k) => k.activeFrom <= next && (k.disabledAt === undefined || k.disabledAt > next));
}

/** The validator set in force at `height`: the newest history entry at or below it. */
function setAt(snap: ConsensusSnapshot, height: number): ValidatorSet | undefined {
  return snap.validatorSetHistory.filter((e) => e.height <= height).at(-1)?.set;
}

async function setEntry(d: RouteDeps, height: number, set: ValidatorSet) {
  const block = await d.ports.chain.block(height);
  if (block === undefined) return undefined;
  return {
    height,
    blockHash: toHex(block.certificate.blockHash),
    validatorSetHash: toHex(set.hash),
    validatorSet: [...set.validators],
  };
}

function certificateRoutes(d: RouteDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/v1/consensus/commit-certificates',
      operationId: 'listCommitCertificates',
      summary: 'Commit certificates from the chain, newest first, from height `from` (default: the tip)',
      tags,
      visibility: 'public',
      formats: JSON_OR_CODEC,
      schema: {
        querystring: Type.Object({ from: HeightParam, limit: LimitParam }, { additionalProperties: false }),
        response: { 200: viewSchema(CommitCertificatesView) },
      },
      handler: async (req, reply) => {
        const limit = pageLimit(req.query.limit, CERTIFICATE_LIST_LIMIT_MAX, CERTIFICATE_LIST_LIMIT_MAX);
        const tip = d.ports.chain.height();
        const from = Math.min(fromHeight(req.query.from) ?? tip, tip);
        const items = [];
        for (let h = from; h >= 1 && items.length < limit; h--) {
          const block = await d.ports.chain.block(h);
          if (block !== undefined) items.push(certificateSummary(block.certificate));
        }
        return respond(d.schema, req, reply, CommitCertificatesView, { items });
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/consensus/checkpoints',
      operationId: 'listConsensusCheckpoints',
      summary: 'Recent compact commit certificates (newest first) for verifying block sync',
      tags,
      visibility: 'developer',
      formats: JSON_OR_CODEC,
      schema: {
        querystring: Type.Object({ limit: LimitParam }, { additionalProperties: false }),
        response: { 200: viewSchema(CheckpointsView) },
      },
      handler: (req, reply) => {
        const limit = pageLimit(req.query.limit, CERTIFICATE_LIST_LIMIT_MAX, CERTIFICATE_LIST_LIMIT_MAX);
        const recent = d.ports.consensus.snapshot().recentCertificates.slice(0, limit);
        return respond(d.schema, req, reply, CheckpointsView, { items: recent.map(certificateSummary) });
      },
    }),
  ];
}

function validatorSetRoutes(d: RouteDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/v1/consensus/validator-sets',
      operationId: 'listValidatorSets',
      summary: 'Validator-set history, oldest first, from activation height `from` (default 1)',
      tags,
      visibility: 'public',
      formats: JSON_OR_CODEC,
      schema: {
        querystring: Type.Object({ from: HeightParam, limit: LimitParam }, { additionalProperties: false }),
        response: { 200: viewSchema(ValidatorSetsView) },
      },
      handler: async (req, reply) => {
        const limit = pageLimit(req.query.limit, CERTIFICATE_LIST_LIMIT_MAX, CERTIFICATE_LIST_LIMIT_MAX);
        const history = d.ports.consensus.snapshot().validatorSetHistory;
        const first = fromHeight(req.query.from) ?? 1;
        const chosen = history.filter((e) => e.height >= first).slice(0, limit);
        const items = [];
        for (const e of chosen) {
          const entry = await setEntry(d, e.height, e.set);
          if (entry !== undefined) items.push(entry);
        }
        return respond(d.schema, req, reply, ValidatorSetsView, { items });
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/consensus/validator-sets/:height',
      operationId: 'getValidatorSetAt',
      summary: 'The validator set in force at a committed block height',
      tags,
      visibility: 'public',
      formats: JSON_OR_CODEC,
      errorStatuses: [404],
      schema: {
        params: Type.Object({ height: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }),
        response: { 200: viewSchema(ValidatorSetEntryView) },
      },
      handler: async (req, reply) => {
        const { height } = req.params;
        const set = setAt(d.ports.consensus.snapshot(), height);
        const entry = set === undefined ? undefined : await setEntry(d, height, set);
        if (entry === undefined)
          throw gatewayError('not_found', { height, chain_height: d.ports.chain.height() });
        return respond(d.schema, req, reply, ValidatorSetEntryView, entry);
      },
    }),
  ];
}

function keyRoutes(d: RouteDeps): RouteDef[] {
  return [
    viewRoute(
      d.schema,
      {
        url: '/v1/consensus/consensus-keys',
        operationId: 'listConsensusKeys',
        summary: 'Consensus keys of the validator set of the next height, from the registered peers',
        tags,
        visibility: 'public',
      },
      ConsensusKeysView,
      () => ({
        items: activeKeys(d).map((k, index) => ({
          index,
          peerId: k.peerId,
          algorithm: 'bls12_381',
          publicKey: k.blsKey,
          activeFromHeight: k.activeFrom,
        })),
      }),
    ),
    viewRoute(
      d.schema,
      {
        url: '/v1/consensus/bls_keys',
        operationId: 'listBlsKeys',
        summary: 'BLS12-381 consensus keys of the validator set of the next height, by peer',
        tags,
        visibility: 'developer',
      },
      BlsKeysView,
      () => ({
        items: activeKeys(d).map((k) => ({
          peerId: k.peerId,
          blsKey: k.blsKey,
          activeFromHeight: k.activeFrom,
        })),
      }),
    ),
    viewRoute(
      d.schema,
      {
        url: '/v1/consensus/key-lifecycle',
        operationId: 'getConsensusKeyLifecycle',
        summary: 'Consensus key history of every registered peer: registered, active from, disabled',
        tags,
        visibility: 'public',
      },
      KeyLifecycleView,
      () => {
        const next = d.ports.chain.height() + 1;
        return {
          items: d.ports.consensus.keyLifecycle().map((k) => ({
            peerId: k.peerId,
            blsKey: k.blsKey,
            status: k.disabledAt !== undefined && k.disabledAt <= next ? 'disabled' : 'active',
            registeredHeight: k.registeredAt,
            activeFromHeight: k.activeFrom,
            ...(k.disabledAt === undefined ? {} : { disabledHeight: k.disabledAt }),
          })),
        };
      },
    ),
  ];
}

export function historyRoutes(d: RouteDeps): RouteDef[] {
  return [...certificateRoutes(d), ...validatorSetRoutes(d), ...keyRoutes(d)];
}
