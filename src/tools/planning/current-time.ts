import * as z from 'zod/v4';
import { quoteArg } from '../framework/error-text.ts';
import { LIMITS } from '../framework/limits.ts';
import { defineTool, ToolError, type JsonObject } from '../framework/tool.ts';
import description from './current-time.md';
import { currentTimeGolem } from './current-time.golem.ts';

export const currentTimeTool = defineTool({
  name: 'current_time',
  faces: [currentTimeGolem],
  description,
  kind: 'read',
  narrowHint: '',
  args: z.strictObject({
    timezone: z
      .string()
      .min(1)
      .max(LIMITS.identifier)
      .optional()
      .describe('An IANA time zone (Europe/Paris, America/New_York) or a fixed offset (+05:30); "local" is this machine\'s. Default: UTC.'),
  }),
  async run(args): Promise<JsonObject> {
    const now = new Date();
    const zone = args.timezone === 'local' ? Intl.DateTimeFormat().resolvedOptions().timeZone : (args.timezone ?? 'UTC');
    const local = inZone(now, zone);
    return {
      utc: now.toISOString(),
      unix_seconds: Math.floor(now.getTime() / 1000),
      timezone: local.zone,
      local: local.text,
      utc_offset: local.offset,
      weekday: local.weekday,
    };
  },
});

/** The instant as wall-clock time in `zone`: RFC 3339 with the zone's offset at that instant (DST included). */
function inZone(at: Date, zone: string): { zone: string; text: string; offset: string; weekday: string } {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      fractionalSecondDigits: 3,
      weekday: 'long',
      timeZoneName: 'longOffset',
    });
  } catch {
    throw new ToolError(
      `unknown time zone ${quoteArg(zone, 64)}: give an IANA name such as UTC, Europe/Paris or America/New_York, or an offset such as +05:30`,
      'invalid_args',
    );
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => format.formatToParts(at).find((p) => p.type === type)?.value ?? '';
  // longOffset is "GMT+05:30", or plain "GMT" at offset zero.
  const offset = part('timeZoneName').replace(/^GMT/, '') || '+00:00';
  const text = `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}:${part('second')}.${part('fractionalSecond')}${offset}`;
  // The name as asked (ICU would answer Asia/Calcutta for Asia/Kolkata).
  return { zone, text, offset, weekday: part('weekday') };
}
