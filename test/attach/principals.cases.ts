// Two principals (and their neighbours) through a real `core-agent serve`: who may see and drive
// which session. One row per line; test/attach/principals.test.ts runs them in order against one
// daemon. Later families (memory, skills, todo, questions) add TOOL_CASES rows: "in WHO's own
// session the scripted model calls TOOL with ARGS; the result is ok / not, and shows …".

/** The daemon's principals (the users file the runner writes). */
export const USERS = {
  alice: { group: 'red', tenant: 'acme' },
  bob: { group: 'blue', tenant: 'globex' },
  root: { admin: true },
  vic: { group: 'green' }, // alice's viewer
  carol: { group: 'green' }, // alice's contributor
  dave: { group: 'blue', tenant: 'acme' }, // bob's group, alice's tenant
  eve: {}, // in no list at all
} as const;
export type Who = keyof typeof USERS;

/**
 * The sessions the runner makes before the rows, each by its owner, with its ACL:
 * A alice's (viewer vic, contributor carol); B bob's (none); G bob's, shared read-only with
 * group:blue; T alice's, shared read-write with tenant:acme; I an incident's session owned by the
 * service principal, readable by group:green (attach.incident_access in the runner's recipe).
 * `fresh` in a row: a new session like A, made just for that row (DELETE).
 */
export const SESSIONS = {
  A: { owner: 'alice', viewers: ['vic'], contributors: ['carol'] },
  B: { owner: 'bob', viewers: [], contributors: [] },
  G: { owner: 'bob', viewers: ['group:blue'], contributors: [] },
  T: { owner: 'alice', viewers: [], contributors: ['tenant:acme'] },
} as const;
export type Sid = keyof typeof SESSIONS | 'I' | 'fresh';

export interface AccessCase {
  who: Who;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** `{A}` … `{I}`, `{fresh}`: the session's id. */
  path: string;
  body?: unknown;
  status: number;
  /** The error sentence, when the status alone does not tell the cause (404 no session vs no prompt). */
  error?: RegExp;
  /** GET /sessions: exactly these sessions listed. */
  lists?: readonly Sid[];
  /** A JSON body that must be included (toMatchObject). */
  json?: Record<string, unknown>;
}

const NO_SESSION = /^no session "/;
const INJECT = { message: 'hello' };
const RESPOND = { id: 'p-none', decision: 'allow' };

