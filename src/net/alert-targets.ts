/**
 * Alert targets: webhooks the operator names in the recipe. The model picks a
 * target by name and never sees or sends a URL. URLs and tokens come from the
 * environment (url_env / token_env) so the recipe holds no secret; a target
 * whose variables are unset can never deliver, so it is dropped at startup.
 */

export const ALERT_LEVELS = ['info', 'warning', 'critical', 'resolved'] as const;
export type AlertLevel = (typeof ALERT_LEVELS)[number];
export const ALERT_TEMPLATES = ['generic', 'slack', 'pagerduty'] as const;
export type AlertTemplate = (typeof ALERT_TEMPLATES)[number];

export interface AlertTargetConfig {
  template?: AlertTemplate | undefined;
  url_env: string;
  token_env?: string | undefined;
  description?: string | undefined;
  rate_limit?: { count: number; window_seconds: number } | undefined;
}

export const ALERT_DEFAULTS = { template: 'generic', rate_limit: { count: 5, window_seconds: 300 }, timeout_seconds: 15 } as const;

export interface Alert {
  target: string;
  level: AlertLevel;
  summary: string;
  details?: string | undefined;
  sessionId?: string | undefined;
}

/** A live target: its secrets resolved from the environment, its own rate limit. */
export class AlertTarget {
  private readonly sent: number[] = [];

  constructor(
    readonly name: string,
    readonly template: AlertTemplate,
    readonly description: string | undefined,
    private readonly url: string,
    private readonly token: string | undefined,
    private readonly limit: { count: number; window_seconds: number },
  ) {}

  /** null when a slot is free (and takes it), else the seconds until one frees up. */
  takeSlot(now = Date.now()): number | null {
    const windowMs = this.limit.window_seconds * 1000;
    while (this.sent.length > 0 && now - this.sent[0]! >= windowMs) this.sent.shift();
    if (this.sent.length >= this.limit.count) return Math.ceil((this.sent[0]! + windowMs - now) / 1000);
    this.sent.push(now);
    return null;
  }

  /**
   * A message with this target's secrets taken out: the URL, its path and query
   * (a webhook's 404 page often echoes the path, which is the credential), the token.
   */
  redact(message: string): string {
    const secrets = [this.url, this.token];
    try {
      const u = new URL(this.url);
      secrets.push(u.pathname.length > 1 ? u.pathname : undefined, u.search || undefined, u.username || undefined, u.password || undefined);
    } catch {
      // not a URL: the whole string is already listed
    }
    let out = message;
    for (const s of secrets.filter((x): x is string => !!x).sort((a, b) => b.length - a.length)) out = out.split(s).join('<redacted>');
    return out;
  }

  get rateLimit(): { count: number; window_seconds: number } {
    return this.limit;
  }

  /** The HTTP request for one alert: the URL and token stay inside this object. */
  request(alert: Alert): { url: string; headers: Record<string, string>; body: string } {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': `core-agent/${__CORE_AGENT_VERSION__}` };
    switch (this.template) {
      case 'slack':
        return { url: this.url, headers, body: JSON.stringify(slackPayload(alert)) };
      case 'pagerduty':
        return { url: this.url, headers, body: JSON.stringify(pagerDutyPayload(alert, this.token ?? '')) };
      case 'generic':
        if (this.token) headers.authorization = `Bearer ${this.token}`;
        return { url: this.url, headers, body: JSON.stringify(genericPayload(alert)) };
    }
  }
}

/**
 * Targets whose environment is complete, and a reason for each one dropped.
 * A PagerDuty target needs its routing key (token_env); the schema insists on it.
 */
export function liveTargets(
  configs: Readonly<Record<string, AlertTargetConfig>>,
  env: NodeJS.ProcessEnv,
): { live: AlertTarget[]; dropped: Array<{ target: string; reason: string }> } {
  const live: AlertTarget[] = [];
  const dropped: Array<{ target: string; reason: string }> = [];
  for (const [name, cfg] of Object.entries(configs)) {
    const url = env[cfg.url_env];
    if (!url) {
      dropped.push({ target: name, reason: `${cfg.url_env} (url_env) is not set` });
      continue;
    }
    if (!/^https?:\/\//i.test(url)) {
      dropped.push({ target: name, reason: `${cfg.url_env} (url_env) is not an http(s) URL` });
      continue;
    }
    const token = cfg.token_env ? env[cfg.token_env] : undefined;
    if (cfg.token_env && !token) {
      dropped.push({ target: name, reason: `${cfg.token_env} (token_env) is not set` });
      continue;
    }
    live.push(
      new AlertTarget(
        name,
        cfg.template ?? ALERT_DEFAULTS.template,
        cfg.description,
        url,
        token,
        cfg.rate_limit ?? ALERT_DEFAULTS.rate_limit,
      ),
    );
  }
  return { live, dropped };
}

function genericPayload(a: Alert) {
  return {
    source: 'core-agent',
    target: a.target,
    level: a.level,
    summary: a.summary,
    ...(a.details !== undefined ? { details: a.details } : {}),
    ...(a.sessionId !== undefined ? { session_id: a.sessionId } : {}),
    timestamp: new Date().toISOString(),
  };
}

const SLACK_MARK: Record<AlertLevel, string> = {
  info: ':information_source:',
  warning: ':warning:',
  critical: ':rotating_light:',
  resolved: ':white_check_mark:',
};

/** Slack incoming webhook: `text` is the notification line, blocks carry the details. */
function slackPayload(a: Alert) {
  const headline = `${SLACK_MARK[a.level]} *[${a.level.toUpperCase()}]* ${escapeSlack(a.summary)}`;
  const blocks: unknown[] = [{ type: 'section', text: { type: 'mrkdwn', text: headline } }];
  if (a.details) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: escapeSlack(a.details).slice(0, 2900) } });
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `core-agent${a.sessionId ? ` · session ${a.sessionId}` : ''}` }] });
  return { text: `[${a.level.toUpperCase()}] ${a.summary}`, blocks };
}

/** Slack treats <, > and & as markup; a summary must not be able to ping @channel. */
function escapeSlack(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * PagerDuty Events API v2. One session is one incident: the dedup key is derived
 * from the session and target, so a later `resolved` closes what `critical` opened.
 */
function pagerDutyPayload(a: Alert, routingKey: string) {
  const dedupKey = `core-agent:${a.sessionId ?? 'session'}:${a.target}`;
  if (a.level === 'resolved') return { routing_key: routingKey, event_action: 'resolve', dedup_key: dedupKey };
  return {
    routing_key: routingKey,
    event_action: 'trigger',
    dedup_key: dedupKey,
    payload: {
      summary: a.summary.slice(0, 1024),
      source: 'core-agent',
      severity: a.level,
      ...(a.details !== undefined ? { custom_details: { details: a.details } } : {}),
    },
  };
}
