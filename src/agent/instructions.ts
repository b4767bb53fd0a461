import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** Larger AGENTS.md files are cut here, with a marker, rather than flooding every request. */
export const MAX_AGENTS_MD_BYTES = 32 * 1024;

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

async function readAgentsMd(workspace: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(path.join(workspace, 'AGENTS.md'), 'utf8');
  } catch {
    return null;
  }
  if (Buffer.byteLength(text) <= MAX_AGENTS_MD_BYTES) return text.trim();
  const cut = Buffer.from(text).subarray(0, MAX_AGENTS_MD_BYTES).toString('utf8');
  return `${cut.trim()}\n[...AGENTS.md truncated by core-agent at ${MAX_AGENTS_MD_BYTES} bytes...]`;
}
