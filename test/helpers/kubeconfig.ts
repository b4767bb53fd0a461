import { writeFile } from 'node:fs/promises';

/** A kubeconfig whose one context points at `server` (a fake API on 127.0.0.1, or a closed port), written to `file`. */
export async function writeKubeconfig(file: string, server: string): Promise<string> {
  await writeFile(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      `clusters: [{name: fake, cluster: {server: "${server}", insecure-skip-tls-verify: true}}]`,
      'users: [{name: u, user: {token: t}}]',
      'contexts: [{name: c, context: {cluster: fake, user: u, namespace: default}}]',
      'current-context: c',
    ].join('\n'),
  );
  return file;
}
