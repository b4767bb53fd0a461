// The skill-name rule, apart from front-matter.ts: that module imports zod, and the skill tools'
// store (loaded by every start-up that builds the catalog, `tools list` too) needs only the rule.
export const SKILL_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
export const SKILL_NAME_RULE = 'lower-case letters, digits and -, at most 64, e.g. k8s-triage';
