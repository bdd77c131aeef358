// The ISO 20022 bridge's configuration section `[iso20022]` (docs/iso20022.md): its keys, defaults, bounds
// and docs, added to the one configuration schema through the registry (src/config/sections.ts). Keys,
// defaults and the place of the section (right after `[operator]`, ahead of the other modules' sections)
// are the ones the node always had, so config.toml and `torana config` read as before.
import { moduleSection } from '../../config/sections.js';
import {
  BYTES_CEILING,
  bool,
  COUNT_CEILING,
  int,
  ms,
  type SectionValues,
  section,
  str,
} from '../../config/spec.js';

const KiB = 1024;
const MiB = 1024 * KiB;

export const iso20022Config = moduleSection({
  name: 'iso20022',
  title: 'ISO 20022',
  writtenAfter: 'operator',
  spec: section('The ISO 20022 bridge.', {
    enabled: bool(false, 'Serve the ISO 20022 bridge routes (needs app_api.enabled).'),
    bridge_account: str(
      '',
      'Account that signs bridge transfers (a TransferDelegate, never the genesis authority); empty = <bridge key>@<genesis domain>.',
    ),
    bridge_key_file: str(
      'bridge.key.json',
      'Key file of the bridge account, relative to the node directory (read by the signer only).',
      { nonEmpty: true },
    ),
    participants_file: str(
      'participants.json',
      'Bridge participants (account, BICs, accounts it acts for), relative to the node directory; missing = none (every bridge request 403).',
      { nonEmpty: true },
    ),
    retry_interval_ms: ms(1000, 1, 'Wait before a message refused by a full queue is submitted again.'),
    submit_batch_max: int(
      256,
      1,
      COUNT_CEILING,
      'Transactions of messages made durable together that the bridge hands to the pipeline in one batched admission.',
    ),
    reference_data_dir: str(
      '',
      'Directory of BIC/IBAN/currency reference data; empty = no crosswalk checks.',
    ),
    allow_non_iban_accounts: bool(
      false,
      'Let a pin or crosswalk (other account id; institution BIC for pacs.009) stand for an absent IBAN.',
    ),
    xml_body_bytes_max: int(MiB, 1, BYTES_CEILING, 'Largest XML message body (413 above).'),
    xml_depth_max: int(64, 1, 1024, 'Deepest element nesting of an XML message.'),
    xml_attribute_bytes_max: int(4 * KiB, 1, BYTES_CEILING, 'Longest attribute value of an XML message.'),
  }),
  needs: [
    {
      key: 'enabled',
      needs: 'app_api.enabled',
      why: 'the ISO 20022 bridge routes are part of the application API',
    },
  ],
});

/** The values of `[iso20022]` (camelCase fields), as `sectionValues(config, iso20022Config)` gives them. */
export type Iso20022Config = SectionValues<(typeof iso20022Config)['spec']['keys']>;
