#!/usr/bin/env bash
# Commit subjects of at most 72 characters (CONTRIBUTING.md, "Commits").
#
#   check-commit-subjects.sh BASE            every commit after BASE up to HEAD, merges too
#   check-commit-subjects.sh --message FILE  one commit message (the commit-msg hook)
#
# CI passes the base pinned in .ci/run, so history from before the rule is never
# judged by it. Merge commits count: their subjects are written like any other.
set -euo pipefail
MAX=72
# Count characters, not bytes, so a subject with "—" or "→" is measured as written.
export LC_ALL=C.UTF-8

too_long() { (( ${#1} > MAX )); }

if [[ ${1-} == --message ]]; then
  file=${2:?usage: check-commit-subjects.sh --message FILE}
  # The subject is the first line that is neither blank nor a git comment.
  subject=$(grep -v -m1 -E '^(#|[[:space:]]*$)' "$file" || true)
  if too_long "$subject"; then
    echo "commit-msg: the subject is ${#subject} characters, over $MAX: say what changed in $MAX or fewer, and put the why in the body" >&2
    echo "  $subject" >&2
    exit 1
  fi
  exit 0
fi

base=${1:?usage: check-commit-subjects.sh BASE | --message FILE}
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "check-commit-subjects: not a git checkout; no commits to check"
  exit 0
fi
if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
  if [[ $(git rev-parse --is-shallow-repository) == true ]]; then
    echo "check-commit-subjects: $base is not in this shallow clone; not checked (clone with full history to check)" >&2
    exit 0
  fi
  echo "check-commit-subjects: the base commit $base is not in this repository" >&2
  exit 1
fi
if ! git merge-base --is-ancestor "$base" HEAD; then
  echo "check-commit-subjects: $base is not an ancestor of HEAD; give the commit this branch started from" >&2
  exit 1
fi

bad=0
while IFS= read -r -d '' record; do
  hash=${record%% *}
  subject=${record#* }
  if too_long "$subject"; then
    echo "${hash:0:12}: ${#subject} characters (at most $MAX): ${subject:0:100}$([[ ${#subject} -gt 100 ]] && echo …)" >&2
    bad=1
  fi
done < <(git log --format='%H %s%x00' "$base..HEAD" | tr -d '\n')

if (( bad )); then
  echo "check-commit-subjects: reword these subjects to $MAX characters or fewer (git rebase -i $base, then 'reword'); the why goes in the body" >&2
  exit 1
fi
echo "check-commit-subjects: every subject after ${base:0:12} is at most $MAX characters"
