import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agent.ts';
import { TextRenderer } from '../../src/cli/render.ts';

/**
 * One terminal line as stdout and stderr both write to it: `\r\x1b[2K` erases
 * the line, `\n` ends it. What is left is what the operator sees.
 */
function terminal() {
  const lines: string[] = [''];
  const write = (text: string) => {
    for (const piece of text.split(/(\r\x1b\[2K|\n)/)) {
      if (piece === '\r\x1b[2K') lines[lines.length - 1] = '';
      else if (piece === '\n') lines.push('');
      else lines[lines.length - 1] += piece;
    }
  };
  return { io: { out: write, err: write, readStdin: async () => '', isTty: true, env: {} }, lines };
}

const plan: AgentEvent = {
  type: 'plan',
  explanation: 'found the cause',
  plan: [
    { step: 'read the config', status: 'completed' },
    { step: 'fix the port', status: 'in_progress' },
    { step: 'run the tests', status: 'pending' },
  ],
};

describe('the text renderer on a terminal', () => {
  it('never erases streamed answer text (only its own spinner line)', () => {
    const t = terminal();
    const r = new TextRenderer(t.io, true);
    for (const e of [
      { type: 'text_delta', delta: 'The port ' },
      { type: 'text_delta', delta: 'is 8080.' },
      { type: 'text', text: 'The port is 8080.' },
    ] satisfies AgentEvent[])
      r.onEvent(e);
    r.stopSpinner();
    expect(t.lines).toEqual(['The port is 8080.', '']);
  });

  it('shows each plan change as a marked block on its own lines', () => {
    const t = terminal();
    new TextRenderer(t.io, true).onEvent(plan);
    expect(t.lines).toEqual(['· plan — found the cause', '  ✓ read the config', '  ▶ fix the port', '  ○ run the tests', '']);
  });
});
