-- Up Migration
-- Each block as the node's block log stores it (the bare `Block` encoding, docs/codec.md): what a node
-- serving its explorer and history routes from this database (`explorer.backend = "postgres"`) reads.
-- Rows written before this migration have none (null); such a database is indexed again from empty.

ALTER TABLE blocks ADD COLUMN payload bytea;

-- Down Migration
ALTER TABLE blocks DROP COLUMN payload;
