// The code of `torana telemetry …` (commands.ts), over the module's SDK readers (sdk.ts).

import { printJson, printRecord, printTable } from '../../cli/output.js';
import { type ClientFlags, resolveClient } from '../../cli/settings.js';
import type { Json } from '../../codec/codec.js';
import { telemetryPeersInfo, telemetryPropagation } from './sdk.js';
import { PeerInfoView, PropagationView } from './views.js';

type Flags = ClientFlags & { json?: boolean };

export async function peers(flags: Flags): Promise<void> {
  const { client } = await resolveClient(flags, false);
  const items = (await telemetryPeersInfo(client)).items.map(
    (p) => PeerInfoView.toJson(p) as Record<string, Json>,
  );
  if (flags.json) printJson(items);
  else
    printTable(
      items.map((p) => {
        // A peer's newest report (docs/telemetry.md "Peer reports"): its height and how old the report is.
        const newest = Array.isArray(p.reports)
          ? (p.reports[0] as Record<string, Json> | undefined)
          : undefined;
        return {
          ...p,
          config: p.config === undefined ? undefined : JSON.stringify(p.config),
          height: newest?.height,
          report_age_ms: newest?.age_ms,
        };
      }),
      [
        'peer_id',
        'self',
        'url',
        'address',
        'role',
        'connected',
        'last_seen_ms',
        'connected_peers',
        'height',
        'report_age_ms',
      ],
    );
}

export async function propagation(flags: Flags): Promise<void> {
  const { client } = await resolveClient(flags, false);
  const json = PropagationView.toJson(await telemetryPropagation(client)) as Record<string, Json>;
  if (flags.json) printJson(json);
  else printRecord({ ...json, reports: JSON.stringify(json.reports) });
}
