/**
 * The recipe's agents.profiles as the loader judges them (agent-profiles.test.ts): each case a
 * recipe and either `ok` or the problem, exactly as reported (FILE:LINE:COL: field: sentence).
 * `extraTool` registers one more tool name, to show a profile's tool colliding with a built-in.
 */
export interface ProfileRecipeCase {
  name: string;
  recipe: string;
  problem?: string | RegExp;
  extraTool?: string;
}

const SERVERS = 'mcp:\n  servers:\n    gke: { command: gke-mcp }\n    logs: { command: logs-mcp }\n';
const profile = (body: string) => `agents:\n  profiles:\n    p:\n      description: d\n${body}`;

// prettier-ignore
export const PROFILE_RECIPE_CASES: ProfileRecipeCase[] = [
  { name: 'mcp: declared servers, server:tool and a pattern', recipe: SERVERS + profile('      mcp: [gke, "logs:tail", "gke:get_*"]\n') },
  { name: 'mcp: [] and skills: []', recipe: SERVERS + profile('      mcp: []\n      skills: []\n') },
  { name: 'skills named (checked when the run starts, where the skills are read)', recipe: profile('      skills: [k8s-triage, restart]\n') },
  { name: 'an MCP server the recipe does not declare, with servers to suggest', recipe: SERVERS + profile('      mcp: [gkee]\n'), problem: 'r.yaml:9:13: agents.profiles.p.mcp.0: unknown MCP server "gkee" — did you mean "gke"? Valid: gke, logs' },
  { name: 'server:tool of an undeclared server', recipe: SERVERS + profile('      mcp: ["prom:query"]\n'), problem: /^r\.yaml:9:13: agents\.profiles\.p\.mcp\.0: unknown MCP server "prom"/ },
  { name: 'an MCP server and no mcp section at all', recipe: profile('      mcp: [gke]\n'), problem: 'r.yaml:5:13: agents.profiles.p.mcp.0: MCP server "gke" is not declared: a profile names servers of this recipe\'s mcp.servers' },
  { name: 'an mcp entry that is no server name', recipe: SERVERS + profile('      mcp: ["gke tools"]\n'), problem: /^r\.yaml:9:13: agents\.profiles\.p\.mcp\.0: an MCP server name, or server:tool/ },
  { name: 'mcp given as a string, not a list', recipe: SERVERS + profile('      mcp: gke\n'), problem: /^r\.yaml:9:12: agents\.profiles\.p\.mcp: / },
  { name: 'a skill name SKILL.md could not have', recipe: profile('      skills: [K8s_Triage]\n'), problem: /^r\.yaml:5:16: agents\.profiles\.p\.skills\.0: a skill name as its SKILL\.md gives it/ },
  { name: 'a tool name typo still refused in tools', recipe: profile('      tools: [read_fiel]\n'), problem: /^r\.yaml:5:15: agents\.profiles\.p\.tools\.0: unknown tool "read_fiel" — did you mean "read_file"\?/ },
  { name: "a profile whose tool would take a built-in tool's name", extraTool: 'agent_p', recipe: profile(''), problem: "r.yaml:4:7: agents.profiles.p: the profile's tool agent_p would take the name of the built-in tool agent_p: rename the profile" },
];
