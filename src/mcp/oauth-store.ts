import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod/v4';
import type { McpOAuthConfig } from '../config/mcp-schema.ts';
import { makeDirs } from '../util/make-dirs.ts';

/**
 * What one MCP server's OAuth login leaves behind: the client registration, the
 * tokens and the discovery result, in one file per server under the user's state
 * directory (`mcp-oauth/<server>.json`, mode 0600 in a 0700 directory). The file
 * records the server URL it belongs to: pointed at another URL, the server name
 * starts from nothing rather than present one server's tokens to another.
 */
const recordSchema = z.looseObject({
  url: z.string(),
  /** The grant and client the record was made for (oauth-provider.ts). */
  identity: z.string().optional(),
  client: z.record(z.string(), z.unknown()).optional(),
  tokens: z.looseObject({ access_token: z.string(), refresh_token: z.string().optional(), expires_in: z.number().optional() }).optional(),
  /** ms since the epoch: when the access token expires (expires_in counted from saving). */
  expires_at: z.number().optional(),
  discovery: z.record(z.string(), z.unknown()).optional(),
  /** The loopback redirect URI the client was registered with: reused, so a registration stays valid. */
  redirect_uri: z.string().optional(),
  /** Browser logins in a row whose token the server then refused (oauth-provider.ts's loop guard). */
  refused_logins: z.number().optional(),
});
export type OAuthRecord = z.output<typeof recordSchema>;

/** Where the records are, under the state directory the composition root resolved (mcp/ reads no environment for it). */
export function oauthDir(stateDir: string): string {
  return path.join(stateDir, 'mcp-oauth');
}

export class OAuthStore {
  readonly file: string;

  constructor(
    stateDir: string,
    server: string,
    private readonly url: string,
    private readonly identity = '',
  ) {
    this.file = path.join(oauthDir(stateDir), `${server}.json`);
  }

  /** The record for this server and URL; an unreadable or foreign one counts as none (a new login replaces it). */
  async load(): Promise<OAuthRecord> {
    try {
      const parsed = recordSchema.safeParse(JSON.parse(await readFile(this.file, 'utf8')));
      if (parsed.success && parsed.data.url === this.url && (parsed.data.identity ?? '') === this.identity) return parsed.data;
    } catch {
      // missing or not JSON: no login yet
    }
    return { url: this.url, identity: this.identity };
  }

  /** Written whole to a temporary file (0600) and renamed over: a crash leaves the old record or the new, never half. */
  save(record: OAuthRecord): Promise<void> {
    // One write at a time, in order: a later record is never overwritten by an earlier one finishing late.
    const next = this.writing.then(() => this.write(record));
    this.writing = next.catch(() => {});
    return next;
  }

  private writing: Promise<void> = Promise.resolve();

  private async write(record: OAuthRecord): Promise<void> {
    const dir = path.dirname(this.file);
    makeDirs(dir, 0o700);
    const tmp = `${this.file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(tmp, `${JSON.stringify({ ...record, url: this.url, identity: this.identity })}\n`, { mode: 0o600, flag: 'wx' });
      await rename(tmp, this.file);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async remove(): Promise<boolean> {
    try {
      await rm(this.file);
      return true;
    } catch {
      return false;
    }
  }
}

/** A server's store: the record belongs to its URL, grant and client; changing any of them starts from nothing. */
export function storeFor(stateDir: string, server: string, url: string, oauth: McpOAuthConfig): OAuthStore {
  return new OAuthStore(stateDir, server, url, `${oauth.grant ?? 'authorization_code'} ${oauth.client_id ?? '(registered)'}`);
}
