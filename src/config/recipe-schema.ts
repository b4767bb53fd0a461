import * as z from 'zod/v4';
import { ALERT_LEVELS, ALERT_TEMPLATES } from '../net/alert-targets.ts';
import { UrlScope, UrlScopeError } from '../net/url-scope.ts';
import { PERMISSION_MODES } from '../permissions/gate.ts';
import { parseRule, ruleToolName } from '../permissions/rules.ts';
import { unknownName } from './did-you-mean.ts';
import { attachSchema } from './attach-schema.ts';
import { hooksSchema } from './hooks-schema.ts';
import { peersSchema } from './peers-schema.ts';
import { agentsSchema, profileToolName, type AgentsConfig } from './agents-schema.ts';
import { credentialFreeUrl, mcpConfigSchema } from './mcp-schema.ts';
import { watchSchema } from './watch-schema.ts';
import { DIALECTS, type Dialect } from '../core/dialects.ts';
import { TOOL_KINDS, type ToolKind } from '../core/tool-kinds.ts';

/**
 * The recipe: one YAML file that configures a run. Every object is strict — an
 * unknown or misspelt key is an error with its position and a suggestion, never
 * silently dropped (a recipe written for a newer build must not boot clean on
 * an older one and quietly do less). The schema holds exactly what this build
 * implements.
 */

/**
 * What the recipe knows of a tool: its name (tools.disable, tool_output.per_tool,
 * permission rules are checked against the names) and its settings schema
 * (`tools.<name>`). The tool definitions are passed in: config does not import tools.
 */
export interface ToolSettingsSpec {
  readonly name: string;
  readonly settings?: z.ZodObject | undefined;
}

const built = new WeakMap<readonly ToolSettingsSpec[], RecipeSchema>();

/** Built on first use for a tool list (a run without a recipe never needs it), then kept. */
export function recipeSchema(tools: readonly ToolSettingsSpec[]): RecipeSchema {
  let schema = built.get(tools);
  if (!schema) built.set(tools, (schema = buildRecipeSchema(tools)));
  return schema;
}

/**
 * A settings schema as the recipe validates it: the defaults stay out, so a
 * parsed recipe holds what the operator wrote (the catalog fills the defaults)
 * and the JSON Schema shows each field as optional.
 */
function withoutDefaults(settings: z.ZodObject): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(settings.shape as Record<string, z.ZodType>)) {
    if (field instanceof z.ZodDefault) {
      const inner = (field.unwrap() as z.ZodType).optional();
      shape[key] = field.description === undefined ? inner : inner.describe(field.description);
    } else {
      shape[key] = field;
    }
  }
  return z.strictObject(shape);
}

/** USD per million tokens, for a model the registry does not price. */
const perMillion = z.number().min(0).max(10_000);

/**
 * `context:` — the model's window and price when the registry (src/model/registry.ts)
 * does not know the model or is wrong about it, and when compaction starts.
 */
const contextSchema = z.strictObject({
  window: z
    .int()
    .min(1_000)
    .max(100_000_000)
    .optional()
    .describe('The context window in tokens; default: the model registry, else unknown (no automatic compaction).'),
  max_output: z.int().min(1).max(10_000_000).optional().describe('The most output tokens a response may have; default: the registry.'),
  compact_at: z
    .number()
    .gt(0)
    .max(1)
    .optional()
    .describe('Compact the conversation when it reaches this fraction of the window (default 0.8); 1 turns automatic compaction off.'),
  price: z
    .strictObject({
      input: perMillion.describe('USD per million input tokens.'),
      output: perMillion.describe('USD per million output tokens.'),
      cache_read: perMillion.optional().describe('USD per million cached input tokens (default: the input price).'),
      cache_write: perMillion.optional().describe('USD per million tokens written to the cache (default: the input price).'),
    })
    .optional()
    .describe('The price, when the registry has none for the model (or a negotiated one).'),
});

