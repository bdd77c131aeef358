// The code of `torana telemetry …` (telemetry-commands.ts), over the SDK's typed readers.

import type { Json } from '../codec/codec.js';
import { telemetryPeersInfo, telemetryPropagation } from '../sdk/telemetry.js';
import { PeerInfoView, PropagationView } from '../telemetry/views.js';
import { printJson, printRecord, printTable } from './output.js';
import { type ClientFlags, resolveClient } from './settings.js';

type Flags = ClientFlags & { json?: boolean };

export async function peers(flags: Flags): Promise<void> {
  const { client } = await resolveClient(flags, false);
  const items = (await telemetryPeersInfo(client)).items.map(
    (p) => PeerInfoView.toJson(p) as Record<string, Json>,
  );
  if (flags.json) printJson(items);
  else
    printTable(
      items.map((p) => ({ ...p, config: p.config === undefined ? undefined : JSON.stringify(p.config) })),
      ['peer_id', 'self', 'url', 'address', 'role', 'connected', 'last_seen_ms', 'connected_peers'],
    );
}

export async function propagation(flags: Flags): Promise<void> {
  const { client } = await resolveClient(flags, false);
  const json = PropagationView.toJson(await telemetryPropagation(client)) as Record<string, Json>;
  if (flags.json) printJson(json);
  else printRecord({ ...json, reports: JSON.stringify(json.reports) });
}
