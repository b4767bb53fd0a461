/**
 * What a profile's `mcp:` and `skills:` grant its child (docs/delegation.md), run by
 * profile-grants.test.ts through the built CLI: a recipe with the test MCP server (`test`:
 * echo, big, slow, write_thing, …) and two skills (`alpha`, `beta`), a parent that spawns the
 * profile `p`, and a child that calls the tools in `childCalls`. Each case: the profile, then the
 * MCP tools the child's catalog holds (exactly, or `'parent'`: all of the parent's), whether it
 * has the skill tool, its calls' outcomes — or the spawn's refusal.
 */
export interface GrantCase {
  name: string;
  profile: Record<string, unknown>;
  /** The child's MCP tools by canonical name, exactly; 'parent': the same as the parent's. */
  mcp?: string[] | 'parent';
  /** Whether the child's catalog has the skill tool. */
  skillTool?: boolean;
  /** The child's calls and whether each ran. */
  childCalls?: Array<{ name: string; args: Record<string, unknown>; ok: boolean }>;
  /** The spawn is refused: its status matches. */
  refused?: RegExp;
}

const P = { description: 'the profile under test' };

// prettier-ignore
export const GRANT_CASES: GrantCase[] = [
  { name: 'mcp and skills omitted: the parent\'s MCP tools and skills', profile: P, mcp: 'parent', skillTool: true, childCalls: [{ name: 'skill', args: { name: 'beta' }, ok: true }] },
  { name: 'mcp: [server]: every tool of that server', profile: { ...P, mcp: ['test'] }, mcp: 'parent' },
  { name: 'mcp: [server:tool]: exactly that tool; another of the server is unregistered', profile: { ...P, mcp: ['test:echo'] }, mcp: ['mcp.test.echo'], childCalls: [{ name: 'mcp.test.echo', args: { text: 'hi' }, ok: true }, { name: 'mcp.test.slow', args: { ms: 1 }, ok: false }] },
  { name: 'mcp: a * pattern in the tool part', profile: { ...P, mcp: ['test:ec*', 'test:*_thing'] }, mcp: ['mcp.test.echo', 'mcp.test.write_thing'] },
  { name: 'mcp: []: no MCP tool at all', profile: { ...P, mcp: [] }, mcp: [], childCalls: [{ name: 'mcp.test.echo', args: { text: 'hi' }, ok: false }] },
  { name: 'a tools list and mcp omitted: no MCP tool (a list is exactly those tools)', profile: { ...P, tools: ['read_file'] }, mcp: [], childCalls: [{ name: 'mcp.test.echo', args: { text: 'hi' }, ok: false }] },
  { name: 'mcp with tools: []: MCP tools only, no built-in', profile: { ...P, tools: [], mcp: ['test:echo'] }, mcp: ['mcp.test.echo'], skillTool: false, childCalls: [{ name: 'read_file', args: { path: 'notes.txt' }, ok: false }] },
  { name: 'read_only keeps only the server\'s read-only tools', profile: { ...P, read_only: true, mcp: ['test:echo', 'test:write_thing'] }, mcp: ['mcp.test.echo'] },
  { name: 'a server:tool the server does not have: the spawn is refused, naming the entry', profile: { ...P, mcp: ['test:nope'] }, refused: /^error: the p profile's MCP entry "test:nope" \(agents\.profiles\.p\.mcp\) matches no MCP tool in this run/ },
  { name: 'skills: [alpha]: the skill tool serves alpha alone', profile: { ...P, skills: ['alpha'] }, skillTool: true, childCalls: [{ name: 'skill', args: { name: 'alpha' }, ok: true }, { name: 'skill', args: { name: 'beta' }, ok: false }] },
  { name: 'skills: []: no skill tool', profile: { ...P, skills: [] }, skillTool: false, childCalls: [{ name: 'skill', args: { name: 'alpha' }, ok: false }] },
];
