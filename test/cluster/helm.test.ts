// The Helm chart helm/core-agent: lint, golden renders, the RBAC and securityContext it
// promises, its values schema, and an install into the local control plane under Pod
// Security "restricted" with the ServiceAccount's permissions probed by `auth can-i`.
//
// Goldens: test/helm/goldens/NAME.yaml is `helm template` of test/helm/values/NAME.yaml,
// or of the chart's own example helm/core-agent/examples/NAME.yaml (every file of both
// folders is a case). UPDATE_GOLDENS=1 rewrites them (never under CI=true, where a
// difference fails). test/cluster/helm-values.test.ts runs the values matrix.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { bundle, runCli } from '../helpers/cli.ts';
import { DEFAULT_CONTAINER_SECURITY, DEFAULT_POD_SECURITY } from '../helm/values.cases.ts';
import { kubectl, kubectlJson, podReady, requireCluster, run, suffix, until, type Pod } from './kube.ts';
import {
  chartDir,
  createNamespace,
  deleteNamespace,
  helm,
  parseManifests,
  repoRoot,
  runHelm,
  template,
  type Manifest,
} from './helm-chart.ts';

const valuesDir = join(repoRoot, 'test', 'helm', 'values');
const goldenDir = join(repoRoot, 'test', 'helm', 'goldens');
const examplesDir = join(chartDir, 'examples');
const yamlNames = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.slice(0, -'.yaml'.length));
const EXAMPLES = yamlNames(examplesDir);
const CASES = [...yamlNames(valuesDir), ...EXAMPLES];
const valuesFile = (name: string) => join(EXAMPLES.includes(name) ? examplesDir : valuesDir, `${name}.yaml`);

const READ_VERBS = ['get', 'list', 'watch'];
/** What the brief asks the agent to read, by API group ("" is core). */
const MUST_READ: Record<string, string[]> = {
  '': [
    'pods',
    'pods/log',
    'events',
    'nodes',
    'services',
    'endpoints',
    'configmaps',
    'persistentvolumeclaims',
    'namespaces',
    'replicationcontrollers',
  ],
  apps: ['deployments', 'replicasets', 'statefulsets', 'daemonsets'],
  batch: ['jobs', 'cronjobs'],
  autoscaling: ['horizontalpodautoscalers'],
  policy: ['poddisruptionbudgets'],
  'networking.k8s.io': ['ingresses', 'networkpolicies'],
  'events.k8s.io': ['events'],
  'discovery.k8s.io': ['endpointslices'],
};

interface Rule {
  apiGroups?: string[];
  resources?: string[];
  verbs: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}
const roles = (ms: Manifest[]) => ms.filter((m) => m.kind === 'Role' || m.kind === 'ClusterRole') as (Manifest & { rules: Rule[] })[];

/** Read-only, explicit, never Secrets: every rule of every Role/ClusterRole. */
function expectReadOnlyRbac(ms: Manifest[]) {
  for (const role of roles(ms)) {
    for (const rule of role.rules) {
      const where = `${role.kind}/${role.metadata.name} ${JSON.stringify(rule)}`;
      expect(
        rule.verbs.every((v) => READ_VERBS.includes(v)),
        `${where}: only get/list/watch`,
      ).toBe(true);
      for (const list of [rule.apiGroups, rule.resources, rule.verbs, rule.resourceNames, rule.nonResourceURLs]) {
        expect(list ?? [], `${where}: no wildcard`).not.toContain('*');
      }
      expect(rule.resources?.length, `${where}: resources listed`).toBeGreaterThan(0);
      expect(rule.resources, `${where}: no Secrets`).not.toContain('secrets');
      expect(rule.nonResourceURLs, `${where}: no URLs`).toBeUndefined();
    }
  }
}

interface PodSpec {
  securityContext: Record<string, unknown> & { runAsUser?: number };
  containers: {
    name: string;
    args: string[];
    workingDir: string;
    env: { name: string; value?: string }[];
    volumeMounts: { mountPath: string; readOnly?: boolean }[];
    securityContext: Record<string, unknown>;
  }[];
  automountServiceAccountToken?: boolean;
}
const deployment = (ms: Manifest[]) => {
  const d = ms.find((m) => m.kind === 'Deployment') as Manifest & {
    spec: { replicas: number; strategy: { type: string }; template: { metadata: { annotations: Record<string, string> }; spec: PodSpec } };
  };
  expect(d, 'a Deployment is rendered').toBeDefined();
  return d;
};

