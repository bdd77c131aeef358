// Consensus history routes (reference-notes §7): commit certificates read from the chain (every block
// carries its certificate), checkpoints, validator-set history and the consensus keys with their lifecycle.

import { Type } from 'typebox';
import type { ConsensusSnapshot } from '../../consensus/engine.js';
import type { ValidatorSet } from '../../consensus/validator-set.js';
import { toHex } from '../../util/hex.js';
import type { RouteDeps } from '../deps.js';
import { gatewayError } from '../errors.js';
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

interface KeyLife {
  peerId: string;
  blsKey: string;
  activeFromHeight: number;
  disabledHeight: number | undefined;
}

/**
 * Each (peer, key) pair of the validator-set history: active from the first set that holds it, disabled at
 * the first later set that no longer does. Genesis keys are registered and active at height 1.
 */
function keyLifecycle(snap: ConsensusSnapshot): KeyLife[] {
  const lives = new Map<string, KeyLife>();
  for (const { height, set } of snap.validatorSetHistory) {
    const present = new Set<string>();
    for (const v of set.validators) {
      const id = `${v.peer}/${v.blsKey}`;
      present.add(id);
      const life = lives.get(id);
      if (life === undefined || life.disabledHeight !== undefined)
        lives.set(id, {
          peerId: v.peer,
          blsKey: v.blsKey,
          activeFromHeight: height,
          disabledHeight: undefined,
        });
    }
    for (const [id, life] of lives)
      if (!present.has(id) && life.disabledHeight === undefined) life.disabledHeight = height;
  }
  return [...lives.values()];
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
  const snap = () => d.ports.consensus.snapshot();
  /** Keys of the validator set in force now, with the height each became active. */
  const activeKeys = () => {
    const s = snap();
    const lives = keyLifecycle(s);
    return s.validatorSet.validators.map((v, index) => ({
      index,
      peerId: v.peer,
      blsKey: v.blsKey,
      activeFromHeight:
        lives.find((l) => l.peerId === v.peer && l.blsKey === v.blsKey && l.disabledHeight === undefined)
          ?.activeFromHeight ?? 1,
    }));
  };
  return [
    viewRoute(
      d.schema,
      {
        url: '/v1/consensus/consensus-keys',
        operationId: 'listConsensusKeys',
        summary: 'Active consensus keys of the current validator set',
        tags,
        visibility: 'public',
      },
      ConsensusKeysView,
      () => ({
        items: activeKeys().map((k) => ({
          index: k.index,
          peerId: k.peerId,
          algorithm: 'bls12_381',
          publicKey: k.blsKey,
          activeFromHeight: k.activeFromHeight,
        })),
      }),
    ),
    viewRoute(
      d.schema,
      {
        url: '/v1/consensus/bls_keys',
        operationId: 'listBlsKeys',
        summary: 'Active BLS12-381 consensus keys by peer',
        tags,
        visibility: 'developer',
      },
      BlsKeysView,
      () => ({
        items: activeKeys().map(({ peerId, blsKey, activeFromHeight }) => ({
          peerId,
          blsKey,
          activeFromHeight,
        })),
      }),
    ),
    viewRoute(
      d.schema,
      {
        url: '/v1/consensus/key-lifecycle',
        operationId: 'getConsensusKeyLifecycle',
        summary: 'Consensus key history: registered, active from, disabled',
        tags,
        visibility: 'public',
      },
      KeyLifecycleView,
      () => ({
        items: keyLifecycle(snap()).map((l) => ({
          peerId: l.peerId,
          blsKey: l.blsKey,
          status: l.disabledHeight === undefined ? 'active' : 'disabled',
          registeredHeight: l.activeFromHeight,
          activeFromHeight: l.activeFromHeight,
          ...(l.disabledHeight === undefined ? {} : { disabledHeight: l.disabledHeight }),
        })),
      }),
    ),
  ];
}

export function historyRoutes(d: RouteDeps): RouteDef[] {
  return [...certificateRoutes(d), ...validatorSetRoutes(d), ...keyRoutes(d)];
}
