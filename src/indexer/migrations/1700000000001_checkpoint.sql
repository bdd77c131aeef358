-- Up Migration
-- The indexer's state checkpoint (docs/indexer.md "Restart"): the verified world state after block
-- `height`, written in the transaction of the batch that ends at that height, so a restart re-executes
-- only the blocks after it instead of the whole chain from block 1.

CREATE TABLE indexer_checkpoint (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  height bigint NOT NULL,
  block_hash bytea NOT NULL,
  state bytea NOT NULL
);
