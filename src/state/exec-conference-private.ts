// Private-mode (ZkRosterV1) conference execution and shielding. This version only knows whether the
// verifying keys are configured; the proof checks replace it (docs/conference.md §Private rosters).

import type { ExecContext, Fail, Handler } from './exec-context.js';
import { fail } from './exec-context.js';

/** The custom parameters that hold the verifying keys. */
export const ZK_VK_PARAMETERS = ['conference_roster_vk', 'conference_usage_vk', 'shielded_note_vk'] as const;

/** zk_keys_not_configured unless every verifying-key parameter is set. */
export function requireZkKeys(x: ExecContext): Fail | undefined {
  const custom = x.view.parameters().custom;
  for (const id of ZK_VK_PARAMETERS)
    if (!custom.has(id)) return fail('zk_keys_not_configured', `the ${id} parameter is not set`);
  return undefined;
}

export const shieldAsset: Handler<'ShieldAsset'> = (x) =>
  requireZkKeys(x) ?? fail('zk_keys_not_configured', 'shielded notes are not supported by this node');
