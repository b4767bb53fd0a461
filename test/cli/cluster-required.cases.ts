// kubernetes.required and an absent cluster, through the CLI (test/cli/cluster-required.test.ts):
// run and repl check the world at start-up; recipe validate checks the file only, never a cluster.
// `kubernetes` is the recipe's kubernetes: section (YAML flow text; absent: no section);
// `cluster` what the environment offers: none, a KUBECONFIG naming a missing file, a
// kubeconfig file (nothing is contacted before a k8s tool runs; with required it is read and
// checked at start), or one that names no context (unusable: required refuses it at start;
// test/k8s/hostile-kubeconfig.cases.ts has every other way a kubeconfig cannot be used).
// `code` is the exit status; `stderr` what it must say (null: nothing about Kubernetes). One case a line.

export type Command = 'run' | 'repl' | 'validate';
export interface ClusterCase {
  command: Command;
  kubernetes?: string;
  cluster: 'none' | 'missing-file' | 'kubeconfig' | 'unusable-kubeconfig';
  code: number;
  stderr: RegExp | null;
}

const REFUSED =
  /^core-agent: the recipe requires a Kubernetes cluster \(kubernetes\.required\) and there is none: no cluster is configured: no kubeconfig/m;
const MISSING =
  /the recipe requires a Kubernetes cluster \(kubernetes\.required\) and there is none: the kubeconfig \S+\/nope does not exist/;
const UNUSABLE =
  /the recipe requires a Kubernetes cluster \(kubernetes\.required\) and there is none: cannot load the Kubernetes configuration: \S+kubeconfig sets no current-context/;
const ABSENT = /^core-agent: no Kubernetes tools \(k8s_\*\) in this run: no cluster is configured: no kubeconfig/m;

export const CLUSTER_CASES: ClusterCase[] = [
  { command: 'run', kubernetes: '{ required: true }', cluster: 'none', code: 2, stderr: REFUSED },
  { command: 'repl', kubernetes: '{ required: true }', cluster: 'none', code: 2, stderr: REFUSED },
  // recipe validate checks the file, never the world: no cluster is looked for, nothing is said of one.
  { command: 'validate', kubernetes: '{ required: true }', cluster: 'none', code: 0, stderr: null },
  { command: 'run', kubernetes: '{ required: true }', cluster: 'missing-file', code: 2, stderr: MISSING },
  { command: 'validate', kubernetes: '{ required: true }', cluster: 'missing-file', code: 0, stderr: null },
  {
    command: 'run',
    kubernetes: '{ required: true, enabled: false }',
    cluster: 'kubeconfig',
    code: 2,
    stderr: /kubernetes\.required\) and there is none: kubernetes\.enabled is false/,
  },
  { command: 'run', kubernetes: '{ required: true }', cluster: 'kubeconfig', code: 0, stderr: null },
  { command: 'run', kubernetes: '{ required: true }', cluster: 'unusable-kubeconfig', code: 2, stderr: UNUSABLE },
  { command: 'validate', kubernetes: '{ required: true }', cluster: 'unusable-kubeconfig', code: 0, stderr: null },
  { command: 'run', kubernetes: '{ denied_resources: [] }', cluster: 'unusable-kubeconfig', code: 0, stderr: null },
  { command: 'validate', kubernetes: '{ required: true }', cluster: 'kubeconfig', code: 0, stderr: null },
  { command: 'run', kubernetes: '{ denied_resources: [] }', cluster: 'none', code: 0, stderr: ABSENT },
  { command: 'validate', kubernetes: '{ denied_resources: [] }', cluster: 'none', code: 0, stderr: null },
  { command: 'validate', kubernetes: '{ required: false }', cluster: 'none', code: 0, stderr: null },
  { command: 'repl', kubernetes: '{ required: false }', cluster: 'none', code: 0, stderr: ABSENT },
  {
    command: 'run',
    kubernetes: '{ denied_resources: [] }',
    cluster: 'missing-file',
    code: 0,
    stderr: /no Kubernetes tools \(k8s_\*\) in this run: the kubeconfig \S+ does not exist/,
  },
  { command: 'validate', kubernetes: '{ denied_resources: [] }', cluster: 'missing-file', code: 0, stderr: null },
  {
    command: 'validate',
    kubernetes: '{ required: true, enabled: false }',
    cluster: 'none',
    code: 2,
    stderr: /kubernetes\.required\) and there is none: kubernetes\.enabled is false/,
  },
  { command: 'validate', kubernetes: '{ enabled: false }', cluster: 'none', code: 0, stderr: null },
  { command: 'validate', cluster: 'none', code: 0, stderr: null },
  { command: 'run', cluster: 'none', code: 0, stderr: null },
];
