import * as z from 'zod/v4';

/**
 * The longest value each kind of string argument may have, in characters
 * (UTF-16 code units, as JSON Schema's maxLength counts them). Every string
 * argument of every built-in tool takes one of these through `.max()`, so the
 * model sees it as maxLength and an oversized value is refused by validation,
 * before any work — a 10 MB pattern never reaches a regex compiler or a
 * subprocess's argv. docs/tools.md lists them per tool.
 */
export const LIMITS = {
  /** PATH_MAX on Linux: the kernel refuses a longer path whatever we do with it. */
  path: 4096,
  /** A file-name pattern may be a relative path pattern (`src/**\/*.ts`): as long as a path. picomatch compiles 4 KiB in a few ms. */
  namePattern: 4096,
  /**
   * A grep regular expression. Measured: the costliest shape (counted repetitions,
   * `(a{1,100})…`) compiles in ~0.2 s in re2js at 4 KiB and ~0.8 s at 8 KiB, and the
   * in-process engine compiles a pattern three times; rg takes ~20 ms at 4 KiB.
   * 4 KiB holds an alternation of a few hundred identifiers.
   */
  regex: 4096,
  /** A jq program: jq 1.8 compiles 16 KiB in under 30 ms; larger ones start to hit its own limits ("function compiled to … bytes"). */
  jqExpression: 16 * 1024,
  /** A whole file's text: the 16 MiB edit_file reads (MAX_EDIT_BYTES), so anything written can be edited again. */
  fileContent: 16 * 1024 * 1024,
  /** A Kubernetes object name is a DNS subdomain (RFC 1123): at most 253 characters. Kinds, namespaces, groups fit too. */
  k8sName: 253,
  /** Label and field selectors have no fixed limit in Kubernetes; 4 KiB is dozens of terms. */
  k8sSelector: 4096,
  /** An opaque continue token: the API server's encode a resource version and a key, a few hundred bytes. */
  k8sContinue: 8192,
  /** Terminal ids, skill names, alert targets, call ids: short identifiers we issue or the operator names. */
  identifier: 128,
  /** A tool name as the model calls it, built-in or MCP (`mcp.<server>.<tool>` names are the longest). */
  toolName: 256,
  /** A URL (browsers and servers commonly stop at 8 KiB). */
  url: 8192,
  /** A substring to look for in a result. */
  needle: 8192,
  /** A JSON object of another tool's arguments, as a string (wait_and_verify's args_json). */
  argsJson: 64 * 1024,
  /**
   * A shell command line. /bin/sh gets it as one argv string, and Linux refuses a
   * single argument over MAX_ARG_STRLEN (131,072 bytes with its NUL) with E2BIG;
   * 100,000 characters leaves room for a heredoc, and the UTF-8 size is checked too.
   */
  command: 100_000,
  /** MAX_ARG_STRLEN - 1: the most UTF-8 bytes one argv string may have. */
  argvStringBytes: 131_071,
  /** An MCP call's whole arguments, as JSON: well under the 10 MiB message an MCP SDK peer reads at once. */
  mcpArgumentsBytes: 4 * 1024 * 1024,
} as const;

/** A path argument: `z.string()` with the path limits and a description. */
export function pathArg(description: string) {
  return z.string().min(1).max(LIMITS.path).describe(description);
}

/**
 * A string that a child process receives as one argv entry: its UTF-8 size must
 * be under MAX_ARG_STRLEN, or spawn fails with E2BIG. Checked at validation, so
 * the model gets the limit and the way around it rather than `spawn E2BIG`.
 */
export function argvSafe(what: string, instead: string) {
  return (s: string, ctx: z.core.$RefinementCtx<string>) => {
    if (s.length * 3 <= LIMITS.argvStringBytes) return; // a UTF-16 unit is at most 3 UTF-8 bytes
    const bytes = Buffer.byteLength(s);
    if (bytes > LIMITS.argvStringBytes) {
      ctx.addIssue({
        code: 'custom',
        message: `${bytes} bytes in UTF-8, above the ${LIMITS.argvStringBytes} bytes the system passes to ${what} as one argument (Linux's MAX_ARG_STRLEN); ${instead}`,
      });
    }
  };
}
