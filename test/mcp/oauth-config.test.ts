import { describe, expect, it } from 'vitest';
import { mcpServerSchema } from '../../src/config/mcp-schema.ts';
import { OAUTH_CONFIG_CASES } from './oauth-config.cases.ts';

describe('oauth: in an MCP server declaration (validated strictly like the rest)', () => {
  it.each(OAUTH_CONFIG_CASES)('%s', (_name, c) => {
    const r = mcpServerSchema.safeParse({ ...(c.server ?? { url: 'https://mcp.example.com/mcp' }), oauth: c.oauth });
    if (c.error === null) {
      expect(r.error?.issues).toBeUndefined();
      return;
    }
    expect(r.success).toBe(false);
    const issues = r.error!.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    const hit = issues.find((i) => i.path === c.error!.path || (i.path === '' && c.error!.path === 'oauth'));
    expect(hit, JSON.stringify(issues)).toBeDefined();
    expect(`${hit!.message} ${JSON.stringify((r.error!.issues[0] as { keys?: unknown }).keys ?? '')}`).toContain(c.error.says);
  });
});
