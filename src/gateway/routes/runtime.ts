// Runtime routes: the active ABI
// descriptor and hash (runtime/abi.ts), runtime metrics and upgrade records from the world state, and the
// operator-signed propose / activate / cancel routes. Those never change anything: they check the request
// against the committed state and answer `{ok, id_hex, tx_instructions}`, the instructions the caller must
// sign (as an account holding CanManageRuntimeUpgrades) and submit to POST /transaction. The executor
// (state/exec-upgrades.ts) checks everything again when the transaction runs.

import { Type } from 'typebox';
import type { Codec } from '../../codec/codec.js';
import { isCodecError } from '../../codec/errors.js';
import { type UpgradeManifest, UpgradeManifestCodec, type UpgradeRecord } from '../../model/entities.js';
import type { Instruction } from '../../model/instructions.js';
import { upgradeId } from '../../model/upgrade-id.js';
import { abiDescriptor, abiHashHex, abiPolicy } from '../../runtime/abi.js';
import type { RouteDeps } from '../deps.js';
import type { FormatOffer } from '../negotiate.js';
import { defineRoute, type RouteDef } from '../route-table.js';
import { respond, viewRoute, viewSchema } from '../view.js';
import {
  AbiActiveView,
  AbiHashView,
  RuntimeMetricsView,
  UpgradeActionView,
  UpgradesView,
} from '../views/runtime.js';

const JSON_OR_CODEC: FormatOffer = { default: 'json', offers: ['json', 'codec'] };
const tags = ['runtime'];
/** A manifest is at most ~4.3 KiB of text (name 128 bytes, description 4096 bytes) plus its JSON. */
const MANIFEST_BODY_BYTES_MAX = 16 * 1024;
const IdParams = Type.Object({ id: Type.String({ pattern: '^[0-9a-fA-F]{64}$' }) });

function manifestOf(d: RouteDeps, body: unknown): UpgradeManifest {
  let m: UpgradeManifest;
  try {
    m = UpgradeManifestCodec.fromJson(body, '$');
  } catch (e) {
    if (!isCodecError(e)) throw e;
    throw d.errors.create('upgrade_invalid_manifest', { reason: e.message, at: e.at ?? null });
  }
  const active = d.ports.state.abiVersion();
  // The proposal runs in a later block (at least height + 1), where start_height must still lie ahead.
  const minStart = d.ports.chain.height() + 2;
  const bad = (field: string, reason: string, extra: Record<string, unknown>) =>
    d.errors.create('upgrade_invalid_manifest', { field, reason, ...extra });
  if (m.abiVersion <= active)
    throw bad('abi_version', 'must exceed the active ABI version', { active_abi_version: active });
  if (m.startHeight < minStart) throw bad('start_height', 'must lie ahead of the chain', { min: minStart });
  if (m.endHeight !== undefined && m.endHeight <= m.startHeight)
    throw bad('end_height', 'must exceed start_height', { start_height: m.startHeight });
  return m;
}

/** The record an activate or cancel names, which must still be Proposed (else 404 / 409). */
function proposedRecord(d: RouteDeps, idText: string): UpgradeRecord {
  const id = idText.toLowerCase();
  const record = d.ports.state.upgrade(id);
  if (record === undefined) throw d.errors.create('upgrade_not_found', { id_hex: id });
  if (record.status.kind !== 'Proposed')
    throw d.errors.create('upgrade_invalid_state', { id_hex: id, status: record.status.kind });
  return record;
}

