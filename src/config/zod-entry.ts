// zod, bundled apart and embedded as data (scripts/bundle/embedded.mjs) for the tools' listing
// script only (scripts/bundle/listing-zod.mjs): a `tools list` evaluates no schema, so there zod
// is loaded when a recipe or a settings file is read, and never otherwise. The whole CLI keeps
// zod in its own script: every run validates a tool's arguments.
export * as v4 from 'zod/v4';
export * as mini from 'zod/v4/mini';
export { default as en } from 'zod/v4/locales/en.js';
