// golem-timings.cases.ts on a real runtime in golem's dialect: the engine's waits and wall clocks
// on a MovedClock, the child's steps from a replay script, its bash command a real process.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { ReplayStep } from '../../../src/model/replay.ts';
import { delegatingRuntime } from '../../helpers/child-agents.ts';
import { MovedClock } from '../../helpers/moved-clock.ts';
import { running } from '../../helpers/processes.ts';
import { setupIn } from '../../helpers/workspace.ts';
import { TIMING_CASES, type TimingCase } from './golem-timings.cases.ts';

/** The longest one WaitForSubagent blocks. */
const WAIT_MS = 60_000;

function childScript(kind: 'blocking' | 'answering', marker: string): ReplayStep[] {
  if (kind === 'answering') return [{ agent: 'general', text: 'the answer' }];
  // The marker names this case's bash process (pgrep -f); `release` in the workspace ends the loop.
  const command = `until [ -e release ]; do sleep 0.05; done; echo released # ${marker}`;
  return [
    { agent: 'general', tool_calls: [{ name: 'bash', args: { command, timeout: 300 } }] },
    { agent: 'general', text: 'released' },
  ];
}

async function play(c: TimingCase, marker: string) {
  const kind = c.steps.map((s) => ('start' in s ? s.start : undefined)).find((k) => k !== undefined) ?? 'answering';
  const clock = new MovedClock();
  const { rt, children } = await delegatingRuntime(
    { flags: { mode: 'yolo' }, ...(c.recipe ? { recipe: c.recipe } : {}) },
    { steps: childScript(kind, marker), make: setupIn('golem'), clock },
  );
  const mine = rt.session.sessionId;
  let id = '';
  let inFlight: { answer: Promise<string>; settled: boolean } | undefined;
  const sentence = (want: string | RegExp, named = id) => (typeof want === 'string' ? want.replaceAll('{id}', named) : want);
  const message = async (tool: string, subagentId: string, other?: true) => {
    rt.session.sessionId = other ? 's-another-conversation' : mine;
    try {
      return String((await rt.ok(tool, { subagentId })).message);
    } finally {
      rt.session.sessionId = mine;
    }
  };

  for (const step of c.steps) {
    if ('start' in step) {
      const started = await rt.ok('StartSubagent', { description: 'a case', prompt: 'do the case' });
      id = String(started.subagentId);
      // A blocking child's bash is running before the clock moves: the case's bounds are the child's, not its start-up's.
      for (let i = 0; step.start === 'blocking' && running(marker).length === 0; i++) {
        if (i > 400) throw new Error("the child's bash command did not start");
        await sleep(25);
      }
    } else if ('wait' in step) {
      const armed = clock.pending().filter((ms) => ms === WAIT_MS).length + 1;
      const call = { answer: message('WaitForSubagent', id), settled: false };
      void call.answer.finally(() => (call.settled = true));
      inFlight = call;
      // The wait has reached the engine when its minute is on the clock (beside a wall clock that may end then too).
      await clock.armed(WAIT_MS, armed);
    } else if ('move' in step) {
      clock.move(step.move);
    } else if ('silent' in step) {
      await sleep(100);
      expect(inFlight?.settled, 'the wait answered early').toBe(false);
    } else if ('answers' in step) {
      expect(await inFlight!.answer).toEqual(sentence(step.answers));
      inFlight = undefined;
    } else if ('waitNow' in step) {
      expect(await message('WaitForSubagent', step.id ?? id, step.other)).toEqual(sentence(step.waitNow, step.id));
    } else if ('cancel' in step) {
      expect(await message('CancelSubagent', step.id ?? id, step.other)).toEqual(sentence(step.cancel, step.id));
    } else if ('release' in step) {
      await writeFile(path.join(rt.workspace, 'release'), '');
    } else if ('ended' in step) {
      for (let i = 0; children.list().some((r) => r.status === 'running'); i++) {
        if (i > 400) throw new Error('the child did not end');
        await sleep(25);
      }
    } else {
      expect(running(marker).length > 0, `bash ${step.alive ? 'gone' : 'left running'}`).toBe(step.alive);
    }
  }
  // Every answer the case expected was checked: none is left in flight.
  expect(inFlight).toBeUndefined();
}

describe("golem's subagent timings on a moved clock", () => {
  it.for(TIMING_CASES.map((c, i) => [c.name, c, i] as const))('%s', { timeout: 60_000 }, async ([, c, i]) => {
    await play(c, `golem-timing-${process.pid}-${i}`);
  });
});
