// The Connect relay's entries in the shared documentation pages (src/modules/docs.ts renders them into
// docs/app-api.md, docs/security.md and docs/errors.md): its route family and switch, its limits, its
// gateway error codes.

import { renderModuleConfigDocs } from '../../config/docs.js';
import type { ModuleDocSections } from '../descriptor.js';
import { connectConfig } from './config.js';

export const CONNECT_DOC_SECTIONS: ModuleDocSections = {
  'config-sections': [renderModuleConfigDocs(connectConfig)],
  'app-api-families': [
    '| `connect` | `/v1/connect/*` (the wallet-to-app relay; docs/connect.md) | `connect.enabled` |',
  ],
  'app-api-switches': [
    'Left unset, `connect.enabled` takes the value of `app_api.enabled`; `connect.enabled = true` with\n' +
      '`app_api.enabled = false` is a configuration error (`config_invalid_value`).',
  ],
  'security-sections': [
    "## The Connect relay\n\nThe node relays the frames of a wallet and an app (docs/connect.md) without reading them: the SDK\nencrypts them end to end (X25519, HKDF-SHA256, ChaCha20-Poly1305). Each session has one token per role\n(app, wallet), 32 random bytes, valid once and only within `connect.token_ttl_ms` (default 60 s), kept\nas a SHA-256 and taken only in `Sec-WebSocket-Protocol` (never in a URL, never logged). A node holds at\nmost `connect.sessions_max` sessions (default 1,000; 503 `connect_sessions_full` above); a session with\nno socket for `connect.idle_ms` (default 5 min) is dropped. One side sends frames of at most\n`connect.frame_bytes_max` (default 64 KiB; closed 1009 above) at `connect.frames_per_second` (default\n20) with bursts of `connect.frame_burst` (default 40; closed 1008 above); at most\n`connect.pending_frames_max` (default 8) wait for a side not yet connected. The sockets count against\nthe gateway's WebSocket caps (`gateway.ws_clients_max`, per address too) and pass its rate limiter and\norigin check. `GET /v1/connect/status` reports the limits and counters. Tests:\n`src/modules/connect/relay.test.ts`, `test/connect/relay.test.ts`.",
  ],
  'errors-routes': [
    "## Connect relay\n\nRegistered by the node for the Connect routes under `/v1/connect/` (docs/connect.md). A socket's\nrefusal is an HTTP answer before the WebSocket handshake.\n\n| code | HTTP status | meaning |\n| --- | --- | --- |\n| `connect_session_exists` | 409 | `POST /v1/connect/session`: a session with this `sid` is already open. |\n| `connect_sessions_full` | 503 | The node holds `connect.sessions_max` sessions (`details.limit`); retry after `Retry-After`. |\n| `connect_session_unknown` | 404 | No open session has this `sid` (closed, dropped idle, or never opened). |\n| `connect_token_invalid` | 401 | The socket's token is missing, wrong, of the other role, used or expired (`details.reason`: `missing`, `wrong`, `wrong_role`, `used`, `expired`). |",
  ],
};
