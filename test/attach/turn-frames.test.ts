import { describe, expect, it } from 'vitest';
import { TurnFrames } from '../../src/attach/turn-frames.ts';
import type { EventKind, SessionEvent } from '../../src/store/event-log.ts';
import { TURN_FRAMES_CASES } from './turn-frames.cases.ts';

describe("the Go wire's typed frames for a session's log", () => {
  it.each(TURN_FRAMES_CASES)('$name', ({ events, live, frames }) => {
    const typed = new TurnFrames();
    const got = events.flatMap((e, i) =>
      typed.of(
        {
          sessionId: 's-1',
          seq: i + 1,
          turn: 1,
          at: e.at ?? '2026-12-01T10:00:00.000Z',
          kind: e.kind as EventKind,
          data: e.data,
        } satisfies SessionEvent,
        live,
      ),
    );
    expect(got.map((f) => f.event)).toEqual(frames.map((f) => f.event));
    frames.forEach((f, i) => {
      if (f.data) expect(got[i]!.data).toMatchObject(f.data);
    });
  });
});
