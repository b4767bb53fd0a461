import * as z from 'zod/v4';

/**
 * The schema of a process-group record on disk (src/tools/shell/group-records.ts). A module of
 * its own: only a start that finds records reads them, so only that start evaluates zod (about
 * a tenth of a replayed run's CPU when it was imported with the records' module).
 */
export const GROUP_RECORD = z.object({
  version: z.literal(1),
  pgid: z.int().positive(),
  leader_start: z.number().nonnegative(),
  boot_id: z.string().nullable(),
  owner_pid: z.int().positive(),
  owner_start: z.number().nonnegative(),
  tag: z.string().regex(/^[0-9a-f]+$/),
  kind: z.enum(['bash', 'terminal']),
  command: z.string(),
  session_id: z.string().nullable(),
  started_at: z.string(),
});
export type GroupRecord = z.infer<typeof GROUP_RECORD>;
