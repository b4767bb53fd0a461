import { beforeEach, describe, expect, it } from 'vitest';
import { ERROR_MAX_CHARS } from '../../src/tools/framework/error-text.ts';
import { minimalArgs, stringPlaces, type Schema } from '../helpers/arg-schema.ts';
import { fullRuntime } from '../helpers/full-runtime.ts';

/**
 * Every string argument of every built-in tool has a maximum the model can see
 * (maxLength in its JSON Schema), and a value past it is refused by validation —
 * naming the argument and its limit, bounded, at once — before any work starts.
 * The catalog is walked, so a new tool or argument is covered without a line here.
 */
let rt: Awaited<ReturnType<typeof fullRuntime>>;
// Per test: the workspace helpers remove their directories after each one.
beforeEach(async () => {
  rt = await fullRuntime();
});

const TEN_MB = 10 * 1024 * 1024;

describe('string argument limits', () => {
  it('every string in every built-in input schema has a maxLength (or is an enum)', () => {
    const unbounded: string[] = [];
    let places = 0;
    for (const tool of rt.catalog.list()) {
      for (const { at, schema } of stringPlaces(tool.inputSchema as Schema)) {
        places += 1;
        if (typeof schema.maxLength !== 'number' && !Array.isArray(schema.enum)) unbounded.push(`${tool.name}.${at}`);
      }
    }
    expect(unbounded).toEqual([]);
    expect(places).toBeGreaterThan(60); // the walk really visits the catalog
  });

  /** One case per string argument (top level, array items, record keys) and size: just over the limit, and 10 MB where that is over it too. */
  function cases(): Array<{ tool: string; at: string; max: number; size: number; args: Record<string, unknown>; names: string }> {
    const out = [];
    for (const tool of rt.catalog.list()) {
      const schema = tool.inputSchema as Schema;
      for (const { at: place, schema: s } of stringPlaces(schema)) {
        if (typeof s.maxLength !== 'number') continue;
        // A nullable string (anyOf [string, null], delegate_agent's provider) is the argument itself.
        const at = place.replace(/\|\d+$/, '');
        const [field, rest] = [at.replace(/(\[\]|\{\}|\{key\})$/, ''), at.match(/(\[\]|\{key\})$/)?.[1]];
        if (field.includes('.') || field.includes('[') || field.includes('{')) continue; // nested deeper than the built-ins go
        for (const size of TEN_MB > s.maxLength ? [s.maxLength + 1, TEN_MB] : [s.maxLength + 1]) {
          const long = 'x'.repeat(size);
          const value = rest === '[]' ? [long] : rest === '{key}' ? { [long]: 1 } : long;
          out.push({ tool: tool.name, at, max: s.maxLength, size, args: { ...minimalArgs(schema), [field]: value }, names: field });
        }
      }
    }
    return out;
  }

  it('refuses each string argument at its limit + 1 and at 10 MB: an error naming it and the limit, under the cap, at once', async () => {
    const all = cases();
    expect(all.length).toBeGreaterThan(100);
    const failures: string[] = [];
    for (const c of all) {
      const started = performance.now();
      const r = await rt.dispatcher.call(c.tool, c.args);
      const ms = performance.now() - started;
      const label = `${c.tool}.${c.at} at ${c.size}`;
      if (r.ok) {
        failures.push(`${label}: accepted`);
        continue;
      }
      if (!r.error.includes(c.names) || !r.error.includes(String(c.max))) failures.push(`${label}: ${r.error.slice(0, 300)}`);
      if (r.error.length > ERROR_MAX_CHARS) failures.push(`${label}: error of ${r.error.length} characters`);
      if (!r.error.includes(': invalid arguments: ')) failures.push(`${label}: not refused by validation: ${r.error.slice(0, 200)}`);
      // Validation is a length check: generous, so a loaded machine cannot fail it, but far below what compiling a 10 MB pattern took (21 s).
      if (ms > 2000) failures.push(`${label}: took ${Math.round(ms)} ms`);
    }
    expect(failures).toEqual([]);
  });

  it('a command whose UTF-8 form is over the argv limit is refused with the limit and the way around it', async () => {
    const error = await rt.refused('bash', { command: `echo ${'é'.repeat(70_000)}` });
    expect(error).toMatch(
      /^bash: invalid arguments: command: 140005 bytes in UTF-8, above the 131071 bytes the system passes to \/bin\/sh/,
    );
    expect(error).toMatch(/MAX_ARG_STRLEN\); write long content to a file first and run that$/);
  });

  it('a grep pattern at its limit still runs (the limit is not below what works)', async () => {
    const r = await rt.ok('grep', { pattern: `(${'a|'.repeat(2046)}b)`.slice(0, 4096) });
    expect(r.count).toBeTypeOf('number');
  });
});
