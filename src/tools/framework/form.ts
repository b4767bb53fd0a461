/**
 * A form an asker fills in with the operator: an MCP server's elicitation
 * (mcp/elicit-form.ts builds it from the server's request, bounded and with its
 * text made safe to print). Here, beside the Asker interface that takes it.
 */

export type FormValue = string | number | boolean | string[];

interface FieldBase {
  readonly name: string;
  /** The title, or the name when there is none; already safe to print. */
  readonly label: string;
  readonly description?: string | undefined;
  readonly required: boolean;
}
export interface Option {
  readonly value: string;
  readonly label: string;
}
export type FormField =
  | (FieldBase & { kind: 'text'; default?: string; minLength?: number; maxLength?: number; format?: string })
  | (FieldBase & { kind: 'number'; integer: boolean; default?: number; minimum?: number; maximum?: number })
  | (FieldBase & { kind: 'boolean'; default?: boolean })
  | (FieldBase & { kind: 'choice'; options: readonly Option[]; default?: string })
  | (FieldBase & { kind: 'multi'; options: readonly Option[]; default?: string[]; minItems?: number; maxItems?: number });

export interface ElicitForm {
  /** The MCP server asking (its name in the recipe / mcp.json). */
  readonly server: string;
  readonly message: string;
  readonly fields: readonly FormField[];
}

export type ElicitAnswer = { action: 'accept'; values: Record<string, FormValue> } | { action: 'decline' } | { action: 'cancel' };
