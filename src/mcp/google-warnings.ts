import type { Logger } from '../log.ts';

/**
 * google-auth-library's probe of the GCE metadata server (gcp-metadata) reports an answer it did
 * not expect with `process.emitWarning(…, 'MetadataLookupWarning')`, which Node prints raw on
 * stderr ("(node:123) MetadataLookupWarning: received unexpected error = …") among our own lines,
 * whatever the log level. The credential failure itself reaches the user as the MCP server's
 * start error; the probe's detail goes to the log at info, where --log-level finds it. Installed
 * once per process and for that warning type only: every other warning still reaches Node's printer.
 */
let current: Logger | undefined;

export function routeMetadataWarnings(logger: Logger): void {
  const installed = current !== undefined;
  current = logger;
  if (installed) return;
  const emit = process.emitWarning.bind(process) as (...args: unknown[]) => void;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const option = rest[0];
    const type = typeof option === 'string' ? option : (option as { type?: unknown } | undefined)?.type;
    if (type === 'MetadataLookupWarning' || (warning instanceof Error && warning.name === 'MetadataLookupWarning')) {
      const text = warning instanceof Error ? warning.message : String(warning);
      current?.info({ detail: text.slice(0, 300) }, 'the Google metadata server lookup failed (Application Default Credentials)');
      return;
    }
    emit(warning, ...rest);
  }) as typeof process.emitWarning;
}
