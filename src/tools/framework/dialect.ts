import { DEFAULT_DIALECT, type Dialect } from '../../core/dialects.ts';
import type { FaceHead } from './face.ts';
import type { AnyTool } from './tool.ts';

/**
 * The tool vocabularies core-agent speaks: its own, Cagent's and golem's. The three systems
 * overlap — a plan tracker is `todo`, `update_plan` or `TodoWrite`; a question is `ask_user`,
 * `request_user_input` or `AskUserQuestionTool` — and a model must never be offered two tools
 * for one job. A recipe picks one dialect (`tools.dialect`, `--dialect`, `CORE_AGENT_DIALECT`);
 * the catalog registers, for each job, that system's tool under that system's exact name and
 * argument names, all through the same engine, gate and path.
 */
export { DEFAULT_DIALECT, DIALECTS, type Dialect } from '../../core/dialects.ts';
/** Which systems a tool belongs to under its own name (default: core-agent's). */
export function dialectsOf(def: AnyTool): readonly Dialect[] {
  const d = def.dialect ?? DEFAULT_DIALECT;
  return typeof d === 'string' ? [d] : d;
}

/** The jobs a tool does (default: a job of its own, its name). apply_patch does three. */
export function jobsOf(def: AnyTool): readonly string[] {
  const j = def.job ?? def.name;
  return typeof j === 'string' ? [j] : j;
}

/** A tool as a dialect registers it: under its own name, or as one of its faces. */
export interface Chosen {
  readonly def: AnyTool;
  readonly face?: FaceHead | undefined;
}

export interface DialectChoice {
  /** What the dialect registers, in catalog order (before services decide what is available). */
  readonly chosen: readonly Chosen[];
  /** Why each tool the dialect left out is not registered (canonical name → reason). */
  readonly leftOut: ReadonlyMap<string, string>;
}

/**
 * One tool per job: for each job, the dialect's own tools (under their names) and faces;
 * where that system has none for the job, core-agent's; where core-agent has none either,
 * whichever system's the build has. A tool that only one system has appears in every
 * dialect, under its own name. `enable` adds tools (by canonical or face name) the dialect
 * did not choose — two tools for one job then, which `overlaps` reports.
 */
export function chooseForDialect(
  defs: readonly AnyTool[],
  dialect: Dialect,
  faces: (def: AnyTool) => readonly FaceHead[],
  enable: readonly string[] = [],
): DialectChoice {
  const byJob = new Map<string, AnyTool[]>();
  for (const def of defs) for (const job of jobsOf(def)) byJob.set(job, [...(byJob.get(job) ?? []), def]);
  const picked = new Map<AnyTool, FaceHead | undefined>();
  const chosenFor = new Map<string, string>();
  for (const [job, doers] of byJob) {
    const own = doers.filter((d) => dialectsOf(d).includes(dialect) || faces(d).some((f) => f.dialect === dialect));
    const fallback = doers.filter((d) => dialectsOf(d).includes(DEFAULT_DIALECT));
    const pick = own.length > 0 ? own : fallback.length > 0 ? fallback : doers;
    for (const def of pick) {
      const face = dialectsOf(def).includes(dialect) ? undefined : faces(def).find((f) => f.dialect === dialect);
      picked.set(def, face);
      chosenFor.set(job, face?.name ?? def.name);
    }
  }
  for (const name of enable) {
    // By either name; registered under the face this dialect gives it, if any (golem's TodoWrite).
    const def = defs.find((d) => d.name === name || faces(d).some((f) => f.name === name));
    if (def === undefined || picked.has(def)) continue;
    picked.set(def, dialectsOf(def).includes(dialect) ? undefined : faces(def).find((f) => f.dialect === dialect));
  }
  const leftOut = new Map<string, string>();
  for (const def of defs) {
    if (picked.has(def)) continue;
    const doneBy = [
      ...new Set(
        jobsOf(def)
          .map((j) => chosenFor.get(j))
          .filter((n): n is string => n !== undefined),
      ),
    ];
    leftOut.set(
      def.name,
      `the ${dialect} dialect (tools.dialect) does this job with ${doneBy.join(', ')}; enable ${def.name} by name (tools.enable, with tools.allow_overlap: true) to offer both`,
    );
  }
  return { chosen: defs.filter((d) => picked.has(d)).map((def) => ({ def, face: picked.get(def) })), leftOut };
}

/** The jobs two or more registered tools do, each with their model-facing names: what `tools.allow_overlap` allows. */
export function overlaps(registered: readonly Chosen[]): Array<{ job: string; tools: string[] }> {
  const byJob = new Map<string, string[]>();
  for (const c of registered) for (const job of jobsOf(c.def)) byJob.set(job, [...(byJob.get(job) ?? []), c.face?.name ?? c.def.name]);
  return [...byJob].filter(([, tools]) => tools.length > 1).map(([job, tools]) => ({ job, tools }));
}
