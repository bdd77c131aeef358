// RegisterConferenceRelay, ReportConferenceRelayHealth (docs/conference.md §Relays). Any registered
// account may operate relays; only the operator reports a relay's health.

import { fail, type Handler } from '../../state/exec-context.js';

export const registerConferenceRelay: Handler<'RegisterConferenceRelay'> = (x, ins) => {
  if (x.t.conferenceRelay.has(ins.relay)) return fail('already_exists', `relay ${ins.relay} exists`);
  if (ins.publicKey.every((b) => b === 0))
    return fail('conference_invalid_relay', 'the relay X25519 key is all zero');
  x.t.conferenceRelay.set(ins.relay, {
    id: ins.relay,
    operator: x.authority,
    publicKey: ins.publicKey.slice(),
    endpoint: ins.endpoint,
    region: ins.region,
    registeredHeight: x.block.height,
  });
  x.emit({ kind: 'ConferenceRelayRegistered', relay: ins.relay, operator: x.authority });
  return undefined;
};

export const reportConferenceRelayHealth: Handler<'ReportConferenceRelayHealth'> = (x, ins) => {
  const relay = x.t.conferenceRelay.get(ins.relay);
  if (relay === undefined) return fail('conference_relay_not_found', `no relay ${ins.relay}`);
  if (relay.operator !== x.authority)
    return fail('conference_not_relay_operator', `only ${relay.operator} reports for ${ins.relay}`);
  if (ins.lossPermille > 1000) return fail('conference_invalid_relay', 'lossPermille must be 0..1000');
  const health = {
    available: ins.available,
    latencyMs: ins.latencyMs,
    lossPermille: ins.lossPermille,
    height: x.block.height,
    timeMs: BigInt(x.block.blockTimeMs),
  };
  x.t.conferenceRelay.set(ins.relay, { ...relay, health });
  x.emit({
    kind: 'ConferenceRelayHealthUpdated',
    relay: ins.relay,
    available: ins.available,
    latencyMs: ins.latencyMs,
    lossPermille: ins.lossPermille,
  });
  return undefined;
};
