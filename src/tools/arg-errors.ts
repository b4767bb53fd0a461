import type { z } from 'zod/v4';
import { suggestion } from '../config/did-you-mean.ts';

/**
 * Zod issues as one model-readable sentence per problem, naming the argument,
 * what was expected and — for an unknown argument — the likely intended one.
 */
export function formatArgIssues(issues: readonly z.core.$ZodIssue[], validArgs: readonly string[]): string {
  return issues
    .map((issue) => {
      const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'arguments';
      if (issue.code === 'unrecognized_keys') {
        return issue.keys.map((k) => `unknown argument "${k}"${suggestion(k, validArgs)} (valid: ${validArgs.join(', ')})`).join('; ');
      }
      if (issue.code === 'invalid_type' && issue.input === undefined) return `${where} is required (${issue.expected})`;
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}
