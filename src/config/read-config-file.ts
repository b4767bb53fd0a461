import {
  BoundedReadError,
  decodeText,
  formatBytes,
  readBounded,
  readBoundedHead,
  utf8Boundary,
  type FileKind,
} from '../util/bounded-read.ts';

/**
 * The one way core-agent reads a configuration file (a recipe, .agents/mcp.json,
 * a SKILL.md's front matter, AGENTS.md). Every such file may come from a cloned
 * repository, so reading it is bounded before anything parses it, and it must be
 * UTF-8 text: src/util/bounded-read.ts, which the kubeconfig's reads share.
 */

export type ConfigKind = FileKind;
export { formatBytes };

/**
 * 256 KiB: over a hundred times the largest shipped recipe (about 2 KiB), room for
 * long instructions. The cap is what bounds a hostile file's cost, which grows with
 * its size however it is shaped: at 256 KiB the worst shapes measured (a syntax
 * error on every byte or line) take 2-3.5 s and about 320 MB through the CLI on the
 * shared 2-core test machine, against 0.5 s and 85 MB for a normal recipe; at 1 MiB
 * the parser alone took up to 18 s and 1.3 GB, and 50 MB took 3 GB and was killed
 * before there was any limit.
 */
export const MAX_RECIPE_BYTES = 256 * 1024;
/**
 * 64 KiB: a real mcp.json is a few hundred bytes, and this file comes with the
 * workspace — a cloned repository — and is read at every start, trusted or not.
 */
export const MAX_MCP_JSON_BYTES = 64 * 1024;

export const RECIPE_FILE: ConfigKind = { noun: 'a recipe', maxBytes: MAX_RECIPE_BYTES, hint: 'give a recipe file' };
export const MCP_JSON_FILE: ConfigKind = {
  noun: 'an MCP declaration file',
  maxBytes: MAX_MCP_JSON_BYTES,
  hint: 'make .agents/mcp.json a JSON file or remove it',
};

/** A file that cannot be read as configuration; `message` starts with the file name. */
export class ConfigFileError extends Error {
  override readonly name = 'ConfigFileError';
  constructor(
    message: string,
    /** ENOENT when the file does not exist (callers may treat that as "none"). */
    readonly code?: string,
  ) {
    super(message);
  }
}

/** The whole file as text, or ConfigFileError. */
export async function readConfigFile(file: string, kind: ConfigKind): Promise<string> {
  try {
    return decodeText(await readBounded(file, kind), file, kind);
  } catch (err) {
    throw asConfigError(err);
  }
}

/**
 * The first `headBytes` of the file as text (what is parsed of a SKILL.md, what is
 * shown of AGENTS.md), and whether that is the whole file. The file itself may be
 * larger: only the head is read. A multi-byte character cut at the end is dropped.
 */
export async function readConfigHead(file: string, kind: ConfigKind, headBytes: number): Promise<{ text: string; complete: boolean }> {
  try {
    const { bytes, complete } = await readBoundedHead(file, kind, headBytes);
    return { text: decodeText(complete ? bytes : bytes.subarray(0, utf8Boundary(bytes)), file, kind), complete };
  } catch (err) {
    throw asConfigError(err);
  }
}

function asConfigError(err: unknown): unknown {
  return err instanceof BoundedReadError ? new ConfigFileError(err.message, err.code) : err;
}
