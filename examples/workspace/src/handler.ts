// TODO: read the timeout from config instead of hard-coding it
export const TIMEOUT_MS = 5000;

export function greet(name: string): string {
  return `Hello, PLACEHOLDER! (${name})`;
}
