import { BUILTIN_TOOL_NAMES } from '../config/tool-names.ts';
import { jsonQueryTool } from './data/json-query.ts';
import { deleteFileTool } from './files/delete-file.ts';
import { editFileTool } from './files/edit-file.ts';
import { listDirTool } from './files/list-dir.ts';
import { readFileTool } from './files/read-file.ts';
import { readManyFilesTool } from './files/read-many-files.ts';
import { statTool } from './files/stat.ts';
import { writeFileTool } from './files/write-file.ts';
import { globTool } from './search/glob.ts';
import { grepTool } from './search/grep.ts';
import type { AnyTool } from './tool.ts';

/** Every built-in tool this build implements, in canonical catalog order. */
export const BUILTIN_TOOLS: readonly AnyTool[] = [
  readFileTool,
  readManyFilesTool,
  writeFileTool,
  editFileTool,
  deleteFileTool,
  statTool,
  listDirTool,
  globTool,
  grepTool,
  jsonQueryTool,
] as readonly AnyTool[];

// The canonical name list (config/tool-names.ts) and the definitions must agree;
// a mismatch is a build mistake, so it fails at import rather than at a call.
const names = BUILTIN_TOOLS.map((t) => t.name).join(',');
if (names !== BUILTIN_TOOL_NAMES.join(',')) {
  throw new Error(`built-in tool order mismatch: definitions ${names} vs names ${BUILTIN_TOOL_NAMES.join(',')}`);
}
