import type { Kube } from '../../src/k8s/cluster.ts';
import type { AlertTarget } from '../../src/net/alert-targets.ts';
import type { NetworkAccess } from '../../src/net/network-access.ts';
import { UrlScope } from '../../src/net/url-scope.ts';
import type { SearchProvider } from '../../src/net/search-providers.ts';
import type { DigestWrap } from '../../src/tools/framework/digest-wrap.ts';
import type { MemoryStore } from '../../src/tools/memory/store.ts';
import type { PlanRecorder } from '../../src/tools/planning/plan-recorder.ts';
import { toolServices, type ToolServices } from '../../src/tools/framework/services.ts';
import { principal } from '../../src/core/principal.ts';
import { SkillStore } from '../../src/tools/skills/store.ts';

/**
 * Services under which every built-in tool is registered, for catalog tests that
 * look at descriptions and schemas. The stand-ins are never called.
 */
export function everyService(given: Partial<ToolServices> = {}): ToolServices {
  const never = <T>(what: string) => ({ what }) as unknown as T;
  return toolServices({
    shell: true,
    network: { scope: UrlScope.parse(['example.com'], []) } as unknown as NetworkAccess,
    kube: never<Kube>('kube'),
    digests: never<DigestWrap>('digests'),
    plans: never<PlanRecorder>('plans'),
    planMode: 'required',
    searchProvider: { name: 'test', search: async () => [] } as unknown as SearchProvider,
    alertTargets: [{ name: 'oncall' } as unknown as AlertTarget],
    skills: [{ name: 'demo', description: 'A demo skill.', dir: '/nonexistent', files: [] } as never],
    skillStore: new SkillStore([{ dir: '/nonexistent', scope: 'user' }]),
    asker: { ask: async () => ({ unavailable: 'test' }) },
    checkpointer: { request: () => {} },
    scheduler: { request: () => null },
    questionDesk: { principal: principal('tester'), answersLater: true },
    memoryStore: never<MemoryStore>('memoryStore'),
    git: '/usr/bin/git',
    sciontool: '/usr/local/bin/sciontool',
    peers: { peers: () => [], bearer: () => ({ none: true }), destinations: { namedHosts: [], setting: 'peers.private_hosts' } },
    delegator: {
      off: () => null,
      profiles: () => [{ name: 'explore', description: 'Reads and reports.', tools: ['read_file'] }],
      syncWaitMs: 1000,
      start: () => ({ ok: false, error: 'test' }),
      wait: async () => undefined,
      defer: () => {},
      stop: async () => undefined,
    },
    ...given,
  });
}
