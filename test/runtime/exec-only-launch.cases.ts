/**
 * How a stdio MCP server's program is started (src/runtime/exec-only-launch.ts), one case a line:
 * exec-only-launch.test.ts writes the case's files into a fresh workspace, plans and starts
 * `command args` as an unprivileged uid, and the program prints `uid=N`, the owner of its own
 * /proc/self/environ: root's (0) when the process is non-dumpable, else its own.
 *
 * - `files`: written into the workspace, mode 0755; `$NODE` in them is the node running the tests.
 * - `guarded`: the plan starts it from an execute-only file; else `reason` matches why not.
 * - `runs`: what the started process is: `non-dumpable`, `dumpable`, or `fails` (it cannot start).
 * - `needs`: a program the machine must have, else the case is skipped.
 */
export interface LaunchCase {
  name: string;
  files?: Record<string, string>;
  command: string;
  args?: string[];
  guarded: boolean;
  reason?: RegExp;
  runs: 'non-dumpable' | 'dumpable' | 'fails';
  needs?: string;
}

const NODE_PRINTS_UID = "console.log('uid=' + require('fs').statSync('/proc/self/environ').uid)";
const PY_PRINTS_UID = "import os, json\nprint('uid=' + json.dumps(os.stat('/proc/self/environ').st_uid))\n";

// One case a line (prettier would spread each over several).
// prettier-ignore
export const LAUNCH_CASES: LaunchCase[] = [
  { name: 'an ELF program found on PATH', command: 'stat', args: ['-c', 'uid=%u', '/proc/self/environ'], guarded: true, runs: 'non-dumpable' },
  { name: 'an ELF program by absolute path', command: '/usr/bin/stat', args: ['-c', 'uid=%u', '/proc/self/environ'], guarded: true, runs: 'non-dumpable' },
  { name: 'node itself, by name', command: 'node', args: ['-e', NODE_PRINTS_UID], guarded: true, runs: 'non-dumpable' },
  { name: 'a #!/usr/bin/env node script', files: { 'server.cjs': `#!/usr/bin/env node\n${NODE_PRINTS_UID}\n` }, command: './server.cjs', guarded: true, runs: 'non-dumpable' },
  { name: 'a #!/usr/bin/env -S node --flags script', files: { 'server.cjs': `#!/usr/bin/env -S node --no-warnings --max-old-space-size=256\n${NODE_PRINTS_UID}\n` }, command: './server.cjs', guarded: true, runs: 'non-dumpable' },
  { name: 'a #! script naming node by absolute path', files: { 'server.cjs': `#!$NODE\n${NODE_PRINTS_UID}\n` }, command: './server.cjs', guarded: true, runs: 'non-dumpable' },
  { name: 'a script found on PATH (the workspace is on it)', files: { 'probe-server': `#!/usr/bin/env node\n${NODE_PRINTS_UID}\n` }, command: 'probe-server', guarded: true, runs: 'non-dumpable' },
  { name: 'node running a script that starts `node` by name, as npx does: the child too', files: { 'npx-like.cjs': `#!/usr/bin/env node\nconst r = require('child_process').spawnSync('node', ['-e', ${JSON.stringify(NODE_PRINTS_UID)}], { encoding: 'utf8' });\nprocess.stdout.write(r.stdout);\n` }, command: './npx-like.cjs', guarded: true, runs: 'non-dumpable' },
  { name: 'a #!/usr/bin/python3 script: python finds its standard library from argv[0]', needs: '/usr/bin/python3', files: { 'server.py': `#!/usr/bin/python3\n${PY_PRINTS_UID}` }, command: './server.py', guarded: true, runs: 'non-dumpable' },
  { name: 'a #!/usr/bin/env python3 script', needs: '/usr/bin/python3', files: { 'server.py': `#!/usr/bin/env python3\n${PY_PRINTS_UID}` }, command: './server.py', guarded: true, runs: 'non-dumpable' },
  { name: 'a #!/bin/sh wrapper that execs a readable program: the shell is guarded, the program is not', files: { 'wrapper.sh': '#!/bin/sh\nexec stat -c uid=%u /proc/self/environ\n' }, command: './wrapper.sh', guarded: true, runs: 'dumpable' },
  { name: 'an executable text file without #!: as given', files: { 'plain.txt': 'echo hi\n' }, command: './plain.txt', guarded: false, reason: /neither a compiled program nor a #! script/, runs: 'fails' },
  { name: '#!/usr/bin/env with no program: as given', files: { 'bare.sh': '#!/usr/bin/env\necho hi\n' }, command: './bare.sh', guarded: false, reason: /runs env with no program/, runs: 'fails' },
  { name: '#!/usr/bin/env with an option other than -S: as given', files: { 'opt.cjs': `#!/usr/bin/env -i\n${NODE_PRINTS_UID}\n` }, command: './opt.cjs', guarded: false, reason: /env options or variables/, runs: 'fails' },
  { name: '#!/usr/bin/env NAME ARG without -S: as given (env would look for "node --x")', files: { 'two.cjs': `#!/usr/bin/env node --no-warnings\n${NODE_PRINTS_UID}\n` }, command: './two.cjs', guarded: false, reason: /which env would take as one program name/, runs: 'fails' },
  { name: '#!/usr/bin/env -S VAR=value node: as given', files: { 'var.cjs': `#!/usr/bin/env -S FOO=1 node\n${NODE_PRINTS_UID}\n` }, command: './var.cjs', guarded: false, reason: /env options or variables/, runs: 'dumpable' },
  { name: 'an interpreter that is itself a script: as given', files: { 'interp.sh': '#!/bin/sh\nexec stat -c uid=%u /proc/self/environ\n', 'inner.x': '#!./interp.sh\n' }, command: './inner.x', guarded: false, reason: /is not a compiled program/, runs: 'dumpable' },
  { name: 'a #! line ending in CR: as given, and failing as the kernel makes it', files: { 'crlf.sh': '#!/bin/sh\r\necho uid=0\r\n' }, command: './crlf.sh', guarded: false, reason: /its interpreter "\/bin\/sh\\r" cannot be read/, runs: 'fails' },
  { name: 'an interpreter not on PATH: as given', files: { 'gone.x': '#!/usr/bin/env no-such-interpreter-here\n' }, command: './gone.x', guarded: false, reason: /no-such-interpreter-here is not on the server's PATH/, runs: 'fails' },
  { name: 'a #! line longer than the kernel reads: as given', files: { 'long.cjs': `#!/usr/bin/env -S node ${'--no-warnings '.repeat(30)}\n${NODE_PRINTS_UID}\n` }, command: './long.cjs', guarded: false, reason: /longer than the kernel reads/, runs: 'fails' },
  { name: 'a command that does not exist: as given, and the start fails as before', command: 'no-such-mcp-server-here', guarded: false, reason: /is not an executable file on the server's PATH/, runs: 'fails' },
  { name: 'a directory named like the command: not a program', files: { 'sub/.keep': '' }, command: './sub', guarded: false, reason: /is not an executable file/, runs: 'fails' },
];
