/**
 * What both search engines leave out, so ripgrep and the in-process fallback
 * give the same answers: hidden entries (dot-names), vendored directories and
 * whatever .gitignore / .ignore files exclude.
 */
export const VENDORED_DIRS: readonly string[] = ['node_modules', 'vendor', 'bower_components', '__pycache__'];

export const IGNORE_FILES: readonly string[] = ['.gitignore', '.ignore'];

export function isHidden(name: string): boolean {
  return name.startsWith('.');
}

/** ripgrep flags for the same exclusions (hidden files and ignore files are rg's defaults). */
export function ripgrepExclusions(): string[] {
  return ['--no-require-git', ...VENDORED_DIRS.map((d) => `--glob=!${d}/`)];
}
