import { mkdtemp, mkdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { Resolver } from '../../src/net/guarded-fetch.ts';
import type { Prompter } from '../../src/permissions/gate.ts';
import { createRuntime, type Runtime, type RuntimeOptions } from '../../src/runtime/runtime.ts';
import type { FlagSettings } from '../../src/runtime/settings.ts';
import type { RawStore } from '../../src/tools/framework/digest-wrap.ts';
import type { SessionState } from '../../src/tools/framework/session.ts';
import type { JsonObject } from '../../src/tools/framework/tool.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A fresh directory (symlinks resolved), removed after the test. */
export async function tempDir(prefix = 'core-agent-test-'): Promise<string> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), prefix)));
  // Retried: a child process a test stopped may still be writing under it as it exits (its code
  // cache, into a HOME here), which makes a removal fail with ENOTEMPTY.
  cleanups.push(() => rm(dir, { recursive: true, force: true, maxRetries: 5 }));
  return dir;
}

export type Tree = Record<string, string | Buffer | { symlink: string } | null>;

/** Write files (`null` makes a directory, `{symlink}` a link) under `root`. */
export async function writeTree(root: string, tree: Tree): Promise<void> {
  for (const [rel, content] of Object.entries(tree)) {
    const abs = path.join(root, rel);
    await mkdir(path.dirname(abs), { recursive: true });
    if (content === null) await mkdir(abs, { recursive: true });
    else if (typeof content === 'object' && !Buffer.isBuffer(content)) await symlink(content.symlink, abs);
    else await writeFile(abs, content);
  }
}

export interface TestRuntime extends Runtime {
  /** Call a tool through the dispatcher; returns the result or throws with the error text. */
  ok(name: string, args: unknown): Promise<JsonObject>;
  /** Call a tool and expect a refusal; returns the error text. */
  refused(name: string, args: unknown): Promise<string>;
}

export interface RuntimeSetup {
  tree?: Tree;
  recipe?: string;
  flags?: FlagSettings;
  prompter?: Prompter;
  afterGate?: (tool: string) => void | Promise<void>;
  workspace?: string;
  session?: SessionState;
  /** The agent's services (asker, checkpointer, scheduler), which decide the session tools. */
  services?: RuntimeOptions['services'];
  /** The process environment the runtime sees (default: empty). */
  env?: NodeJS.ProcessEnv;
  /** The DNS resolver behind the SSRF guard (default: the system's). */
  resolver?: Resolver;
  /** Wire a store (the digest layer and retrieve_raw): `true` for an in-memory one. */
  rawStore?: RawStore | true;
  /** core-agent's state directory (process-group records, writes in flight); default none. */
  stateDir?: string;
  /** The environment commands run with (default: this process's). */
  commandEnv?: NodeJS.ProcessEnv;
  /** Who the run acts for (default: the terminal's user). */
  principal?: RuntimeOptions['principal'];
  /** Where the run's log lines go (default: nowhere). */
  logger?: RuntimeOptions['logger'];
}

/** A RawStore in memory, as the event log would keep it. */
export function memoryRawStore(): RawStore & { size: number } {
  const rows = new Map<string, { tool: string; rawJson: string }>();
  return {
    put: (tool, rawJson) => {
      const callId = `raw_${rows.size + 1}`;
      rows.set(callId, { tool, rawJson });
      return callId;
    },
    get: (callId) => rows.get(callId),
    get size() {
      return rows.size;
    },
  };
}

/** A workspace with files and a runtime over it, as `tools call` builds one. */
export async function setup(opts: RuntimeSetup = {}): Promise<TestRuntime & { dir: string }> {
  const dir = opts.workspace ?? (await tempDir());
  if (opts.tree) await writeTree(dir, opts.tree);
  let recipe: string | undefined;
  if (opts.recipe !== undefined) {
    recipe = path.join(await tempDir('core-agent-recipe-'), 'recipe.yaml');
    await writeFile(recipe, opts.recipe);
  }
  const rt = await createRuntime({
    flags: { workspace: dir, recipe, ...opts.flags },
    env: opts.env ?? {},
    // Commands run with this process's environment (PATH), as the CLI's do; the settings see only opts.env.
    commandEnv: opts.commandEnv ?? process.env,
    resolver: opts.resolver,
    prompter: opts.prompter,
    afterGate: opts.afterGate,
    session: opts.session,
    services: opts.services,
    rawStore: opts.rawStore === true ? memoryRawStore() : opts.rawStore,
    stateDir: opts.stateDir,
    principal: opts.principal,
    logger: opts.logger,
  });
  // MCP servers and background terminals end with the test.
  cleanups.push(() => rt.session.close());
  return {
    ...rt,
    dir,
    async ok(name, args) {
      const r = await rt.dispatcher.call(name, args);
      if (!r.ok) throw new Error(`expected ${name} to succeed, got: ${r.error}`);
      return r.result;
    },
    async refused(name, args) {
      const r = await rt.dispatcher.call(name, args);
      if (r.ok) throw new Error(`expected ${name} to be refused, got: ${JSON.stringify(r.result).slice(0, 300)}`);
      return r.error;
    },
  };
}

/** `setup` in a dialect (src/tools/framework/dialect.ts): tests of another system's tools (Cagent's update_plan) run in its catalog. */
export function setupIn(dialect: 'core-agent' | 'cagent' | 'golem') {
  return (opts: RuntimeSetup = {}) => setup({ ...opts, flags: { ...opts.flags, dialect } });
}

/** The tools other dialects do a job with (docs/dialects.md): registered beside core-agent's by `setupEvery`. */
export const OTHER_DIALECT_TOOLS = ['apply_patch', 'web_fetch', 'request_user_input', 'update_plan'] as const;

/**
 * `setup` with every dialect's tools registered (two for some jobs, on purpose): for the
 * attack matrices, which try every tool that touches a path or the network. Through a user
 * configuration file (XDG_CONFIG_HOME), so the test's own recipe stays as it is.
 */
export async function setupEvery(opts: RuntimeSetup = {}): Promise<TestRuntime & { dir: string }> {
  const xdg = await tempDir('core-agent-xdg-');
  await writeTree(xdg, {
    'core-agent/config.yaml': `tools:\n  enable: [${OTHER_DIALECT_TOOLS.join(', ')}]\n  allow_overlap: true\n`,
  });
  return setup({ ...opts, env: { ...opts.env, XDG_CONFIG_HOME: xdg } });
}
