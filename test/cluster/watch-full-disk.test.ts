// core-agent watch with its session database on a real file system that fills up (a small
// tmpfs, test/helpers/tmpfs.ts), against the local control plane with a replayed model: it
// must stop by itself, saying why (the disk, the database's path) with exit status 1, and keep
// its queue — the incidents that arrived, and the ones it could not finish, run after space is
// back and it is started again, each exactly once; what it finished is never run again.
import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EventLog } from '../../src/store/event-log.ts';
import { IncidentStore, type Incident } from '../../src/watch/incident-store.ts';
import { MiB, mountTmpfs } from '../helpers/tmpfs.ts';
import { tempDir } from '../helpers/workspace.ts';
import { kubectl, requireCluster, until, withNamespace } from './kube.ts';
import { backOffEvent, startWatch, watchFixture, type WatchProcess } from './watch-process.ts';

const procs: WatchProcess[] = [];
afterEach((ctx) => {
  for (const p of procs.splice(0)) {
    if (ctx.task.result?.state === 'fail') console.error(`watch stdout:\n${p.stdout()}\nwatch stderr (tail):\n${p.stderr().slice(-4000)}`);
    if (p.child.exitCode === null) p.child.kill('SIGKILL');
  }
});

/**
 * An answer of 256 KiB: each session's log must grow by more than what SQLite's write-ahead log
 * already holds, so a full disk is met by the sessions' writes, not only by the next incident's.
 */
const ANSWER = { text: `UNRESOLVED: the container exits with code 1; check its command. ${'Details follow. '.repeat(16 * 1024)}` };

function incidents(db: string): Incident[] {
  const store = IncidentStore.open(db);
  try {
    return store.all();
  } finally {
    store.close();
  }
}

/** Incident sessions, and how many outcomes each recorded. */
function outcomes(db: string): Map<string, number> {
  const log = EventLog.open(db);
  try {
    const out = new Map<string, number>();
    for (const s of log.sessions().filter((s) => s.title.startsWith('incident #')))
      out.set(s.id, log.events(s.id).filter((e) => e.kind === 'incident').length);
    return out;
  } finally {
    log.close();
  }
}

async function createPods(ns: string, names: string[]): Promise<void> {
  const items = names.map((name) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns },
    spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10' }] },
  }));
  await kubectl(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
}

async function backOff(ns: string, pods: string[]): Promise<void> {
  const items = pods.map((pod) => backOffEvent(ns, pod, 0));
  await kubectl(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
}

describe('core-agent watch on a full disk', () => {
  it('stops saying why (the disk, the path, exit 1) and keeps its queue: after space is back, a restart runs every incident once', async (ctx) => {
    await requireCluster();
    const disk = await mountTmpfs(ctx, { bytes: 24 * MiB });
    await withNamespace('watch-full', {}, async (ns) => {
      const dir = await tempDir();
      const f = { ...(await watchFixture(dir, ns, { max_concurrent_sessions: 2 }, [ANSWER])), db: path.join(disk.dir, 'sessions.db') };
      const pods = ['app-0', 'app-1', 'app-2', 'app-3', 'app-4'];
      await createPods(ns, pods);

      const first = await startWatch(f, dir);
      procs.push(first);
      // One incident goes through while there is room.
      await backOff(ns, ['app-0']);
      const done = await until('the first incident finished', 60_000, async () => {
        const [one] = incidents(f.db);
        return one?.status === 'done' ? one : undefined;
      });

      // The disk fills; four more incidents arrive.
      await disk.fill({ leaveBytes: 0 });
      await backOff(ns, pods.slice(1));
      const code = await Promise.race([first.exited, new Promise((resolve) => setTimeout(resolve, 90_000, 'still running'))]);
      expect(code, 'watch stops by itself with exit status 1').toBe(1);
      // Why, where, and that nothing is lost: on stderr (the log) and stdout (the operator's lines).
      const full = `no space left on device while writing the session log at ${f.db}`;
      expect(first.stderr()).toContain(full);
      expect(first.stdout()).toMatch(
        /core-agent watch: stopped: no space left on device while writing the session log at \S+sessions\.db; /,
      );
      expect(first.stdout()).toMatch(/the queue is kept: free space and start watch again/);
      // It stopped at its first failed write, not after a loop of sessions that could not be recorded.
      expect(first.stdout().match(/incident #\d+ (session|resumed in)/g)!.length).toBeLessThanOrEqual(pods.length + 2);

      // Space again: the database is whole, and a restart runs what was left, each once.
      await disk.free();
      const db = new DatabaseSync(f.db);
      expect((db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check).toBe('ok');
      db.close();
      const second = await startWatch(f, dir);
      procs.push(second);
      const after = await until('all five incidents finished', 90_000, async () => {
        const list = incidents(f.db);
        return list.length === pods.length && list.every((i) => i.status === 'done') ? list : undefined;
      });
      expect(new Set(after.map((i) => i.name))).toEqual(new Set(pods));
      // The one finished before the disk filled was not run again.
      expect(after.find((i) => i.id === done.id)).toMatchObject({ sessionId: done.sessionId, finishedAt: done.finishedAt });
      expect(second.stdout()).not.toContain(`incident #${done.id} session`);
      // Every incident has exactly one recorded outcome, in its own session.
      const recorded = outcomes(f.db);
      for (const i of after) expect(recorded.get(i.sessionId!), `incident #${i.id}`).toBe(1);
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    });
  });
});
