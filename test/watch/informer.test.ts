// The event informer against a scripted API: the order of handling, the version it
// saves, and what it does on a 410, a failed stream and a change it cannot handle.
import { describe, expect, it } from 'vitest';
import { WatchGone } from '../../src/k8s/cluster.ts';
import { silentLogger } from '../../src/log.ts';
import type { JsonObject } from '../../src/tools/framework/tool.ts';
import { runInformer, type Change, type ListWatch } from '../../src/watch/informer.ts';

type Emit = (type: string, object: JsonObject) => void;
const ev = (uid: string, rv: string): JsonObject => ({
  metadata: { uid, resourceVersion: rv },
  involvedObject: { kind: 'Pod', name: uid },
});
const list = (rv: string, ...uids: string[]): JsonObject => ({
  metadata: { resourceVersion: rv },
  items: uids.map((u, i) => ev(u, `${i}`)),
});

/** An API whose lists and watches follow a script; it records every request. */
function api(
  lists: JsonObject[],
  watches: Array<(emit: Emit) => Promise<void> | void>,
  stop: AbortController,
): ListWatch & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async get() {
      calls.push('list');
      const next = lists.shift();
      if (!next) throw new Error('no more lists scripted');
      return next;
    },
    async watch(_path, query, onEvent, signal) {
      calls.push(`watch@${String(query.resourceVersion)}`);
      const script = watches.shift();
      if (!script) {
        stop.abort(); // the script is over: end the informer
        return;
      }
      if (signal.aborted) return;
      await script(onEvent);
    },
  };
}

async function run(
  lists: JsonObject[],
  watches: Array<(emit: Emit) => Promise<void> | void>,
  opts: { resumeFrom?: string; failOn?: Set<string> } = {},
) {
  const stop = new AbortController();
  const fake = api(lists, watches, stop);
  const handled: string[] = [];
  const saved: string[] = [];
  const health: Array<string | null> = [];
  let synced = 0;
  await runInformer({
    kube: fake,
    path: '/api/v1/events',
    resumeFrom: opts.resumeFrom,
    handle: async (c: Change) => {
      const uid = (c.object.metadata as JsonObject | undefined)?.uid as string | undefined;
      if (uid && opts.failOn?.has(uid)) {
        opts.failOn.delete(uid); // fails once
        throw new Error(`cannot handle ${uid}`);
      }
      if (uid) handled.push(`${c.type}:${uid}`);
      if (c.resumeFrom) saved.push(c.resumeFrom);
    },
    onSynced: () => synced++,
    onHealth: (f) => health.push(f ? f.why : null),
    logger: silentLogger,
    signal: stop.signal,
    backoffMs: { min: 1, max: 2 },
  });
  return { calls: fake.calls, handled, saved, health, synced };
}

describe('runInformer', () => {
  it('lists, then watches from the list version; handles in order and saves each version after handling', async () => {
    const r = await run(
      [list('10', 'a', 'b')],
      [
        (emit) => {
          emit('ADDED', ev('c', '11'));
          emit('MODIFIED', ev('a', '12'));
          emit('BOOKMARK', { metadata: { resourceVersion: '15' } });
        },
        (emit) => emit('DELETED', ev('b', '16')),
      ],
    );
    expect(r.handled).toEqual(['ADDED:a', 'ADDED:b', 'ADDED:c', 'MODIFIED:a', 'DELETED:b']);
    expect(r.calls).toEqual(['list', 'watch@10', 'watch@15', 'watch@16']); // a clean end resumes from the newest version
    expect(r.saved).toEqual(['10', '11', '12', '15', '16']);
    expect(r.synced).toBe(1);
  });

  it('an empty list still yields the version to watch from', async () => {
    const r = await run([{ metadata: { resourceVersion: '7' }, items: [] }], [(emit) => emit('ADDED', ev('x', '8'))]);
    expect(r.calls).toEqual(['list', 'watch@7', 'watch@8']);
    expect(r.handled).toEqual(['ADDED:x']);
  });

  it('resumes from a saved version without listing', async () => {
    const r = await run([], [(emit) => emit('ADDED', ev('x', '101'))], { resumeFrom: '100' });
    expect(r.calls).toEqual(['watch@100', 'watch@101']);
    expect(r.synced).toBe(1);
  });

  it('410 Gone: lists again', async () => {
    const r = await run(
      [list('20', 'a')],
      [
        () => {
          throw new WatchGone();
        },
      ],
      { resumeFrom: '5' },
    );
    expect(r.calls).toEqual(['watch@5', 'list', 'watch@20']);
    expect(r.handled).toEqual(['ADDED:a']);
    expect(r.health).toEqual(['gone']);
  });

  it('a failed stream: reconnects from the last version handled, and reports the recovery', async () => {
    const r = await run(
      [list('10')],
      [
        (emit) => {
          emit('ADDED', ev('a', '11'));
          throw new Error('connection reset');
        },
        (emit) => emit('ADDED', ev('b', '12')),
      ],
    );
    expect(r.calls).toEqual(['list', 'watch@10', 'watch@11', 'watch@12']);
    expect(r.handled).toEqual(['ADDED:a', 'ADDED:b']);
    expect(r.health).toEqual(['error', null]);
  });

  it('a change it cannot handle is not skipped: the informer restarts from the last version it saved', async () => {
    const r = await run(
      [list('10')],
      [
        (emit) => {
          emit('ADDED', ev('a', '11'));
          emit('ADDED', ev('b', '12')); // fails once
          emit('ADDED', ev('c', '13')); // not handled in this attempt
        },
        (emit) => {
          emit('ADDED', ev('b', '12'));
          emit('ADDED', ev('c', '13'));
        },
      ],
      { failOn: new Set(['b']) },
    );
    expect(r.calls).toEqual(['list', 'watch@10', 'watch@11', 'watch@13']);
    expect(r.handled).toEqual(['ADDED:a', 'ADDED:b', 'ADDED:c']);
    expect(r.saved).toEqual(['10', '11', '12', '13']);
  });
});