function buildRecipeSchema(tools: readonly ToolSettingsSpec[]) {
  const names = tools.map((t) => t.name);
  const isToolName = (name: string) => names.includes(name);
  const toolName = z.string().superRefine((name, ctx) => {
    if (!isToolName(name)) {
      ctx.addIssue({
        code: 'custom',
        message: unknownName('tool', name, names),
      });
    }
  });

  const permissionRule = z.string().superRefine((rule, ctx) => {
    try {
      parseRule(rule);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
      return;
    }
    const name = ruleToolName(rule);
    if (name !== null && !isToolName(name)) {
      ctx.addIssue({
        code: 'custom',
        message: `rule "${rule}" names an ${unknownName('tool', name, names)}`,
      });
    }
  });

  const caps = z.strictObject({
    max_bytes: z
      .int()
      .min(256)
      .max(64 * 1024 * 1024)
      .optional()
      .describe('Largest result, in bytes of JSON.'),
    max_lines: z.int().min(1).max(1_000_000).optional().describe('Most lines (file lines, matches, entries) in a result.'),
  });

  /** A url_scope entry must parse (url-scope.ts gives the message). */
  const urlPattern = (list: 'allow' | 'deny') =>
    z.string().superRefine((entry, ctx) => {
      try {
        UrlScope.parse(list === 'allow' ? [entry] : [], list === 'deny' ? [entry] : []);
      } catch (err) {
        if (!(err instanceof UrlScopeError)) throw err;
        ctx.addIssue({ code: 'custom', message: err.message.replace(/^url_scope\.\w+\[\d+\]: /, '') });
      }
    });

  const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name, e.g. SLACK_WEBHOOK_URL');

  /** Per-tool settings: `tools.<name>`, from each tool's own schema. Tools without settings take none. */
  const toolSettings = Object.fromEntries(tools.flatMap((t) => (t.settings ? [[t.name, withoutDefaults(t.settings).optional()]] : [])));

  return z
    .strictObject({
      model: z
        .string()
        .regex(/^[a-z][a-z0-9-]*:.+$/, 'a model is named provider:model, e.g. "google:gemini-2.5-flash" or "replay:script.jsonl"')
        .optional()
        .describe('The model, as provider:model (see the README for the providers).'),
      instructions: z.string().optional().describe('System instructions, placed before AGENTS.md from the workspace.'),
      max_steps: z
        .int()
        .min(1)
        .max(1000)
        .optional()
        .describe('Model calls with tools per turn before a final answer is requested (default 50).'),
      context: contextSchema.optional().describe('The context window and compaction (docs/context.md).'),
      tools: z
        .strictObject({
          disable: z.array(toolName).optional().describe('Built-in tools to leave out of the catalog.'),
          enable: z
            .array(toolName)
            .optional()
            .describe('Built-in tools to register: put back after a disable, or added though the dialect offers another for the job.'),
          dialect: z
            .enum(DIALECTS)
            .optional()
            .describe('Whose tool names the model sees: core-agent (default), cagent or golem; one tool per job (docs/dialects.md).'),
          kinds: z
            .array(z.enum(TOOL_KINDS))
            .min(1)
            .optional()
            .describe(
              'The kinds of built-in tool this recipe allows (read, read_remote, edit, execute, control, send, change, lifecycle, ask, delegate); a tool of another kind is left out, a new one too. tools.enable names exceptions.',
            ),
          allow_overlap: z
            .boolean()
            .optional()
            .describe('Allow tools.enable to offer two tools for one job (todo beside update_plan). Default false: refused.'),
          ...toolSettings,
          // Typed as the lists only: each tool's section is read by the catalog through the tool's own schema.
        } as {
          disable: z.ZodOptional<z.ZodArray<typeof toolName>>;
          enable: z.ZodOptional<z.ZodArray<typeof toolName>>;
          dialect: z.ZodOptional<z.ZodEnum<{ [K in Dialect]: K }>>;
          allow_overlap: z.ZodOptional<z.ZodBoolean>;
          kinds: z.ZodOptional<z.ZodArray<z.ZodEnum<{ [K in ToolKind]: K }>>>;
        })
        .superRefine((tools, ctx) => {
          // One layer saying both is a mistake, not a precedence question: reported at the enable entry.
          const disabled = tools.disable ?? [];
          (tools.enable ?? []).forEach((name, i) => {
            if (disabled.includes(name)) {
              ctx.addIssue({
                code: 'custom',
                path: ['enable', i],
                message: `${name} is both disabled and enabled (tools.disable.${disabled.indexOf(name)}); keep it in one list`,
              });
            }
          });
        })
        .optional(),
      safety: z
        .strictObject({
          bash_search_gate: z
            .enum(['enforce', 'warn', 'allow'])
            .optional()
            .describe(
              'Search-shaped bash commands (grep, rg, find, …): enforce refuses them (default), warn runs them with a notice, allow does nothing.',
            ),
        })
        .optional(),
      mcp: mcpConfigSchema.optional(),
      skills: z
        .strictObject({
          dirs: z
            .array(z.string().min(1))
            .optional()
            .describe('Directories of skills (each a directory with SKILL.md), relative to the recipe; .agents/skills is always read.'),
        })
        .optional()
        .describe('Runbooks the model reads with the skill tool.'),
      kubernetes: z
        .strictObject({
          enabled: z.boolean().optional().describe('false: no k8s_* tools even where a cluster is configured.'),
          required: z
            .boolean()
            .optional()
            .describe('true: run, repl and watch refuse to start (exit 2) when no cluster is configured (recipe validate does not look).'),
          kubeconfig: z.string().min(1).optional().describe('The kubeconfig file (default $KUBECONFIG, ~/.kube/config, or in-cluster).'),
          context: z.string().min(1).optional().describe('The kubeconfig context (default: its current-context).'),
          denied_resources: z
            .array(
              z.strictObject({
                group: z.string().optional().describe('The API group ("" for core); absent: any group.'),
                kind: z.string().min(1).describe('The Kind, e.g. ConfigMap.'),
              }),
            )
            .optional()
            .describe('Kinds the k8s_* tools refuse to read, on top of Secret (always refused).'),
        })
        .optional()
        .describe(
          'The built-in read-only Kubernetes tools (k8s_get, k8s_list, k8s_events, k8s_logs, k8s_rollout_status, k8s_api_resources).',
        ),
      web_search: z
        .strictObject({
          provider: z
            .enum(['searxng', 'brave'])
            .describe('searxng (a SearXNG instance with JSON output on) or brave (the Brave Search API).'),
          url: credentialFreeUrl('put a key in api_key_env')
            .optional()
            .describe('The SearXNG instance, or another Brave API base (default https://api.search.brave.com).'),
          api_key_env: envName.optional().describe('The variable holding the API key (required for brave; a bearer token for searxng).'),
          max_results: z.int().min(1).max(20).optional().describe('Results when a call does not say (default 5).'),
        })
        .superRefine((cfg, ctx) => {
          if (cfg.provider === 'searxng' && !cfg.url)
            ctx.addIssue({ code: 'custom', path: ['url'], message: 'searxng needs the instance url' });
          if (cfg.provider === 'brave' && !cfg.api_key_env) {
            ctx.addIssue({
              code: 'custom',
              path: ['api_key_env'],
              message: 'brave needs api_key_env, the variable that holds the API key',
            });
          }
        })
        .optional()
        .describe('The web_search provider; without it there is no web_search tool.'),
      alerts: z
        .strictObject({
          targets: z
            .record(
              z
                .string()
                .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'a target name is lower case letters, digits, - and _ (e.g. oncall, sre-slack)'),
              z
                .strictObject({
                  template: z
                    .enum(ALERT_TEMPLATES)
                    .optional()
                    .describe('The payload: generic JSON (default), slack, or pagerduty (Events API v2).'),
                  url_env: envName.describe('The variable holding the webhook URL; unset, the target is dropped.'),
                  token_env: envName
                    .optional()
                    .describe(
                      'The variable holding the token: a bearer token (generic) or the routing key (pagerduty); unset, the target is dropped.',
                    ),
                  description: z.string().max(200).optional().describe('Shown to the model beside the name: who this reaches.'),
                  rate_limit: z
                    .strictObject({
                      count: z.int().min(1).max(1000),
                      window_seconds: z.int().min(1).max(86_400),
                    })
                    .optional()
                    .describe('At most count alerts per window_seconds to this target (default 5 per 300).'),
                  required: z
                    .boolean()
                    .optional()
                    .describe(
                      'The run needs this target: one that cannot deliver (a variable unset) is a start-up error (exit 2), not dropped.',
                    ),
                })
                .superRefine((t, ctx) => {
                  if (t.template === 'pagerduty' && !t.token_env) {
                    ctx.addIssue({
                      code: 'custom',
                      path: ['token_env'],
                      message: 'a pagerduty target needs token_env, the variable holding its routing key',
                    });
                  }
                }),
            )
            .describe('Named webhook targets; the model picks one by name. Levels: ' + ALERT_LEVELS.join(', ') + '.'),
        })
        .optional(),
      tool_output: z
        .strictObject({
          max_bytes: caps.shape.max_bytes,
          max_lines: caps.shape.max_lines,
          per_tool: z
            .strictObject(Object.fromEntries(names.map((n) => [n, caps.optional()])) as Record<string, z.ZodOptional<typeof caps>>)
            .optional()
            .describe('Caps for one tool, overriding max_bytes / max_lines.'),
        })
        .optional(),
      permissions: z
        .strictObject({
          mode: z.enum(PERMISSION_MODES).optional().describe('ask (default), accept-edits, plan or yolo.'),
          plan_mode: z
            .enum(['off', 'advisory', 'required'])
            .optional()
            .describe('Plan-first: required holds state-changing tools back until record_plan is called; advisory only files plans.'),
          allow: z.array(permissionRule).optional().describe('Rules for calls that run without asking: tool.<name>[:<glob>].'),
          deny: z.array(permissionRule).optional().describe('Rules for calls that never run, in any mode. Deny wins.'),
          path_scope: z
            .strictObject({
              allow: z.array(z.string().min(1)).optional().describe('Paths or globs file tools may touch. Default: ["."], the workspace.'),
              deny: z.array(z.string().min(1)).optional().describe('Paths or globs refused even inside an allowed path.'),
            })
            .optional(),
          url_scope: z
            .strictObject({
              allow: z
                .array(urlPattern('allow'))
                .optional()
                .describe(
                  'Hosts fetch_url and web_fetch may reach: host, *.domain or *, with http:// to allow plain HTTP and :port to pin a port. Empty: no fetch tools.',
                ),
              deny: z.array(urlPattern('deny')).optional().describe('Hosts refused even when an allow entry matches. Deny wins.'),
              proxy: z
                .url({ protocol: /^http$/ })
                .optional()
                .describe(
                  'An HTTP proxy for fetch_url and web_fetch (CONNECT to the checked address). HTTP_PROXY and friends are never read.',
                ),
              proxy_env: envName.optional().describe('The variable holding the proxy URL instead (when it carries credentials).'),
            })
            .refine((s) => !(s.proxy && s.proxy_env), { message: 'give proxy or proxy_env, not both', path: ['proxy_env'] })
            .optional(),
        })
        .optional(),
      watch: watchSchema.optional(),
      hooks: hooksSchema.optional(),
      peers: peersSchema.optional(),
      attach: attachSchema.optional(),
      agents: agentsSchema(toolName).optional().describe('Delegation: profiles and limits for child agents (docs/delegation.md).'),
    })
    .superRefine((recipe, ctx) => {
      checkAgentProfiles(recipe, names, ctx);
      const target = recipe.watch?.alert_target;
      if (target !== undefined && !(target in (recipe.alerts?.targets ?? {}))) {
        const known = Object.keys(recipe.alerts?.targets ?? {});
        ctx.addIssue({
          code: 'custom',
          path: ['watch', 'alert_target'],
          message: known.length
            ? unknownName('alert target', target, known)
            : `alert target "${target}" is not declared: add it under alerts.targets`,
        });
      }
    })
    .describe('core-agent recipe');
}

