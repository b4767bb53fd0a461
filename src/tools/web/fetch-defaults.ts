// The fetch settings' defaults, which fetch_url's description names too. No zod here: the
// description is rendered when the catalog registers (its head module, docs/architecture.md),
// which must not evaluate a schema.
export const FETCH_DEFAULTS = { timeout_seconds: 30, max_body_bytes: 1024 * 1024, max_redirects: 5 } as const;
