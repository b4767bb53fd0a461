// core-agent watch with the recipe's attach: and peers: sections, as the chart renders
// them: the attach API beside /healthz lists the incidents' sessions behind its
// token, the operator registers itself with a peer hub (a recording hub on
// 127.0.0.1) and drops its lease on SIGTERM; peers: without attach: is refused.
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { bundle } from '../helpers/cli.ts';
import { countingServer } from '../helpers/http-servers.ts';
import { tempDir } from '../helpers/workspace.ts';
import { KUBECONFIG, requireCluster, until, withNamespace } from './kube.ts';
import { startWatch, watchFixture, type WatchProcess } from './watch-process.ts';

const procs: WatchProcess[] = [];
afterEach((ctx) => {
  for (const p of procs.splice(0)) {
    if (ctx.task.result?.state === 'fail') console.error(`watch stdout:\n${p.stdout()}\nwatch stderr (tail):\n${p.stderr().slice(-4000)}`);
    if (p.child.exitCode === null) p.child.kill('SIGKILL');
  }
});

const ANSWER = { text: 'UNRESOLVED: nothing to see.' };
const ATTACH_TOKEN = 'attach-token-5f1c0e7a9b';
const HUB_TOKEN = 'hub-token-0d3e8a61c4';

describe('core-agent watch with attach: and peers:', () => {
  it('serves the attach API behind its token and keeps a lease with the hub until SIGTERM', async () => {
    await requireCluster();
    await withNamespace('watch-attach', {}, async (ns) => {
      const dir = await tempDir();
      const hub = await countingServer('127.0.0.1', (req, res) => {
        res.setHeader('content-type', 'application/json');
        if (req.method === 'POST' && req.url === '/peers') {
          res.statusCode = 201;
          res.end(JSON.stringify({ registration_id: 'reg-1', name: 'operator-a', heartbeat_ttl_sec: 15 }));
        } else if (req.method === 'DELETE') {
          res.statusCode = 204;
          res.end();
        } else res.end('{}');
      });
      const f = await watchFixture(dir, ns, {}, [ANSWER], {
        attach: { listen: '127.0.0.1:0', token_env: 'ATTACH_TOKENS' },
        peers: {
          register: {
            hub_url: hub.origin,
            token_env: 'HUB_TOKEN',
            name: 'operator-a',
            endpoint: 'http://core-agent.ops.svc:8474',
            labels: { env: 'test' },
            ttl_seconds: 15,
          },
        },
      });
      const w = await startWatch(f, dir, [], { ATTACH_TOKENS: ATTACH_TOKEN, HUB_TOKEN });
      procs.push(w);
      const api = /attach API on (http:\/\/\S+)/.exec(w.stdout())?.[1];
      expect(api, w.stdout()).toBeDefined();
      expect((await fetch(`${api}/sessions`)).status).toBe(401);
      const listed = await fetch(`${api}/sessions`, { headers: { authorization: `Bearer ${ATTACH_TOKEN}` } });
      expect(listed.status).toBe(200);
      // Creating a session is the watcher's job, not a client's.
      const created = await fetch(`${api}/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ATTACH_TOKEN}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(created.status).toBe(501);

      const registered = await until('registered with the hub', 15_000, async () =>
        hub.requests.find((r) => r.method === 'POST' && r.url === '/peers'),
      );
      expect(registered.headers.authorization).toBe(`Bearer ${HUB_TOKEN}`);
      expect(JSON.parse(registered.body)).toMatchObject({
        name: 'operator-a',
        endpoint: 'http://core-agent.ops.svc:8474',
        labels: { env: 'test' },
        heartbeat_ttl_sec: 15,
      });

      w.child.kill('SIGTERM');
      expect(await w.exited).toBe(0);
      expect(hub.requests.some((r) => r.method === 'DELETE' && r.url === '/peers/reg-1')).toBe(true);
      for (const text of [w.stdout(), w.stderr()]) {
        expect(text).not.toContain(ATTACH_TOKEN);
        expect(text).not.toContain(HUB_TOKEN);
      }
    });
  });

  it('refuses a peers: section without an attach: section (exit 2), saying why', async () => {
    await requireCluster();
    await withNamespace('watch-peers', {}, async (ns) => {
      const dir = await tempDir();
      const f = await watchFixture(dir, ns, {}, [ANSWER], { peers: { hub: true } });
      const r = spawnSync(
        process.execPath,
        [bundle, 'watch', '-c', f.recipe, '--model', `replay:${f.script}`, '--session-db', f.db, '--listen', '127.0.0.1:0', '-w', dir],
        { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH, HOME: dir, KUBECONFIG: KUBECONFIG ?? '' } },
      );
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/a peers: section but no attach: section; .*add attach: \{listen, token_env\}/);
    });
  });
});
