import { existsSync } from 'node:fs';
import path from 'node:path';
import { readConfigHead, type ConfigKind } from '../config/read-config-file.ts';

/** Larger AGENTS.md files are cut here, with a marker, rather than flooding every request. */
export const MAX_AGENTS_MD_BYTES = 32 * 1024;

const AGENTS_MD: ConfigKind = { noun: 'AGENTS.md', maxBytes: MAX_AGENTS_MD_BYTES, hint: 'make it a text file' };

const CORE =
  'You are core-agent, an agent working in a workspace through the tools you are given. ' +
  'Prefer the structured tools over guessing; a tool error is information — read it and adapt. ' +
  'When the task is done, answer with what you found or changed, briefly.';

/** At most this many AGENTS.md files, and this many bytes of them in all: the nearest are kept. */
export const MAX_AGENTS_MD_FILES = 8;
export const MAX_AGENTS_MD_TOTAL_BYTES = 64 * 1024;

/**
 * The system prompt: the core contract, the recipe's `instructions`, the user's
 * own AGENTS.md (in core-agent's user directory, beside the user file: where an
 * orchestrator such as Scion writes an agent's role), then the AGENTS.md files
 * from the project's root down to the workspace, nearest last (a subproject's
 * rules refine the repository's) — each under its own heading.
 */
export async function assembleInstructions(
  workspace: string,
  recipeInstructions: string | undefined,
  userDir?: string | undefined,
): Promise<string> {
  const parts = [CORE];
  if (recipeInstructions?.trim()) parts.push(`## Instructions\n\n${recipeInstructions.trim()}`);
  const own = userDir ? await readAgentsMd(userDir) : null;
  if (own) parts.push(`## Your AGENTS.md (${path.join(userDir!, 'AGENTS.md')})\n\n${own}`);
  const dirs = agentsMdDirs(workspace);
  const found: Array<{ dir: string; text: string }> = [];
  let budget = MAX_AGENTS_MD_TOTAL_BYTES;
  // Nearest first, so the budget keeps the rules closest to the work; shown root first.
  for (const dir of [...dirs].reverse()) {
    if (found.length === MAX_AGENTS_MD_FILES || budget <= 0) break;
    const text = await readAgentsMd(dir);
    if (!text) continue;
    const bytes = Buffer.byteLength(text);
    if (bytes > budget) break;
    budget -= bytes;
    found.unshift({ dir, text });
  }
  for (const { dir, text } of found) {
    const where = path.relative(workspace, dir);
    parts.push(`## AGENTS.md${where === '' ? '' : ` (${where}/AGENTS.md)`}\n\n${text}`);
  }
  return parts.join('\n\n');
}

/**
 * The directories whose AGENTS.md apply to a workspace, outermost first: from
 * the root of the repository it is in (the nearest directory above it with a
 * `.git` or `.jj`) down to the workspace itself; just the workspace when it is
 * in no repository, so a stray file in a parent of an unrelated directory
 * (a home directory's AGENTS.md) is not read into every run.
 */
function agentsMdDirs(workspace: string): string[] {
  const chain: string[] = [];
  for (let dir = workspace; ; dir = path.dirname(dir)) {
    chain.push(dir);
    if (existsSync(path.join(dir, '.git')) || existsSync(path.join(dir, '.jj'))) return chain.reverse();
    if (path.dirname(dir) === dir || chain.length > 64) return [workspace];
  }
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
