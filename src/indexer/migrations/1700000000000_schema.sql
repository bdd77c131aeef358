-- Up Migration
-- The indexer's schema (docs/indexer.md "Schema"). Heights are the chain's block heights; a block's rows
-- and `indexer_state.height` are written in one transaction, so every table holds exactly the blocks up
-- to that height.

CREATE TABLE indexer_state (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  chain_id text NOT NULL,
  genesis_hash bytea NOT NULL,
  height bigint NOT NULL,
  block_hash bytea NOT NULL
);

CREATE TABLE blocks (
  height bigint PRIMARY KEY,
  hash bytea NOT NULL UNIQUE,
  prev_hash bytea NOT NULL,
  state_root bytea NOT NULL,
  transactions_root bytea NOT NULL,
  results_root bytea NOT NULL,
  created_at timestamptz NOT NULL,
  view bigint NOT NULL,
  transaction_count integer NOT NULL,
  validator_set_hash bytea NOT NULL,
  signers integer NOT NULL
);

CREATE TABLE transactions (
  hash bytea PRIMARY KEY,
  height bigint NOT NULL REFERENCES blocks (height),
  position integer NOT NULL,
  authority text NOT NULL,
  created_at timestamptz NOT NULL,
  ttl_ms bigint,
  nonce bigint,
  instruction_count integer NOT NULL,
  UNIQUE (height, position)
);
CREATE INDEX transactions_authority ON transactions (authority, height);

CREATE TABLE results (
  height bigint NOT NULL REFERENCES blocks (height),
  position integer NOT NULL,
  tx_hash bytea NOT NULL REFERENCES transactions (hash),
  status text NOT NULL CHECK (status IN ('Committed', 'Rejected')),
  rejection_code text,
  rejection_instruction integer,
  rejection_message text,
  PRIMARY KEY (height, position)
);
CREATE INDEX results_rejection_code ON results (rejection_code) WHERE rejection_code IS NOT NULL;

CREATE TABLE instructions (
  height bigint NOT NULL REFERENCES blocks (height),
  tx_position integer NOT NULL,
  position integer NOT NULL,
  tx_hash bytea NOT NULL REFERENCES transactions (hash),
  kind text NOT NULL,
  body jsonb NOT NULL,
  PRIMARY KEY (height, tx_position, position)
);
CREATE INDEX instructions_kind ON instructions (kind, height);

CREATE TABLE events (
  height bigint NOT NULL REFERENCES blocks (height),
  source integer NOT NULL,
  position integer NOT NULL,
  tx_hash bytea REFERENCES transactions (hash),
  kind text NOT NULL,
  body jsonb NOT NULL,
  PRIMARY KEY (height, source, position)
);
CREATE INDEX events_kind ON events (kind, height);

CREATE TABLE accounts (
  id text PRIMARY KEY,
  domain text NOT NULL,
  created_height bigint NOT NULL,
  deleted_height bigint
);
CREATE INDEX accounts_domain ON accounts (domain);

CREATE TABLE balance_changes (
  height bigint NOT NULL REFERENCES blocks (height),
  source integer NOT NULL,
  position integer NOT NULL,
  asset_id text NOT NULL,
  account text NOT NULL,
  definition text NOT NULL,
  delta numeric NOT NULL,
  balance numeric NOT NULL,
  PRIMARY KEY (height, source, position)
);
CREATE INDEX balance_changes_account ON balance_changes (account, height);
CREATE INDEX balance_changes_definition ON balance_changes (definition, height);

CREATE TABLE balances (
  asset_id text PRIMARY KEY,
  account text NOT NULL,
  definition text NOT NULL,
  amount numeric NOT NULL,
  updated_height bigint NOT NULL
);
CREATE INDEX balances_account ON balances (account);
CREATE INDEX balances_definition ON balances (definition, amount DESC);

CREATE TABLE asset_holders (
  definition text PRIMARY KEY,
  holders integer NOT NULL,
  total numeric NOT NULL,
  updated_height bigint NOT NULL
);

-- Down Migration
DROP TABLE asset_holders;
DROP TABLE balances;
DROP TABLE balance_changes;
DROP TABLE accounts;
DROP TABLE events;
DROP TABLE instructions;
DROP TABLE results;
DROP TABLE transactions;
DROP TABLE blocks;
DROP TABLE indexer_state;
