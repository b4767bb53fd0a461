import type { OpenQuestion } from '../tools/framework/services.ts';
import type { ReadLine } from './choices.ts';

/**
 * golem's questions on a line terminal: each question with its numbered options. A number
 * picks an option (with multiSelect, several numbers: `1,3`); text is taken as the free
 * answer where the question allows one (`other`, or no options at all), and asked again
 * where it does not. Input ending mid-way leaves the questions unanswered.
 */
export async function openQuestionsOnLines(
  questions: readonly OpenQuestion[],
  read: ReadLine,
): Promise<{ answers: Record<string, string> } | { unavailable: string }> {
  const answers: Record<string, string> = {};
  for (const q of questions) {
    const n = q.options.length;
    const free = n === 0 || (q.other !== undefined && q.other !== '');
    const menu = [
      `? ${q.header ? `[${q.header}] ` : ''}${q.question}`,
      ...q.options.map((o, i) => `  ${i + 1}) ${o}`),
      ...(n > 0 && free ? [`  or type: ${q.other}`] : []),
    ].join('\n');
    const how =
      n === 0
        ? 'Your answer: '
        : q.multiSelect
          ? `Choose one or more of 1-${n} (e.g. 1,3)${free ? ', or type' : ''}: `
          : `Choose 1-${n}${free ? ', or type' : ''}: `;
    let prompt = `${menu}\n${how}`;
    for (;;) {
      const reply = await read(prompt);
      if (reply === null) return { unavailable: 'the input ended before every question was answered' };
      const picked = pick(reply.trim(), q);
      if (picked !== null) {
        answers[q.question] = picked;
        break;
      }
      prompt = reply.trim() === '' ? how : `${reply.trim().slice(0, 40)} is not ${q.multiSelect ? 'a list of' : 'one of'} 1-${n}; ${how}`;
    }
  }
  return { answers };
}

/** The answer a reply gives, or null when it gives none (empty, out of range, text where only options are allowed). */
export function pick(reply: string, q: OpenQuestion): string | null {
  if (reply === '') return null;
  const n = q.options.length;
  const free = n === 0 || (q.other !== undefined && q.other !== '');
  const numbers = n > 0 && /^\d+(\s*,\s*\d+)*$/.test(reply) ? reply.split(',').map((x) => Number(x.trim())) : null;
  if (numbers !== null) {
    if (numbers.some((k) => k < 1 || k > n)) return null;
    if (numbers.length > 1 && !q.multiSelect) return null;
    return [...new Set(numbers)].map((k) => q.options[k - 1]!).join(', ');
  }
  return free ? reply : null;
}
