/** request_user_input as data: the argument rules, and what a line terminal's replies become. */

const opt = (label: string) => ({ label, description: `pick ${label}` });
const q = (id: string, n = 2) => ({
  id,
  header: id.toUpperCase(),
  question: `Which ${id}?`,
  options: ['a', 'b', 'c'].slice(0, n).map(opt),
});

/** [what, arguments, null when accepted or a pattern the refusal must match]. */
export const ARG_CASES: [what: string, args: unknown, refused: RegExp | null][] = [
  ['one question, two options', { questions: [q('port')] }, null],
  ['one question, three options', { questions: [q('port', 3)] }, null],
  ['three questions', { questions: [q('a'), q('b'), q('c')] }, null],
  ['no questions', { questions: [] }, /questions needs at least 1 item/],
  ['four questions', { questions: [q('a'), q('b'), q('c'), q('d')] }, /questions has 4 items, more than the 3 allowed/],
  ['one option', { questions: [q('port', 1)] }, /questions\[0\]\.options needs at least 2 items/],
  [
    'four options',
    { questions: [{ ...q('port'), options: ['a', 'b', 'c', 'd'].map(opt) }] },
    /questions\[0\]\.options has 4 items, more than the 3 allowed/,
  ],
  ['an id used twice', { questions: [q('port'), q('port')] }, /the id "port" is used twice/],
  ['no id', { questions: [{ header: 'H', question: 'Q?', options: [opt('a'), opt('b')] }] }, /questions\[0\]\.id is required/],
  ['no header', { questions: [{ id: 'x', question: 'Q?', options: [opt('a'), opt('b')] }] }, /questions\[0\]\.header is required/],
  ['an empty question', { questions: [{ ...q('x'), question: '' }] }, /questions\[0\]\.question is empty/],
  [
    'an option without a description',
    { questions: [{ ...q('x'), options: [{ label: 'a' }, opt('b')] }] },
    /questions\[0\]\.options\[0\]\.description is required/,
  ],
  [
    'an over-long label',
    { questions: [{ ...q('x'), options: [{ label: 'l'.repeat(101), description: 'd' }, opt('b')] }] },
    /above its limit of 100/,
  ],
  ['an over-long header', { questions: [{ ...q('x'), header: 'h'.repeat(41) }] }, /header is 41 characters long, above its limit of 40/],
  ['an unknown field', { questions: [{ ...q('x'), multiSelect: true }] }, /unknown key in questions\[0\] "multiSelect"/],
  ['questions not a list', { questions: 'which port?' }, /questions must be an array of at most 3 items, not the string/],
];

/** One question of three options: 1–3 pick them, 4 is "None of the above" (then a note). */
export const THREE = [q('port', 3)];

/** [what, the questions, the lines typed, the answers — or the unavailable reason]. */
export const REPLY_CASES: [what: string, questions: ReturnType<typeof q>[], lines: string[], expected: unknown][] = [
  ['the first option', THREE, ['1'], [{ id: 'port', choice: 'a' }]],
  ['the last offered option', THREE, ['3'], [{ id: 'port', choice: 'c' }]],
  ['padded with spaces', THREE, ['  2  '], [{ id: 'port', choice: 'b' }]],
  ['none of the above, then a note', THREE, ['4', 'use 9090'], [{ id: 'port', none: true, note: 'use 9090' }]],
  ['none of the above, then an empty note', THREE, ['4', ''], [{ id: 'port', none: true, note: '' }]],
  ['typed text is the note', THREE, ['whatever is free'], [{ id: 'port', none: true, note: 'whatever is free' }]],
  ['an empty line asks again', THREE, ['', '2'], [{ id: 'port', choice: 'b' }]],
  ['out of range asks again', THREE, ['7', '0', '1'], [{ id: 'port', choice: 'a' }]],
  ['two options: 3 is none of the above', [q('mode')], ['3', 'neither'], [{ id: 'mode', none: true, note: 'neither' }]],
  ['two options: 4 is out of range', [q('mode')], ['4', '2'], [{ id: 'mode', choice: 'b' }]],
  [
    'three questions in order',
    [q('a'), q('b', 3), q('c')],
    ['2', 'x', '1'],
    [
      { id: 'a', choice: 'b' },
      { id: 'b', none: true, note: 'x' },
      { id: 'c', choice: 'a' },
    ],
  ],
  ['input ends at once', THREE, [], { unavailable: 'the input ended before every question was answered' }],
  ['input ends before the note', THREE, ['4'], { unavailable: 'the input ended before every question was answered' }],
  ['input ends before the second question', [q('a'), q('b')], ['1'], { unavailable: 'the input ended before every question was answered' }],
];
