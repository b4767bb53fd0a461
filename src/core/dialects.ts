/**
 * The tool vocabularies core-agent speaks (src/tools/framework/dialect.ts): its own, Cagent's
 * and golem's. Here, below config and tools, because a recipe (`tools.dialect`), a flag and a
 * variable name one.
 */
export const DIALECTS = ['core-agent', 'cagent', 'golem'] as const;
export type Dialect = (typeof DIALECTS)[number];
export const DEFAULT_DIALECT: Dialect = 'core-agent';
