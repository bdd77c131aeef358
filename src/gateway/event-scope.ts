// The `domain`, `call` and `relay` stream-filter fields of a data event (event-filter.ts): which domain,
// conference call and relay the state change is about. Ids are parsed leniently: an event whose id does
// not parse simply lacks the field.

import { parseCallId } from '../model/conference.js';
import type { DataEvent } from '../model/events.js';
import { parseAccountId, parseAssetId, parseDefinitionId, parseNftId } from '../model/ids.js';

export interface EventScope {
  readonly domain?: string;
  readonly call?: string;
  readonly relay?: string;
}

function callScope(call: string): EventScope {
  const domain = parseCallId(call)?.domain;
  return domain === undefined ? { call } : { domain, call };
}

function domainOnly(domain: string | undefined): EventScope {
  return domain === undefined ? {} : { domain };
}

export function dataScope(d: DataEvent): EventScope {
  switch (d.kind) {
    case 'DomainCreated':
    case 'DomainDeleted':
    case 'DomainOwnerChanged':
      return { domain: d.id };
    case 'AccountCreated':
    case 'AccountDeleted':
      return domainOnly(parseAccountId(d.id)?.domain);
    case 'AssetDefinitionCreated':
    case 'AssetDefinitionDeleted':
    case 'AssetDefinitionTotalChanged':
      return domainOnly(parseDefinitionId(d.id)?.domain);
    case 'AssetAdded':
    case 'AssetRemoved': {
      const definition = parseAssetId(d.id)?.definition;
      return domainOnly(definition === undefined ? undefined : parseDefinitionId(definition)?.domain);
    }
    case 'NftCreated':
    case 'NftDeleted':
    case 'NftOwnerChanged':
      return domainOnly(parseNftId(d.id)?.domain);
    case 'ConferenceRosterSummary':
    case 'ConferenceRelayManifestUpdated':
    case 'ConferenceUsageSummary':
    case 'ConferenceEnded':
      return callScope(d.call);
    case 'ConferenceRelayHealthUpdated':
    case 'ConferenceRelayRegistered':
      return { relay: d.relay };
    default:
      return {};
  }
}