/**
 * Pod Security "restricted" and a read-only root, as the brief fixes them: the
 * defaults exactly, or (a case that overrides them) still restricted. The helm test
 * pod, when rendered, is held to the same.
 */
function expectRestrictedPod(ms: Manifest[], name: string) {
  const d = deployment(ms);
  expect(d.spec.replicas).toBe(1);
  expect(d.spec.strategy.type).toBe('Recreate');
  const pod = d.spec.template.spec;
  const values = parseYaml(readFileSync(valuesFile(name), 'utf8')) as Record<string, unknown> | null;
  const testPod = ms.find((m) => m.kind === 'Pod') as (Manifest & { spec: PodSpec }) | undefined;
  for (const spec of testPod ? [pod, testPod.spec] : [pod]) {
    expect(spec.containers).toHaveLength(1);
    const container = spec.containers[0]!.securityContext;
    if (values?.podSecurityContext === undefined) expect(spec.securityContext).toEqual(DEFAULT_POD_SECURITY);
    if (values?.securityContext === undefined) expect(container).toEqual(DEFAULT_CONTAINER_SECURITY);
    expect(spec.securityContext).toMatchObject({
      runAsNonRoot: true,
      seccompProfile: { type: expect.stringMatching(/^(RuntimeDefault|Localhost)$/) },
    });
    expect(spec.securityContext.runAsUser ?? 1).toBeGreaterThan(0);
    expect(container).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
    expect((container.capabilities as { drop: string[] }).drop).toContain('ALL');
    expect(container.privileged ?? false).toBe(false);
  }
  // The root is read-only: the state dir (also the workspace) and /tmp are volumes.
  const c = pod.containers[0]!;
  expect(c.volumeMounts.map((m) => `${m.mountPath}${m.readOnly ? ' ro' : ''}`)).toEqual(
    expect.arrayContaining(['/etc/core-agent ro', '/tmp', '/var/lib/core-agent']),
  );
  expect(c.workingDir).toBe('/var/lib/core-agent');
  expect(c.env).toEqual(
    expect.arrayContaining([
      { name: 'HOME', value: '/var/lib/core-agent' },
      { name: 'TMPDIR', value: '/tmp' },
    ]),
  );
}

const render = (name: string) => template(['-f', valuesFile(name)]);

