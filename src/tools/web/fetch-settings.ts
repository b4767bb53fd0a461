// `tools.fetch_url` and `tools.web_fetch`'s settings, in a file of their own: both tools' files
// import them, and a tool file importing another's would bring that tool's whole module along
// wherever its settings are read (the tools' listing script reads only settings: docs/startup.md).
import * as z from 'zod/v4';
import { FETCH_DEFAULTS } from './fetch-defaults.ts';

/**
 * `tools.fetch_url` and `tools.web_fetch`. What fetch-url.md says of the scheme and
 * private hosts is url-scope.ts (an entry without a scheme allows https only) and
 * address-policy.ts + guarded-fetch.ts (a private address needs its exact host).
 */
export const fetchSettings = (what: string) =>
  z.strictObject({
    timeout_seconds: z
      .number()
      .positive()
      .max(600)
      .default(FETCH_DEFAULTS.timeout_seconds)
      .describe(`Seconds before ${what} is abandoned (default 30).`),
    max_body_bytes: z
      .int()
      .min(1)
      .max(64 * 1024 * 1024)
      .default(FETCH_DEFAULTS.max_body_bytes)
      .describe('Most body bytes read (after decompression); the rest is never downloaded (default 1048576).'),
    max_redirects: z
      .int()
      .min(0)
      .max(20)
      .default(FETCH_DEFAULTS.max_redirects)
      .describe('Redirects followed, each checked like the first URL (default 5).'),
  });
