import { styleText } from 'node:util';

type Style = Parameters<typeof styleText>[0];

/**
 * Whether to colour a stream: FORCE_COLOR (not "0") forces it, NO_COLOR (any
 * value, https://no-color.org) turns it off, otherwise a terminal that reports
 * colours gets them. Decided once from the injected env, not process.env, so a
 * test (and a command run in-process) controls it.
 */
export function shouldColor(env: NodeJS.ProcessEnv, stream: { isTTY?: boolean; hasColors?: () => boolean } | undefined): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '0' && force !== 'false') return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (force === '0' || force === 'false') return false;
  return Boolean(stream?.isTTY) && (stream?.hasColors?.() ?? false);
}

/** Styles text when colours are on; the identity otherwise. node:util's styleText, so no escape codes are written by hand. */
export type Paint = (style: Style, text: string) => string;

export function painter(color: boolean): Paint {
  return color ? (style, text) => styleText(style, text, { validateStream: false }) : (_style, text) => text;
}
