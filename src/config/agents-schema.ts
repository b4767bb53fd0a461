import * as z from 'zod/v4';

/**
 * The recipe's `agents:` section: the profiles a delegation may name, and the engine's limits
 * (docs/delegation.md). A profile's `tools` omitted inherits the parent's catalog less the
 * delegation tools; a list is exactly those tools; `[]` is none. Tool names are checked against
 * the build's catalog when the recipe is loaded (recipe-schema.ts), so a typo is a load error.
 */
export const profileName = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,39}$/, 'lower-case letters, digits, "_" and "-" (at most 40), starting with a letter, e.g. log-reader');

/** A profile's `mcp` entry: a server name, or server:tool (the server is checked against the recipe's mcp.servers). */
const mcpEntry = z
  .string()
  .max(200)
  .regex(/^[A-Za-z][A-Za-z0-9_-]{0,31}(:[^\s:]{1,160})?$/, 'an MCP server name, or server:tool (e.g. gke, gke:get_pods, gke:list_*)');

/** A skill's name, as its SKILL.md gives it (checked against the skills found when the run starts). */
const skillName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'a skill name as its SKILL.md gives it: lower-case letters, digits and -, e.g. k8s-triage');

export const agentProfileSchema = (toolName: z.ZodType<string>) =>
  z.strictObject({
    description: z.string().min(1).max(500).describe('What the profile is for: the model reads it when choosing one.'),
    instructions: z
      .string()
      .max(64 * 1024)
      .optional()
      .describe("The child's system instructions, before the brief."),
    model: z
      .string()
      .regex(/^(small|[a-z][a-z0-9-]*:.+)$/, 'small, or a model as provider:model')
      .optional()
      .describe("small: the run's small model; a provider:model; default: the parent's model."),
    tools: z.array(toolName).optional().describe("Exactly these tools (omitted: the parent's, less delegation; [] none)."),
    mcp: z
      .array(mcpEntry)
      .max(100)
      .optional()
      .describe(
        "MCP servers (all their tools) or server:tool patterns (* any run of characters) the child may use ([] none; omitted: the parent's MCP tools when tools is omitted too, none when tools is a list).",
      ),
    skills: z
      .array(skillName)
      .max(100)
      .optional()
      .describe("Skills the child's skill tool serves (omitted: the parent's; [] none, and no skill tool)."),
    deny: z.array(toolName).optional().describe('Never these tools, whatever `tools` grants: deny wins.'),
    read_only: z.boolean().optional().describe('Only tools that change nothing, whatever `tools` says.'),
    max_turns: z.int().min(1).max(1000).optional().describe('Model calls with tools before it must answer (default 50).'),
    max_cost_usd: z.number().positive().max(1000).optional().describe('Stop the child past this spend (default 1.00).'),
    max_wallclock_seconds: z.int().min(1).max(86_400).optional().describe('Stop the child after this long (default 600).'),
    max_depth: z
      .int()
      .min(1)
      .max(5)
      .optional()
      .describe('The deepest level an agent of this profile may run at (1: spawned by the main agent only); agents.max_depth still holds.'),
  });

export const agentsSchema = (toolName: z.ZodType<string>) =>
  z.strictObject({
    profiles: z
      .record(profileName, agentProfileSchema(toolName))
      .optional()
      .describe('Profiles by name, beside the built-in general and explore (a profile of the same name replaces one).'),
    max_depth: z.int().min(1).max(5).optional().describe('How deep children may spawn children (default 2).'),
    max_concurrent: z
      .int()
      .min(0)
      .max(64)
      .optional()
      .describe('Children running at once per run (default 8, 10 in the cagent dialect; 0 disables delegation).'),
    sync_wait_seconds: z
      .int()
      .min(1)
      .max(3600)
      .optional()
      .describe(
        "How long a spawn with wait: true blocks (default 300); the child then runs on and its report comes in the parent's next turn.",
      ),
    small_model: z
      .string()
      .regex(/^[a-z][a-z0-9-]*:.+$/, 'a model as provider:model')
      .optional()
      .describe("The model `small` means (default: the parent's model)."),
    agentic_small_model: z
      .string()
      .regex(/^[a-z][a-z0-9-]*:.+$/, 'a model as provider:model')
      .optional()
      .describe("The model the agentic_* tools run their child on (default: small_model, else the parent's model)."),
  });

/**
 * Whether an MCP tool of `server` named `tool` matches one of a profile's `mcp` entries:
 * `server` (all its tools) or `server:tool`, `*` matching any run of characters in the tool part.
 */
export function mcpEntryMatches(entry: string, server: string, tool: string): boolean {
  const colon = entry.indexOf(':');
  const [wanted, pattern] = colon < 0 ? [entry, '*'] : [entry.slice(0, colon), entry.slice(colon + 1)];
  if (wanted !== server) return false;
  const parts = pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`).test(tool);
}

/**
 * The name a profile is offered under as a declarative subagent (core-agent's dialect): the
 * prefix keeps it apart from every built-in tool and says what it is; the recipe refuses a
 * profile whose name would still collide (recipe-schema.ts).
 */
export function profileToolName(profile: string): string {
  return `agent_${profile}`;
}

export type AgentsConfig = z.output<ReturnType<typeof agentsSchema>>;
export type AgentProfileConfig = z.output<ReturnType<typeof agentProfileSchema>>;
