import * as z from 'zod/v4';
import { LIMITS } from '../framework/limits.ts';
import { defineTool, ToolError, type PathClaim } from '../framework/tool.ts';
import description from './apply-patch.md';
import { parsePatch, PatchParseError, type PatchOp } from './apply-patch-parser.ts';
import { commitPlan, opKey, planPatch, plannedChanges } from './apply-patch-plan.ts';

/** Parse, or a model-facing error naming the patch line and what was expected there. */
function parseOrRefuse(patch: string): PatchOp[] {
  try {
    return parsePatch(patch);
  } catch (err) {
    if (err instanceof PatchParseError) throw new ToolError(`invalid patch: ${err.message}`, 'invalid_args');
    throw err;
  }
}

export const applyPatchTool = defineTool({
  name: 'apply_patch',
  // One patch writes, edits and deletes: in Cagent's dialect it is the one file-changing tool.
  job: ['write_file', 'edit_file', 'delete_file'],
  dialect: 'cagent',
  description,
  kind: 'edit',
  uses: ['pendingWrites'],
  narrowHint: '',
  args: z.strictObject({
    patch: z
      .string()
      .min(1)
      .max(LIMITS.fileContent)
      .describe("The whole patch, from '*** Begin Patch' to '*** End Patch', in the format the description gives."),
  }),
  // Every file the patch names — a move's destination too — is a write claim, so each
  // goes through path_scope and the gate before anything is read. Parsing here means a
  // malformed patch is refused before the gate asks anyone about it.
  paths(a) {
    const claims: PathClaim[] = [];
    parseOrRefuse(a.patch).forEach((op, i) => {
      const moved = op.kind === 'update' && op.movePath !== undefined;
      // A deleted or moved-away file is removed: its link, never what the link points to.
      claims.push({ arg: opKey(i), path: op.path, access: 'write', followFinal: op.kind !== 'delete' && !moved });
      if (moved) claims.push({ arg: opKey(i, true), path: op.movePath!, access: 'write' });
    });
    return claims;
  },
  // The approval prompt's diff: the same plan run() makes, every file the patch touches,
  // before anything is written. A plan that fails shows nothing (the call then fails with why).
  async changes(args, { paths, display }) {
    try {
      const plan = await planPatch(parseOrRefuse(args.patch), (key) => paths.get(key)!, display);
      return plan.files.filter((f) => f.action !== 'unchanged').flatMap(plannedChanges);
    } catch {
      return [];
    }
  },
  async run(args, ctx) {
    const ops = parseOrRefuse(args.patch);
    const plan = await planPatch(
      ops,
      (key) => ctx.paths.get(key)!,
      (real) => ctx.display(real),
    );
    return { ...(await commitPlan(plan, ctx.services.pendingWrites)) };
  },
});
