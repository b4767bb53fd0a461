import type { IncomingMessage, ServerResponse } from 'node:http';
import * as z from 'zod/v4';
import type { EventLog, SessionEvent } from '../store/event-log.ts';
import { HttpError, readJson, sendJson } from './http.ts';
import type { SessionHub } from './hub.ts';
import type { Caller } from './route.ts';

/**
 * AskUserQuestionTool's questions over HTTP. A session whose turn ended on questions has a
 * `question` event in its log ({id, questions, asked_of, expires_at}; the shape restated
 * here, as prompts.ts restates the gate's); `GET /sessions/{sid}/questions` lists them,
 * and `POST /sessions/{sid}/questions/{id}/answer` answers one set: recorded as an
 * `operator` event (`action: answer`), then the answers start the session's next turn as
 * golem words them. Who may list and answer is the session's ACL (src/attach/acl.ts, checked
 * by the session routes before this is asked): listing reads, answering writes (owner or
 * contributor). Refused: an unknown id (404), a second answer (409), an answer past the expiry
 * (410), answers that do not fit the questions (400, naming the question).
 */

const asked = z.object({
  id: z.string(),
  questions: z.array(
    z.object({
      question: z.string(),
      header: z.string().optional(),
      options: z.array(z.string()),
      multiSelect: z.boolean().optional(),
      other: z.string().optional(),
    }),
  ),
  asked_of: z.string(),
  expires_at: z.string(),
});
type Asked = z.output<typeof asked>;

const answerValue = z.union([
  z.string().trim().min(1, 'the answer is empty').max(2000),
  z.array(z.string().trim().min(1).max(200)).min(1).max(10),
]);
/** The answers keyed by each question's text, as golem's handlers return them. */
const answerBody = z.strictObject({ answers: z.record(z.string().max(2000), answerValue) });

export interface QuestionSet extends Asked {
  asked_at: string;
  status: 'pending' | 'answered' | 'expired';
  answered_by?: string;
}

/** Every question set of the session, with where it stands. */
export function questionSets(log: EventLog, sid: string, now = Date.now()): QuestionSet[] {
  const events = log.events(sid);
  const answers = new Map<string, SessionEvent>();
  for (const e of events) if (e.kind === 'operator' && e.data.action === 'answer') answers.set(String(e.data.question_id), e);
  const sets: QuestionSet[] = [];
  for (const e of events) {
    if (e.kind !== 'question') continue;
    const parsed = asked.safeParse(e.data);
    if (!parsed.success) continue;
    const answer = answers.get(parsed.data.id);
    const status = answer ? 'answered' : Date.parse(parsed.data.expires_at) <= now ? 'expired' : 'pending';
    sets.push({ ...parsed.data, asked_at: e.at, status, ...(answer ? { answered_by: String(answer.data.principal) } : {}) });
  }
  return sets;
}

/** `questions` and `questions/{id}/answer` under a session; false for any other action. */
export async function questionRoute(
  hub: SessionHub,
  log: EventLog,
  c: { req: IncomingMessage; res: ServerResponse; caller: Caller; sid: string; action: string; method: string },
): Promise<boolean> {
  const parts = c.action.split('/');
  if (parts[0] !== 'questions') return false;
  hub.summary(c.sid);
  if (parts.length === 1) {
    if (c.method !== 'GET') throw new HttpError(405, `${c.method} is not allowed here (use GET)`, undefined, { allow: 'GET' });
    sendJson(c.res, 200, { session: c.sid, questions: questionSets(log, c.sid) });
    return true;
  }
  if (parts.length !== 3 || parts[2] !== 'answer') return false;
  if (c.method !== 'POST') throw new HttpError(405, `${c.method} is not allowed here (use POST)`, undefined, { allow: 'POST' });
  const body = await readJson(c.req, answerBody);
  // From here to the record nothing awaits: of two answers racing, the second sees the first.
  const id = parts[1]!;
  const set = questionSets(log, c.sid).find((s) => s.id === id);
  if (!set) throw new HttpError(404, `no question "${id.slice(0, 100)}" in session ${c.sid.slice(0, 100)}`, 'id');
  if (set.status === 'answered')
    throw new HttpError(409, `question ${id.slice(0, 100)} was already answered by ${set.answered_by}; a set is answered once`, 'id');
  if (set.status === 'expired')
    throw new HttpError(
      410,
      `question ${id.slice(0, 100)} expired at ${set.expires_at} (tools.ask_user_question.answer_ttl_hours); send the answer as a new message (POST /sessions/${c.sid.slice(0, 100)}/inject) instead`,
      'id',
    );
  const given = fit(set, body.answers);
  log.append(c.sid, hub.summary(c.sid).turns, 'operator', {
    action: 'answer',
    question_id: id,
    principal: c.caller.principal,
    answers: given,
  });
  const text = `The user answered:\n${set.questions.map((q) => `- ${q.question}: ${given[q.question]}`).join('\n')}\n`;
  const r = await hub.inject(c.sid, c.caller.principal, text);
  sendJson(c.res, 200, { answered: id, session: c.sid, woke: r.started, prompt_id: r.id });
  return true;
}

/** The answers as text keyed by question, each checked against its question's options; every mistake named in one 400. */
function fit(set: Asked, answers: Record<string, string | string[]>): Record<string, string> {
  const problems: string[] = [];
  const out: Record<string, string> = {};
  const known = new Set(set.questions.map((q) => q.question));
  for (const key of Object.keys(answers)) if (!known.has(key)) problems.push(`"${key.slice(0, 80)}" is not one of the questions`);
  for (const q of set.questions) {
    const a = answers[q.question];
    const name = `"${q.question.slice(0, 80)}"`;
    if (a === undefined) {
      problems.push(`${name} has no answer`);
      continue;
    }
    const free = q.options.length === 0 || (q.other !== undefined && q.other !== '');
    const picks = typeof a === 'string' ? [a] : a;
    if (picks.length > 1 && q.multiSelect !== true) {
      problems.push(`${name} takes one answer, not ${picks.length}`);
      continue;
    }
    const unknown = picks.filter((p) => !q.options.includes(p));
    if (unknown.length > 0 && !(free && picks.length === 1)) {
      problems.push(`${name}: "${unknown[0]!.slice(0, 80)}" is not one of its options (${q.options.join(', ').slice(0, 300)})`);
      continue;
    }
    out[q.question] = picks.join(', ');
  }
  if (problems.length > 0) throw new HttpError(400, `answers: ${problems.join('; ')}`.slice(0, 2000), 'answers');
  return out;
}