export const ACCESS_CASES: readonly AccessCase[] = [
  // whoami: name, admin, group, tenant as the users file says
  { who: 'alice', method: 'GET', path: '/whoami', status: 200, json: { identity: 'alice', admin: false, group: 'red', tenant: 'acme' } },
  { who: 'root', method: 'GET', path: '/whoami', status: 200, json: { identity: 'root', admin: true } },
  { who: 'eve', method: 'GET', path: '/whoami', status: 200, json: { identity: 'eve', admin: false } },
  // the list: only what the caller may read
  { who: 'alice', method: 'GET', path: '/sessions', status: 200, lists: ['A', 'T'] },
  { who: 'bob', method: 'GET', path: '/sessions', status: 200, lists: ['B', 'G'] },
  { who: 'vic', method: 'GET', path: '/sessions', status: 200, lists: ['A', 'I'] },
  { who: 'carol', method: 'GET', path: '/sessions', status: 200, lists: ['A', 'I'] },
  { who: 'dave', method: 'GET', path: '/sessions', status: 200, lists: ['G', 'T'] },
  { who: 'eve', method: 'GET', path: '/sessions', status: 200, lists: [] },
  { who: 'root', method: 'GET', path: '/sessions', status: 200, lists: ['A', 'B', 'G', 'T', 'I'] },
  // events (read)
  { who: 'alice', method: 'GET', path: '/sessions/{A}/events?since=999999', status: 200 },
  { who: 'vic', method: 'GET', path: '/sessions/{A}/events?since=999999', status: 200 },
  { who: 'carol', method: 'GET', path: '/sessions/{A}/events?since=999999', status: 200 },
  { who: 'root', method: 'GET', path: '/sessions/{B}/events?since=999999', status: 200 },
  { who: 'bob', method: 'GET', path: '/sessions/{A}/events', status: 404, error: NO_SESSION },
  { who: 'alice', method: 'GET', path: '/sessions/{B}/events', status: 404, error: NO_SESSION },
  { who: 'eve', method: 'GET', path: '/sessions/{A}/events', status: 404, error: NO_SESSION },
  { who: 'alice', method: 'GET', path: '/sessions/s-00000000-none/events', status: 404, error: NO_SESSION },
  { who: 'vic', method: 'GET', path: '/sessions/{A}/perms/stream', status: 200 },
  { who: 'bob', method: 'GET', path: '/sessions/{A}/perms/stream', status: 404, error: NO_SESSION },
  // inject / wake / interrupt / perms/respond (write)
  { who: 'alice', method: 'POST', path: '/sessions/{A}/inject', body: INJECT, status: 200 },
  { who: 'carol', method: 'POST', path: '/sessions/{A}/inject', body: INJECT, status: 200 },
  {
    who: 'vic',
    method: 'POST',
    path: '/sessions/{A}/inject',
    body: INJECT,
    status: 403,
    error: /needs the role contributor or owner; vic is a viewer/,
  },
  { who: 'bob', method: 'POST', path: '/sessions/{A}/inject', body: INJECT, status: 404, error: NO_SESSION },
  { who: 'eve', method: 'POST', path: '/sessions/{A}/inject', body: INJECT, status: 404, error: NO_SESSION },
  { who: 'root', method: 'POST', path: '/sessions/{B}/inject', body: INJECT, status: 200 },
  { who: 'carol', method: 'POST', path: '/sessions/{A}/wake', body: {}, status: 200 },
  { who: 'vic', method: 'POST', path: '/sessions/{A}/wake', body: {}, status: 403 },
  { who: 'bob', method: 'POST', path: '/sessions/{A}/wake', body: {}, status: 404, error: NO_SESSION },
  { who: 'carol', method: 'POST', path: '/sessions/{A}/interrupt', body: { hold: false }, status: 200 },
  { who: 'vic', method: 'POST', path: '/sessions/{A}/interrupt', body: {}, status: 403 },
  { who: 'alice', method: 'POST', path: '/sessions/{B}/interrupt', body: {}, status: 404, error: NO_SESSION },
  { who: 'carol', method: 'POST', path: '/sessions/{A}/perms/respond', body: RESPOND, status: 404, error: /no pending prompt/ },
  { who: 'vic', method: 'POST', path: '/sessions/{A}/perms/respond', body: RESPOND, status: 403 },
  { who: 'bob', method: 'POST', path: '/sessions/{A}/perms/respond', body: RESPOND, status: 404, error: NO_SESSION },
  // the ACL: owner or admin
  {
    who: 'alice',
    method: 'GET',
    path: '/sessions/{A}/acl',
    status: 200,
    json: { owner: 'alice', viewers: ['vic'], contributors: ['carol'] },
  },
  { who: 'root', method: 'GET', path: '/sessions/{A}/acl', status: 200, json: { owner: 'alice' } },
  { who: 'carol', method: 'GET', path: '/sessions/{A}/acl', status: 403, error: /needs the role owner/ },
  { who: 'vic', method: 'GET', path: '/sessions/{A}/acl', status: 403 },
  { who: 'bob', method: 'GET', path: '/sessions/{A}/acl', status: 404, error: NO_SESSION },
  { who: 'carol', method: 'PATCH', path: '/sessions/{A}/acl', body: { contributors: ['carol', 'eve'] }, status: 403 },
  { who: 'bob', method: 'PATCH', path: '/sessions/{A}/acl', body: { viewers: ['bob'] }, status: 404, error: NO_SESSION },
  {
    who: 'alice',
    method: 'PATCH',
    path: '/sessions/{A}/acl',
    body: { owner: 'bob' },
    status: 400,
    error: /^owner: a session keeps the owner/,
  },
  { who: 'alice', method: 'PATCH', path: '/sessions/{A}/acl', body: { viewers: ['../x'] }, status: 400, error: /viewers/ },
  { who: 'alice', method: 'PATCH', path: '/sessions/{A}/acl', body: { admins: ['bob'] }, status: 400 },
  // PATCH leaves an absent list alone
  {
    who: 'alice',
    method: 'PATCH',
    path: '/sessions/{A}/acl',
    body: { viewers: ['vic'] },
    status: 200,
    json: { viewers: ['vic'], contributors: ['carol'] },
  },
  { who: 'root', method: 'PATCH', path: '/sessions/{B}/acl', body: {}, status: 200, json: { owner: 'bob', viewers: [], contributors: [] } },
  // group and tenant sharing
  { who: 'dave', method: 'GET', path: '/sessions/{G}/events?since=999999', status: 200 },
  { who: 'dave', method: 'POST', path: '/sessions/{G}/inject', body: INJECT, status: 403, error: /dave is a viewer/ },
  { who: 'alice', method: 'GET', path: '/sessions/{G}/events', status: 404, error: NO_SESSION },
  { who: 'dave', method: 'POST', path: '/sessions/{T}/wake', body: {}, status: 200 },
  { who: 'bob', method: 'POST', path: '/sessions/{T}/wake', body: {}, status: 404, error: NO_SESSION },
  { who: 'dave', method: 'GET', path: '/sessions/{T}/acl', status: 403 },
  // an incident's session: owned by the service principal, shared by attach.incident_access
  { who: 'vic', method: 'GET', path: '/sessions/{I}/events?since=999999', status: 200 },
  { who: 'vic', method: 'POST', path: '/sessions/{I}/wake', body: {}, status: 403 },
  { who: 'alice', method: 'GET', path: '/sessions/{I}/events', status: 404, error: NO_SESSION },
  {
    who: 'root',
    method: 'GET',
    path: '/sessions/{I}/acl',
    status: 200,
    json: { owner: 'core-agent-service', owner_service: true, viewers: ['group:green'] },
  },
  // an action the daemon does not know is authorized first (needs write): no endpoint is open by omission
  { who: 'alice', method: 'GET', path: '/sessions/{A}/no-such-action', status: 404, error: /^no such endpoint/ },
  // AskUserQuestionTool's questions (src/attach/questions.ts): listing reads, answering writes
  { who: 'alice', method: 'GET', path: '/sessions/{A}/questions', status: 200, json: { questions: [] } },
  { who: 'vic', method: 'GET', path: '/sessions/{A}/questions', status: 200 },
  { who: 'bob', method: 'GET', path: '/sessions/{A}/questions', status: 404, error: NO_SESSION },
  { who: 'vic', method: 'POST', path: '/sessions/{A}/questions/q-1/answer', body: { answers: {} }, status: 403, error: /vic is a viewer/ },
  {
    who: 'carol',
    method: 'POST',
    path: '/sessions/{A}/questions/q-1/answer',
    body: { answers: {} },
    status: 404,
    error: /no question "q-1"/,
  },
  { who: 'eve', method: 'POST', path: '/sessions/{A}/questions/q-1/answer', body: { answers: {} }, status: 404, error: NO_SESSION },
  { who: 'carol', method: 'POST', path: '/sessions/{A}/no-such-action', body: {}, status: 404, error: /^no such endpoint/ },
  { who: 'vic', method: 'GET', path: '/sessions/{A}/no-such-action', status: 403, error: /vic is a viewer/ },
  { who: 'bob', method: 'GET', path: '/sessions/{A}/no-such-action', status: 404, error: NO_SESSION },
  { who: 'eve', method: 'POST', path: '/sessions/{A}/no-such-action', body: {}, status: 404, error: NO_SESSION },
  // DELETE: owner or admin (each on a fresh session of alice's, shared like A)
  { who: 'vic', method: 'DELETE', path: '/sessions/{fresh}', status: 403 },
  { who: 'carol', method: 'DELETE', path: '/sessions/{fresh}', status: 403, error: /needs the role owner/ },
  { who: 'bob', method: 'DELETE', path: '/sessions/{fresh}', status: 404, error: NO_SESSION },
  { who: 'alice', method: 'DELETE', path: '/sessions/{fresh}', status: 204 },
  { who: 'root', method: 'DELETE', path: '/sessions/{fresh}', status: 204 },
];

