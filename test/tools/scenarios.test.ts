// Per-scenario offers as one mechanism: every built-in tool × every scenario × every dialect,
// offered or not, against scenarios.cases.ts (so a new tool cannot slip into a child's catalog
// unseen), through Catalog.build, a child's narrowed catalog and a source's tools alike.
import * as z from 'zod/v4';
import { describe, expect, it } from 'vitest';
import { DIALECTS, type Dialect } from '../../src/core/dialects.ts';
import { Catalog } from '../../src/tools/framework/catalog.ts';
import { SCENARIOS, type Scenario } from '../../src/tools/framework/scenario.ts';
import { defineTool } from '../../src/tools/framework/tool.ts';
import { BUILTIN_TOOL_NAMES, BUILTIN_TOOLS } from '../../src/tools/index.ts';
import { everyService } from '../helpers/services.ts';
import { SCENARIO_CASES } from './scenarios.cases.ts';

const everyTool = { enable: [...BUILTIN_TOOL_NAMES], allowOverlap: true } as const;
const build = (dialect: Dialect, scenario: Scenario, listed?: readonly string[]) =>
  Catalog.build(BUILTIN_TOOLS, { services: everyService(), dialect, ...everyTool, scenario, listed });
const expectedOut = (tool: string, scenario: Scenario, dialect: Dialect) =>
  SCENARIO_CASES.find((c) => c.tool === tool)?.out[scenario]?.includes(dialect) === true;

describe('per-scenario offers', () => {
  it('every built-in tool has a line in scenarios.cases.ts, and no line names another', () => {
    expect(SCENARIO_CASES.map((c) => c.tool).sort()).toEqual([...BUILTIN_TOOL_NAMES].sort());
  });

  for (const dialect of DIALECTS) {
    it(`${dialect}: with every tool on, the chat catalog has every built-in`, () => {
      const chat = build(dialect, 'chat');
      expect(BUILTIN_TOOL_NAMES.filter((n) => !chat.has(n))).toEqual([]);
    });

    for (const scenario of SCENARIOS) {
      it(`${dialect} × ${scenario}: each tool offered or left out as its line says, and a left-out one says why`, () => {
        const cat = build(dialect, scenario);
        const got = BUILTIN_TOOL_NAMES.map((n) => [n, !cat.has(n)] as const);
        expect(got).toEqual(BUILTIN_TOOL_NAMES.map((n) => [n, expectedOut(n, scenario, dialect)] as const));
        for (const [n, out] of got) if (out) expect(cat.notRegistered(n), n).toMatch(/not offered/);
      });
    }

    it(`${dialect}: a profile listing every tool ${dialect === 'core-agent' ? 'gets them back' : 'still gets none of the left-out ones'}`, () => {
      const cat = build(dialect, 'subagent', BUILTIN_TOOL_NAMES);
      const missing = BUILTIN_TOOL_NAMES.filter((n) => !cat.has(n));
      expect(missing).toEqual(dialect === 'core-agent' ? [] : BUILTIN_TOOL_NAMES.filter((n) => expectedOut(n, 'subagent', dialect)));
    });

    it(`${dialect}: a child's narrowed catalog and a source's tools pass the same filter`, () => {
      const chat = build(dialect, 'chat');
      const delegating = defineTool({
        name: 'agent_demo',
        description: 'a delegation from another source',
        kind: 'lifecycle',
        excludedIn: { subagent: true },
        narrowHint: '',
        args: z.strictObject({}),
        run: async () => ({}),
      });
      const plain = { ...delegating, name: 'mcp.demo.read', excludedIn: undefined };
      chat.setSource('demo', [delegating, plain], (d) => d.name);
      // Granted: everything but read_file; left out by the scenario: what its line says.
      const child = chat.narrowed((n) => n !== 'read_file', undefined, 'not granted', { scenario: 'subagent' });
      expect(child.has('agent_demo')).toBe(false);
      expect(child.has('mcp.demo.read')).toBe(true);
      for (const n of BUILTIN_TOOL_NAMES.filter((t) => t !== 'read_file'))
        expect(child.has(n), n).toBe(!expectedOut(n, 'subagent', dialect));
      // A call to one says why: the grant, or the scenario (not "not granted" for what no child is offered).
      expect(child.notRegistered('read_file')).toBe('not granted');
      expect(child.notRegistered('spawn_agent')).toMatch(/not offered to a sub-agent/);
    });
  }

  it("the class rules hold: every delegate-kind tool is left out of every child, every ask tool out of golem's", () => {
    for (const t of BUILTIN_TOOLS) {
      if (t.kind === 'delegate')
        expect(SCENARIO_CASES.find((c) => c.tool === t.name)?.out.subagent, t.name).toEqual(['core-agent', 'cagent', 'golem']);
      if (t.kind === 'ask') expect(SCENARIO_CASES.find((c) => c.tool === t.name)?.out.subagent, t.name).toContain('golem');
    }
  });
});
