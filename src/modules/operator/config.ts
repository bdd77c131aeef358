// The operator passkeys' configuration keys (docs/operator.md "Passkeys"): `operator.passkeys_enabled` and
// `operator.passkey_*`, added to the one configuration schema through the registry (src/config/sections.ts).
// They are written at the end of the core's `[operator]` section (`inCoreSection`), where they always
// were, so config.toml, `torana config` and the `TORANA_OPERATOR_PASSKEY_*` variables read as before; the
// section itself stays the core's (`operator.public_keys` and the session store's limits are the
// gateway's operator authentication).
import { moduleSection } from '../../config/sections.js';
import { bool, COUNT_CEILING, int, list, ms, type SectionValues, section, str } from '../../config/spec.js';

export const operatorPasskeysConfig = moduleSection({
  name: 'operator',
  inCoreSection: true,
  spec: section('Operator passkeys: WebAuthn sign-in to operator sessions (docs/operator.md "Passkeys").', {
    passkeys_enabled: bool(
      false,
      'Serve the operator passkey routes (/v1/operator/auth/*: WebAuthn registration and sign-in to operator sessions); false: absent (404) and not in OpenAPI. With it, session tokens open operator routes even when operator.public_keys is empty.',
    ),
    passkey_rp_id: str(
      'localhost',
      'WebAuthn relying-party id: the host name the operators reach the node (or its dashboard) by; a passkey works only under it.',
      { nonEmpty: true },
    ),
    passkey_rp_name: str('torana node', 'Relying-party name authenticators show when a passkey is made.', {
      nonEmpty: true,
    }),
    passkey_origins: list(
      ['http://localhost:8080'],
      'Origins (scheme://host[:port]) a passkey ceremony may come from; each must be under operator.passkey_rp_id.',
    ),
    passkey_bootstrap_secret: str(
      '',
      "Registers the node's FIRST passkey (and nothing once one exists; later ones need an operator session); empty: none can be registered. Keep it out of the config file: set TORANA_OPERATOR_PASSKEY_BOOTSTRAP_SECRET.",
    ),
    passkey_challenge_ttl_ms: ms(60_000, 1, 'How long a passkey challenge can be answered (single use).'),
    passkey_credentials_max: int(
      16,
      1,
      COUNT_CEILING,
      'Passkeys one node holds (409 operator_passkeys_full above).',
    ),
    passkey_challenges_max: int(
      256,
      1,
      COUNT_CEILING,
      'Pending passkey challenges in all (503 operator_challenges_full above); per client address, operator.session_client_challenges_max (429).',
    ),
  }),
});

/** The passkeys' values (camelCase fields), as `sectionValues(config, operatorPasskeysConfig)` gives them. */
export type OperatorPasskeysConfig = SectionValues<(typeof operatorPasskeysConfig)['spec']['keys']>;
