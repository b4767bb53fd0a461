import type { Logger } from '../log.ts';
import { WatchGone, type Kube } from '../k8s/cluster.ts';
import type { JsonObject } from '../tools/tool.ts';
import { sleep } from '../util/sleep.ts';

/** One change to an Event, and the resourceVersion that is safe to resume from once it is handled. */
export interface Change {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: JsonObject;
  /** Set on the last item of a list and on every watched change; persist it after handling this change. */
  resumeFrom?: string | undefined;
}

export interface InformerOptions {
  kube: Kube;
  /** The collection, e.g. /api/v1/events or /api/v1/namespaces/shop/events. */
  path: string;
  fieldSelector?: string | undefined;
  /** A resourceVersion saved by an earlier run: watch from it instead of listing. */
  resumeFrom?: string | undefined;
  /** Called in order, one at a time; the next change waits for the promise. */
  handle: (change: Change) => Promise<void>;
  /** After the first list (or the first watch, when resuming) the cache is in step with the API. */
  onSynced: () => void;
  onReconnect: (why: string) => void;
  logger: Logger;
  signal: AbortSignal;
}

const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 30_000;
/** The server closes a watch after this; we then resume from the last resourceVersion. */
const WATCH_SECONDS = 300;

/**
 * A list-then-watch loop over one collection, like client-go's reflector: list to
 * start (or resume from a saved resourceVersion), watch from there, and on any
 * break reconnect with backoff from the last resourceVersion handled. A 410 Gone
 * (the version was compacted away) lists again. Changes are handled strictly in
 * order, so the saved resourceVersion never runs ahead of the handling.
 */
export async function runInformer(o: InformerOptions): Promise<void> {
  let rv = o.resumeFrom;
  let synced = false;
  let failures = 0;
  const queue: Change[] = [];
  let draining: Promise<void> = Promise.resolve();
  // Watch callbacks are synchronous; changes are handed to `handle` one at a time behind them.
  const push = (c: Change) => {
    queue.push(c);
    draining = draining
      .then(async () => {
        const next = queue.shift();
        if (next && !o.signal.aborted) await o.handle(next);
      })
      // One change that cannot be handled (the database refused a write) must not stall the rest.
      .catch((err: unknown) => o.logger.error({ err: (err as Error).message }, 'an event change could not be handled'));
  };

  while (!o.signal.aborted) {
    try {
      if (rv === undefined) {
        const list = await o.kube.get(o.path, { fieldSelector: o.fieldSelector }, 'json', o.signal);
        const listRv = String((list.metadata as JsonObject | undefined)?.resourceVersion ?? '');
        const items = (list.items as JsonObject[] | undefined) ?? [];
        items.forEach((object, i) => push({ type: 'ADDED', object, resumeFrom: i === items.length - 1 ? listRv : undefined }));
        if (items.length === 0) push({ type: 'ADDED', object: {}, resumeFrom: listRv }); // only the version to save
        await draining;
        rv = listRv;
      }
      if (!synced) {
        synced = true;
        o.onSynced();
      }
      await o.kube.watch(
        o.path,
        { resourceVersion: rv, allowWatchBookmarks: true, timeoutSeconds: WATCH_SECONDS, fieldSelector: o.fieldSelector },
        (type, object) => {
          const version = (object.metadata as JsonObject | undefined)?.resourceVersion;
          if (typeof version === 'string') rv = version;
          if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') push({ type, object, resumeFrom: rv });
          else if (type === 'BOOKMARK') push({ type: 'ADDED', object: {}, resumeFrom: rv });
        },
        o.signal,
      );
      await draining;
      failures = 0; // a clean end of stream: the server's timeout; resume at once
    } catch (err) {
      await draining;
      if (o.signal.aborted) break;
      if (err instanceof WatchGone) {
        rv = undefined;
        o.onReconnect('gone');
        o.logger.info('watch resourceVersion expired; listing again');
        continue;
      }
      failures += 1;
      const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** (failures - 1)) * (0.5 + Math.random() / 2);
      o.onReconnect('error');
      o.logger.warn({ err: (err as Error).message, retry_in_ms: Math.round(delay) }, 'event watch failed; reconnecting');
      await sleep(delay, o.signal).catch(() => undefined);
    }
  }
  await draining;
}
