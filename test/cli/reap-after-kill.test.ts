import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.ts';
import { stateDir } from '../../src/runtime/state-dir.ts';
import { reapStaleGroups } from '../../src/tools/shell/group-records.ts';
import { readStat } from '../../src/tools/shell/procfs.ts';
import { bundle, runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/workspace.ts';
import { running } from '../helpers/processes.ts';

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, pred: () => boolean, ms = 20_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; await settle(50)) if (pred()) return;
  throw new Error(`timed out waiting for ${what}`);
}

const records = (home: string) => {
  const dir = path.join(stateDir({ HOME: home }), 'process-groups');
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.json')) : [];
};

/** `run` with a replay script that starts a terminal, then blocks in a bash call; resolves once both run. */
async function runThatHangs(ws: string, markers: { terminal: string; call: string; escapee?: string }) {
  const file = path.join(ws, 'script.jsonl');
  const terminal = markers.escapee ? `setsid ${markers.escapee} & ${markers.terminal}` : markers.terminal;
  const turns = [
    { tool_calls: [{ name: 'bash', args: { command: terminal, wait: false } }] },
    { tool_calls: [{ name: 'bash', args: { command: markers.call, timeout: 600 } }] },
    { text: 'done' },
  ];
  await writeFile(file, turns.map((t) => JSON.stringify(t)).join('\n'));
  const child = spawn(process.execPath, [bundle, 'run', '-m', `replay:${file}`, '--yolo', '--session-db', ':memory:', 'go'], {
    cwd: ws,
    env: { PATH: process.env.PATH, HOME: ws },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  await until(`both commands to run (stderr: ${stderr})`, () => running(markers.terminal).length > 0 && running(markers.call).length > 0);
  return child;
}

describe.skipIf(!existsSync('/proc/self/stat'))('the commands of a core-agent killed with SIGKILL', () => {
  it('outlive it, and the next start stops them and removes their records', async () => {
    const ws = await tempDir();
    // The terminal also leaves a process outside its group: only the tag finds it.
    const markers = { terminal: `sleep 321.${process.pid}`, call: `sleep 322.${process.pid}`, escapee: `sleep 326.${process.pid}` };
    const child = await runThatHangs(ws, markers);
    await until('the escapee to start', () => running(markers.escapee).length > 0);
    expect(records(ws)).toHaveLength(2);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    await settle(300);
    // No hook ran: both are still there, and so are their records.
    expect(running(markers.terminal).length).toBeGreaterThan(0);
    expect(running(markers.call).length).toBeGreaterThan(0);
    const escapeePids = running(markers.escapee).map(Number);
    expect(escapeePids.length).toBeGreaterThan(0);
    expect(records(ws)).toHaveLength(2);

    const next = await runCli(['tools', 'call', 'bash', '{"command":"true"}', '--yolo', '--log-level', 'info'], ws);
    expect(next.code, next.stderr).toBe(0);
    expect(running(markers.terminal)).toEqual([]);
    expect(running(markers.call)).toEqual([]);
    expect(running(markers.escapee)).toEqual([]);
    expect(records(ws)).toEqual([]);
    const reaped = next.stderr
      .split('\n')
      .filter((l) => l.includes('stopped the commands of a core-agent that is gone'))
      .map((l) => JSON.parse(l) as { command: string; killed: Array<{ pid: number; signal: string }> });
    expect(reaped.map((r) => r.command).sort()).toEqual([`setsid ${markers.escapee} & ${markers.terminal}`, markers.call].sort());
    for (const r of reaped) expect(r.killed[0]).toMatchObject({ signal: 'SIGTERM' });
    // The terminal's entry names the escapee it stopped besides the group.
    expect(reaped.find((r) => r.command.startsWith('setsid'))!.killed.map((k) => k.pid)).toEqual(expect.arrayContaining(escapeePids));
  });

  it('are left alone while their core-agent is alive', async () => {
    const ws = await tempDir();
    const markers = { terminal: `sleep 323.${process.pid}`, call: `sleep 324.${process.pid}` };
    const child = await runThatHangs(ws, markers);
    try {
      const other = await runCli(['tools', 'call', 'bash', '{"command":"true"}', '--yolo'], ws);
      expect(other.code, other.stderr).toBe(0);
      expect(running(markers.terminal).length).toBeGreaterThan(0);
      expect(running(markers.call).length).toBeGreaterThan(0);
      expect(records(ws)).toHaveLength(2);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    // SIGTERM runs the hooks: the commands go, and their records with them.
    await until('the commands to stop', () => running(markers.terminal).length === 0 && running(markers.call).length === 0, 5000);
    await until('the records to go', () => records(ws).length === 0, 5000);
  });

  it('never kills a process whose start time does not match the record (a reused pid)', async () => {
    const ws = await tempDir();
    const dir = path.join(stateDir({ HOME: ws }), 'process-groups');
    const marker = `sleep 325.${process.pid}`;
    const stranger = spawn('sh', ['-c', `exec ${marker}`], { detached: true, stdio: 'ignore' });
    try {
      await until('the stranger to start', () => running(marker).length > 0);
      const s = readStat(stranger.pid!)!;
      const own = readStat('self')!;
      const { mkdirSync, writeFileSync } = await import('node:fs');
      mkdirSync(dir, { recursive: true });
      const boot = execFileSync('cat', ['/proc/sys/kernel/random/boot_id'], { encoding: 'utf8' }).trim();
      const record = (leaderStart: number, ownerStart: number) => ({
        version: 1,
        pgid: stranger.pid,
        leader_start: leaderStart,
        boot_id: boot,
        owner_pid: process.pid,
        owner_start: ownerStart,
        tag: 'ab12',
        kind: 'bash',
        command: marker,
        session_id: null,
        started_at: new Date().toISOString(),
      });
      // Owner gone (its start time differs), leader's start time differs: the pid was reused.
      writeFileSync(path.join(dir, 'reused.json'), JSON.stringify(record(s.startTime - 1, own.startTime - 1)));
      // Owner alive (this process): its record is kept.
      writeFileSync(path.join(dir, 'alive.json'), JSON.stringify(record(s.startTime, own.startTime)));
      writeFileSync(path.join(dir, 'garbage.json'), '{"version": 7');
      const reaped = await reapStaleGroups(dir, silentLogger);
      expect(reaped).toEqual([{ pgid: stranger.pid, command: marker, session_id: null, owner_pid: process.pid, killed: [] }]);
      expect(running(marker)).toHaveLength(1);
      expect(readdirSync(dir).sort()).toEqual(['alive.json']);
    } finally {
      stranger.kill('SIGKILL');
    }
  });
});
