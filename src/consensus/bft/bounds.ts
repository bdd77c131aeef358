// How far ahead of its own state a peer lets another peer's numbers reach (docs/security.md "Consensus
// message bounds"). A view or height a peer names is believed only within a window above this peer's own
// view or height; anything further is dropped and counted (`BftCore.stats.farMessages`), so one correctly
// signed message naming view 1,000,000 cannot make a validator remember that view (and, say, forget every
// vote below it). Honest peers drift apart by a few views (timeouts) and by heights only while one of
// them is behind, which block sync repairs from tips, not from these messages.

/** Proposals kept for views above this peer's own (one per view). */
export const PROPOSAL_VIEWS_AHEAD = 8;
/** Votes and certificates for views up to this many above this peer's own; NEW_VIEW claims are capped here. */
export const VIEWS_AHEAD_MAX = 64;
/** Votes kept for views up to this many below this peer's own (older ones are forgotten). */
export const VIEWS_BEHIND_KEPT = 16;
/** Messages of heights up to this many above the one being decided (beyond: dropped, no sync hint). */
export const HEIGHTS_AHEAD_MAX = 64;
