import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TextRenderer } from '../../src/cli/render.ts';
import { painter, shouldColor } from '../../src/cli/terminal/colors.ts';
import { prettyLogLine } from '../../src/cli/terminal/log-lines.ts';
import { COLOR_CASES, LOG_LINE_CASES, SCREEN_CASES, type Step } from './render-terminal.cases.ts';

/**
 * A terminal as stdout and stderr both write to it: text overwrites at the
 * cursor, `\n` moves to the next line, `\r` to the line's start, `\x1b[2K`
 * erases the line, `\x1b[1A` moves up. Any other escape is refused, so the
 * renderer cannot pass by writing something this model does not know.
 */
function terminal() {
  const lines: string[] = [''];
  let row = 0;
  let col = 0;
  const write = (s: string) => {
    for (const piece of s.split(/(\x1b\[[0-9;]*[A-Za-z]|\r|\n)/)) {
      if (piece === '') continue;
      if (piece === '\n') {
        row++;
        col = 0;
        if (row === lines.length) lines.push('');
      } else if (piece === '\r') col = 0;
      else if (piece === '\x1b[2K') lines[row] = '';
      else if (piece === '\x1b[1A') row = Math.max(0, row - 1);
      else if (/^\x1b\[[0-9;]*m$/.test(piece))
        continue; // colour: takes no room
      else if (piece.startsWith('\x1b')) throw new Error(`unexpected escape ${JSON.stringify(piece)}`);
      else {
        const line = lines[row]!.padEnd(col);
        lines[row] = line.slice(0, col) + piece + line.slice(col + piece.length);
        col += piece.length;
      }
    }
  };
  return {
    io: { out: write, err: write, readStdin: async () => '', isTty: true, env: {} },
    screen: () => {
      // Blank rows below the last text are an empty screen (what a cleared region leaves).
      const shown = [...lines];
      while (shown.at(-1) === '') shown.pop();
      return shown;
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function play(r: TextRenderer, step: Step): void {
  if (!('do' in step)) return r.onEvent(step);
  if (step.do === 'start') r.startTurn();
  else if (step.do === 'tick') vi.advanceTimersByTime(80);
  else if (step.do === 'pause') r.pause();
  else if (step.do === 'resume') r.resume();
  else if (step.do === 'note') r.note(step.text);
  else if (step.do === 'cancelled') r.cancelled('stopped');
  else r.finish({ status: 'done', text: '', steps: 1, usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 } });
}

describe('the text renderer on a terminal: only its own lines are ever erased', () => {
  it.each(SCREEN_CASES)('$name', ({ steps, screen, live }) => {
    const t = terminal();
    const r = new TextRenderer(t.io, live ?? true);
    for (const s of steps) play(r, s);
    const shown = t.screen();
    expect(shown.length, JSON.stringify(shown)).toBe(screen.length);
    screen.forEach((want, i) => {
      if (want.startsWith('/') && want.endsWith('/')) expect(shown[i]).toMatch(new RegExp(want.slice(1, -1)));
      else expect(shown[i]).toBe(want);
    });
    r.stopSpinner();
  });

  it('colours only when asked, and a line never wider than the terminal', () => {
    const t = terminal();
    const r = new TextRenderer(t.io, true, { color: true, columns: () => 20 });
    r.startTurn();
    r.onEvent({ type: 'tool_start', id: '1', name: 'a_tool_with_a_very_long_name_indeed', args: '{}' });
    const raw: string[] = [];
    const spy = t.io.err;
    t.io.err = (s: string) => (raw.push(s), spy(s));
    vi.advanceTimersByTime(80);
    expect(raw.join('')).toContain('\x1b[36m'); // cyan frame
    expect(t.screen()).toEqual(['⠙ a_tool_with_a_ve…']);
    r.stopSpinner();
    expect(t.screen()).toEqual([]);
  });

  it('no colour codes at all without colour', () => {
    const t = terminal();
    const raw: string[] = [];
    const r = new TextRenderer({ ...t.io, err: (s: string) => raw.push(s) }, true);
    r.onEvent({ type: 'tool_start', id: '1', name: 'bash', args: '{}' });
    r.onEvent({ type: 'tool_end', id: '1', name: 'bash', ok: true, ms: 1 });
    expect(raw.join('')).not.toMatch(/\x1b\[[0-9;]*m/);
  });
});

describe('log lines on a terminal', () => {
  it.each(LOG_LINE_CASES)('%s', (line, shown) => {
    expect(prettyLogLine(line, painter(false))).toBe(shown);
  });
});

describe('colour: NO_COLOR, FORCE_COLOR, the terminal', () => {
  it.each(COLOR_CASES)('%j tty=%s colours=%s → %s', (env, tty, hasColors, color) => {
    expect(shouldColor(env, { isTTY: tty, hasColors: () => hasColors })).toBe(color);
  });
});
