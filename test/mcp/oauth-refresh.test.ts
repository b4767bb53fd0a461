import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CoreAgentOAuthProvider } from '../../src/mcp/oauth-provider.ts';
import { storeFor } from '../../src/mcp/oauth-store.ts';
import type { Sdk } from '../../src/mcp/sdk.ts';
import { tempDir } from '../helpers/workspace.ts';

/**
 * A stored access token near its expiry is refreshed (through the SDK's
 * refreshAuthorization) before it is sent, and the new one is stored; one far
 * from expiry is sent as it is. The SDK's refresh is a recording stub here: the
 * grant itself is the SDK's, and the 401 path behind it is the conformance suite's.
 */
async function provider(expiresInMs: number) {
  const home = await tempDir();
  const env = { HOME: home };
  const state = path.join(home, '.local/state/core-agent');
  const url = 'http://127.0.0.1:1/mcp';
  await storeFor(state, 'srv', url, {}).save({
    url,
    client: { client_id: 'registered' },
    tokens: { access_token: 'old-access', token_type: 'bearer', refresh_token: 'the-refresh' } as never,
    expires_at: Date.now() + expiresInMs,
    discovery: { authorizationServerUrl: 'http://127.0.0.1:1/', resourceMetadata: { resource: url } },
  });
  const refreshes: unknown[] = [];
  const sdk = {
    refreshAuthorization: async (_as: string, o: unknown) => {
      refreshes.push(o);
      return { access_token: 'new-access', token_type: 'bearer', expires_in: 3600 };
    },
  } as unknown as Sdk;
  const p = new CoreAgentOAuthProvider({ server: 'srv', url, config: {}, env, stateDir: state, sdk, interactive: false, say: () => {} });
  await p.prepare();
  return { p, refreshes, file: p.store.file };
}

describe('OAuth tokens are refreshed before they expire', () => {
  it('30 s before expiry: refreshed with the stored refresh token, the new token stored (refresh token kept)', async () => {
    const { p, refreshes, file } = await provider(30_000);
    expect((await p.tokens())?.access_token).toBe('new-access');
    expect(refreshes).toEqual([expect.objectContaining({ refreshToken: 'the-refresh', resource: 'http://127.0.0.1:1/mcp' })]);
    const stored = JSON.parse(await readFile(file, 'utf8')) as {
      tokens: { access_token: string; refresh_token: string };
      expires_at: number;
    };
    expect(stored.tokens).toMatchObject({ access_token: 'new-access', refresh_token: 'the-refresh' });
    expect(stored.expires_at).toBeGreaterThan(Date.now() + 3_000_000);
  });

  it('an hour before expiry: sent as stored, no refresh', async () => {
    const { p, refreshes } = await provider(3_600_000);
    expect((await p.tokens())?.access_token).toBe('old-access');
    expect(refreshes).toEqual([]);
  });
});