/** In WHO's own new session the scripted model calls TOOL with ARGS (attach.workspace: per_user); the result is ok or not and shows SHOWN. */
export interface ToolCase {
  who: Who;
  tool: string;
  args: Record<string, unknown>;
  ok: boolean;
  shown?: RegExp;
  /** What the result must not show (another principal's things). */
  hidden?: RegExp;
}

/** Skills the runner writes into a group's and a tenant's shared root before the rows (groups/blue/skills/blue-runbook, …). */
export const SHARED_SKILLS = { 'groups/blue': 'blue-runbook', 'tenants/acme': 'acme-runbook' } as const;

const TEA_SKILL = '---\nname: tea\ndescription: How alice makes tea.\n---\n\n# tea\n';

export const TOOL_CASES: readonly ToolCase[] = [
  // golem's Files family needs this: each owner's workspace is their own
  { who: 'alice', tool: 'write_file', args: { path: 'mine.txt', content: 'alice was here\n' }, ok: true },
  { who: 'alice', tool: 'read_file', args: { path: 'mine.txt' }, ok: true, shown: /alice was here/ },
  { who: 'bob', tool: 'read_file', args: { path: 'mine.txt' }, ok: false },
  { who: 'bob', tool: 'write_file', args: { path: 'mine.txt', content: 'bob\n' }, ok: true },
  { who: 'alice', tool: 'read_file', args: { path: 'mine.txt' }, ok: true, shown: /alice was here/ },
  { who: 'dave', tool: 'read_file', args: { path: '../alice/workspace/mine.txt' }, ok: false },
  // memory (Anthropic's command set, the core-agent dialect): each principal's own under their home
  { who: 'alice', tool: 'memory', args: { command: 'create', path: '/memories/MEMORY.md', file_text: 'alice likes tea\n' }, ok: true },
  { who: 'alice', tool: 'memory', args: { command: 'view', path: '/memories/MEMORY.md' }, ok: true, shown: /alice likes tea/ },
  { who: 'bob', tool: 'memory', args: { command: 'view', path: '/memories/MEMORY.md' }, ok: false, hidden: /alice likes tea/ },
  { who: 'bob', tool: 'memory', args: { command: 'view', path: '/memories' }, ok: true, hidden: /MEMORY\.md/ },
  { who: 'dave', tool: 'memory', args: { command: 'view', path: '/memories/../../alice/memories/MEMORY.md' }, ok: false, hidden: /tea/ },
  { who: 'bob', tool: 'memory', args: { command: 'create', path: '/memories/MEMORY.md', file_text: 'bob likes coffee\n' }, ok: true },
  {
    who: 'alice',
    tool: 'memory',
    args: { command: 'view', path: '/memories/MEMORY.md' },
    ok: true,
    shown: /alice likes tea/,
    hidden: /coffee/,
  },
  // skills: a written skill is its writer's; group and tenant skills reach their members only
  { who: 'alice', tool: 'write_skill_file', args: { skill: 'tea', file: 'SKILL.md', content: TEA_SKILL }, ok: true },
  { who: 'alice', tool: 'list_skills', args: {}, ok: true, shown: /"tea"/, hidden: /blue-runbook/ },
  { who: 'alice', tool: 'skill', args: { name: 'tea' }, ok: true, shown: /How alice makes tea|# tea/ },
  { who: 'bob', tool: 'list_skills', args: {}, ok: true, shown: /blue-runbook/, hidden: /"tea"|acme-runbook/ },
  { who: 'bob', tool: 'skill', args: { name: 'tea' }, ok: false },
  { who: 'dave', tool: 'list_skills', args: {}, ok: true, shown: /blue-runbook.*acme-runbook|acme-runbook.*blue-runbook/, hidden: /"tea"/ },
  { who: 'alice', tool: 'list_skills', args: {}, ok: true, shown: /acme-runbook/ },
  { who: 'eve', tool: 'list_skills', args: {}, ok: true, hidden: /runbook|"tea"/ },
  { who: 'bob', tool: 'delete_skill', args: { skill: 'blue-runbook' }, ok: false },
  { who: 'bob', tool: 'delete_skill', args: { skill: 'tea' }, ok: false },
  // the todo list is the session's: another principal's new session starts with none
  { who: 'alice', tool: 'todo', args: { action: 'add', text: 'alice: brew the tea' }, ok: true },
  { who: 'bob', tool: 'todo', args: { action: 'list' }, ok: true, hidden: /brew the tea/ },
];
