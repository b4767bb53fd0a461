// Delegation benchmark (a), bundled by bench/run.ts: how many bytes a question about a 5 MB log
// puts in the parent's context, answered with read_file (the parent pages through the log
// itself) or with agentic_read_file (a child pages through it and returns a digest). A real
// runtime, the engine, the event log on disk, and a replay model standing in for both models;
// the parent's context is measured as the JSON bytes of the prompt its model is sent (system
// instructions and conversation), at its last call and after its first tool result. Prints JSON.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LanguageModelV4GenerateResult, LanguageModelV4StreamResult } from '@ai-sdk/provider';
import { Agent } from '../src/agent/agent.ts';
import { assembleInstructions } from '../src/agent/instructions.ts';
import { silentLogger } from '../src/log.ts';
import type { CallOptions } from '../src/model/model.ts';
import { ReplayModel, type ReplayStep } from '../src/model/replay.ts';
import { ChildAgents } from '../src/runtime/child-agents.ts';
import { recordCalls } from '../src/runtime/record-calls.ts';
import { createRuntime } from '../src/runtime/runtime.ts';
import { EventLog } from '../src/store/event-log.ts';
import { SessionState } from '../src/tools/framework/session.ts';

const [workspace, dbDir] = process.argv.slice(2) as [string, string];
const LOG_BYTES = 5 * 1024 * 1024;
const PAGE_LINES = 2000; // read_file's line cap per call

/** A deterministic application log of LOG_BYTES, with a few errors to ask about. */
function writeLog(): number {
  const lines: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < LOG_BYTES; i++) {
    const error = i % 9973 === 4321;
    const line = error
      ? `2026-12-07T10:${String(Math.floor(i / 1000) % 60).padStart(2, '0')}:00.000Z ERROR req=${i} upstream=payments timeout after 30000 ms`
      : `2026-12-07T10:${String(Math.floor(i / 1000) % 60).padStart(2, '0')}:00.000Z INFO req=${i} path=/api/orders/${i % 977} status=200 ms=${i % 83}`;
    lines.push(line);
    bytes += Buffer.byteLength(line) + 1;
  }
  writeFileSync(path.join(workspace, 'app.log'), `${lines.join('\n')}\n`);
  return lines.length;
}

/** The replay model, measuring the prompt of each top-level call (a child's calls go through its own view). */
class MeasuredReplay extends ReplayModel {
  readonly promptBytes: number[] = [];
  override doGenerate(options: CallOptions): Promise<LanguageModelV4GenerateResult> {
    this.promptBytes.push(Buffer.byteLength(JSON.stringify(options.prompt)));
    return super.doGenerate(options);
  }
  override doStream(options: CallOptions): Promise<LanguageModelV4StreamResult> {
    this.promptBytes.push(Buffer.byteLength(JSON.stringify(options.prompt)));
    return super.doStream(options);
  }
}

const ANSWER = 'The log shows upstream timeouts to payments (ERROR lines, 30000 ms each); everything else is INFO with status 200.';
const DIGEST =
  'app.log holds 67,000-odd request lines, all INFO status=200 except a handful of ERROR lines, each ' +
  '"upstream=payments timeout after 30000 ms": the first at line 4322, then every 9,973 lines (14,295, 24,268, 34,241, 44,214). ' +
  'No other error or warning level appears. The errors are spread evenly, one per ~10k requests, so they look like a periodic ' +
  'upstream timeout rather than a burst; the request ids are in the lines quoted.';

async function measure(way: 'read_file' | 'agentic_read_file', lineCount: number) {
  const pages = Math.ceil(lineCount / PAGE_LINES);
  const reads = Array.from({ length: pages }, (_, k) => ({
    name: 'read_file',
    args: { path: 'app.log', offset: 1 + k * PAGE_LINES, limit: PAGE_LINES },
  }));
  const script: ReplayStep[] =
    way === 'read_file'
      ? [...reads.map((c) => ({ tool_calls: [c] })), { text: ANSWER }]
      : [
          {
            tool_calls: [
              { name: 'agentic_read_file', args: { request: 'read app.log and report every ERROR line: what, where, how often' } },
            ],
          },
          // The child pages through the whole log in one round, then answers.
          { agent: 'explore', tool_calls: reads },
          { agent: 'explore', text: DIGEST },
          { text: ANSWER },
        ];
  const session = new SessionState();
  const children = new ChildAgents();
  const rt = await createRuntime({
    flags: { workspace, mode: 'yolo' },
    env: {},
    commandEnv: process.env,
    session,
    services: { delegator: children },
  });
  const db = path.join(dbDir, `delegation-${way}.db`);
  for (const s of ['', '-wal', '-shm']) rmSync(db + s, { force: true });
  const log = EventLog.open(db);
  const sessionId = log.createSession({ model: 'replay:bench', workspace, title: way });
  session.sessionId = sessionId;
  const model = new MeasuredReplay(script, 'bench');
  children.attach({
    catalog: rt.catalog,
    dispatcher: rt.dispatcher,
    log,
    workspace,
    model: { model, spec: 'replay:bench', price: null },
    modelFor: () => Promise.reject(new Error('one model in this bench')),
    logger: silentLogger,
  });
  rt.dispatcher.recordTo(recordCalls(log, sessionId, session));
  const agent = new Agent({
    model,
    dispatcher: rt.dispatcher,
    catalog: rt.catalog,
    instructions: await assembleInstructions(workspace, undefined, rt.userDir),
    log,
    sessionId,
    session,
    maxSteps: pages + 10,
    stream: false,
  });
  const result = await agent.runTurn('What went wrong in app.log?');
  const results = log.events(sessionId).filter((e) => e.kind === 'tool_result');
  const shown = results.map((e) => Buffer.byteLength(JSON.stringify(e.data.shown)));
  await session.close();
  await children.stopAll();
  log.close();
  if (result.status !== 'done' || result.text !== ANSWER)
    throw new Error(`${way}: the run ended ${result.status}: ${result.text.slice(0, 200)}`);
  return {
    calls: results.length,
    finalPromptBytes: model.promptBytes.at(-1)!,
    afterFirstResultBytes: model.promptBytes[1]!,
    firstPromptBytes: model.promptBytes[0]!,
    toolResultBytes: shown.reduce((a, b) => a + b, 0),
    firstResultBytes: shown[0]!,
  };
}

const lineCount = writeLog();
const readFile = await measure('read_file', lineCount);
const agentic = await measure('agentic_read_file', lineCount);
process.stdout.write(
  JSON.stringify({
    logBytes: LOG_BYTES,
    lines: lineCount,
    readFile,
    agentic,
    ratioFinal: readFile.finalPromptBytes / agentic.finalPromptBytes,
    ratioOneCall: readFile.afterFirstResultBytes / agentic.afterFirstResultBytes,
  }),
);
