import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import path from 'node:path';

/** Everything under `root`: each entry's type, a file's content, a link's target. */
export async function snapshot(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (rel: string) => {
    for (const name of (await readdir(path.join(root, rel))).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      const abs = path.join(root, r);
      const st = await lstat(abs);
      if (st.isSymbolicLink()) out[r] = `link → ${await readlink(abs)}`;
      else if (st.isDirectory()) {
        out[r] = 'dir';
        await walk(r);
      } else out[r] = `file ${(await readFile(abs)).toString('base64')}`;
    }
  };
  await walk('');
  return out;
}
