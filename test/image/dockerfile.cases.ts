/**
 * What the Dockerfile must say for the image to be the one docs/image.md describes —
 * distroless static, pinned, reproducible, multi-arch, assembled by scripts/rootfs.sh —
 * one rule a line: where it applies (the build stage, the final stage, or the whole file),
 * the pattern that must match there, and a mutation (replace `from` by `to` in the
 * Dockerfile) that breaks the rule, so that every rule is shown able to fail.
 * dockerfile.test.ts runs them.
 */
export type Where = 'file' | 'build' | 'final';

export const DOCKERFILE_RULES: ReadonlyArray<readonly [rule: string, where: Where, pattern: RegExp, from: string, to: string]> = [
  [
    'the build stage comes from the BUILD_IMAGE ARG',
    'file',
    /^FROM \$\{BUILD_IMAGE\} AS build$/m,
    'FROM ${BUILD_IMAGE} AS build',
    'FROM node:24 AS build',
  ],
  [
    'the final stage comes from the RUNTIME_IMAGE ARG',
    'final',
    /^FROM \$\{RUNTIME_IMAGE\}$/m,
    'FROM ${RUNTIME_IMAGE}\n',
    'FROM gcr.io/distroless/static-debian12:nonroot\n',
  ],
  [
    'the build base is node:24-bookworm-slim pinned by digest',
    'file',
    /^ARG BUILD_IMAGE=node:24-bookworm-slim@sha256:[0-9a-f]{64}$/m,
    'ARG BUILD_IMAGE=node:24-bookworm-slim@',
    'ARG BUILD_IMAGE=node:24-bookworm-slim #',
  ],
  [
    'the runtime base is static-debian12:nonroot pinned by digest',
    'file',
    /^ARG RUNTIME_IMAGE=gcr\.io\/distroless\/static-debian12:nonroot@sha256:[0-9a-f]{64}$/m,
    'static-debian12:nonroot@sha256:',
    'nodejs24-debian12:nonroot@sha256:',
  ],
  [
    'the runtime base label names static-debian12:nonroot',
    'final',
    /image\.base\.name="gcr\.io\/distroless\/static-debian12:nonroot"/,
    'base.name="gcr.io/distroless/static',
    'base.name="gcr.io/distroless/base',
  ],
  ['the build stage knows its target architecture', 'build', /^ARG TARGETARCH$/m, 'ARG TARGETARCH\n', ''],
  [
    'the tree is scripts/rootfs.sh --layer for TARGETARCH',
    'build',
    /bash scripts\/rootfs\.sh --layer --arch "\$\{TARGETARCH\}" \/out/,
    '--arch "${TARGETARCH}"',
    '--arch amd64',
  ],
  [
    'rootfs.sh gets SOURCE_DATE_EPOCH',
    'build',
    /SOURCE_DATE_EPOCH="\$\{SOURCE_DATE_EPOCH\}" bash scripts\/rootfs\.sh/,
    'SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH}" bash',
    'bash',
  ],
  ['SOURCE_DATE_EPOCH is a build argument', 'build', /^ARG SOURCE_DATE_EPOCH=0$/m, 'ARG SOURCE_DATE_EPOCH=0\n', ''],
  [
    'the state directory gets SOURCE_DATE_EPOCH too',
    'build',
    /touch -d "@\$\{SOURCE_DATE_EPOCH\}" \/state\/core-agent \/state/,
    'touch -d "@${SOURCE_DATE_EPOCH}"',
    'touch',
  ],
  ['the library manifest is in the build context', 'build', /^COPY image\/ image\/$/m, 'COPY image/ image/\n', ''],
  [
    'npm ci sees the image workspace (kubernetes-mcp-server)',
    'build',
    /^COPY image\/package\.json image\/\nRUN npm ci /m,
    'COPY image/package.json image/\n',
    '',
  ],
  [
    'the final stage copies the tree whole, no file names',
    'final',
    /^COPY --from=build \/out\/ \/$/m,
    'COPY --from=build /out/ /',
    'COPY --from=build /out/app/core-agent.mjs /app/',
  ],
  [
    "the state directory is nonroot's",
    'final',
    /^COPY --from=build --chown=65532:65532 \/state\/ \/var\/lib\/$/m,
    '--chown=65532:65532 /state/',
    '/state/',
  ],
  ['the process runs as 65532', 'final', /^USER 65532:65532$/m, 'USER 65532:65532', 'USER 0:0'],
  [
    'V8 reads the code cache built into /app',
    'final',
    /^\s+CORE_AGENT_COMPILE_CACHE=\/app\/compile-cache \\$/m,
    'CORE_AGENT_COMPILE_CACHE=/app/compile-cache',
    'CORE_AGENT_COMPILE_CACHE=/tmp/cc',
  ],
  [
    'PATH finds /usr/local/bin/kubernetes-mcp-server',
    'final',
    /^\s+PATH=\/usr\/local\/bin:\/usr\/bin:\/bin$/m,
    'PATH=/usr/local/bin:',
    'PATH=',
  ],
  [
    'the entrypoint is node and the bundle, exec form (no shell)',
    'final',
    /^ENTRYPOINT \["\/nodejs\/bin\/node", "\/app\/core-agent\.mjs"\]$/m,
    'ENTRYPOINT ["/nodejs/bin/node", "/app/core-agent.mjs"]',
    'ENTRYPOINT /nodejs/bin/node /app/core-agent.mjs',
  ],
  [
    'the created label is the CREATED argument',
    'final',
    /image\.created="\$\{CREATED\}"/,
    'image.created="${CREATED}"',
    'image.created="2026-01-01"',
  ],
];
