import { describe, expect, it } from 'vitest';
import { callKey, CUT_TURNS_TO_HALT, THRESHOLDS, Watchdog, type Alert } from '../../src/agent/watchdog.ts';

const signals = (alerts: Alert[]) => alerts.map((a) => `${a.signal}/${a.severity}`);

function calls(w: Watchdog, seq: Array<[string, object]>): Alert[] {
  return seq.flatMap(([name, args]) => w.observeCall(name, JSON.stringify(args)));
}

describe('call identity', () => {
  it('ignores key order and normalises path-like values, nothing else', () => {
    expect(callKey('read_file', '{"path":"./src/../src/a.ts","limit":5}')).toBe(callKey('read_file', '{"limit":5,"path":"src/a.ts"}'));
    expect(callKey('grep', '{"pattern":"./a"}')).not.toBe(callKey('grep', '{"pattern":"a"}'));
  });
});

describe('detectors', () => {
  it('repeated identical call: critical at the fifth, once', () => {
    const w = new Watchdog('enforce');
    const same: Array<[string, object]> = Array.from({ length: 4 }, () => ['stat', { path: 'a' }]);
    expect(calls(w, same)).toEqual([]);
    expect(signals(calls(w, [['stat', { path: 'a' }]]))).toEqual(['repeated-tool-call/critical']);
    expect(calls(w, [['stat', { path: 'a' }]])).toEqual([]); // still the same run: no second alert
    expect(calls(w, [['list_dir', {}]])).toEqual([]); // broken: re-armed
    expect(THRESHOLDS.repeat).toBe(5);
  });

  it('alternating cycle: a period of 2 to 4 going round three times', () => {
    const w = new Watchdog('enforce');
    const lap: Array<[string, object]> = [
      ['read_file', { path: 'a' }],
      ['grep', { pattern: 'x' }],
      ['stat', { path: 'a' }],
    ];
    expect(calls(w, [...lap, ...lap])).toEqual([]);
    expect(signals(calls(w, lap))).toEqual(['alternating-tool-cycle/critical']);
  });

  it('dominant call: the same call 8 of the last 12', () => {
    const w = new Watchdog('enforce');
    const seq: Array<[string, object]> = [];
    for (let i = 0; i < 12; i++) seq.push(i % 3 === 2 ? ['list_dir', { path: `d${i}` }] : ['stat', { path: 'hot' }]);
    expect(signals(calls(w, seq))).toEqual(['dominant-tool-call/critical']);
  });

  it('failure streak: a warning at three errors in a row; a success resets it', () => {
    const w = new Watchdog('enforce');
    expect(w.observeResult('read_file', false, null)).toEqual([]);
    expect(w.observeResult('read_file', false, null)).toEqual([]);
    expect(signals(w.observeResult('read_file', false, null))).toEqual(['tool-failure-streak/warn']);
    w.observeResult('read_file', true, {});
    expect(w.observeResult('read_file', false, null)).toEqual([]);
  });

  it('no-op streak: three results in a row with a top-level no_op: true, across turns', () => {
    const w = new Watchdog('enforce');
    expect(w.observeResult('record_plan', true, { no_op: true })).toEqual([]);
    w.turnEnded(null);
    expect(w.observeResult('record_plan', true, { no_op: true })).toEqual([]);
    w.turnEnded(null);
    expect(signals(w.observeResult('record_plan', true, { no_op: true }))).toEqual(['no-op-streak/critical']);
  });

  it('no-op streak: only a literal true counts, and any other result ends the streak', () => {
    const w = new Watchdog('enforce');
    w.observeResult('x', true, { no_op: 'true' });
    w.observeResult('x', true, { no_op: true });
    w.observeResult('x', true, { no_op: true });
    w.observeResult('x', false, null); // a failure is not a no-op
    expect(w.observeResult('x', true, { no_op: true })).toEqual([]);
    expect(w.observeResult('x', true, { nested: { no_op: true } })).toEqual([]);
  });

  it('off observes nothing', () => {
    const w = new Watchdog('off');
    expect(
      calls(
        w,
        Array.from({ length: 10 }, () => ['stat', { path: 'a' }] as [string, object]),
      ),
    ).toEqual([]);
  });
});

describe('modes', () => {
  const critical: Alert = { signal: 'repeated-tool-call', severity: 'critical', reason: 'r', guidance: 'stop repeating' };
  const warning: Alert = { signal: 'tool-failure-streak', severity: 'warn', reason: 'r', guidance: 'read the errors' };

  it('only enforce cuts, and only on a critical alert', () => {
    expect(new Watchdog('enforce').cuts([critical])).toBe(true);
    expect(new Watchdog('enforce').cuts([warning])).toBe(false);
    expect(new Watchdog('feedback').cuts([critical])).toBe(false);
    expect(new Watchdog('warn').cuts([critical])).toBe(false);
  });

  it('feedback and enforce tell the model at its next turn; warn does not', () => {
    const f = new Watchdog('feedback');
    f.noteForModel([critical, warning]);
    expect(f.takeFeedback()).toBe(
      '[watchdog] Automated observation about your own previous turn — this is not a message from the user, and the user cannot see it.\n' +
        '- repeated-tool-call: stop repeating\n- tool-failure-streak: read the errors\nAdjust your approach on this turn accordingly.',
    );
    expect(f.takeFeedback()).toBeNull();
    const w = new Watchdog('warn');
    w.noteForModel([critical]);
    expect(w.takeFeedback()).toBeNull();
  });

  it('keeps at most four pending observations', () => {
    const f = new Watchdog('enforce');
    f.noteForModel(Array.from({ length: 6 }, (_, i) => ({ ...warning, guidance: `g${i}` })));
    expect(f.takeFeedback()!.match(/^- /gm)).toHaveLength(4);
  });

  it(`${CUT_TURNS_TO_HALT} cut turns in a row halt until an operator resets; a clean turn in between clears the count`, () => {
    const w = new Watchdog('enforce');
    expect(w.turnEnded(critical)).toBeNull();
    expect(w.turnEnded(null)).toBeNull();
    expect(w.turnEnded(critical)).toBeNull();
    expect(w.turnEnded(critical)).toBeNull();
    expect(w.turnEnded(critical)).toMatch(/watchdog halted the agent: 3 turns in a row were cut/);
    expect(w.halted).not.toBeNull();
    w.reset();
    expect(w.halted).toBeNull();
  });
});
