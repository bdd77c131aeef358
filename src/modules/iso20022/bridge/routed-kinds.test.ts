import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isMessageKind } from '../parse.js';
import { isRoutedKind, MESSAGE_KINDS_ROUTED, REPORT_KINDS } from './routed-kinds.js';

describe('routed message kinds', () => {
  it('are message kinds the library parses, each once', () => {
    assert.deepEqual(
      MESSAGE_KINDS_ROUTED.filter((k) => !isMessageKind(k)),
      [],
    );
    assert.equal(new Set(MESSAGE_KINDS_ROUTED).size, MESSAGE_KINDS_ROUTED.length);
    assert.equal(new Set(REPORT_KINDS).size, REPORT_KINDS.length);
  });

  it('isRoutedKind accepts exactly the list', () => {
    for (const k of MESSAGE_KINDS_ROUTED) assert.equal(isRoutedKind(k), true);
    for (const k of ['pacs007', 'camt029', 'head001', '', 'PACS008']) assert.equal(isRoutedKind(k), false, k);
  });
});
