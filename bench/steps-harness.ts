// The loop's own overhead per step, bundled by bench/run.ts. One run = a replay
// script of N steps, each calling a no-op tool (todo list), through the whole
// path a real session takes: the loop, the dispatcher (validation, gate, caps),
// the event log on disk. Then the floor: the same event-log rows inserted
// straight into a fresh SQLite file. Prints JSON.
import { rmSync } from 'node:fs';
import { Agent } from '../src/agent/agent.ts';
import { ReplayModel } from '../src/model/replay.ts';
import { recordCalls } from '../src/runtime/record-calls.ts';
import { createRuntime } from '../src/runtime/runtime.ts';
import { EventLog } from '../src/store/event-log.ts';
import { SessionState } from '../src/tools/framework/session.ts';

const [workspace, dbDir, stepsText] = process.argv.slice(2) as [string, string, string];
const steps = Number(stepsText);
const script = [...Array.from({ length: steps }, () => ({ tool_calls: [{ name: 'todo', args: { action: 'list' } }] })), { text: 'done' }];

const session = new SessionState();
const rt = await createRuntime({ flags: { workspace }, env: {}, commandEnv: process.env, session });
const agentDb = `${dbDir}/agent.db`;
const floorDb = `${dbDir}/floor.db`;
for (const f of [agentDb, floorDb]) for (const s of ['', '-wal', '-shm']) rmSync(f + s, { force: true });

const log = EventLog.open(agentDb);
const sessionId = log.createSession({ model: 'replay:bench', workspace, title: 'bench' });
session.sessionId = sessionId;
rt.dispatcher.recordTo(recordCalls(log, sessionId, session));
// Samples after a full GC (run with --expose-gc), so garbage the collector simply
// has not reclaimed yet is not mistaken for growth: [step, rss, heapUsed, heapTotal, external].
const rss: Array<[number, number, number, number, number]> = [];
const gc = (globalThis as { gc?: () => void }).gc;
let done = 0;
let samplingMs = 0;
const agent = new Agent({
  model: new ReplayModel(script as never, 'bench'),
  dispatcher: rt.dispatcher,
  catalog: rt.catalog,
  instructions: 'bench',
  log,
  sessionId,
  session,
  maxSteps: steps + 10,
  onEvent: (e) => {
    if (e.type !== 'tool_end') return;
    done += 1;
    if (done % 100 !== 0) return;
    const s = performance.now();
    gc?.();
    const m = process.memoryUsage();
    rss.push([done, m.rss, m.heapUsed, m.heapTotal, m.external]);
    samplingMs += performance.now() - s; // measuring memory is not the loop's cost
  },
});
const t0 = performance.now();
const result = await agent.runTurn('go');
const agentMs = performance.now() - t0 - samplingMs;
const events = log.events(sessionId);
log.close();

// The floor: the same rows, inserted straight into SQLite.
const floor = EventLog.open(floorDb);
const floorSession = floor.createSession({ model: 'replay:bench', workspace, title: 'bench' });
const t1 = performance.now();
for (const e of events) floor.append(floorSession, e.turn, e.kind, e.data);
const floorMs = performance.now() - t1;
floor.close();

process.stdout.write(
  JSON.stringify({
    steps: result.steps - 1,
    status: result.status,
    rows: events.length,
    agentMs,
    floorMs,
    rss,
    maxRssKb: process.resourceUsage().maxRSS,
  }),
);
