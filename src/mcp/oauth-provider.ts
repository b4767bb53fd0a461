import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpOAuthConfig } from '../config/mcp-schema.ts';
import type { FetchLike } from '../net/outbound-fetch.ts';
import type { SecretValues } from '../util/secret-values.ts';
import type { Sdk } from './sdk.ts';
import { LoopbackRedirect, openAuthorizationUrl } from './oauth-redirect.ts';
import { storeFor, type OAuthRecord, type OAuthStore } from './oauth-store.ts';

/** Browser logins in a row the server may refuse before core-agent stops asking (a loop guard). */
export const MAX_UNACCEPTED_LOGINS = 3;
/** An access token this close to expiry is refreshed before it is sent. */
const REFRESH_AHEAD_MS = 60_000;

export interface OAuthProviderOptions {
  server: string;
  url: string;
  config: McpOAuthConfig;
  env: NodeJS.ProcessEnv;
  /** core-agent's state directory: the tokens are kept under it. */
  stateDir: string;
  sdk: Sdk;
  /** A person can complete a browser login now (a terminal, $BROWSER, or `mcp login`). */
  interactive: boolean;
  say: (text: string) => void;
  /** `mcp login`: a person asked for this login, whatever earlier ones ended in. */
  freshLogin?: boolean;
  /** The connection's fetch, under the address policy: the refresh ahead of expiry goes through it too. */
  fetch?: FetchLike | undefined;
  /** Every token and client secret this provider holds is registered here, to be masked wherever it surfaces. */
  secrets?: SecretValues | undefined;
}

/** The refusal when a login is needed and nobody can give it: names the command that fixes it. */
export class LoginRequiredError extends Error {
  override readonly name = 'LoginRequiredError';
}

/**
 * core-agent's OAuthClientProvider for one MCP server: the SDK's auth() runs the
 * protocol (discovery, registration, PKCE, token requests, step-up); this class
 * keeps its state in the 0600 store and supplies the parts that are ours — the
 * loopback redirect, the browser, the client-credentials grant and its
 * private_key_jwt assertion, and refreshing a token before it expires.
 */
export class CoreAgentOAuthProvider implements OAuthClientProvider {
  readonly store: OAuthStore;
  private record: OAuthRecord | undefined;
  private readonly redirect = new LoopbackRedirect();
  private verifier = '';
  private pendingState: string | undefined;
  /** Set when auth() sent the user to the browser: the code it brings back. */
  private pendingCode: Promise<string> | undefined;
  private refreshing: Promise<void> | undefined;
  readonly addClientAuthentication: OAuthClientProvider['addClientAuthentication'];
  readonly clientMetadataUrl: string | undefined;

  constructor(private readonly o: OAuthProviderOptions) {
    this.store = storeFor(o.stateDir, o.server, o.url, o.config);
    this.clientMetadataUrl = o.config.client_metadata_url;
    const key = this.privateKey();
    if (key !== undefined) {
      // The assertion's iss and sub are the client; the SDK picks the audience (the issuer).
      this.addClientAuthentication = o.sdk.createPrivateKeyJwtAuth({
        issuer: o.config.client_id!,
        subject: o.config.client_id!,
        privateKey: key,
        alg: o.config.signing_algorithm ?? 'RS256',
      });
    }
  }

  private get clientCredentials(): boolean {
    return this.o.config.grant === 'client_credentials';
  }

  /** Load the store and, for a login, open the loopback listener (its URL is the redirect URI). */
  async prepare(): Promise<void> {
    this.record = await this.store.load();
    this.registerSecrets(this.record);
    if (!this.clientCredentials && this.o.interactive) await this.redirect.listen(this.record.redirect_uri);
  }

  close(): void {
    this.redirect.close();
  }

  /**
   * None for client credentials (the SDK then fetches tokens directly). Unattended, the
   * registered one: the SDK still refreshes a stored token, and a login it would start
   * stops in redirectToAuthorization with the command that gives one.
   */
  get redirectUrl(): string | undefined {
    if (this.clientCredentials) return undefined;
    return this.o.interactive ? this.redirect.url : (this.rec().redirect_uri ?? 'http://127.0.0.1/oauth/callback');
  }

