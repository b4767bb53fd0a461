import path from 'node:path';
import { readConfigHead, type ConfigKind } from '../config/read-config-file.ts';

/** Larger AGENTS.md files are cut here, with a marker, rather than flooding every request. */
export const MAX_AGENTS_MD_BYTES = 32 * 1024;

const AGENTS_MD: ConfigKind = { noun: 'AGENTS.md', maxBytes: MAX_AGENTS_MD_BYTES, hint: 'make it a text file' };

const CORE =
  'You are core-agent, an agent working in a workspace through the tools you are given. ' +
  'Prefer the structured tools over guessing; a tool error is information — read it and adapt. ' +
  'When the task is done, answer with what you found or changed, briefly.';

/**
 * The system prompt: the core contract, the recipe's `instructions`, then the
 * workspace's AGENTS.md (if any) — in that order, each under its own heading.
 */
export async function assembleInstructions(workspace: string, recipeInstructions: string | undefined): Promise<string> {
  const parts = [CORE];
  if (recipeInstructions?.trim()) parts.push(`## Instructions\n\n${recipeInstructions.trim()}`);
  const agentsMd = await readAgentsMd(workspace);
  if (agentsMd) parts.push(`## AGENTS.md\n\n${agentsMd}`);
  return parts.join('\n\n');
}

/**
 * Only the head that is used is read, through the bounded reader: an AGENTS.md
 * that is a FIFO, /dev/zero or gigabytes long cannot hang or flood a start. One
 * that cannot be read (or is not text) is left out, as a missing one is.
 */
async function readAgentsMd(workspace: string): Promise<string | null> {
  let head: { text: string; complete: boolean };
  try {
    head = await readConfigHead(path.join(workspace, 'AGENTS.md'), AGENTS_MD, MAX_AGENTS_MD_BYTES);
  } catch {
    return null;
  }
  if (head.complete) return head.text.trim();
  return `${head.text.trim()}\n[...AGENTS.md truncated by core-agent at ${MAX_AGENTS_MD_BYTES} bytes...]`;
}
