import type { z } from 'zod/v4';
import type { Dialect } from '../../core/dialects.ts';
import type { JsonObject } from '../../core/json.ts';

// A face: another system's name for a built-in tool (dialect.ts chooses which a catalog
// registers). Apart from dialect.ts, which reads tool definitions: a definition holds its
// faces, so this file imports no definition.

/**
 * Another system's name for a tool: its name, its argument names and shape, its description,
 * and how its arguments become the engine's (and the engine's result becomes its). The engine
 * does the work, so the gate, the path scope, the caps and the call log are the engine's; a
 * permission rule may name either. The face's arguments are checked against its own schema
 * first, so a mistake is reported in the face's words.
 */
export interface ToolFace<FaceArgs extends z.ZodType = z.ZodType> {
  readonly dialect: Dialect;
  /** The exact name in that system (golem's PascalCase: `ReadFile`). */
  readonly name: string;
  /** Its model-facing description, from `<tool>.<dialect>.md` beside the tool (a template, as any). */
  readonly description: string;
  /** Its arguments, under that system's names (golem's camelCase fields included). */
  readonly args: FaceArgs;
  /** The engine's arguments for a call in this face's shape. */
  toEngine(args: z.output<FaceArgs>): unknown;
  /** The engine's result in this face's shape (default: as it is). */
  result?(result: JsonObject, args: z.output<FaceArgs>): JsonObject;
}

/** Helps TypeScript infer a face's argument type from its schema. */
export function defineFace<FaceArgs extends z.ZodType>(face: ToolFace<FaceArgs>): ToolFace<FaceArgs> {
  return face;
}

/** What registering a face reads: plain data (the bundle keeps it in the tool's head). */
export interface FaceHead {
  readonly dialect: Dialect;
  readonly name: string;
  readonly description: string;
}
