/**
 * Commands refused in every mode, yolo included: the shell forms most likely to
 * wreck a machine by accident or on a prompt-injected model's first, laziest
 * try. Defence in depth, not a boundary — quoting, variables or staging evade it,
 * and it cannot be made complete. For a boundary, leave bash out of the catalog
 * or allow-list commands with permission rules.
 */
interface Deny {
  reason: string;
  test: (cmd: string) => boolean;
}

const ROOTISH = String.raw`(?:/|/\*|~|~/|~/\*|\$HOME|\$\{HOME\}|"\$HOME"|/\s*--no-preserve-root|--no-preserve-root\s+/)`;
const FLAG_R = String.raw`(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)`;
const FLAG_F = String.raw`(?:-[a-zA-Z]*f[a-zA-Z]*|--force)`;

const DENY: readonly Deny[] = [
  {
    reason: 'recursive forced removal of / or the home directory',
    test: (c) => {
      // rm with -r and -f in any order or combination, aimed at the root or $HOME.
      const rm = new RegExp(String.raw`(?:^|[;&|(\s])(?:sudo\s+)?rm\s+((?:-\S+\s+)*)${ROOTISH}(?:\s|$|;|&|\|)`);
      const m = rm.exec(c);
      if (!m) return false;
      const flags = m[1] ?? '';
      return new RegExp(FLAG_R).test(flags) && new RegExp(FLAG_F).test(flags);
    },
  },
  { reason: 'formatting a filesystem (mkfs)', test: (c) => /(?:^|[;&|(\s])(?:sudo\s+)?mkfs(?:\.\w+)?(?:\s|$)/.test(c) },
  { reason: 'dd writing to a device', test: (c) => /(?:^|[;&|(\s])(?:sudo\s+)?dd\s[^;&|]*\bof=\/dev\//.test(c) },
  { reason: 'writing over a disk device', test: (c) => />\s*\/dev\/(?:sd[a-z]|nvme\d|hd[a-z]|vd[a-z]|xvd[a-z]|mmcblk\d)/.test(c) },
  { reason: 'wiping a device (shred, wipefs)', test: (c) => /(?:^|[;&|(\s])(?:sudo\s+)?(?:shred|wipefs)\s/.test(c) },
  {
    reason: 'recursive chmod or chown of /',
    test: (c) => /(?:^|[;&|(\s])(?:sudo\s+)?(?:chmod|chown)\s+(?:-\S+\s+)*-[a-zA-Z]*R[a-zA-Z]*\s+(?:\S+\s+)?\/(?:\s|$|;)/.test(c),
  },
  {
    reason: 'a fork bomb',
    test: (c) => /([A-Za-z_:][\w:]*)\s*\(\s*\)\s*\{\s*\1\s*\|\s*\1\s*&\s*\}\s*;\s*\1/.test(c),
  },
  {
    reason: 'downloading and executing a script (curl/wget piped to a shell)',
    test: (c) =>
      /\b(?:curl|wget)\b[^|;&]*\|\s*(?:sudo\s+)?(?:ba|z|a|da|k)?sh\b/.test(c) ||
      /\b(?:ba|z|a|da|k)?sh\s+(?:-c\s+)?["']?(?:<\(|\$\()\s*(?:curl|wget)\b/.test(c),
  },
];

/** The reason a command is refused outright, or null. */
export function deniedCommand(command: string): string | null {
  const flat = command.replace(/\\\n/g, ' ');
  return DENY.find((d) => d.test(flat))?.reason ?? null;
}
