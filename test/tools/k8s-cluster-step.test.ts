import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clusterStep } from '../../src/tools/k8s/services.ts';
import { homeOf } from '../../src/runtime/state-dir.ts';
import { tempDir } from '../helpers/workspace.ts';

describe('the cluster step', () => {
  it('finds ~/.kube/config under the home the root resolved, with HOME unset', async () => {
    const home = await tempDir();
    await mkdir(path.join(home, '.kube'));
    await writeFile(path.join(home, '.kube', 'config'), 'apiVersion: v1\nkind: Config\n');
    // No HOME and no KUBECONFIG in the environment: the root's home (the account's own) is the one that counts.
    expect('kube' in clusterStep({}, {}, home)).toBe(true);
    expect(clusterStep({}, {}, path.join(home, 'elsewhere'))).toEqual({
      unavailable:
        'no cluster is configured: no kubeconfig (kubernetes.kubeconfig in the recipe, $KUBECONFIG, ~/.kube/config) and not running in a cluster',
    });
  });

  it('the root falls back from HOME to the account when HOME is unset or empty', () => {
    expect(homeOf({ HOME: '/home/sre' })).toBe('/home/sre');
    for (const env of [{}, { HOME: '' }]) expect(homeOf(env)).toMatch(/^\//);
  });

  it('kubernetes.enabled: false wins over a kubeconfig that is there', async () => {
    const home = await tempDir();
    expect(clusterStep({ kubernetes: { enabled: false } }, {}, home)).toEqual({ unavailable: 'kubernetes.enabled is false' });
  });
});
