import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/workspace.ts';
import { PATHS, SECRETS, secretForms } from './say-so-paths.ts';
import { DESTINATIONS, NETNS_ADDRESSES, NETNS_HOSTS, startWorld, type World } from './say-so-servers.ts';
import { SAY_SO_CASES, type Destination } from './say-so.cases.ts';

/**
 * The say-so matrix (say-so.cases.ts): every request core-agent makes because a
 * server, a peer or a document named the address, against every kind of
 * destination, each behind a server that counts what reaches it.
 *
 * It runs twice. Here, on this machine's loopback, the rows whose destination
 * can live on 127.0.0.x (with the resolver seam for names). Then, when this
 * process may (root, iproute2, util-linux), all of it again inside a private
 * network namespace — a nested vitest under `unshare --net --mount` — where real
 * servers listen on 169.254.169.254 and 10.11.12.0/24 and a bind-mounted
 * /etc/hosts gives the names. The namespace has nothing but its loopback, so
 * even a regression sends nothing off this machine.
 */
const IN_NETNS = process.env.CORE_AGENT_SAY_SO_NETNS === '1';
const CAP_WRITTEN = 64 * 1024 * 1024;

let world: World;
beforeAll(async () => {
  world = await startWorld(IN_NETNS);
});
afterAll(async () => {
  await world.close();
});

const isName = (host: string) => !/^[\d.[]|^0x/i.test(host);
const PRIVATE: ReadonlySet<Destination> = new Set([
  'loopback',
  'loopback-mapped',
  'loopback-decimal',
  'loopback-hex',
  'private',
  'name-to-private',
]);

describe('requests made on someone else’s say-so take the address policy', () => {
  for (const [pathName, dest, outcome] of SAY_SO_CASES) {
    const spec = DESTINATIONS[dest];
    const p = PATHS[pathName];
    // The hub judges a registration without sending anything: no server is needed for it.
    const needsServer = pathName !== 'hub-registration';
    // A metadata name is refused before any lookup, so it needs no resolver.
    const resolvable = p.resolverSeam || !isName(spec.host) || dest === 'metadata-name';
    const here = IN_NETNS || !needsServer || (!spec.netnsOnly && resolvable);
    it.skipIf(!here)(`${pathName} → ${dest}: ${outcome}`, { timeout: 60_000 }, async () => {
      world.reset();
      const first = world.servers[spec.server];
      const target = spec.redirectTo ? world.servers[spec.redirectTo]! : undefined;
      if (target) first!.reply = { kind: 'redirect', to: `http://${target.address}:${target.port}` };
      if (spec.huge) first!.reply = { kind: 'huge' };
      const d = needsServer ? world.urlOf(dest)! : `http://${spec.host}:8080`;
      const said = await p.run(world, d);
      if (process.env.SAYSO_DEBUG)
        console.log(JSON.stringify({ said, reqs: first?.requests.map((r) => `${r.method} ${r.url}`), written: first?.written }, null, 1));

      // No secret in anything core-agent said.
      for (const form of secretForms())
        expect(said.text.includes(form), `core-agent said a secret: ${said.text.slice(0, 500)}`).toBe(false);
      // Secrets reach the operator's MCP server (the origin) and a destination reached on purpose, nothing else.
      const onPurpose = outcome === 'reached' || outcome === 'capped' || outcome === 'not-followed' ? spec.server : undefined;
      for (const s of Object.values(world.servers)) {
        if (!s || s.key === 'origin' || s.key === onPurpose) continue;
        const seen = JSON.stringify(s.requests);
        for (const form of secretForms()) expect(seen.includes(form), `${s.key} received a secret`).toBe(false);
      }
      // The MCP server's configured headers stay with its own origin.
      if (!p.operator && first) expect(JSON.stringify(first.requests)).not.toContain(SECRETS.mcpKey);

      switch (outcome) {
        case 'refused':
          if (first) expect(first.requests, 'a request reached a refused destination').toHaveLength(0);
          expect(said.text).toMatch(/always blocked|reachable only when the operator names that host/);
          if (PRIVATE.has(dest) && p.setting) expect(said.text).toContain(p.setting);
          if (pathName === 'hub-registration') {
            expect(said.status).toBe(400);
            expect(JSON.parse(said.text)).toMatchObject({ field: 'endpoint' });
          }
          break;
        case 'accepted':
          expect(said.status, said.text).toBe(201);
          break;
        case 'reached':
          expect(first!.requests.length, said.text).toBeGreaterThan(0);
          break;
        case 'not-followed':
          expect(first!.requests.length, said.text).toBeGreaterThan(0);
          expect(target!.requests, 'the redirect was followed').toHaveLength(0);
          break;
        case 'capped':
          expect(first!.requests.length, said.text).toBeGreaterThan(0);
          expect(said.text).toMatch(/over the \d+ MiB cap on /);
          // Reading stopped near the cap: the server could not push the 200 MiB.
          expect(first!.written).toBeLessThan(CAP_WRITTEN);
          break;
      }
    });
  }
});

/** Why the namespace run cannot happen here, or null. */
function netnsUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'needs root to create a network namespace';
  for (const tool of ['unshare', 'ip', 'mount'])
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `needs ${tool} (iproute2, util-linux)`;
  const probe = spawnSync('unshare', ['--net', '--mount', '--', 'ip', 'link', 'set', 'lo', 'up']);
  if (probe.status !== 0) return `unshare --net --mount failed here: ${probe.stderr.toString().trim().slice(0, 200)}`;
  return null;
}

describe.skipIf(IN_NETNS)('the matrix in a private network namespace', () => {
  const why = netnsUnavailable();
  it.skipIf(why !== null)(
    `every row, with real servers on 169.254.169.254 and 10.11.12.0/24${why ? ` (skipped: ${why})` : ''}`,
    { timeout: 900_000 },
    async () => {
      const dir = await tempDir();
      const hosts = path.join(dir, 'hosts');
      const report = path.join(dir, 'report.json');
      writeFileSync(hosts, `${NETNS_HOSTS}\n`);
      const vitest = path.resolve('node_modules/vitest/vitest.mjs');
      const script = [
        'set -e',
        'ip link set lo up',
        ...NETNS_ADDRESSES.map((a) => `ip addr add ${a}/32 dev lo`),
        `mount --bind ${hosts} /etc/hosts`,
        `exec "${process.execPath}" "${vitest}" run --project unit test/net/say-so.test.ts --reporter=json --outputFile="${report}"`,
      ].join('\n');
      const run = spawnSync('unshare', ['--net', '--mount', '--', 'sh', '-c', script], {
        env: { ...process.env, CORE_AGENT_SAY_SO_NETNS: '1', CI: 'true' },
        encoding: 'utf8',
        timeout: 880_000,
      });
      let results: {
        numPassedTests: number;
        numFailedTests: number;
        testResults: Array<{ assertionResults: Array<{ title: string; status: string; failureMessages: string[] }> }>;
      };
      try {
        results = JSON.parse(readFileSync(report, 'utf8')) as typeof results;
      } catch {
        throw new Error(`the namespace run left no report (exit ${run.status}): ${run.stderr.slice(-3000)}`);
      }
      const failed = results.testResults.flatMap((f) => f.assertionResults.filter((a) => a.status === 'failed'));
      expect(failed.map((f) => `${f.title}: ${f.failureMessages.join(' ').slice(0, 400)}`)).toEqual([]);
      // Every row ran in there; none was skipped.
      expect(results.numPassedTests).toBe(SAY_SO_CASES.length);
    },
  );
});
