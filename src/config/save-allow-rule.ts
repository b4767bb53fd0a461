import { chmodSync, lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_FILE, projectConfigPath } from './config-layers.ts';
import { loadYaml } from './parse-config.ts';
import { ConfigFileError, readConfigFile } from './read-config-file.ts';

/** Why a rule could not be saved: one sentence naming the file. */
export class SaveRuleError extends Error {
  override readonly name = 'SaveRuleError';
}

/**
 * Adds `rule` to `permissions.allow` in the workspace's project file (`.agents/config.yaml`, the
 * file the CLI already reads: docs/configuration.md), creating the file or the keys when absent
 * and keeping everything else in it as written (comments included: yaml's Document). Written to
 * a temporary file (0600) in the same directory and renamed over, so a crash leaves the old file
 * or the new one, never half. `added` is false when the rule was there already.
 *
 * The workspace may be a cloned repository: `.agents` and the file must be what they look like
 * (a directory, a regular file), not links, or the write could land in a file outside the
 * workspace — the user's own config file, read in full, among them.
 */
export async function saveAllowRule(workspace: string, rule: string): Promise<{ file: string; added: boolean }> {
  const dir = path.join(workspace, '.agents');
  const file = projectConfigPath(workspace);
  const kind = (p: string) => {
    try {
      return lstatSync(p);
    } catch {
      return undefined;
    }
  };
  const d = kind(dir);
  if (d && !d.isDirectory())
    throw new SaveRuleError(`${dir} is ${d.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}; not writing through it`);
  const f = kind(file);
  if (f && !f.isFile())
    throw new SaveRuleError(`${file} is ${f.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}; not writing through it`);
  let text = '';
  if (f) {
    try {
      text = await readConfigFile(file, CONFIG_FILE);
    } catch (err) {
      if (err instanceof ConfigFileError) throw new SaveRuleError(err.message);
      throw err;
    }
  }
  const yaml = await loadYaml();
  const doc = yaml.parseDocument(text);
  if (doc.errors.length > 0) throw new SaveRuleError(`${file} does not parse (${doc.errors[0]!.message.split('\n')[0]}); fix it first`);
  if (doc.contents !== null && !yaml.isMap(doc.contents)) throw new SaveRuleError(`${file} is not a mapping of keys; fix it first`);
  // A key written with no value (`permissions:`) is null: filled in, as an absent one is.
  const absent = (n: unknown) => n === undefined || n === null || (yaml.isScalar(n) && n.value === null);
  const permissions = doc.get('permissions', true);
  if (absent(permissions)) doc.set('permissions', doc.createNode({ allow: [rule] }));
  else if (!yaml.isMap(permissions)) throw new SaveRuleError(`${file}: permissions is not a mapping; fix it first`);
  else {
    const allow = permissions.get('allow', true);
    if (absent(allow)) permissions.set('allow', doc.createNode([rule]));
    else if (!yaml.isSeq(allow)) throw new SaveRuleError(`${file}: permissions.allow is not a list; fix it first`);
    else if ((allow.toJSON() as unknown[]).includes(rule)) return { file, added: false };
    else allow.add(doc.createNode(rule));
  }
  if (!d) mkdirSync(dir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, doc.toString(), { mode: 0o600, flag: 'wx' });
    chmodSync(tmp, 0o600);
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw new SaveRuleError(`${file}: could not be written (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return { file, added: true };
}
