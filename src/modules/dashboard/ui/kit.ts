// The dashboard's UI parts a module's `dashboard.ts` builds with, published to the other module folders
// as `torana:dashboard` (module-dashboards.mjs for the bundle, this folder's tsconfig.json `paths` for the
// type check): a module folder imports no other module folder, so they never name this file's path.
// What is here is the dashboard's interface to its additions; everything else stays private.

export { type Answer, enc, getJson, getText, NODE_URL, postJson } from './api.js';
export { PathsContext } from './context.js';
export type {
  AccountPanel,
  ConsensusPanel,
  DashboardExtension,
  Match,
  ModulePage,
  RecentBlock,
  SettingsSection,
} from './extensions.js';
export { useFeed, useJson, usePoll, usePostJson, useRoute } from './hooks.js';
export type { DataEvent } from './live.js';
export {
  AccountLink,
  AssetLink,
  BlockLink,
  type Column,
  Facts,
  href,
  Json,
  Loaded,
  Page,
  short,
  Table,
  TxLink,
  time,
} from './parts.js';
export { type PastEvents, pastEvents } from './past-events.js';
export { isRejection, readableRejection } from './rejections.js';
export { currentSession, forgetSession, keepSession, type Session, sessionHeaders } from './session.js';
