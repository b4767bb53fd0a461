import { describe, expect, it } from 'vitest';
import { countingServer } from '../helpers/http-servers.ts';
import { setup } from '../helpers/workspace.ts';

const yolo = { mode: 'yolo' as const };

const RECIPE = `alerts:
  targets:
    oncall: { url_env: ONCALL_URL, token_env: ONCALL_TOKEN, description: "the SRE on call", rate_limit: { count: 2, window_seconds: 3600 } }
    sre-slack: { template: slack, url_env: SLACK_URL }
    pager: { template: pagerduty, url_env: PD_URL, token_env: PD_KEY }
    unset: { url_env: NOT_SET_URL }
`;

describe('alert', () => {
  it('delivers a generic JSON alert to a local webhook, with the bearer token', async () => {
    const hook = await countingServer('127.0.0.2');
    const rt = await setup({ flags: yolo, recipe: RECIPE, env: { ONCALL_URL: `${hook.origin}/hooks/a`, ONCALL_TOKEN: 'tok-1' } });
    const r = await rt.ok('alert', { target: 'oncall', level: 'critical', summary: 'api is down', details: '3/3 pods CrashLoopBackOff' });
    expect(r).toEqual({ delivered: true, target: 'oncall', level: 'critical', status: 200 });
    expect(hook.requests).toHaveLength(1);
    const req = hook.requests[0]!;
    expect(req).toMatchObject({ method: 'POST', url: '/hooks/a' });
    expect(req.headers.authorization).toBe('Bearer tok-1');
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body)).toMatchObject({
      source: 'core-agent',
      target: 'oncall',
      level: 'critical',
      summary: 'api is down',
      details: '3/3 pods CrashLoopBackOff',
    });
  });

  it('holds the per-target rate limit and says when the next slot frees up', async () => {
    const hook = await countingServer('127.0.0.2');
    const rt = await setup({ flags: yolo, recipe: RECIPE, env: { ONCALL_URL: hook.origin, ONCALL_TOKEN: 't' } });
    await rt.ok('alert', { target: 'oncall', level: 'warning', summary: 'one' });
    await rt.ok('alert', { target: 'oncall', level: 'warning', summary: 'two' });
    expect(await rt.refused('alert', { target: 'oncall', level: 'warning', summary: 'three' })).toMatch(
      /alert refused: target "oncall" already took 2 alerts in the last 3600s .* next is possible in (3600|359\d)s\. Do not resend/,
    );
    expect(hook.requests.map((r) => JSON.parse(r.body).summary)).toEqual(['one', 'two']);
  });

  it('drops targets whose environment is unset, lists only live targets, and has no tool when none is live', async () => {
    const hook = await countingServer('127.0.0.2');
    const rt = await setup({ flags: yolo, recipe: RECIPE, env: { SLACK_URL: hook.origin, PD_URL: hook.origin /* PD_KEY unset */ } });
    const desc = rt.catalog.get('alert')!.description;
    expect(desc).toContain('`sre-slack`');
    expect(desc).not.toMatch(/oncall|pager|unset/);
    expect(await rt.refused('alert', { target: 'oncall', level: 'info', summary: 'x' })).toMatch(
      /no target named "oncall"; the targets are sre-slack/,
    );
    expect(hook.requests).toHaveLength(0);
    const none = await setup({ flags: yolo, recipe: RECIPE, env: {} });
    expect(none.catalog.names()).not.toContain('alert');
  });

  it('shapes Slack and PagerDuty payloads; resolved closes the incident opened by the same session', async () => {
    const hook = await countingServer('127.0.0.2', (_q, res) => {
      res.statusCode = 202;
      res.end('{"status":"success"}');
    });
    const rt = await setup({
      flags: yolo,
      recipe: RECIPE,
      env: { SLACK_URL: `${hook.origin}/slack`, PD_URL: `${hook.origin}/pd`, PD_KEY: 'routing-1' },
    });
    rt.session.sessionId = 's-42';
    await rt.ok('alert', { target: 'sre-slack', level: 'critical', summary: 'disk <!channel> full', details: 'node-3: 99%' });
    await rt.ok('alert', { target: 'pager', level: 'critical', summary: 'disk full', details: 'node-3' });
    await rt.ok('alert', { target: 'pager', level: 'resolved', summary: 'disk freed' });
    const [slack, trigger, resolve] = hook.requests.map((r) => JSON.parse(r.body));
    expect(slack.text).toBe('[CRITICAL] disk <!channel> full');
    expect(slack.blocks[0].text.text).toBe(':rotating_light: *[CRITICAL]* disk &lt;!channel&gt; full');
    expect(slack.blocks[1].text.text).toBe('node-3: 99%');
    expect(trigger).toEqual({
      routing_key: 'routing-1',
      event_action: 'trigger',
      dedup_key: 'core-agent:s-42:pager',
      payload: { summary: 'disk full', source: 'core-agent', severity: 'critical', custom_details: { details: 'node-3' } },
    });
    expect(resolve).toEqual({ routing_key: 'routing-1', event_action: 'resolve', dedup_key: 'core-agent:s-42:pager' });
  });

  it('reports a failed delivery without revealing the webhook URL', async () => {
    const hook = await countingServer('127.0.0.2', (_q, res) => {
      res.statusCode = 500;
      res.end('boom');
    });
    const url = `${hook.origin}/services/T000/B000/SECRETPATH`;
    const rt = await setup({ flags: yolo, recipe: RECIPE, env: { SLACK_URL: url } });
    const err = await rt.refused('alert', { target: 'sre-slack', level: 'info', summary: 'x' });
    expect(err).toMatch(/alert not delivered to "sre-slack": the webhook answered HTTP 500 \(boom\)/);
    expect(err).not.toContain('SECRETPATH');
    // A webhook's error page that echoes the request path (the credential) is redacted.
    const echo = await countingServer('127.0.0.2', (req, res) => {
      res.statusCode = 404;
      res.end(`<pre>Cannot POST ${req.url}</pre>`);
    });
    const echoing = await setup({ flags: yolo, recipe: RECIPE, env: { SLACK_URL: `${echo.origin}/hooks/SECRET-TOKEN-123` } });
    const echoed = await echoing.refused('alert', { target: 'sre-slack', level: 'info', summary: 'x' });
    expect(echoed).toMatch(/HTTP 404 \(<pre>Cannot POST <redacted><\/pre>\)/);
    expect(echoed).not.toContain('SECRET');
    const gone = await setup({ flags: yolo, recipe: RECIPE, env: { SLACK_URL: 'http://127.0.0.2:9/services/SECRETPATH' } });
    const unreachable = await gone.refused('alert', { target: 'sre-slack', level: 'info', summary: 'x' });
    expect(unreachable).toMatch(/alert not delivered to "sre-slack"/);
    expect(unreachable).not.toContain('SECRETPATH');
  });

  it('validates arguments and the recipe', async () => {
    const hook = await countingServer('127.0.0.2');
    const rt = await setup({ flags: yolo, recipe: RECIPE, env: { SLACK_URL: hook.origin } });
    expect(await rt.refused('alert', { target: 'sre-slack', level: 'sev1', summary: 'x' })).toMatch(/level/);
    expect(await rt.refused('alert', { target: 'sre-slack', level: 'info', summary: 'x', url: 'http://169.254.169.254/' })).toMatch(/url/);
    expect(hook.requests).toHaveLength(0);
    await expect(setup({ recipe: 'alerts:\n  targets:\n    p: { template: pagerduty, url_env: PD_URL }\n' })).rejects.toThrow(
      /token_env.*routing key/s,
    );
    await expect(setup({ recipe: 'alerts:\n  targets:\n    p: { url: "http://x" }\n' })).rejects.toThrow(/url_env/);
  });
});
