import { writeFile } from 'node:fs/promises';

/**
 * A kubeconfig with one context "ctx" on cluster "c" (`server`, or a whole cluster entry)
 * and user "u" (`{ token: 't' }` unless given; null for a context with no user), written to
 * `file` as JSON (which is YAML). Points at a fake API on 127.0.0.1, or a closed port.
 */
export async function writeKubeconfig(
  file: string,
  server: string | Record<string, unknown>,
  o: { user?: Record<string, unknown> | null; namespace?: string } = {},
): Promise<string> {
  const cluster = typeof server === 'string' ? { server, 'insecure-skip-tls-verify': true } : server;
  const user = o.user === undefined ? { token: 't' } : o.user;
  await writeFile(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster }],
      users: user ? [{ name: 'u', user }] : [],
      contexts: [{ name: 'ctx', context: { cluster: 'c', ...(user ? { user: 'u' } : {}), namespace: o.namespace ?? 'default' } }],
      'current-context': 'ctx',
    }),
  );
  return file;
}
