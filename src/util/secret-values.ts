/**
 * The secret values this process knows — the model's API keys, the fleet and
 * peer tokens, MCP bearer and OAuth tokens and client secrets, alert webhooks
 * and their tokens, any variable named like a credential — so that what a tool
 * returns, what the session records and what the logs say can be masked,
 * whatever tool or library let one through (a peer's answer quoting the fleet
 * token, a file holding a key, an error echoing a header). The composition root
 * fills one registry and hands it to the dispatcher, the event log, the logger
 * and the JSON stream; components that learn a secret later (an OAuth token)
 * add it.
 *
 * What is masked, each occurrence replaced by MASK: the value itself, and its
 * URL-encoded (encodeURIComponent), JSON-escaped, base64 and base64url forms
 * when those differ. What is not (the documented limit): values shorter than
 * MIN_SECRET_CHARS (they would mask ordinary words and numbers); a secret inside
 * a larger encoded string (the base64 of `id:secret` in a Basic header, a JWT
 * whose claims hold it), hex, split or partial values, other encodings; text
 * the model streams as deltas (a secret could straddle two).
 */
export const MIN_SECRET_CHARS = 8;
export const MASK = '[redacted]';

export class SecretValues {
  private readonly forms = new Set<string>();
  private pattern: RegExp | null = null;

  /** Register a value (and its encoded forms); undefined, empty and short values are ignored. */
  add(value: string | undefined | null): void {
    if (typeof value !== 'string') return;
    const v = value.trim();
    if (v.length < MIN_SECRET_CHARS) return;
    const before = this.forms.size;
    const json = JSON.stringify(v).slice(1, -1);
    const base64 = Buffer.from(v, 'utf8').toString('base64');
    for (const form of [v, encodeURIComponent(v), json, base64, base64.replace(/=+$/, ''), Buffer.from(v, 'utf8').toString('base64url')])
      if (form.length >= MIN_SECRET_CHARS) this.forms.add(form);
    if (this.forms.size !== before) this.pattern = null;
  }

  get size(): number {
    return this.forms.size;
  }

  /** The text with every known secret replaced by MASK. */
  mask(text: string): string {
    if (this.forms.size === 0 || text.length < MIN_SECRET_CHARS) return text;
    return text.replace(this.regex(), MASK);
  }

  /** A JSON value with every string in it (keys included) masked; the value itself when nothing changed. */
  maskJson<T>(value: T): T {
    if (this.forms.size === 0) return value;
    return this.walk(value) as T;
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.mask(value);
    if (Array.isArray(value)) {
      let changed = false;
      const out = value.map((v) => {
        const m = this.walk(v);
        if (m !== v) changed = true;
        return m;
      });
      return changed ? out : value;
    }
    const proto: unknown = value !== null && typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
    if (proto === Object.prototype || proto === null) {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        const key = this.mask(k);
        const m = this.walk(v);
        if (key !== k || m !== v) changed = true;
        out[key] = m;
      }
      return changed ? out : value;
    }
    return value;
  }

  private regex(): RegExp {
    // Longest first, so a value containing another is masked whole.
    this.pattern ??= new RegExp(
      [...this.forms]
        .sort((a, b) => b.length - a.length)
        .map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('|'),
      'g',
    );
    return this.pattern;
  }
}
