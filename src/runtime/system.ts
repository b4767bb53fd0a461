import { composeSystem } from './compose.ts';
import type { AgentRequest, AgentSystem, RequestBase, ToolsRequest, ToolsSystem, WatchRequest, WatchSystem } from './requests.ts';
import { toolsSystem } from './tools-system.ts';

export type { AgentRequest, AgentSystem, RequestBase, ToolsRequest, ToolsSystem, WatchRequest, WatchSystem };

/**
 * The composition root: every command builds the system here, in named steps —
 * recipe → settings → services → catalog → gate → dispatcher → store → model →
 * agent — asking only for the steps it needs (`until`).
 */
export function buildSystem(r: ToolsRequest): Promise<ToolsSystem>;
export function buildSystem(r: AgentRequest): Promise<AgentSystem>;
export function buildSystem(r: WatchRequest): Promise<WatchSystem>;
export function buildSystem(r: ToolsRequest | AgentRequest | WatchRequest): Promise<ToolsSystem | AgentSystem | WatchSystem> {
  return composeSystem<ToolsSystem | AgentSystem | WatchSystem>(r, (settings, logger) => {
    if (r.until === 'dispatcher') return toolsSystem(r, settings, logger);
    if (r.until === 'agent') return import('./agent-system.ts').then((m) => m.agentSystem(r, settings, logger));
    return import('./watch-step.ts').then((m) => m.prepareWatch(r, settings, logger, (req) => buildSystem(req)));
  });
}
