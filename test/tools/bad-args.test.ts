import { beforeEach, describe, expect, it } from 'vitest';
import { ERROR_MAX_CHARS } from '../../src/tools/framework/error-text.ts';
import { minimalArgs, type Schema } from '../helpers/arg-schema.ts';
import { fullRuntime } from '../helpers/full-runtime.ts';
import { BAD_ARGS } from './bad-args.cases.ts';

let rt: Awaited<ReturnType<typeof fullRuntime>>;
beforeEach(async () => {
  rt = await fullRuntime();
});

/** zod's own wording: it names no field and no fix, so none of it may reach the model. */
const RAW_ZOD = /Invalid input|Too big:|Too small:|expected \w+, received|Unrecognized key|Invalid option/;

describe('bad arguments: one sentence naming the field and the fix', () => {
  it.each(BAD_ARGS)('%s %j', async (tool, args, expected) => {
    const r = await rt.dispatcher.call(tool, args);
    expect(r.ok).toBe(false);
    const error = (r as { error: string }).error;
    expect(error).toMatch(expected);
    expect(error).not.toMatch(RAW_ZOD);
    expect(error.length).toBeLessThanOrEqual(ERROR_MAX_CHARS);
  });

  /** Wrong values for every argument of every tool, derived from its schema: each one a sentence that names the field. */
  function generated(): Array<{ tool: string; field: string; args: Record<string, unknown>; expect: RegExp }> {
    const out = [];
    for (const t of rt.catalog.list()) {
      const schema = t.inputSchema as Schema;
      const base = minimalArgs(schema);
      for (const [field, s] of Object.entries(schema.properties ?? {})) {
        const wrong: unknown[] = [null, { nested: true }];
        if (s.type === 'string') wrong.push(5, true, ['a']);
        if (s.type === 'number' || s.type === 'integer') wrong.push('5', Infinity, -Infinity, Number.NaN, 1e308, -1e308, [1]);
        if (s.type === 'boolean') wrong.push('true', 0);
        if (s.type === 'array') wrong.push('a', 5);
        if (s.type === 'object') wrong.push('a', [1]);
        const named = new RegExp(`(^|: |; )${field} (must be|is |has )`);
        for (const w of wrong) {
          // An untyped argument (json_query's data) takes any value, so nothing is wrong with these.
          if (s.type === undefined) continue;
          // An object is what an object argument takes.
          if (s.type === 'object' && typeof w === 'object' && w !== null && !Array.isArray(w)) continue;
          out.push({ tool: t.name, field, args: { ...base, [field]: w }, expect: named });
        }
        // A near miss — the first two letters swapped — is answered with the real name.
        if (field.length >= 4) {
          const typo = field[1]! + field[0]! + field.slice(2);
          const { [field]: _dropped, ...rest } = base;
          out.push({
            tool: t.name,
            field: typo,
            args: { ...rest, [typo]: 'a' },
            expect: new RegExp(`unknown argument "${typo}" — did you mean "${field}"\\?`),
          });
        }
      }
      out.push({ tool: t.name, field: 'zzz', args: { ...base, zzz: 1 }, expect: /unknown argument "zzz" \(valid: / });
    }
    return out;
  }

  it('every argument of every tool, sent a wrong type, null, a non-finite or huge number, or misspelt', async () => {
    const all = generated();
    expect(all.length).toBeGreaterThan(400);
    const failures: string[] = [];
    for (const c of all) {
      const r = await rt.dispatcher.call(c.tool, c.args);
      const shown = `${c.tool} ${c.field}=${JSON.stringify(c.args[c.field]) ?? String(c.args[c.field])}`;
      if (r.ok) failures.push(`${shown}: accepted`);
      else if (!c.expect.test(r.error) || RAW_ZOD.test(r.error) || r.error.length > 1000)
        failures.push(`${shown}: ${r.error.slice(0, 400)}`);
    }
    expect(failures).toEqual([]);
  });
});
