import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { git } from '../helpers/git-repo.ts';

/**
 * Programs a repository can make git run, each planted to touch a marker file
 * (`$M/<marker>`, outside the repository). The runner first shows each plant
 * fires under a plain `git worktree add` (so no case passes by planting
 * nothing), then runs enter_worktree in a fresh copy and expects no marker.
 * `env` cases put the plant in the agent's environment instead of the repository.
 */
export interface PlantCase {
  readonly what: string;
  /** The marker file the plant touches when it runs. */
  readonly marker: string;
  /** Plant into the repository at `repo`; `m` is the markers directory. */
  readonly plant?: (repo: string, m: string) => void;
  /** Variables added to the agent's environment; `m` is the markers directory. */
  readonly env?: (m: string) => Record<string, string>;
}

/** An executable script that touches `$m/<name>` (a filter's also passes its input through). */
function script(file: string, m: string, name: string, passThrough = false): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `#!/bin/sh\ntouch '${m}/${name}'\n${passThrough ? 'cat\n' : ''}`);
  chmodSync(file, 0o755);
  return file;
}

/** A hook in .git/hooks. */
const hook = (name: string): PlantCase => ({
  what: `the ${name} hook`,
  marker: name,
  plant: (repo, m) => void script(path.join(repo, '.git/hooks', name), m, name),
});

/** `* filter=<driver>` in `attributesFile` (relative to the repository), the driver's `key` a touching command. */
function filter(what: string, driver: string, key: 'smudge' | 'process', attributesFile = '.gitattributes', viaInclude = false): PlantCase {
  return {
    what,
    marker: `filter-${key}`,
    plant: (repo, m) => {
      const file = path.join(repo, attributesFile);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, `* filter=${driver}\n`);
      // Committed before the driver exists, so the new checkout has it (and committing runs nothing).
      if (attributesFile === '.gitattributes') {
        git(repo, 'add', '.gitattributes');
        git(repo, 'commit', '--quiet', '-m', 'attributes');
      }
      const command = script(path.join(m, 'bin', `${key}.sh`), m, `filter-${key}`, true);
      if (viaInclude) {
        const included = path.join(m, 'included.gitconfig');
        writeFileSync(included, `[filter "${driver}"]\n\t${key} = ${command}\n\trequired = true\n`);
        git(repo, 'config', 'include.path', included);
      } else {
        git(repo, 'config', `filter.${driver}.${key}`, command);
        git(repo, 'config', `filter.${driver}.required`, 'true');
      }
    },
  };
}

export const PLANT_CASES: readonly PlantCase[] = [
  hook('post-checkout'),
  hook('reference-transaction'),
  hook('post-index-change'),
  {
    what: 'every hook git knows, planted at once',
    marker: 'post-checkout',
    plant: (repo, m) => {
      for (const h of ['pre-commit', 'post-commit', 'post-merge', 'post-rewrite', 'pre-auto-gc', 'post-checkout', 'reference-transaction'])
        script(path.join(repo, '.git/hooks', h), m, h);
    },
  },
  {
    what: 'core.hooksPath in the repository config, pointing at planted hooks',
    marker: 'post-checkout',
    plant: (repo, m) => {
      script(path.join(m, 'hooks', 'post-checkout'), m, 'post-checkout');
      git(repo, 'config', 'core.hooksPath', path.join(m, 'hooks'));
    },
  },
  {
    what: 'core.fsmonitor naming a program',
    marker: 'fsmonitor',
    plant: (repo, m) => git(repo, 'config', 'core.fsmonitor', script(path.join(m, 'bin', 'fsmonitor.sh'), m, 'fsmonitor')),
  },
  filter('a smudge filter, required, named in .gitattributes', 'evil', 'smudge'),
  filter('a long-running process filter', 'evil', 'process'),
  filter('a smudge filter named in .git/info/attributes', 'evil', 'smudge', '.git/info/attributes'),
  filter('a smudge filter defined in an included config file', 'evil', 'smudge', '.gitattributes', true),
  filter('a smudge filter whose driver name has dots and capitals', 'My.Evil.Driver', 'smudge'),
  {
    what: 'GIT_TRACE in the agent environment, naming a file to write',
    marker: 'trace',
    env: (m) => ({ GIT_TRACE: path.join(m, 'trace') }),
  },
  {
    what: 'GIT_CONFIG_COUNT in the agent environment, setting core.fsmonitor',
    marker: 'fsmonitor',
    env: (m) => ({
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'core.fsmonitor',
      GIT_CONFIG_VALUE_0: script(path.join(m, 'bin', 'fsmonitor.sh'), m, 'fsmonitor'),
    }),
  },
  {
    what: 'GIT_CONFIG_PARAMETERS in the agent environment, setting a smudge filter',
    marker: 'filter-smudge',
    plant: (repo) => writeFileSync(path.join(repo, '.git/info/attributes'), '* filter=envfilter\n'),
    env: (m) => ({
      GIT_CONFIG_PARAMETERS: `'filter.envfilter.smudge'='${script(path.join(m, 'bin', 'smudge.sh'), m, 'filter-smudge', true)}'`,
    }),
  },
];
