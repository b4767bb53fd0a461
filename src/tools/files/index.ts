import type { AnyTool } from '../tool.ts';
import { deleteFileTool } from './delete-file.ts';
import { editFileTool } from './edit-file.ts';
import { listDirTool } from './list-dir.ts';
import { readFileTool } from './read-file.ts';
import { readManyFilesTool } from './read-many-files.ts';
import { statTool } from './stat.ts';
import { writeFileTool } from './write-file.ts';

/** The file family: read, write, edit, delete and look at workspace files. */
export const tools: readonly AnyTool[] = [
  readFileTool,
  readManyFilesTool,
  writeFileTool,
  editFileTool,
  deleteFileTool,
  statTool,
  listDirTool,
];