describe('helm/core-agent: lint, goldens, schema', () => {
  it('Chart.yaml: appVersion is package.json version, kubeVersion >=1.27', () => {
    const chart = parseYaml(readFileSync(join(chartDir, 'Chart.yaml'), 'utf8')) as Record<string, string>;
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    expect(chart).toMatchObject({
      apiVersion: 'v2',
      name: 'core-agent',
      version: '0.1.0',
      appVersion: pkg.version,
      kubeVersion: '>=1.27.0-0',
    });
    expect(chart.dependencies, 'no dependencies: nothing to fetch').toBeUndefined();
  });

  it('helm lint --strict passes with the defaults and with every golden values file', async () => {
    for (const args of [[], ...CASES.map((c) => ['-f', valuesFile(c)])]) {
      const r = await runHelm(['lint', chartDir, '--strict', ...args]);
      expect(r.code, `helm lint ${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
      expect(r.stdout).toContain('0 chart(s) failed');
    }
  });

  it.each(CASES)('helm template with %s.yaml matches its golden', async (name) => {
    const rendered = await render(name);
    const golden = join(goldenDir, `${name}.yaml`);
    if (process.env.UPDATE_GOLDENS === '1' && process.env.CI !== 'true') writeFileSync(golden, rendered);
    expect(existsSync(golden), `${golden} is missing: run with UPDATE_GOLDENS=1 to write it`).toBe(true);
    expect(rendered, `differs from ${golden}; UPDATE_GOLDENS=1 rewrites it after a deliberate change`).toBe(readFileSync(golden, 'utf8'));
  });

  it.each(CASES)('%s: RBAC is read-only and explicit without Secrets; the pod is "restricted"', async (name) => {
    const ms = parseManifests(await render(name));
    expectReadOnlyRbac(ms);
    expectRestrictedPod(ms, name);
  });

  it('the default render: one ClusterRole that reads what an SRE needs, bound to the chart ServiceAccount', async () => {
    const ms = parseManifests(await template());
    expect(ms.map((m) => m.kind).sort()).toEqual([
      'ClusterRole',
      'ClusterRoleBinding',
      'ConfigMap', // the recipe
      'ConfigMap', // the helm test script (a test hook)
      'Deployment',
      'Pod', // the helm test pod (a test hook)
      'Service',
      'ServiceAccount',
    ]);
    const [role] = roles(ms);
    for (const [group, resources] of Object.entries(MUST_READ)) {
      const granted = role!.rules.filter((r) => r.apiGroups?.includes(group)).flatMap((r) => r.resources ?? []);
      expect(granted, `apiGroup "${group}"`).toEqual(expect.arrayContaining(resources));
    }
    const binding = ms.find((m) => m.kind === 'ClusterRoleBinding') as Manifest & { subjects: unknown[]; roleRef: { name: string } };
    expect(binding.roleRef.name).toBe(role!.metadata.name);
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'core-agent', namespace: 'core-agent' }]);
    const sa = ms.find((m) => m.kind === 'ServiceAccount') as Manifest & { automountServiceAccountToken: boolean };
    expect(sa.automountServiceAccountToken).toBe(true);

    const container = deployment(ms).spec.template.spec.containers[0]!;
    expect(container.args).toEqual([
      'watch',
      '-c',
      '/etc/core-agent/recipe.yaml',
      '--listen',
      '0.0.0.0:8080',
      // The helm test reaches /readyz through the Service: its names are Hosts port 8080 answers to.
      '--allowed-host',
      'core-agent:8080,core-agent.core-agent:8080,core-agent.core-agent.svc:8080,core-agent.core-agent.svc.cluster.local:8080',
      '--session-db',
      '/var/lib/core-agent/sessions.db',
      '--shutdown-grace',
      '50',
      '--log-level',
      'info',
    ]);
  });

  it('namespaced scope: a Role + RoleBinding in each listed namespace, no cluster-scoped kinds', async () => {
    const ms = parseManifests(await render('namespaced'));
    expect(ms.some((m) => m.kind.startsWith('Cluster'))).toBe(false);
    const rs = roles(ms);
    expect(rs.map((r) => `${r.kind}/${r.metadata.namespace}`)).toEqual(['Role/team-a', 'Role/team-b']);
    const bindings = ms.filter((m) => m.kind === 'RoleBinding');
    expect(bindings.map((b) => b.metadata.namespace)).toEqual(['team-a', 'team-b']);
    for (const r of rs) {
      const resources = r.rules.flatMap((rule) => rule.resources ?? []);
      expect(resources).not.toContain('nodes');
      expect(resources).not.toContain('namespaces');
      expect(resources).toContain('pods');
    }
  });

  it('the recipe rolls the pod: checksum/config is the sha256 of the recipe, and changes with it', async () => {
    const sums: string[] = [];
    for (const name of ['default', 'custom-recipe']) {
      const ms = parseManifests(await render(name));
      const cm = ms.find((m) => m.kind === 'ConfigMap') as Manifest & { data: Record<string, string> };
      const sum = deployment(ms).spec.template.metadata.annotations['checksum/config']!;
      expect(sum).toBe(createHash('sha256').update(cm.data['recipe.yaml']!).digest('hex'));
      sums.push(sum);
    }
    expect(sums[0]).not.toBe(sums[1]);
  });

  it('NOTES.txt warns when no model is configured, and not when one is', async () => {
    const notes = async (args: string[]) => {
      const out = await helm(['install', 'core-agent', chartDir, '-n', 'core-agent', '--dry-run=client', ...args]);
      return out.slice(out.indexOf('NOTES:'));
    };
    const bare = await notes([]);
    expect(bare).toMatch(/WARNING: no model is configured/);
    expect(bare).toContain('kubectl -n core-agent port-forward deploy/core-agent 8080:8080');
    expect(bare).toContain('/var/lib/core-agent/sessions.db');
    expect(await notes(['--set', 'model=google:gemini-2.5-flash'])).not.toMatch(/no model/);
    expect(await notes(['-f', valuesFile('gke-vertex')])).not.toMatch(/no model/);
  });

  it('the schema rejects a misspelt key and a wrong type; the templates reject an unusable recipe', async () => {
    const refused = async (args: string[]) => {
      const r = await runHelm(['template', 'x', chartDir, ...args]);
      expect(r.code, `helm template ${args.join(' ')} must fail`).not.toBe(0);
      return r.stderr;
    };
    expect(await refused(['--set', 'imagee.tag=x'])).toMatch(/additional properties 'imagee' not allowed/);
    expect(await refused(['--set', 'image.pullPolicy=Sometimes'])).toMatch(/pullPolicy/);
    expect(await refused(['--set', 'service.port=http'])).toMatch(/\/service\/port.*want integer/);
    expect(await refused(['--set', 'serviceAccount.annotationz.a=b'])).toMatch(/additional properties 'annotationz' not allowed/);
    expect(await refused(['--set', 'rbac.scope=everywhere'])).toMatch(/rbac\/scope/);
    expect(await refused(['--set', 'terminationGracePeriodSeconds=3'])).toMatch(/terminationGracePeriodSeconds/);
    expect((await runHelm(['lint', chartDir, '--strict', '--set', 'imagee.tag=x'])).code).not.toBe(0);

    expect(await refused(['--set', 'recipe=a: [b'])).toMatch(/values.recipe is not a YAML mapping/);
    expect(await refused(['--set', 'rbac.scope=namespaced'])).toMatch(/needs rbac.namespaces/);
    expect(await refused(['--set', 'rbac.scope=namespaced', '--set', 'rbac.namespaces={a}'])).toMatch(/must set watch.namespaces/);
    expect(await refused(['--set', 'recipe=instructions: hi'])).toMatch(/the recipe has no watch: section/);
    expect(await refused(['--set', 'serviceAccount.create=false'])).toMatch(/serviceAccount.create=false needs serviceAccount.name/);
    expect(
      (await runHelm(['template', 'x', chartDir, '--set', 'serviceAccount.create=false', '--set', 'serviceAccount.name=sre'])).code,
    ).toBe(0);
  });

  it('every rendered recipe passes `core-agent recipe validate` (needs `watch:` in the recipe schema)', async () => {
    expect(existsSync(bundle), `${bundle} is missing: run npm run build`).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'core-agent-helm-recipe-'));
    // The chart's recipe sets kubernetes.required: validate checks the file, and needs no cluster.
    for (const name of CASES) {
      const ms = parseManifests(await template(['-f', valuesFile(name), '--show-only', 'templates/configmap.yaml']));
      const file = join(dir, `${name}.yaml`);
      writeFileSync(file, (ms[0] as Manifest & { data: Record<string, string> }).data['recipe.yaml']!);
      const r = await runCli(['recipe', 'validate', file], dir);
      expect(r.code, `${name}: ${r.stdout}${r.stderr}`).toBe(0);
    }
  });
});

// ---- Installed into the local control plane --------------------------------------

const RESTRICTED = { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'latest' };
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
}, 120_000);

interface Installed {
  ns: string;
  release: string;
  fullname: string;
  /** kubectl flags that impersonate the chart's ServiceAccount with the groups a real token carries. */
  as: string[];
}

async function install(ns: string, values: object = {}): Promise<Installed> {
  const release = `ca-${suffix()}`;
  const file = join(mkdtempSync(join(tmpdir(), 'core-agent-helm-values-')), 'values.json');
  writeFileSync(file, JSON.stringify(values));
  cleanups.push(async () => {
    await runHelm(['uninstall', release, '-n', ns, '--ignore-not-found', '--wait', '--timeout', '60s']);
  });
  const out = await runHelm(['install', release, chartDir, '-n', ns, '-f', file, '--wait', '--timeout', '120s']);
  expect(out.code, `helm install: ${out.stderr}`).toBe(0);
  expect(out.stderr, 'no Pod Security warning for the Deployment').not.toMatch(/violate PodSecurity/i);
  const fullname = `${release}-core-agent`;
  const as = [
    `--as=system:serviceaccount:${ns}:${fullname}`,
    '--as-group=system:serviceaccounts',
    `--as-group=system:serviceaccounts:${ns}`,
    '--as-group=system:authenticated',
  ];
  return { ns, release, fullname, as };
}

async function canI(who: Installed, verb: string, resource: string, where: string[]): Promise<string> {
  const r = await run(['auth', 'can-i', verb, resource, ...who.as, ...where]);
  const answer = r.stdout.trim();
  if (answer !== 'yes' && answer !== 'no') throw new Error(`kubectl auth can-i ${verb} ${resource} ${where.join(' ')}: ${r.stderr}`);
  return answer;
}

/** Answers for every (verb, resource, where), keyed "verb resource where", a few kubectl at a time. */
async function answers(who: Installed, verbs: string[], resources: string[], wheres: string[][]): Promise<Record<string, string>> {
  const asks = verbs.flatMap((v) => resources.flatMap((r) => wheres.map((w) => [v, r, w] as const)));
  const out: Record<string, string> = {};
  for (let i = 0; i < asks.length; i += 8) {
    await Promise.all(asks.slice(i, i + 8).map(async ([v, r, w]) => (out[`${v} ${r} ${w.join(' ')}`] = await canI(who, v, r, w))));
  }
  return out;
}
const all = (keys: Record<string, string>, value: string) => Object.fromEntries(Object.keys(keys).map((k) => [k, value]));

/** Wait until RBAC answers yes for a read the role grants (the authorizer's cache follows the binding). */
const bound = (who: Installed, resource: string, where: string[]) =>
  until(
    `${who.fullname} may list ${resource} ${where.join(' ')}`,
    30_000,
    async () => (await canI(who, 'list', resource, where)) === 'yes',
  );

const WORKLOADS = [
  'deployments.apps',
  'pods',
  'statefulsets.apps',
  'daemonsets.apps',
  'jobs.batch',
  'replicasets.apps',
  'services',
  'configmaps',
];
const WRITES = ['create', 'update', 'patch', 'delete'];

describe('helm install, cluster scope, into a namespace enforcing Pod Security "restricted"', () => {
  let installing: Promise<Installed> | undefined;
  const installed = () =>
    (installing ??= (async () => {
      await requireCluster();
      const ns = await createNamespace('helm', RESTRICTED);
      cleanups.push(() => deleteNamespace(ns));
      return install(ns);
    })());

  // KWOK fakes the kubelet: no container runs here; rootfs.test.ts runs the chart's command for real.
  it('is admitted under Pod Security restricted, and KWOK reports its pod Running and Ready', async () => {
    const { ns, release } = await installed();
    const pods = await kubectlJson<{ items: (Pod & { spec: PodSpec })[] }>([
      '-n',
      ns,
      'get',
      'pods',
      '-l',
      `app.kubernetes.io/instance=${release}`,
    ]);
    expect(pods.items).toHaveLength(1);
    const pod = pods.items[0]!;
    expect(podReady(pod), JSON.stringify(pod.status)).toBe(true);
    expect(pod.spec.nodeName).toBeTruthy();
    expect(pod.spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 65532 });
    const labels = await kubectlJson<{ metadata: { labels: Record<string, string> } }>(['get', 'namespace', ns]);
    expect(labels.metadata.labels).toMatchObject(RESTRICTED);
  }, 180_000);

  it('the enforcement is real: a privileged pod in the same namespace is refused', async () => {
    const { ns } = await installed();
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'privileged', namespace: ns },
      spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10', securityContext: { privileged: true } }] },
    };
    const r = await run(['create', '-f', '-'], JSON.stringify(pod));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/violates PodSecurity "restricted:latest"/);
  }, 180_000);

  it('its ServiceAccount reads pods and events everywhere, and may not write anything or read Secrets', async () => {
    const who = await installed();
    const here = ['-n', who.ns];
    await bound(who, 'pods', ['-A']);
    const reads = await answers(who, READ_VERBS, ['pods', 'events', 'events.events.k8s.io', 'deployments.apps', 'nodes'], [here, ['-A']]);
    expect(reads).toEqual(all(reads, 'yes'));
    expect(await canI(who, 'get', 'pods', [...here, '--subresource=log'])).toBe('yes');

    const writes = await answers(who, WRITES, WORKLOADS, [here, ['-A']]);
    expect(writes).toEqual(all(writes, 'no'));
    const secrets = await answers(who, ['get', 'list', 'watch'], ['secrets'], [here, ['-A'], ['-n', 'kube-system']]);
    expect(secrets).toEqual(all(secrets, 'no'));
    expect(await canI(who, 'create', 'pods', [...here, '--subresource=exec'])).toBe('no');
  }, 180_000);

  it('helm uninstall removes everything it made, cluster-scoped objects included', async () => {
    const { ns, release, fullname } = await installed();
    // Cluster-scoped names carry the namespace (two releases of one name in two namespaces must not collide).
    const clusterName = `${fullname}-${ns}-read`;
    for (const kind of ['clusterrole', 'clusterrolebinding'])
      expect((await run(['get', kind, clusterName])).code, `${kind} ${clusterName}`).toBe(0);
    await helm(['uninstall', release, '-n', ns, '--wait', '--timeout', '60s']);
    const left = await kubectl([
      '-n',
      ns,
      'get',
      'deploy,rs,pods,svc,cm,sa,role,rolebinding',
      '-l',
      `app.kubernetes.io/instance=${release}`,
      '-o',
      'name',
    ]);
    expect(left.trim()).toBe('');
    for (const kind of ['clusterrole', 'clusterrolebinding']) {
      expect((await run(['get', kind, clusterName])).stderr).toMatch(/NotFound/);
    }
    await until('the pod gone', 60_000, async () => (await kubectl(['-n', ns, 'get', 'pods', '-o', 'name'])).trim() === '');
    expect((await runHelm(['status', release, '-n', ns])).code).not.toBe(0);
  }, 180_000);
});

describe('helm install, namespaced scope (a Role in each of two namespaces)', () => {
  let installing: Promise<Installed & { listed: string; unlisted: string }> | undefined;
  const installed = () =>
    (installing ??= (async () => {
      await requireCluster();
      const [ns, listed, unlisted] = await Promise.all([
        createNamespace('helm-ns', RESTRICTED),
        createNamespace('helm-listed'),
        createNamespace('helm-unlisted'),
      ]);
      for (const n of [ns, listed, unlisted]) cleanups.push(() => deleteNamespace(n));
      const recipe = `instructions: Triage.\nwatch:\n  namespaces: [${ns}, ${listed}]\n`;
      return { ...(await install(ns, { rbac: { scope: 'namespaced', namespaces: [ns, listed] }, recipe })), listed, unlisted };
    })());

  it('runs; its ServiceAccount reads the two namespaces only, and no Secrets there', async () => {
    const who = await installed();
    const pods = await kubectlJson<{ items: Pod[] }>(['-n', who.ns, 'get', 'pods', '-l', `app.kubernetes.io/instance=${who.release}`]);
    expect(pods.items.filter(podReady)).toHaveLength(1);
    await bound(who, 'pods', ['-n', who.listed]);

    const inside = await answers(
      who,
      READ_VERBS,
      ['pods', 'events', 'deployments.apps'],
      [
        ['-n', who.ns],
        ['-n', who.listed],
      ],
    );
    expect(inside).toEqual(all(inside, 'yes'));
    const outside = await answers(who, ['list'], ['pods', 'events', 'deployments.apps'], [['-n', who.unlisted], ['-n', 'default'], ['-A']]);
    expect(outside).toEqual(all(outside, 'no'));
    const clusterScoped = await answers(who, ['list'], ['nodes', 'namespaces'], [[]]);
    expect(clusterScoped).toEqual(all(clusterScoped, 'no'));
    const forbidden = await answers(
      who,
      ['get', 'list'],
      ['secrets'],
      [
        ['-n', who.ns],
        ['-n', who.listed],
      ],
    );
    expect(forbidden).toEqual(all(forbidden, 'no'));
    const writes = await answers(who, WRITES, WORKLOADS, [['-n', who.listed]]);
    expect(writes).toEqual(all(writes, 'no'));
  }, 180_000);

  it('helm uninstall removes the Roles in both namespaces', async () => {
    const { ns, release, fullname, listed } = await installed();
    await helm(['uninstall', release, '-n', ns, '--wait', '--timeout', '60s']);
    for (const n of [ns, listed]) {
      expect((await run(['-n', n, 'get', 'role', `${fullname}-read`])).stderr).toMatch(/NotFound/);
      expect((await run(['-n', n, 'get', 'rolebinding', `${fullname}-read`])).stderr).toMatch(/NotFound/);
    }
  }, 180_000);
});
