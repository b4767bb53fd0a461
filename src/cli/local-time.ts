/**
 * A stored timestamp (ISO, UTC) as the person at the terminal reads it: their
 * zone (TZ when it names one, else the system's), minutes, and the zone's name,
 * so a time is never shown without saying which clock it is on.
 */
export function localTime(iso: string, env: Readonly<Record<string, string | undefined>>, seconds = false): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = Object.fromEntries(
    formatter(env.TZ, seconds)
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  const time = `${parts.hour}:${parts.minute}${seconds ? `:${parts.second}` : ''}`;
  return `${parts.year}-${parts.month}-${parts.day} ${time} ${parts.timeZoneName}`;
}

function formatter(zone: string | undefined, seconds: boolean): Intl.DateTimeFormat {
  const options: Intl.DateTimeFormatOptions = {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    ...(seconds ? { second: '2-digit' } : {}),
    hourCycle: 'h23',
    timeZoneName: 'short',
  };
  try {
    // A TZ Intl does not know (a POSIX rule string, a typo) falls back to the system zone.
    return new Intl.DateTimeFormat('en-CA', { ...options, timeZone: zone || undefined });
  } catch {
    return new Intl.DateTimeFormat('en-CA', options);
  }
}

const UNITS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `30d`, `12h`, `2w`, `90m` in milliseconds, or undefined when it is not one of those. */
export function parseAge(text: string): number | undefined {
  const m = /^(\d{1,6})([mhdw])$/.exec(text.trim());
  return m ? Number(m[1]) * UNITS[m[2]!]! : undefined;
}
