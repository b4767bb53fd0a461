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
    ...(r.finalText !== undefined ? { final_text: r.finalText } : {}),
    ...(r.guidance ? { guidance: r.guidance } : {}),
    ...(r.error ? { error: r.error } : {}),
    turns: r.turns,
    cost_usd: r.costUsd,
  };
}
