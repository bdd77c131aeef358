// What the conference routes read from the node (docs/design/architecture.md "Application families":
// the module's routes see small interfaces, never concrete classes). `reads.ts` adapts the committed world state to it.

import type { NullifierKind } from '../../model/shielded.js';
import type { ConferenceCall, ConferenceRelay } from './model.js';

/** Committed conference calls and relays, in id order; answers are copies the caller may keep. */
export interface ConferenceReadPort {
  call(id: string): ConferenceCall | undefined;
  calls(): ConferenceCall[];
  callsInDomain(domain: string): ConferenceCall[];
  relay(id: string): ConferenceRelay | undefined;
  relays(): ConferenceRelay[];
  /** Whether the account is registered (who may read `authenticated` calls, viewer.ts). */
  accountExists(id: string): boolean;
  /**
   * A name given in place of an account id, at the committed height (signalling takes names for ids):
   * its 404 detail field and the account it names; undefined when `text` has no name's form.
   */
  accountName(text: string): { field: string; id: string | undefined } | undefined;
  /**
   * One page of the shielded pool tree: the note commitments of leaves offset..offset+limit-1, the
   * leaf count, and the recent roots (oldest first). O(page), whatever the size of the tree.
   */
  shieldedPoolPage(offset: number, limit: number): { leaves: string[]; total: number; roots: string[] };
  /** Whether a nullifier (hex field) of `kind` is spent at the committed height. */
  nullifierSpent(kind: NullifierKind, nullifier: string): boolean;
}