  get clientMetadata(): OAuthClientMetadata {
    const c = this.o.config;
    const secret = c.client_secret_env !== undefined;
    return {
      client_name: 'core-agent',
      redirect_uris: this.redirectUrl ? [this.redirectUrl] : [],
      grant_types: this.clientCredentials ? ['client_credentials'] : ['authorization_code', 'refresh_token'],
      response_types: this.clientCredentials ? [] : ['code'],
      token_endpoint_auth_method: this.privateKey() !== undefined ? 'private_key_jwt' : secret ? 'client_secret_basic' : 'none',
      ...(c.scopes ? { scope: c.scopes.join(' ') } : {}),
    };
  }

  state(): string {
    this.pendingState = randomBytes(16).toString('base64url');
    return this.pendingState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const c = this.o.config;
    if (c.client_id) {
      const secret = c.client_secret_env ? this.o.env[c.client_secret_env] : undefined;
      if (c.client_secret_env && !secret) throw new Error(`oauth.client_secret_env: ${c.client_secret_env} is not set`);
      return { client_id: c.client_id, ...(secret ? { client_secret: secret } : {}) };
    }
    const stored = this.rec().client as OAuthClientInformationMixed | undefined;
    // A registration made for another redirect port is not presented with this one.
    // (Only at a live listener: unattended, the stored registration is what a refresh presents.)
    if (stored && this.o.interactive && this.rec().redirect_uri !== this.redirect.url) return undefined;
    return stored;
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    if (this.o.config.client_id) return; // pre-registered: nothing to keep
    this.o.secrets?.add((info as { client_secret?: string }).client_secret);
    await this.update({ client: info as Record<string, unknown>, ...(this.redirectUrl ? { redirect_uri: this.redirectUrl } : {}) });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const r = this.rec();
    const near = r.expires_at !== undefined && r.expires_at - Date.now() < REFRESH_AHEAD_MS;
    if (near && r.tokens?.refresh_token && !this.refreshing) {
      this.refreshing = this.refreshAhead().finally(() => (this.refreshing = undefined));
      await this.refreshing;
    } else if (near && this.clientCredentials) {
      // No refresh token in this grant: without a token the server answers 401 and auth() gets a new one.
      return undefined;
    }
    return this.rec().tokens as OAuthTokens | undefined;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const expires = typeof tokens.expires_in === 'number' ? Date.now() + tokens.expires_in * 1000 : undefined;
    // A refresh that returns no new refresh token keeps the old one (RFC 6749 §6).
    const refresh = tokens.refresh_token ?? this.rec().tokens?.refresh_token;
    const next: OAuthRecord = { ...this.rec(), tokens: { ...tokens, ...(refresh ? { refresh_token: refresh } : {}) } };
    if (expires === undefined) delete next.expires_at;
    else next.expires_at = expires;
    this.record = next;
    this.registerSecrets(next);
    // Client credentials get a new token from the secret in each run, kept in memory only: a
    // rotated or revoked secret takes effect at once, and no file holds a token nobody needs later.
    if (this.clientCredentials) return;
    await this.store.save(next);
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    if (this.clientCredentials) throw new Error('the client-credentials grant has no browser step');
    if (!this.o.interactive) {
      throw new LoginRequiredError(
        `server "${this.o.server}" needs an OAuth login: run \`core-agent mcp login ${this.o.server}\` (or set $BROWSER), or configure oauth.grant: client_credentials`,
      );
    }
    // Counted in the store, so a server that never accepts a token is not asked again by every new run.
    const refused = this.rec().refused_logins ?? 0;
    if (refused >= MAX_UNACCEPTED_LOGINS && !this.o.freshLogin) {
      throw new LoginRequiredError(
        `server "${this.o.server}" refused the token of ${refused} logins in a row (it asks for a scope it does not grant?); not opening another: run \`core-agent mcp login ${this.o.server}\` to try again`,
      );
    }
    this.record = { ...this.rec(), refused_logins: refused + 1 };
    void this.store.save(this.record).catch(() => {});
    const state = authorizationUrl.searchParams.get('state') ?? this.pendingState ?? '';
    this.pendingCode = this.redirect.waitForCode(state);
    // Not awaited by the SDK: a rejection is read by takeAuthorizationCode.
    this.pendingCode.catch(() => {});
    openAuthorizationUrl(authorizationUrl, this.o.env, this.o.say);
  }

