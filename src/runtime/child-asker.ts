import type { Asker, ToolServices } from '../tools/framework/services.ts';

/**
 * A child agent's services: the parent's, with its questions marked with who asks
 * (`[explore-1 · explore]`), so the operator answering in the main session knows which agent
 * and profile the question comes from. The asker is the parent's: headless it refuses the
 * child as it refuses the parent.
 */
export function childServices(services: ToolServices, name: string, profile: string): ToolServices {
  const asker = services.asker;
  return asker ? { ...services, asker: attributedAsker(asker, name === profile ? name : `${name} · ${profile}`) } : services;
}

function attributedAsker(asker: Asker, who: string): Asker {
  const mark = (text: string) => `[${who}] ${text}`;
  const { choose, elicit } = asker;
  return {
    ask: (question) => asker.ask(mark(question)),
    ...(choose
      ? {
          choose: (questions) =>
            choose.call(
              asker,
              questions.map((q) => ({ ...q, question: mark(q.question) })),
            ),
        }
      : {}),
    ...(elicit ? { elicit: (form) => elicit.call(asker, { ...form, message: mark(form.message) }) } : {}),
  };
}
