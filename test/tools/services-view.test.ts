// A tool sees only the services it declared, and a family's services are built only when
// one of its tools is on (src/tools/framework/services.ts, servicesView; src/runtime/services.ts).
import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { Gate } from '../../src/permissions/gate.ts';
import { PathScope } from '../../src/permissions/path-scope.ts';
import { Catalog } from '../../src/tools/framework/catalog.ts';
import { Dispatcher } from '../../src/tools/framework/dispatch.ts';
import { toolServices, type ToolServices } from '../../src/tools/framework/services.ts';
import { defineTool, type AnyTool } from '../../src/tools/framework/tool.ts';
import { setup, tempDir } from '../helpers/workspace.ts';

/** A tool that reports which services it was handed. */
function probe(name: string, o: { needs?: readonly string[]; uses?: readonly string[] }): AnyTool {
  return defineTool({
    name,
    description: 'reports its services',
    kind: 'read',
    narrowHint: '',
    ...(o.needs ? { needs: o.needs as never } : {}),
    ...(o.uses ? { uses: o.uses as never } : {}),
    args: z.strictObject({}),
    run: async (_args, ctx) => ({ keys: Object.keys(ctx.services).sort() }),
  }) as unknown as AnyTool;
}

async function keysSeen(tool: AnyTool, services: Partial<ToolServices>): Promise<unknown> {
  const dir = await tempDir();
  const catalog = Catalog.build([tool], { services: toolServices(services) });
  const d = new Dispatcher({ catalog, gate: new Gate({ mode: 'yolo', scope: await PathScope.create(dir) }), workspace: dir });
  const r = await d.call(tool.name, {});
  if (!r.ok) throw new Error(r.error);
  return r.result.keys;
}

const EVERYTHING: Partial<ToolServices> = {
  env: { SECRET_TOKEN: 'x', PATH: '/bin' },
  shell: true,
  git: '/usr/bin/git',
  searchGate: 'warn',
  skills: [],
  ripgrepPath: '/usr/bin/rg',
};

describe('a tool sees only the services it declared', () => {
  it.each([
    ['nothing declared: the home directory and the permission mode', {}, ['home', 'permissionMode']],
    ['a need', { needs: ['git'] }, ['git', 'home', 'permissionMode']],
    ['a use, present', { uses: ['env'] }, ['env', 'home', 'permissionMode']],
    ['a use that is absent is still a key (undefined)', { uses: ['kube'] }, ['home', 'kube', 'permissionMode']],
    [
      'needs and uses together',
      { needs: ['shell'], uses: ['env', 'searchGate'] },
      ['env', 'home', 'permissionMode', 'searchGate', 'shell'],
    ],
  ] as const)('%s', async (_what, decl, expected) => {
    expect(await keysSeen(probe('probe', decl), EVERYTHING)).toEqual(expected);
  });

  it('the view is frozen: a tool cannot hand itself a service', async () => {
    const dir = await tempDir();
    const sneaky = defineTool({
      name: 'sneaky',
      description: 'tries to add a service',
      kind: 'read',
      narrowHint: '',
      args: z.strictObject({}),
      run: async (_args, ctx) => {
        (ctx.services as unknown as Record<string, unknown>).env = { stolen: 'yes' };
        return {};
      },
    }) as unknown as AnyTool;
    const catalog = Catalog.build([sneaky], { services: toolServices(EVERYTHING) });
    const d = new Dispatcher({ catalog, gate: new Gate({ mode: 'yolo', scope: await PathScope.create(dir) }), workspace: dir });
    const r = await d.call('sneaky', {});
    expect(r.ok).toBe(false);
    expect(catalog.services.env).toEqual(EVERYTHING.env);
  });

  it("every built-in tool that reads the command environment declares it (bash's env is never seen by read_file)", async () => {
    const rt = await setup({ tree: { 'a.txt': 'a\n' }, env: { PATH: process.env.PATH ?? '/bin', SECRET_TOKEN: 'hunter2' } });
    const readFile = rt.catalog.get('read_file')!.def;
    const bash = rt.catalog.get('bash')?.def;
    expect([...(readFile.needs ?? []), ...(readFile.uses ?? [])]).not.toContain('env');
    if (bash) expect(bash.uses).toContain('env');
  });
});

describe("a family's services are built only when one of its tools is on", () => {
  const REQUIRED = 'kubernetes:\n  required: true\n  kubeconfig: /nonexistent/kubeconfig\n';

  it('a recipe requiring a cluster fails start-up while a k8s tool is on', async () => {
    await expect(setup({ recipe: REQUIRED })).rejects.toThrow(/requires a Kubernetes cluster/);
  });

  it('…and starts when every k8s tool is off: the k8s family builds nothing', async () => {
    const off = ['k8s_api_resources', 'k8s_events', 'k8s_get', 'k8s_list', 'k8s_logs', 'k8s_rollout_status'];
    const rt = await setup({ recipe: REQUIRED, flags: { disableTools: off } });
    expect(rt.services.kube).toBeUndefined();
    expect(rt.services.kubeUnavailable).toBeUndefined();
    expect(rt.catalog.names().filter((n) => n.startsWith('k8s_'))).toEqual([]);
  });

  it('the shell family builds its services with bash on, and not with every shell tool off', async () => {
    const on = await setup({});
    expect(on.services.searchGate).toBe('enforce');
    const shellTools = ['bash', 'terminal_output', 'terminal_write', 'terminal_kill', 'wait_join'];
    const off = await setup({ flags: { disableTools: shellTools } });
    expect(off.services.searchGate).toBeUndefined();
    expect(off.services.shell).toBeUndefined();
  });
});
