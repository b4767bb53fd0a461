import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../log.ts';
import { EscapeeSweep } from './escapees.ts';
import type { GroupRecord } from './group-record-schema.ts';
import { bootId, procAvailable, readStat, sameProcess } from './procfs.ts';
import type { GroupRecorder, NewGroup } from './supervised-shell.ts';
import { makeDirs } from '../../util/make-dirs.ts';

/**
 * A record on disk of every process group a shell tool starts, so that the
 * groups of a core-agent killed with SIGKILL (no exit hook runs) are stopped by
 * the next core-agent that starts. One small file per group, written atomically
 * right after the spawn and removed once the group and its escapees are gone.
 *
 * A record names its owner (pid and start time) and its group leader (pid and
 * start time), so a reaper kills only the processes the record describes: an
 * owner that is alive keeps its groups, a leader whose start time does not match
 * is someone else's process that reused the pid. Linux only (start times come
 * from /proc); elsewhere no record is written.
 */

export type { GroupRecord };

const COMMAND_CHARS = 200;
/** A start-up reads at most this many records (a directory that grew without bound must not stall it). */
const MAX_RECORDS = 1000;
const REAP_GRACE_MS = 2000;

export class GroupRecords implements GroupRecorder {
  private warned = false;
  private owner: { pid: number; start: number } | undefined;

  constructor(
    readonly dir: string,
    private readonly logger: Logger,
  ) {}

  /** Record a group; returns what removes the record. A record that cannot be written is warned about once. */
  add(g: NewGroup): () => void {
    const owner = (this.owner ??= ownerIdentity());
    if (!owner) return () => {};
    const record: GroupRecord = {
      version: 1,
      pgid: g.pgid,
      leader_start: g.leaderStart,
      boot_id: bootId() ?? null,
      owner_pid: owner.pid,
      owner_start: owner.start,
      tag: g.tag,
      kind: g.kind,
      command: g.command.slice(0, COMMAND_CHARS),
      session_id: g.sessionId ?? null,
      started_at: new Date().toISOString(),
    };
    const file = path.join(this.dir, `${g.pgid}-${g.leaderStart}.json`);
    try {
      makeDirs(this.dir, 0o700);
      // Written beside, then renamed: a reader never sees half a record.
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(record), { mode: 0o600 });
      renameSync(tmp, file);
    } catch (err) {
      if (!this.warned) {
        this.warned = true;
        this.logger.warn(
          { dir: this.dir, error: (err as Error).message },
          'cannot record process groups: if core-agent is killed with SIGKILL, its commands will not be stopped by the next start',
        );
      }
      return () => {};
    }
    return () => rmSync(file, { force: true });
  }
}

function ownerIdentity(): { pid: number; start: number } | undefined {
  const s = procAvailable() ? readStat('self') : undefined;
  return s ? { pid: process.pid, start: s.startTime } : undefined;
}

export interface Reaped {
  pgid: number;
  command: string;
  session_id: string | null;
  owner_pid: number;
  /** The processes signalled: the group's leader, and escapees found by the tag. */
  killed: Array<{ pid: number; command: string; signal: string }>;
}

/**
 * Stop the groups of owners that are gone, and remove their records. Records of
 * a live owner are left alone; a record from an earlier boot, or whose processes
 * are all gone, is just removed.
 */
export async function reapStaleGroups(dir: string, logger: Logger): Promise<Reaped[]> {
  if (!procAvailable()) return [];
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .slice(0, MAX_RECORDS);
  } catch {
    return []; // no directory: nothing was ever recorded
  }
  if (names.length === 0) return [];
  // Only now: the schema's module evaluates zod, which a start with no records never needs.
  const { GROUP_RECORD } = await import('./group-record-schema.ts');
  const boot = bootId() ?? null;
  const stale: Array<{ file: string; rec: GroupRecord }> = [];
  for (const name of names) {
    const file = path.join(dir, name);
    let rec: GroupRecord;
    try {
      rec = GROUP_RECORD.parse(JSON.parse(readFileSync(file, 'utf8')));
    } catch (err) {
      logger.warn({ file, error: (err as Error).message.slice(0, 200) }, 'removed an unreadable process-group record');
      rmSync(file, { force: true });
      continue;
    }
    if (rec.boot_id !== boot) {
      rmSync(file, { force: true }); // start times of another boot name nothing alive now
      continue;
    }
    if (sameProcess(rec.owner_pid, rec.owner_start)) continue; // its owner still looks after it
    stale.push({ file, rec });
  }
  // In parallel: each may wait out a grace period.
  return Promise.all(stale.map(({ file, rec }) => reapOne(file, rec, logger)));
}

async function reapOne(file: string, rec: GroupRecord, logger: Logger): Promise<Reaped> {
  const killed: Reaped['killed'] = [];
  // The group, only while its leader is the very process recorded.
  const leader = readStat(rec.pgid);
  const leaderAlive = leader !== undefined && leader.startTime === rec.leader_start && leader.state !== 'Z';
  if (leaderAlive) {
    signalGroup(rec.pgid, 'SIGTERM');
    killed.push({ pid: rec.pgid, command: leader.comm, signal: 'SIGTERM' });
  }
  // Whatever carries its tag: the group's other members (its leader may be gone) and the escapees.
  const sweep = new EscapeeSweep({ tags: [rec.tag], since: rec.leader_start });
  const sweeping = sweep.stop(REAP_GRACE_MS, false);
  const deadline = Date.now() + REAP_GRACE_MS;
  while (leaderAlive && Date.now() < deadline && sameProcess(rec.pgid, rec.leader_start)) await wait(50);
  if (leaderAlive && sameProcess(rec.pgid, rec.leader_start)) {
    signalGroup(rec.pgid, 'SIGKILL');
    killed[0]!.signal = 'SIGKILL';
  }
  await sweeping;
  for (const e of sweep.report()) if (e.pid !== rec.pgid) killed.push(e);
  rmSync(file, { force: true });
  const entry: Reaped = { pgid: rec.pgid, command: rec.command, session_id: rec.session_id, owner_pid: rec.owner_pid, killed };
  if (killed.length > 0) logger.info({ ...entry }, 'stopped the commands of a core-agent that is gone (killed before it could stop them)');
  return entry;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // gone
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
