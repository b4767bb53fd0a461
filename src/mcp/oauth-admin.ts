import type { McpServerConfig } from '../config/mcp-schema.ts';
import { McpConnection } from './connection.ts';
import { storeFor } from './oauth-store.ts';

/**
 * What `core-agent mcp list / login / logout` do with a server's OAuth state:
 * describe it (never showing a token), log in through a connection that may open
 * the browser, and forget it.
 */

/** The auth column of `mcp list`: how requests are authorized, and whether a login is stored. */
export async function authState(name: string, config: McpServerConfig, stateDir: string): Promise<string> {
  if (!config.url) return '-';
  if (config.bearer_token_env) return `bearer ${config.bearer_token_env}`;
  if (config.google_auth) return 'google';
  if (!config.oauth) return 'none';
  if (config.oauth.grant === 'client_credentials') return 'oauth client_credentials';
  const rec = await storeFor(stateDir, name, config.url, config.oauth).load();
  if (!rec.tokens) return 'oauth: not logged in';
  if (rec.expires_at === undefined || rec.expires_at > Date.now()) return 'oauth: logged in';
  return rec.tokens.refresh_token ? 'oauth: logged in (refreshes)' : 'oauth: expired';
}

/** Connect once (listing tools) and close; the tool count, or why it failed. */
export async function probe(
  name: string,
  config: McpServerConfig,
  o: {
    workspace: string;
    env: NodeJS.ProcessEnv;
    stateDir: string;
    interactive: boolean;
    freshLogin?: boolean;
    say?: (text: string) => void;
  },
): Promise<{ tools: number } | { error: string }> {
  let tools = 0;
  const connection = new McpConnection({
    name,
    config,
    workspace: o.workspace,
    env: o.env,
    stateDir: o.stateDir,
    interactive: o.interactive,
    freshLogin: o.freshLogin,
    say: o.say,
    onTools: (t) => (tools = t.length),
  });
  try {
    await connection.start();
    return { tools };
  } catch (err) {
    return { error: (err as Error).message };
  } finally {
    await connection.close();
  }
}

/** `mcp login`: the stored tokens go (the registration stays), and a fresh login runs. */
export async function login(
  name: string,
  config: McpServerConfig,
  o: { workspace: string; env: NodeJS.ProcessEnv; stateDir: string; say: (text: string) => void },
): Promise<{ tools: number } | { error: string }> {
  const store = storeFor(o.stateDir, name, config.url!, config.oauth!);
  const rec = await store.load();
  delete rec.tokens;
  delete rec.expires_at;
  delete rec.refused_logins;
  await store.save(rec);
  return probe(name, config, { ...o, interactive: true, freshLogin: true });
}

/** `mcp logout`: the server's whole OAuth record goes (tokens, registration, discovery). */
export async function logout(name: string, config: McpServerConfig, stateDir: string): Promise<boolean> {
  return storeFor(stateDir, name, config.url!, config.oauth!).remove();
}
