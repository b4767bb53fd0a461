// The structure inside a text result, so the digest can prune it like JSON instead of leaving
// it to the output cap: kubernetes-mcp-server's list tools answer with a column table
// (`--list-output table`, its default) or YAML (`--list-output yaml`), as text. A table becomes
// its rows as objects keyed by the header, plus what no first-and-last window shows: per-column
// counts and the rows holding a rare value (the 5 CrashLoopBackOff pods among 45 Running). Text
// with neither shape has no structure: undefined, and it is shown as it is, under the caps.
import type { JsonObject, JsonValue } from '../../core/json.ts';

/** What this file uses of the yaml chunk (config/yaml-entry.ts): the recipes' parser, loaded only for a YAML result. */
interface Yaml {
  parseDocument(source: string): { errors: readonly Error[]; toJS(opts: { maxAliasCount: number }): unknown };
}

/** A column with at most this many distinct values gets counts per value. */
const MAX_COUNTED_VALUES = 8;
/** A value held by at most this share of the rows is rare: its rows are listed whole. */
const RARE_SHARE = 0.2;
const MAX_RARE_ROWS = 20;

export async function textStructure(text: string): Promise<JsonObject | undefined> {
  return table(text) ?? (await yamlValue(text));
}

/** A header of upper-case column names two or more spaces apart, then rows aligned under it. */
function table(text: string): JsonObject | undefined {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length < 3) return undefined;
  const header = lines[0]!;
  const starts: number[] = [];
  const names: string[] = [];
  for (const m of header.matchAll(/\S+(?: \S+)*/g)) {
    // Column names are upper case (NAME, NOMINATED NODE, READINESS GATES) and two or more spaces apart.
    if (!/^[A-Z][A-Z0-9_ ()/.-]*$/.test(m[0])) return undefined;
    starts.push(m.index);
    names.push(m[0]);
  }
  if (names.length < 2) return undefined;
  const rows = lines.slice(1).map((line) => {
    const row: Record<string, string> = {};
    names.forEach((name, i) => {
      row[name] = line.slice(starts[i], i + 1 < starts.length ? starts[i + 1] : undefined).trim();
    });
    return row;
  });
  // Rows that do not line up with the header (a value where a gap should be) mean this is not a table.
  const aligned = lines.slice(1).every((l) => starts.slice(1).every((s) => s >= l.length || l[s - 1] === ' '));
  if (!aligned) return undefined;
  const counts: Record<string, Record<string, number>> = {};
  const rare = new Set<number>();
  for (const name of names) {
    const tally = new Map<string, number>();
    for (const r of rows) tally.set(r[name]!, (tally.get(r[name]!) ?? 0) + 1);
    if (tally.size < 2 || tally.size > MAX_COUNTED_VALUES) continue;
    counts[name] = Object.fromEntries(tally);
    for (const [i, r] of rows.entries()) if (tally.get(r[name]!)! <= Math.max(1, rows.length * RARE_SHARE)) rare.add(i);
  }
  const rareRows = [...rare].slice(0, MAX_RARE_ROWS).map((i) => rows[i]!);
  return {
    table: {
      columns: names,
      total_rows: rows.length,
      ...(Object.keys(counts).length > 0 ? { counts } : {}),
      ...(rareRows.length > 0 && rareRows.length < rows.length ? { rows_with_rare_values: rareRows } : {}),
      rows,
    },
  };
}

/** A YAML document that is a mapping or a sequence (a scalar is prose). */
async function yamlValue(text: string): Promise<JsonObject | undefined> {
  if (!/^(?:- |[\w.-]+:(?: |$))/m.test(text)) return undefined;
  // The same embedded chunk the recipes use (evaluated once), imported here: a run that digests no
  // YAML never loads it, and neither does the digest benchmark, which runs this file in plain Node.
  const [{ default: yamlChunk }, { sharedEmbeddedModule }] = await Promise.all([
    import('virtual:yaml-chunk'),
    import('../../startup/embedded.ts'),
  ]);
  const yaml = await sharedEmbeddedModule<Yaml>(yamlChunk, 'yaml.cjs');
  try {
    const doc = yaml.parseDocument(text);
    if (doc.errors.length > 0) return undefined;
    const value = doc.toJS({ maxAliasCount: 100 }) as JsonValue;
    return value !== null && typeof value === 'object' ? { yaml: value } : undefined;
  } catch {
    return undefined;
  }
}
