import type { ChildReport } from './services.ts';
import type { JsonObject } from './tool.ts';

/** A child's report as the delegation tools return it and its parent's inbox shows it (spawn_agent's result fields). */
export function reportResult(r: ChildReport): JsonObject {
  return {
    name: r.name,
    profile: r.profile,
    branch: r.sessionId,
    status: r.status,
    ...(r.stopReason ? { stop_reason: r.stopReason } : {}),
    ...(r.budget ? { budget: r.budget } : {}),
    ...(r.finalText !== undefined ? { final_text: r.finalText } : {}),
    ...(r.guidance ? { guidance: r.guidance } : {}),
    ...(r.error ? { error: r.error } : {}),
    turns: r.turns,
    cost_usd: r.costUsd,
  };
}

/**
 * A child's report as a typed completion envelope (Cagent's delegate_agent and wait_join): its
 * id, `type: "agent"`, whether it has ended, then the report's fields — so a wait over terminals
 * and agents together tells each kind apart by `type`.
 */
export function agentEnvelope(r: ChildReport): JsonObject {
  return { id: r.name, type: 'agent', done: r.status !== 'running', ...reportResult(r) };
}
