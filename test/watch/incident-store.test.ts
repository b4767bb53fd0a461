import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { IncidentStore } from '../../src/watch/incident-store.ts';
import { tempDir } from '../helpers/workspace.ts';

const deployment = { kind: 'Deployment', namespace: 'shop', name: 'web' };
const about = (uid: string, count = 1, lastAt = 1_000) => ({
  root: deployment,
  involved: { kind: 'Pod', namespace: 'shop', name: `web-${uid}` },
  reason: 'BackOff',
  message: 'Back-off restarting failed container',
  lastAt,
  eventUid: uid,
  eventCount: count,
});
const KEY = 'Deployment/shop/web|BackOff';
const COOLDOWN = 60_000;

async function store() {
  const db = path.join(await tempDir(), 'sessions.db');
  return { db, store: IncidentStore.open(db) };
}

describe('IncidentStore', () => {
  it('opens one incident per key and folds the rest into it while it is open', async () => {
    const { store: s } = await store();
    expect(s.observe(KEY, about('a'), COOLDOWN, 10_000)).toEqual({ observation: 'new', id: 1 });
    expect(s.observe(KEY, about('b'), COOLDOWN, 10_001)).toEqual({ observation: 'merged', id: 1 });
    s.markRunning(1, 10_002);
    expect(s.observe(KEY, about('c', 1, 5_000), COOLDOWN, 10_003)).toEqual({ observation: 'merged', id: 1 });
    expect(s.get(1)).toMatchObject({ status: 'running', events: 3, lastEventAt: 5_000, startedAt: 10_002 });
    expect(s.observe('Deployment/shop/api|BackOff', about('d'), COOLDOWN, 10_004).observation).toBe('new');
  });

  it('an Event seen at the same count is stale; a higher count is a new occurrence', async () => {
    const { store: s } = await store();
    s.observe(KEY, about('a', 1), COOLDOWN, 1);
    expect(s.observe(KEY, about('a', 1), COOLDOWN, 2).observation).toBe('stale');
    expect(s.observe(KEY, about('a', 2), COOLDOWN, 3).observation).toBe('merged');
    expect(s.get(1)!.events).toBe(2);
  });

  it('after the session ends: within the cooldown an event joins it, after it a new incident opens', async () => {
    const { store: s } = await store();
    s.observe(KEY, about('a'), COOLDOWN, 0);
    s.markRunning(1, 1);
    s.finish(1, 'UNRESOLVED', 'proposal', false, 100);
    expect(s.observe(KEY, about('b'), COOLDOWN, 100 + COOLDOWN - 1)).toEqual({ observation: 'cooldown', id: 1 });
    expect(s.observe(KEY, about('c'), COOLDOWN, 100 + COOLDOWN)).toEqual({ observation: 'new', id: 2 });
  });

  it('next: running incidents first (to resume), then the queue in order, skipping the ones taken', async () => {
    const { store: s } = await store();
    for (const k of ['a', 'b', 'c']) s.observe(`Pod/shop/${k}|BackOff`, about(k), COOLDOWN);
    s.markRunning(3);
    expect(s.next(new Set())!.id).toBe(3);
    expect(s.next(new Set([3]))!.id).toBe(1);
    expect(s.next(new Set([3, 1]))!.id).toBe(2);
    expect(s.next(new Set([1, 2, 3]))).toBeUndefined();
    expect(s.counts()).toEqual({ queued: 2, running: 1, done: 0 });
  });

  it('keeps everything across a reopen: incidents, session ids, seen events, the resourceVersion', async () => {
    const { db, store: s } = await store();
    s.observe(KEY, about('a'), COOLDOWN);
    s.markRunning(1);
    s.setSession(1, 's-1');
    s.setState('events_rv /api/v1/events', '4242');
    s.close();
    const again = IncidentStore.open(db);
    expect(again.next(new Set())).toMatchObject({ id: 1, status: 'running', sessionId: 's-1' });
    expect(again.getState('events_rv /api/v1/events')).toBe('4242');
    expect(again.observe(KEY, about('a'), COOLDOWN).observation).toBe('stale');
    again.close();
  });
});
