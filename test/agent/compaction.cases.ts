/**
 * What a compaction does with the model's answer, as data: the answer to the
 * compaction request (text, a thrown error, or the script running out), and
 * whether the conversation is replaced — or, when it is not, what the failure says.
 */
const SECTIONS = ['Task', 'Files & changes', 'Technical context', 'Strategy & approach', 'Verification & next steps', 'Where we are'];
const record = (heading: (s: string) => string, except: string[] = []) =>
  SECTIONS.filter((s) => !except.includes(s))
    .map((s) => `${heading(s)}\nabout ${s.toLowerCase()}`)
    .join('\n\n');

export interface CompactionCase {
  name: string;
  answer: { text: string } | { error: string } | 'exhausted';
  /** null: compacted; else the failure's message, matched. */
  fails: RegExp | null;
}

export const COMPACTION_CASES: readonly CompactionCase[] = [
  { name: 'all six sections', answer: { text: record((s) => `# ${s}`) }, fails: null },
  { name: 'second-level headings', answer: { text: record((s) => `## ${s}`) }, fails: null },
  { name: 'headings in another case, with closing hashes', answer: { text: record((s) => `# ${s.toUpperCase()} #`) }, fails: null },
  { name: 'a preamble before the record', answer: { text: `Here is the record.\n\n${record((s) => `# ${s}`)}` }, fails: null },
  { name: 'one section missing', answer: { text: record((s) => `# ${s}`, ['Where we are']) }, fails: /lacks sections: Where we are$/ },
  {
    name: 'two sections missing',
    answer: { text: record((s) => `# ${s}`, ['Task', 'Technical context']) },
    fails: /lacks sections: Task, Technical context$/,
  },
  { name: 'bold titles are not headings', answer: { text: record((s) => `**${s}**`) }, fails: /lacks sections: Task, Files & changes/ },
  { name: 'a heading inside a line is not one', answer: { text: record((s) => `see # ${s}`) }, fails: /lacks sections: Task/ },
  { name: 'a plain summary', answer: { text: 'We read a big file and found nothing.' }, fails: /lacks sections: Task/ },
  { name: 'an empty answer', answer: { text: '   ' }, fails: /wrote no record/ },
  { name: 'the model call fails', answer: { error: 'HTTP 500: overloaded' }, fails: /the model call failed: HTTP 500: overloaded/ },
  { name: 'the replay script runs out', answer: 'exhausted', fails: /wrote no record/ },
];

export const GOOD_RECORD = record((s) => `# ${s}`);
