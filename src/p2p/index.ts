// The peer transport's public surface.
export {
  type HostPort,
  type PeerEntry,
  parseHostPort,
  parseListen,
  parsePeerEntries,
  parsePeerEntry,
} from './address.js';
export { DROP_REASONS, type DropReason } from './drops.js';
export { isP2pError, P2pError, type P2pErrorCode } from './errors.js';
export type { PeerRole } from './hello.js';
export {
  type MessageHandler,
  type NetworkStats,
  PENDING_HANDSHAKES_MAX,
  type PeerInfo,
  PeerNetwork,
  type PeerNetworkOptions,
  type PeerStateEvent,
  type SendResult,
} from './network.js';
export { FRAME_BYTES_CEILING, type NetworkLimits } from './options.js';
