import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { installedScheduledRuns } from '../../state/module-host.js';
import '../load.js';
import { triggerIdProblem } from './model.js';
import { TRIGGER_SCHEDULED_RUNS } from './scheduled.js';

describe('the runs the core schedules (the triggers module stores them)', () => {
  it('the triggers module is the installed store, the one the subscription billing reaches', () => {
    assert.equal(installedScheduledRuns(), TRIGGER_SCHEDULED_RUNS);
  });

  it('an id part is checked by the trigger id rule, phrased for an id', () => {
    assert.equal(TRIGGER_SCHEDULED_RUNS.labelProblem('plan-1'), undefined);
    const bad = TRIGGER_SCHEDULED_RUNS.labelProblem('Bad Id');
    assert.ok(triggerIdProblem('Bad Id') !== undefined);
    assert.ok(bad !== undefined && !/trigger/i.test(bad), bad);
  });
});
