// Relay telemetry series, read from the committed state
// when scraped. Labels are a fixed set, so the series count stays bounded whatever relays register.

import { Gauge, type Registry } from 'prom-client';
import { relayStatus } from './items.js';
import type { ConferenceReadPort } from './read-port.js';
import { RELAY_STATUSES } from './views.js';

/** `conference_relays{availability}`: registered relays by their last health report. */
export function installRelayMetrics(registry: Registry, reader: ConferenceReadPort): void {
  new Gauge({
    name: 'conference_relays',
    help: 'Registered conference relays by availability (available, unavailable, unknown: never reported).',
    labelNames: ['availability'],
    registers: [registry],
    collect() {
      const counts = new Map<string, number>(RELAY_STATUSES.map((s) => [s, 0]));
      for (const r of reader.relays()) counts.set(relayStatus(r), counts.get(relayStatus(r))! + 1);
      for (const [availability, n] of counts) this.set({ availability }, n);
    },
  });
}