/**
 * What a profile names beyond the built-in tools: each `mcp` entry's server must be declared in
 * this recipe's mcp.servers (a tool part can only be known once the server answers: a spawn
 * naming one it lacks is refused then), and the profile's declarative tool (`agent_<profile>`,
 * docs/delegation.md) must not take a built-in tool's name.
 */
function checkAgentProfiles(
  recipe: { mcp?: { servers?: Readonly<Record<string, unknown>> | undefined } | undefined; agents?: AgentsConfig | undefined },
  toolNames: readonly string[],
  ctx: z.RefinementCtx,
): void {
  const servers = Object.keys(recipe.mcp?.servers ?? {});
  for (const [name, profile] of Object.entries(recipe.agents?.profiles ?? {})) {
    const tool = profileToolName(name);
    if (toolNames.includes(tool))
      ctx.addIssue({
        code: 'custom',
        path: ['agents', 'profiles', name],
        message: `the profile's tool ${tool} would take the name of the built-in tool ${tool}: rename the profile`,
      });
    (profile.mcp ?? []).forEach((entry, i) => {
      const server = entry.split(':')[0]!;
      if (servers.includes(server)) return;
      ctx.addIssue({
        code: 'custom',
        path: ['agents', 'profiles', name, 'mcp', i],
        message: servers.length
          ? unknownName('MCP server', server, servers)
          : `MCP server "${server}" is not declared: a profile names servers of this recipe's mcp.servers`,
      });
    });
  }
}

type RecipeSchema = ReturnType<typeof buildRecipeSchema>;
export type Recipe = z.output<RecipeSchema>;

export function recipeJsonSchema(tools: readonly ToolSettingsSpec[]): Record<string, unknown> {
  return {
    title: 'core-agent recipe',
    ...(z.toJSONSchema(recipeSchema(tools), { target: 'draft-7', io: 'input' }) as Record<string, unknown>),
  };
}
