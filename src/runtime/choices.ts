import type { ChoiceAnswer, ChoiceQuestion } from '../tools/framework/services.ts';

/** What the client adds after the model's options: the way out of a list that misses the answer. */
export const NONE_OF_THE_ABOVE = 'None of the above';

/** Reads one line after showing a prompt; null when input has ended. */
export type ReadLine = (prompt: string) => Promise<string | null>;

/**
 * A ReadLine over a readline interface that keeps every line: piped input arrives
 * all at once, and a line that comes while no question is pending (rl.question
 * only catches the next one) must wait for the next question, not be dropped.
 */
export function queuedLines(
  rl: { on(event: 'line', f: (line: string) => void): unknown; on(event: 'close', f: () => void): unknown },
  output: { write(s: string): unknown },
): ReadLine {
  const queue: string[] = [];
  let waiting: ((line: string | null) => void) | null = null;
  let ended = false;
  rl.on('line', (line) => {
    if (waiting) {
      const w = waiting;
      waiting = null;
      w(line);
    } else queue.push(line);
  });
  rl.on('close', () => {
    ended = true;
    waiting?.(null);
    waiting = null;
  });
  return (prompt) => {
    output.write(prompt);
    const next = queue.shift();
    if (next !== undefined) return Promise.resolve(next);
    if (ended) return Promise.resolve(null);
    return new Promise((resolve) => (waiting = resolve));
  };
}

/**
 * request_user_input on a line terminal: each question as a numbered list, the
 * options then "None of the above", which asks for a free note. A reply that is
 * not a number is taken as that note (typing the answer is quicker than "3",
 * then the answer). Input ending mid-way leaves the questions unanswered.
 */
export async function chooseOnLines(
  questions: readonly ChoiceQuestion[],
  read: ReadLine,
): Promise<{ answers: ChoiceAnswer[] } | { unavailable: string }> {
  const answers: ChoiceAnswer[] = [];
  for (const q of questions) {
    const none = q.options.length + 1;
    const menu = [
      `? [${q.header}] ${q.question}`,
      ...q.options.map((o, i) => `  ${i + 1}) ${o.label} — ${o.description}`),
      `  ${none}) ${NONE_OF_THE_ABOVE} — type your own answer`,
    ].join('\n');
    let prompt = `${menu}\nChoose 1-${none}: `;
    for (;;) {
      const reply = await read(prompt);
      if (reply === null) return { unavailable: 'the input ended before every question was answered' };
      const r = reply.trim();
      if (r === '') {
        prompt = `Choose 1-${none}, or type your own answer: `;
        continue;
      }
      const n = /^\d+$/.test(r) ? Number(r) : NaN;
      if (n >= 1 && n <= q.options.length) {
        answers.push({ id: q.id, choice: q.options[n - 1]!.label });
        break;
      }
      if (Number.isNaN(n)) {
        answers.push({ id: q.id, none: true, note: r });
        break;
      }
      if (n === none) {
        const note = await read('Your answer: ');
        if (note === null) return { unavailable: 'the input ended before every question was answered' };
        answers.push({ id: q.id, none: true, note: note.trim() });
        break;
      }
      prompt = `${r} is not one of 1-${none}; choose again: `;
    }
  }
  return { answers };
}
