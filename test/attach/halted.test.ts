import { principal } from '../../src/core/principal.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionHub, type StartAttachSession } from '../../src/attach/hub.ts';
import { silentLogger } from '../../src/log.ts';
import { EventLog } from '../../src/store/event-log.ts';

const open: Array<{ hub: SessionHub; log: EventLog }> = [];
afterEach(async () => {
  for (const { hub, log } of open.splice(0)) {
    await hub.close();
    log.close();
  }
});

/**
 * A session whose agent the watchdog has halted: runTurn answers `halted` and
 * writes nothing. The agent here is a stand-in for exactly that answer (driving a
 * real agent into a halt takes several cut turns); the log and the hub are real.
 */
function hubWith(status: string): { hub: SessionHub; log: EventLog } {
  const log = EventLog.open(path.join(mkdtempSync(path.join(tmpdir(), 'halted-')), 'db'));
  const startSession: StartAttachSession = async () => {
    const sessionId = log.createSession({ model: 'replay:x', workspace: '/w', title: 'halted' });
    let turn = 0;
    return {
      sessionId,
      agent: {
        get turn() {
          return turn;
        },
        runTurn: async () => {
          turn++;
          return { status, text: '3 turns in a row cut', steps: 0 };
        },
      },
      close: async () => undefined,
    };
  };
  const hub = new SessionHub({ log, startSession, logger: silentLogger, promptTimeoutMs: 1000 });
  open.push({ hub, log });
  return { hub, log };
}

async function settle(log: EventLog, sid: string, kind: string): Promise<void> {
  for (let i = 0; i < 200 && !log.events(sid).some((e) => e.kind === kind); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('the hub and a halted agent', () => {
  it('logs an error marked halted, so a follower sees the turn end (turn-error watchdog)', async () => {
    const { hub, log } = hubWith('halted');
    const row = await hub.create(principal('alice'));
    await hub.inject(row.sessionID, 'alice', 'anything?');
    await settle(log, row.sessionID, 'error');
    const errors = log.events(row.sessionID).filter((e) => e.kind === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.data).toMatchObject({ halted: true, message: 'the agent is halted by its watchdog: 3 turns in a row cut' });
  });

  it('a turn that ends any other way adds no error of its own', async () => {
    const { hub, log } = hubWith('done');
    const row = await hub.create(principal('alice'));
    await hub.inject(row.sessionID, 'alice', 'anything?');
    await settle(log, row.sessionID, 'never');
    expect(log.events(row.sessionID).filter((e) => e.kind === 'error')).toEqual([]);
  });
});