  /** A request went through with the current token: logins count from zero again. */
  accepted(): void {
    if (!this.rec().refused_logins) return;
    this.record = { ...this.rec(), refused_logins: 0 };
    void this.store.save(this.record).catch(() => {});
  }

  /** After auth() answered REDIRECT: the code the browser brought back (or why none came). */
  async takeAuthorizationCode(): Promise<string | undefined> {
    const pending = this.pendingCode;
    this.pendingCode = undefined;
    return pending;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no login in progress (no PKCE verifier)');
    return this.verifier;
  }

  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (!this.clientCredentials) return undefined;
    const params = new URLSearchParams({ grant_type: 'client_credentials' });
    const s = scope ?? this.o.config.scopes?.join(' ');
    if (s) params.set('scope', s);
    return params;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.update({ discovery: state as unknown as Record<string, unknown> });
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.rec().discovery as OAuthDiscoveryState | undefined;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    const r = { ...this.rec() };
    if (scope === 'all' || scope === 'client') delete r.client;
    if (scope === 'all' || scope === 'tokens') {
      delete r.tokens;
      delete r.expires_at;
    }
    if (scope === 'all' || scope === 'discovery') delete r.discovery;
    if (scope === 'all' || scope === 'verifier') this.verifier = '';
    this.record = r;
    await this.store.save(r);
  }

  /** The refresh grant through the SDK, ahead of expiry; a failure leaves the old token for the 401 path. */
  private async refreshAhead(): Promise<void> {
    const r = this.rec();
    const d = r.discovery as OAuthDiscoveryState | undefined;
    const client = this.clientInformation();
    if (!d?.authorizationServerUrl || !client || !r.tokens?.refresh_token) return;
    try {
      const tokens = await this.o.sdk.refreshAuthorization(d.authorizationServerUrl, {
        metadata: d.authorizationServerMetadata,
        clientInformation: client,
        refreshToken: r.tokens.refresh_token,
        ...(d.resourceMetadata?.resource ? { resource: d.resourceMetadata.resource } : {}),
        ...(this.addClientAuthentication ? { addClientAuthentication: this.addClientAuthentication } : {}),
        ...(this.o.fetch ? { fetchFn: this.o.fetch } : {}),
      });
      await this.saveTokens(tokens);
    } catch {
      // Expired or revoked: the server's 401 sends auth() down its own path (refresh, then login).
    }
  }

  private privateKey(): string | undefined {
    const c = this.o.config;
    if (c.private_key_env) {
      const v = this.o.env[c.private_key_env];
      if (!v) throw new Error(`oauth.private_key_env: ${c.private_key_env} is not set`);
      return v;
    }
    if (c.private_key_file) {
      try {
        return readFileSync(c.private_key_file, 'utf8');
      } catch (err) {
        throw new Error(`oauth.private_key_file: cannot read ${c.private_key_file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
      }
    }
    return undefined;
  }

  /** A stored or new record's tokens and client secret, as masked values. */
  private registerSecrets(r: OAuthRecord): void {
    const s = this.o.secrets;
    if (!s) return;
    s.add(r.tokens?.access_token);
    s.add(r.tokens?.refresh_token);
    s.add((r.client as { client_secret?: string } | undefined)?.client_secret);
  }

  private rec(): OAuthRecord {
    return (this.record ??= { url: this.o.url });
  }

  private async update(patch: Partial<OAuthRecord>): Promise<void> {
    this.record = { ...this.rec(), ...patch };
    await this.store.save(this.record);
  }
}
