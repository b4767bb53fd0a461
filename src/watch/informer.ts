import type { Logger } from '../log.ts';
import type { JsonObject } from '../core/json.ts';
import { sleep } from '../util/sleep.ts';

/** One change to an Event, and the resourceVersion that is safe to resume from once it is handled. */
export interface Change {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: JsonObject;
  /** Set on the last item of a list and on every watched change; persist it after handling this change. */
  resumeFrom?: string | undefined;
}

/** What the informer needs of the cluster client (Kube implements it). */
export interface ListWatch {
  get(path: string, query: Record<string, string | undefined>, as: 'json', signal?: AbortSignal): Promise<JsonObject>;
  watch(
    path: string,
    query: Record<string, string | number | boolean | undefined>,
    onEvent: (type: string, object: JsonObject) => void,
    signal: AbortSignal,
  ): Promise<void>;
}

export interface InformerOptions {
  kube: ListWatch;
  /** The collection, e.g. /api/v1/events or /api/v1/namespaces/shop/events. */
  path: string;
  fieldSelector?: string | undefined;
  /** A resourceVersion saved by an earlier run: watch from it instead of listing. */
  resumeFrom?: string | undefined;
  /** Called in order, one at a time; the next change waits for the promise. A throw restarts from the last saved version. */
  handle: (change: Change) => Promise<void>;
  /** After the first list (or the first watch, when resuming) the cache is in step with the API. */
  onSynced: () => void;
  /** Every failed attempt (why: error, gone) and every success after one (why: null), for metrics and readiness. */
  onHealth: (failing: { why: 'error' | 'gone'; message: string } | null) => void;
  logger: Logger;
  signal: AbortSignal;
  /** Backoff bounds (tests shorten them). */
  backoffMs?: { min: number; max: number };
}

/** The server closes a watch after this; we then resume from the last resourceVersion. */
const WATCH_SECONDS = 300;

/** A 410 from list or watch: the resourceVersion was compacted away; list again. */
export function isGone(err: unknown): boolean {
  return (err as Error | null)?.name === 'WatchGone';
}

/**
 * A list-then-watch loop over one collection, like client-go's reflector: list to
 * start (or resume from a saved resourceVersion), watch from there, and on any
 * break reconnect with backoff from the last resourceVersion whose change was
 * handled. A 410 Gone lists again. Changes are handled strictly in order, and a
 * change whose handling fails is not skipped: the informer restarts from the last
 * version it saved, so nothing is acknowledged before it is handled.
 */
export async function runInformer(o: InformerOptions): Promise<void> {
  const backoff = o.backoffMs ?? { min: 500, max: 30_000 };
  let saved = o.resumeFrom; // the version every change up to which has been handled
  let synced = false;
  let failures = 0;

  while (!o.signal.aborted) {
    const attempt = new AbortController();
    const signal = AbortSignal.any([o.signal, attempt.signal]);
    let handlerError: Error | undefined;
    let chain: Promise<void> = Promise.resolve();
    // Watch callbacks are synchronous: changes are queued and handled one at a time behind them.
    const push = (c: Change) => {
      chain = chain.then(async () => {
        if (handlerError || signal.aborted) return;
        try {
          await o.handle(c);
          if (c.resumeFrom) saved = c.resumeFrom;
        } catch (err) {
          handlerError = err as Error;
          attempt.abort(handlerError);
        }
      });
    };
    try {
      let from = saved;
      if (from === undefined) {
        const list = await o.kube.get(o.path, { fieldSelector: o.fieldSelector }, 'json', signal);
        const listRv = String((list.metadata as JsonObject | undefined)?.resourceVersion ?? '');
        const items = (list.items as JsonObject[] | undefined) ?? [];
        items.forEach((object, i) => push({ type: 'ADDED', object, resumeFrom: i === items.length - 1 ? listRv : undefined }));
        if (items.length === 0) push({ type: 'ADDED', object: {}, resumeFrom: listRv }); // only the version to save
        await chain;
        if (handlerError) throw handlerError;
        from = listRv;
      }
      if (!synced) {
        synced = true;
        o.onSynced();
      }
      if (failures > 0) o.onHealth(null);
      failures = 0;
      await o.kube.watch(
        o.path,
        { resourceVersion: from, allowWatchBookmarks: true, timeoutSeconds: WATCH_SECONDS, fieldSelector: o.fieldSelector },
        (type, object) => {
          const version = (object.metadata as JsonObject | undefined)?.resourceVersion;
          const rv = typeof version === 'string' ? version : undefined;
          if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') push({ type, object, resumeFrom: rv });
          else if (type === 'BOOKMARK') push({ type: 'ADDED', object: {}, resumeFrom: rv }); // nothing to handle, a newer version
        },
        signal,
      );
      await chain;
      if (handlerError) throw handlerError;
      // A clean end of stream (the server's timeout): resume from `saved` at once.
    } catch (err) {
      await chain;
      if (o.signal.aborted) break;
      const why = isGone(err) ? 'gone' : 'error';
      const message = (handlerError ?? (err as Error)).message;
      o.onHealth({ why, message });
      if (why === 'gone') {
        saved = undefined;
        o.logger.info({ path: o.path }, 'watch resourceVersion expired; listing again');
        continue;
      }
      failures += 1;
      const delay = Math.min(backoff.max, backoff.min * 2 ** (failures - 1)) * (0.5 + Math.random() / 2);
      o.logger.warn(
        { path: o.path, err: message, retry_in_ms: Math.round(delay) },
        handlerError ? 'an event could not be handled; restarting from the last one handled' : 'event watch failed; reconnecting',
      );
      await sleep(delay, o.signal).catch(() => undefined);
    }
  }
}
