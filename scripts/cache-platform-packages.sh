#!/usr/bin/env bash
# Puts the npm package's platform packages (package.json's optionalDependencies: Node 24 and
# ripgrep, both architectures) with their registry entries into npm's cache. A set-up step of
# make test-unit: test/install/pack.test.ts installs the packed tarball with them --offline (a
# global install asks the registry for each package's entry), so the test reaches nothing
# beyond loopback. Quick when they are cached already (--prefer-offline).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
node -e 'for (const [n, v] of Object.entries(require("./package.json").optionalDependencies)) console.log(`${n}@${v}`)' |
  xargs npm cache add --prefer-offline