function upgradeRoutes(d: RouteDeps): RouteDef[] {
  const answer = (
    req: Parameters<RouteDef['handler']>[0],
    reply: Parameters<RouteDef['handler']>[1],
    id: string,
    ins: Instruction,
  ) => respond(d.schema, req, reply, UpgradeActionView, { ok: true, idHex: id, txInstructions: [ins] });
  const action = (verb: 'activate' | 'cancel', build: (r: UpgradeRecord) => Instruction) =>
    defineRoute({
      method: 'POST',
      url: `/v1/runtime/upgrades/${verb}/:id`,
      operationId: `${verb}RuntimeUpgrade`,
      summary: `The instruction that would ${verb} a proposed upgrade, for the caller to sign (operator-signed)`,
      tags,
      visibility: 'operator',
      formats: JSON_OR_CODEC,
      errorStatuses: [404, 409],
      schema: { params: IdParams, response: { 200: viewSchema(UpgradeActionView) } },
      handler: (req, reply) => {
        const record = proposedRecord(d, req.params.id);
        if (verb === 'activate' && record.manifest.abiVersion <= d.ports.state.abiVersion()) {
          throw d.errors.create('upgrade_invalid_state', {
            id_hex: record.id,
            reason: 'a later ABI version is already active',
            active_abi_version: d.ports.state.abiVersion(),
          });
        }
        return answer(req, reply, record.id, build(record));
      },
    });
  return [
    defineRoute({
      method: 'POST',
      url: '/v1/runtime/upgrades/propose',
      operationId: 'proposeRuntimeUpgrade',
      summary: 'The instruction proposing an upgrade manifest, for the caller to sign (operator-signed)',
      tags,
      visibility: 'operator',
      bodyBytesMax: MANIFEST_BODY_BYTES_MAX,
      formats: JSON_OR_CODEC,
      errorStatuses: [409],
      schema: { body: viewSchema(UpgradeManifestCodec), response: { 200: viewSchema(UpgradeActionView) } },
      handler: (req, reply) => {
        const manifest = manifestOf(d, req.body);
        const id = upgradeId(manifest);
        if (d.ports.state.upgrade(id) !== undefined)
          throw d.errors.create('upgrade_already_exists', { id_hex: id });
        return answer(req, reply, id, { kind: 'ProposeRuntimeUpgrade', manifest });
      },
    }),
    action('activate', (r) => ({ kind: 'ActivateRuntimeUpgrade', id: r.id })),
    action('cancel', (r) => ({ kind: 'CancelRuntimeUpgrade', id: r.id })),
  ];
}

export function runtimeRoutes(d: RouteDeps): RouteDef[] {
  const view = <T>(url: string, operationId: string, summary: string, codec: Codec<T>, value: () => T) =>
    viewRoute(d.schema, { url, operationId, summary, tags, visibility: 'public' }, codec, value);
  return [
    view(
      '/v1/runtime/abi/active',
      'getRuntimeAbiActive',
      'Active runtime ABI: version, policy and descriptor',
      AbiActiveView,
      () => {
        const v = d.ports.state.abiVersion();
        return { abiVersion: v, policy: abiPolicy(v), descriptor: abiDescriptor(v) };
      },
    ),
    view(
      '/v1/runtime/abi/hash',
      'getRuntimeAbiHash',
      'Hash of the active runtime ABI descriptor',
      AbiHashView,
      () => {
        const v = d.ports.state.abiVersion();
        return { policy: abiPolicy(v), abiHashHex: abiHashHex(abiDescriptor(v)) };
      },
    ),
    view(
      '/v1/runtime/metrics',
      'getRuntimeMetrics',
      'Active ABI version and upgrade counts from the upgrade records',
      RuntimeMetricsView,
      () => {
        const records = d.ports.state.listUpgrades();
        const count = (k: UpgradeRecord['status']['kind']) =>
          records.filter((r) => r.status.kind === k).length;
        return {
          abiVersion: d.ports.state.abiVersion(),
          // Every record was proposed once; activation and cancellation are final states.
          upgradeEventsTotal: {
            proposed: records.length,
            activated: count('ActivatedAt'),
            canceled: count('Canceled'),
          },
        };
      },
    ),
    view('/v1/runtime/upgrades', 'listRuntimeUpgrades', 'Runtime upgrade records', UpgradesView, () => ({
      items: d.ports.state.listUpgrades().map((record) => ({ idHex: record.id, record })),
    })),
    ...upgradeRoutes(d),
  ];
}
