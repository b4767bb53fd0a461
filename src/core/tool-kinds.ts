/**
 * What a tool does, as one word (src/tools/framework/kinds.ts gives each its traits). Here,
 * below config and tools, because a recipe names kinds (`tools.kinds`).
 */
export const TOOL_KINDS = ['read', 'read_remote', 'edit', 'execute', 'control', 'send', 'change', 'lifecycle', 'ask', 'delegate'] as const;
export type ToolKind = (typeof TOOL_KINDS)[number];
