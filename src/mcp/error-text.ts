interface Issue {
  path?: ReadonlyArray<PropertyKey>;
  message?: string;
  code?: string;
  /** invalid_union: each branch's issues. */
  errors?: Issue[][];
  /** invalid_value: the literals allowed. */
  values?: unknown[];
}

/** A zod error, from the SDK's own copy of zod: recognised by shape, not class. */
export function isSchemaError(err: unknown): err is { issues: Issue[] } {
  const issues = (err as { issues?: unknown } | null)?.issues;
  return Array.isArray(issues) && /^\$?ZodError$/.test((err as Error).name);
}

/**
 * A result that fails the MCP schema, in a sentence: the fields at fault (at most
 * three, each message cut short), never zod's JSON dump of every union branch —
 * which for a result with many bad blocks ran to megabytes.
 */
export function describeSchemaIssues(issues: Issue[]): string {
  const fields = issues.slice(0, 3).map((i) => {
    const { path, message } = explain(i, []);
    return `${fieldPath(path)}: ${message.slice(0, 160)}`;
  });
  const more = issues.length > 3 ? `; and ${issues.length - 3} more problem(s)` : '';
  return `${fields.join('; ')}${more}`;
}

/**
 * A content block is a union on `type`: zod reports "Invalid input" for the block
 * and hides the reason in every branch. The branch whose `type` matched has the
 * real one (`text: expected string`); when none matched, the type itself is wrong.
 */
function explain(issue: Issue, prefix: PropertyKey[]): { path: PropertyKey[]; message: string } {
  const path = [...prefix, ...(issue.path ?? [])];
  if (issue.code === 'invalid_union' && Array.isArray(issue.errors)) {
    const typeFailed = (branch: Issue[]) => branch.some((i) => i.path?.length === 1 && i.path[0] === 'type');
    const matched = issue.errors.find((b) => b.length > 0 && !typeFailed(b));
    if (matched) return explain(matched[0]!, path);
    const types = [...new Set(issue.errors.flatMap((b) => b.filter((i) => i.path?.[0] === 'type').flatMap((i) => i.values ?? [])))];
    if (types.length > 0) return { path: [...path, 'type'], message: `not one of the MCP content types (${types.map(String).join(', ')})` };
  }
  return { path, message: issue.message ?? issue.code ?? 'invalid' };
}

function fieldPath(path: PropertyKey[]): string {
  return path.map((p, n) => (typeof p === 'number' ? `[${p}]` : n === 0 ? String(p) : `.${String(p)}`)).join('') || '(the result itself)';
}
