// The triggers module's entries in the shared documentation pages (src/modules/docs.ts renders them into
// docs/app-api.md and docs/security.md).

import type { ModuleDocSections } from '../descriptor.js';

export const TRIGGER_DOC_SECTIONS: ModuleDocSections = {
  'app-api-id-names': ['| `/v1/triggers` | `authority` (account) |'],
  'security-writes': [
    '**Time triggers are not free, endless work.** A trigger runs inside blocks without a transaction paying\n' +
      'for each run, so three limits bound it (docs/triggers.md): a time repeat (`EveryMs`) must be at least the\n' +
      'chain parameter `BlockTimeMs` (default 1,000 ms; faster: `trigger_repeat_too_fast`); one account holds\n' +
      'at most `TriggersPerAccountMax` triggers (chain parameter, default 16, 1..1,024; beyond:\n' +
      '`trigger_limit`); and an idle chain makes at most one trigger-wake block per `BlockTimeMs`, however\n' +
      'soon triggers fall due (`src/consensus/due-wake.ts`). Per block at most `triggers_per_block_max`\n' +
      '(64) run. Before, one `EveryMs: 1` trigger made an idle chain produce ~19 blocks/s (73 KiB of block log\n' +
      'per 10 s) until removed. Test: `test/abuse/triggers.ts` (the same 50 ms repeat left in the state makes\n' +
      'one block per second, not twenty).',
  ],
};
