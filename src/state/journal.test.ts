// The undo journal refuses marks that are not its own: a mark past the end (release would grow the
// journal with holes) or a negative one.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AssertionError } from '../util/assert.js';
import { Journal } from './table-view.js';

describe('Journal mark assertions', () => {
  it('release and rollback to a mark past the end or below zero fail', () => {
    const j = new Journal();
    assert.throws(() => j.release(1), AssertionError);
    assert.throws(() => j.rollback(2), AssertionError);
    assert.throws(() => j.release(-1), AssertionError);
    assert.equal(j.mark(), 0, 'nothing changed');
    j.release(0);
    j.rollback(0);
  });
});
