import type { Asker, ToolServices } from '../tools/framework/services.ts';

/**
 * A child agent's services: the parent's, with its questions marked with who asks
 * (`[explore-1 · explore]`), so the operator answering in the main session knows which agent
 * and profile the question comes from, and only the skills its profile names (`skills:`; none:
 * no skill tool; and no skill of its own written or deleted). The asker is the parent's: headless it refuses the child as it refuses the parent.
 */
export function childServices(
  services: ToolServices,
  name: string,
  profile: { readonly name: string; readonly skills?: readonly string[] | undefined },
): ToolServices {
  const asker = services.asker;
  const named = profile.skills;
  const skills = named === undefined ? services.skills : services.skills?.filter((s) => named.includes(s.name));
  return {
    ...services,
    ...(asker ? { asker: attributedAsker(asker, name === profile.name ? name : `${name} · ${profile.name}`) } : {}),
    skills: skills?.length ? skills : undefined,
    // Named skills: the child reads those (as they are now) and writes none.
    skillStore: named === undefined ? services.skillStore : skills?.length ? services.skillStore?.only(named) : undefined,
  };
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
