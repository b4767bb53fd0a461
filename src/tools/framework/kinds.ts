/**
 * What a tool does, as one word. Every consumer — the permission gate, plan-first,
 * accept-edits, the agent's concurrency, `mcp serve` annotations, wait_and_verify's
 * read-only rule, `tools list` — derives its traits from the kind through
 * `kindTraits`, so a tool cannot be "read-only" to one of them and not to another.
 */
import type { ToolKind } from '../../core/tool-kinds.ts';

export { TOOL_KINDS, type ToolKind } from '../../core/tool-kinds.ts';

export interface KindTraits {
  /** Changes nothing outside the process: runs without approval, concurrently, and may be polled. */
  readonly readOnly: boolean;
  /** A file write that `accept-edits` mode approves without asking. */
  readonly fileEdit: boolean;
  /** Changes only the session's own bookkeeping: never asks, and plan-first does not hold it back. */
  readonly lifecycle: boolean;
  /** May destroy data (`mcp serve`: destructiveHint). */
  readonly destructive: boolean;
  /** Reaches outside the machine: plan-first holds it back even when read-only (`mcp serve`: openWorldHint). */
  readonly openWorld: boolean;
}

const t = (readOnly: boolean, fileEdit: boolean, lifecycle: boolean, destructive: boolean, openWorld: boolean): KindTraits => ({
  readOnly,
  fileEdit,
  lifecycle,
  destructive,
  openWorld,
});

/** The one table. Columns: readOnly, fileEdit, lifecycle, destructive, openWorld. */
const TRAITS: Readonly<Record<ToolKind, KindTraits>> = {
  /** Reads this machine: files, searches, background output, skills. */
  read: t(true, false, false, false, false),
  /** Reads another machine: the web, the cluster API. */
  read_remote: t(true, false, false, false, true),
  /** Writes, edits or deletes a workspace file. */
  edit: t(false, true, false, true, false),
  /** Runs arbitrary commands: anything, anywhere. */
  execute: t(false, false, false, true, true),
  /** Acts on this machine's processes (a background terminal's stdin, its kill). */
  control: t(false, false, false, true, false),
  /** Sends something to another system without destroying anything there (an alert). */
  send: t(false, false, false, false, true),
  /** Changes local state without destroying any (MCP tools that say neither read-only nor destructive nor open-world). */
  change: t(false, false, false, false, false),
  /** The session's own bookkeeping: todo, plans, checkpoints, the next wake-up. */
  lifecycle: t(false, false, true, false, false),
  /** Asks the operator: changes nothing, and is session business. */
  ask: t(true, false, true, false, false),
  /**
   * Starts a child agent (spawn_agent): asks like any change, and nothing more — each call the
   * child makes passes the gate, path scope and plan-first itself.
   */
  delegate: t(false, false, false, false, false),
};

export function kindTraits(kind: ToolKind): KindTraits {
  return TRAITS[kind];
}

/**
 * The kind for a tool described only by MCP-style hints. destructiveHint means
 * something only for a tool that is not read-only (the MCP spec), so a read-only
 * tool is `read` or `read_remote` whatever it says.
 */
export function kindFromHints(h: { readOnly: boolean; destructive: boolean; openWorld: boolean }): ToolKind {
  if (h.readOnly) return h.openWorld ? 'read_remote' : 'read';
  if (h.destructive) return h.openWorld ? 'execute' : 'control';
  return h.openWorld ? 'send' : 'change';
}
