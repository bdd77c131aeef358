import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pgConfig } from './indexer.js';

describe('pgConfig', () => {
  it('passes a URL through and reads libpq key=value pairs', () => {
    assert.deepEqual(pgConfig('postgres://u@h:5/db'), { connectionString: 'postgres://u@h:5/db' });
    assert.deepEqual(pgConfig("host=/tmp/pg port=5433 user=torana dbname=ledger password='a b\\'c'"), {
      host: '/tmp/pg',
      port: 5433,
      user: 'torana',
      database: 'ledger',
      password: "a b'c",
    });
  });
});
