// child-turns.cases.ts on a real runtime: the engine's children on a replay script, the parent's
// spawn and stop through the dispatcher, the parent's live events through an adopted sink, the
// engine's wall clock on a MovedClock.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/agent/agent.ts';
import { agentsCommand } from '../../../src/cli/repl-commands.ts';
import { describe as describeEvent } from '../../../src/cli/sessions-command.ts';
import type { ReplayStep } from '../../../src/model/replay.ts';
import { delegatingRuntime } from '../../helpers/child-agents.ts';
import { MovedClock } from '../../helpers/moved-clock.ts';
import { running } from '../../helpers/processes.ts';
import { TURNS_CASES, type ChildStep } from './child-turns.cases.ts';

function script(steps: readonly ChildStep[], marker: string): ReplayStep[] {
  const call = (name: string, args: Record<string, unknown>): ReplayStep => ({ agent: 'general', tool_calls: [{ name, args }] });
  return steps.map((s) => {
    if (s === 'answer') return { agent: 'general', text: 'the answer' };
    if (s === 'read') return call('read_file', { path: 'notes.txt' });
    if (s === 'bash')
      return {
        agent: 'general',
        tool_calls: [
          { name: 'bash', args: { command: 'true' } },
          { name: 'read_file', args: { path: 'notes.txt' } },
        ],
      };
    // Runs until the child is stopped; the marker names its process.
    return call('bash', { command: `until [ -e never ]; do sleep 0.05; done # ${marker}`, timeout: 300 });
  });
}

describe("a child's turns are its model calls with tools", () => {
  it.for(TURNS_CASES.map((c, i) => [c.name, c, i] as const))('%s', { timeout: 60_000 }, async ([, c, i]) => {
    const marker = `child-turns-${process.pid}-${i}`;
    const clock = new MovedClock();
    const { rt, log, children } = await delegatingRuntime(
      { tree: { 'notes.txt': 'the cache is cold\n' }, flags: { mode: 'yolo' } },
      { steps: script(c.child, marker), clock },
    );
    const parent = rt.session.sessionId!;
    const live: AgentEvent[] = [];
    children.adopt(parent, { addDelegatedUsage: () => undefined, report: (e) => live.push(e) });
    const spawn = { agent: 'general', goal: 'do the case', ...(c.maxTurns ? { max_turns: c.maxTurns } : {}) };

    let report: Record<string, unknown>;
    if (c.end === 'natural' || c.end === 'max_steps') {
      report = await rt.ok('spawn_agent', spawn);
    } else {
      expect(await rt.ok('spawn_agent', { ...spawn, wait: false })).toMatchObject({ name: 'general-1', status: 'running' });
      for (let n = 0; running(marker).length === 0; n++) {
        if (n > 400) throw new Error("the child's blocking bash did not start");
        await sleep(25);
      }
      if (c.end === 'stopped') {
        report = await rt.ok('stop_agent', { name: 'general-1' });
        // stop_agent's result is short: the count is in wait_agent's report of it.
        expect(report).toMatchObject({ status: 'stopped' });
      } else clock.move(600_000);
      report = await rt.ok('wait_agent', { name: 'general-1', timeout_seconds: 1 });
    }

    expect(report).toMatchObject({ name: 'general-1', stop_reason: c.end, turns: c.turns });
    expect(live.filter((e) => e.type === 'agent_end')).toEqual([
      expect.objectContaining({ name: 'general-1', stopReason: c.end, turns: c.turns }),
    ]);
    const end = log.events(`${parent}:sub:general-1`).at(-1)!;
    expect(end).toMatchObject({ kind: 'agent_end', data: { stop_reason: c.end, turns: c.turns } });
    expect(describeEvent(end, new Map(), {})).toContain(`"turns":${c.turns}`);
    expect(await agentsCommand({ children, sessionId: parent }, '')).toContain(`, ${c.turns} turn(s), `);
    expect(running(marker)).toEqual([]);
    // The count is the model's calls with tools: as many as the child's steps, less the answer asked for without them.
    const responses = log.events(`${parent}:sub:general-1`).filter((e) => e.kind === 'response').length;
    expect(responses).toBe(c.end === 'max_steps' ? c.turns + 1 : c.turns);
  });
});
