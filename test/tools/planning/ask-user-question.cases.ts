/**
 * golem's AskUserQuestionTool (`--dialect golem`), one call a line. `who`: the client a
 * person answers at (`answers`: a terminal answering every question with `reply`; `later`: a
 * headless run whose questions wait with the session; `off`: asking is off, as in watch's
 * incidents), or the run's kind (`service`: a service principal; `autonomous`: a run woken
 * on a schedule — both with a terminal that would answer, which must not be asked).
 * `result` matches the model's result, `posted` says the questions wait with the session,
 * and `error` holds every pattern the one refusal must match.
 */
export interface AskCase {
  name: string;
  who: 'answers' | 'later' | 'off' | 'service' | 'autonomous';
  args: unknown;
  reply?: string;
  result?: RegExp;
  posted?: boolean;
  error?: RegExp[];
}

const q = (question: string, more: Record<string, unknown> = {}) => ({ question, options: ['Keep', 'Drop'], ...more });

export const ASK_CASES: AskCase[] = [
  // Golem's contract, answered now.
  {
    name: 'one question answered now',
    who: 'answers',
    args: { questions: [q('Keep the db?')] },
    reply: 'Keep',
    result: /^The user answered:\n- Keep the db\?: Keep\n$/,
  },
  {
    name: 'two questions answered in order',
    who: 'answers',
    args: { questions: [q('Keep the db?'), q('Port?', { options: ['80', '443'], header: 'Port' })] },
    reply: 'x',
    result: /^The user answered:\n- Keep the db\?: x\n- Port\?: x\n$/,
  },
  {
    name: 'multiSelect is taken (golem allows several choices)',
    who: 'answers',
    args: { questions: [q('Which?', { options: ['a', 'b', 'c'], multiSelect: true })] },
    reply: 'a, c',
    result: /- Which\?: a, c/,
  },
  {
    name: 'other offers a free-text answer',
    who: 'answers',
    args: { questions: [q('Name?', { other: 'Something else' })] },
    reply: 'mine',
    result: /- Name\?: mine/,
  },
  {
    name: 'no options: a free-text question',
    who: 'answers',
    args: { questions: [{ question: 'Why?', options: [] }] },
    reply: 'because',
    result: /- Why\?: because/,
  },
  {
    name: 'four options and a header',
    who: 'answers',
    args: { questions: [q('Zone?', { options: ['a', 'b', 'c', 'd'], header: 'Zone' })] },
    reply: 'd',
    result: /Zone\?: d/,
  },
  {
    name: 'ten options (the bound)',
    who: 'answers',
    args: { questions: [q('N?', { options: Array.from({ length: 10 }, (_, i) => `o${i}`) })] },
    reply: 'o9',
    result: /N\?: o9/,
  },
  // Nobody at the client now: posted, the turn ends (golem's text).
  {
    name: 'headless: posted with the session',
    who: 'later',
    args: { questions: [q('Keep the db?')] },
    result: /^The questions are now with the user\. This turn ends here; you will be started again with the answers\.$/,
    posted: true,
  },
  {
    name: 'headless multiSelect: posted',
    who: 'later',
    args: { questions: [q('Which?', { multiSelect: true })] },
    result: /now with the user/,
    posted: true,
  },
  // Refused where no one will ever answer.
  {
    name: 'a service principal never asks',
    who: 'service',
    args: { questions: [q('Keep the db?')] },
    error: [/service principal "svc-watch"/, /unattended/, /assumptions/],
  },
  {
    name: 'an autonomous run never asks',
    who: 'autonomous',
    args: { questions: [q('Keep the db?')] },
    error: [/autonomous run/, /assumptions/],
  },
  {
    name: 'asking off (watch incidents, --ask off)',
    who: 'off',
    args: { questions: [q('Keep the db?')] },
    error: [/asking is off/, /assumptions/],
  },
  // The arguments: every problem in one error.
  { name: 'no questions', who: 'answers', args: { questions: [] }, error: [/questions/] },
  { name: 'questions missing', who: 'answers', args: {}, error: [/questions is required/] },
  {
    name: 'five questions (the bound is four)',
    who: 'answers',
    args: { questions: ['a', 'b', 'c', 'd', 'e'].map((x) => q(`${x}?`)) },
    error: [/questions has 5 items.*4/],
  },
  {
    name: 'eleven options',
    who: 'answers',
    args: { questions: [q('N?', { options: Array.from({ length: 11 }, (_, i) => `o${i}`) })] },
    error: [/options has 11 items.*10/],
  },
  {
    name: 'the same question twice (answers are keyed by text)',
    who: 'answers',
    args: { questions: [q('Same?'), q('Same?')] },
    error: [/questions\[1\]\.question: repeats an earlier question/],
  },
  {
    name: 'multiSelect with one option',
    who: 'answers',
    args: { questions: [q('One?', { options: ['only'], multiSelect: true })] },
    error: [/multiSelect: needs at least two options/],
  },
  {
    name: 'an option listed twice',
    who: 'answers',
    args: { questions: [q('Dup?', { options: ['a', 'a'] })] },
    error: [/options: lists an option twice/],
  },
  {
    name: 'several problems: all named',
    who: 'answers',
    args: {
      questions: [
        { question: '', options: ['a'] },
        { question: 'ok?', options: ['a', ''], multiSelect: 'yes' },
      ],
    },
    error: [/questions\[0\]\.question is empty/, /questions\[1\]\.options\[1\]/, /questions\[1\]\.multiSelect must be/],
  },
  { name: 'options missing', who: 'answers', args: { questions: [{ question: 'Why?' }] }, error: [/questions\[0\]\.options is required/] },
  {
    name: "Cagent's field names are unknown keys",
    who: 'answers',
    args: { questions: [{ id: 'x', question: 'Why?', options: [] }] },
    error: [/unknown key in questions\[0\] "id"/],
  },
  {
    name: 'a header over 40 characters',
    who: 'answers',
    args: { questions: [q('H?', { header: 'h'.repeat(41) })] },
    error: [/header is 41 characters long/],
  },
  {
    name: 'an option over 200 characters',
    who: 'answers',
    args: { questions: [q('L?', { options: ['a', 'x'.repeat(201)] })] },
    error: [/options\[1\] is 201 characters long/],
  },
];
