// Defaults and bounds of `torana index` flags (docs/indexer.md, docs/security.md "The PostgreSQL indexer").
// Kept free of imports so that the CLI's declaration shows the default without loading the indexer.

/** Blocks between two state checkpoints at most (`--checkpoint-blocks`): what a restart re-executes. */
export const INDEX_CHECKPOINT_BLOCKS_DEFAULT = 1024;
/** Each checkpoint stores the whole state: more often than every block makes no sense, rarer than this is a long restart. */
export const INDEX_CHECKPOINT_BLOCKS_CEILING = 1_000_000;
