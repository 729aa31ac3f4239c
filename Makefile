# The two commands: `make demo` and `make test`. Both set up what they need
# first (scripts/setup.sh, idempotent). See CONTRIBUTING.md.

SHELL := /bin/bash
export PATH := $(CURDIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)

DEMO_BIND ?= 127.0.0.1:8080
DEMO_DB ?= data/users.sqlite3
SERVER := target/server/user-management-server

.PHONY: all setup setup-build setup-docs build package server debug-server demo test test-phases compat leptos leptos-build lint unit wasm-tests js-tests load smoke frameworks runners workers mocks runners-workers-mocks openapi e2e rust-example reqwest-app versions component edge component-tests docs publish-check openapi-lint openapi-conformance openapi-types bench mutants mutants-sample clean

all: build

## Everything the tests need (browsers, drivers, the component's hosts, the
## book's and the API checks' tools); setup-build: only what the package and
## the server need, so that `make demo` installs no test tools; setup-docs:
## only what the book needs.
setup:
	@bash scripts/setup.sh

setup-build:
	@bash scripts/setup.sh --build

setup-docs:
	@bash scripts/setup.sh --docs

## The npm package in pkg/: the web target (pkg/web/, which the demo page
## loads; its .wasm is the one every entry uses), the entries and package.json.
## pkg/package.json is the file target that stands for the whole package: it
## is rebuilt when a file it is built from is newer (the library's and the JS
## layer's Rust sources, npm/, the manifests and the lock, the build scripts),
## and every target that reads pkg/ depends on it. The set-up runs in its
## recipe, not as a prerequisite, so that an up-to-date package runs nothing.
PKG := pkg/package.json
PKG_SOURCES := $(shell find src js/src npm -type f) js/snippet.js js/Cargo.toml \
	Cargo.toml Cargo.lock rust-toolchain.toml package.json package-lock.json \
	scripts/package.sh scripts/setup.sh LICENSE-MIT LICENSE-APACHE

build: $(PKG)

$(PKG): $(PKG_SOURCES)
	@bash scripts/setup.sh --build
	scripts/package.sh
	@touch $@

## The tarball a user installs: target/user-management-client-VERSION.tgz.
package: $(PKG)
	cd pkg && npm pack --pack-destination ../target

## The reference server, optimised (its own profile: the release profile is tuned for wasm size).
server: setup-build
	cargo build --locked -p user-management-server --profile server

## Build everything, start the reference server on its embedded database, serve the demo page.
demo: $(PKG) server
	@mkdir -p $(dir $(DEMO_DB))
	$(SERVER) --bind $(DEMO_BIND) --db $(DEMO_DB) --www www --pkg pkg

## Everything CI runs: these phases, in this order, each timed
## (scripts/phases.sh: its wall and CPU time in a line as it ends, and in a
## table of them all, with the parts of those run side by side, when the run
## ends, a failed one too). The make of the phases runs under the timer,
## which prints the table whatever its status and exits with it. Each phase
## runs between two marks that read that make's children's CPU time:
## phase-start-NAME, then NAME (its prerequisites, then its recipe), then
## phase-end-NAME. The full set-up, the first phase, is what setup-docs
## sets up and more: that make takes setup-docs as done (-o). `make test
## TEST_PHASES="setup openapi"` runs only those phases, so.
TEST_PHASES := setup lint docs unit build wasm-tests js-tests load smoke frameworks runners-workers-mocks e2e rust-example reqwest-app openapi publish-check component-tests
.PHONY: $(addprefix phase-start-,$(TEST_PHASES)) $(addprefix phase-end-,$(TEST_PHASES))
test:
	@scripts/phases.sh run -- $(MAKE) --no-print-directory -o setup-docs test-phases
	@echo "make test: all checks passed"

test-phases: $(addprefix phase-end-,$(TEST_PHASES))

$(addprefix phase-start-,$(TEST_PHASES)): phase-start-%:
	@scripts/phases.sh start $* $$PPID

$(addprefix phase-end-,$(TEST_PHASES)): phase-end-%: phase-start-% %
	@scripts/phases.sh end $* $$PPID

## `runners`, `workers` and `mocks` at once, and the three OpenAPI checks at
## once (scripts/parallel.sh prints each one's output whole when all have
## ended): most of their time is spent waiting on browsers, servers and
## builds of one thread. What they need is made first, and the three makes
## take it as done (-o), so none of them runs set-up or a build again.
AT_ONCE = $(MAKE) --no-print-directory -o setup -o debug-server -o $(PKG)
runners-workers-mocks: setup debug-server $(PKG)
	scripts/parallel.sh "$(AT_ONCE) runners" "$(AT_ONCE) workers" "$(AT_ONCE) mocks"

openapi: setup debug-server
	scripts/parallel.sh "$(AT_ONCE) openapi-lint" "$(AT_ONCE) openapi-conformance" "$(AT_ONCE) openapi-types"

## The checks that resolve afresh against the crates.io index (not part of
## `make test`, which reads no registry after set-up): the semver ranges of
## wasm-bindgen and its sibling crates, the oldest release they allow and
## the newest (scripts/versions.sh).
compat: versions

## Lint: rustfmt, clippy on every target, rustdoc. Clippy and rustdoc check
## the dependencies (metadata only), so the builds after them compile those
## crates again, and each `--target` and package selection below compiles
## its own copy of the crates whose features or host units differ: what
## compiles more than once in `make test`, and why, is in CONTRIBUTING.md
## ("What compiles twice"). The library is also checked with its MSRV
## toolchain (Cargo.toml's rust-version, which the set-up installs), natively
## and for wasm32, in a target dir of its own; and its tree with default
## features off must hold no TLS of the crate's own (the code without
## `tracing` is what the wasm32 builds of js/ and component/ compile).
lint:
	python3 scripts/import_cycles.py src
	@for lock in $$(git ls-files '*Cargo.lock'); do \
	  (cd "$$(dirname "$$lock")" && cargo metadata --locked --format-version 1 >/dev/null) || \
	  { echo "lint: $$lock is out of date with its manifests: run cargo metadata beside it and commit it" >&2; exit 1; }; \
	done
	cargo fmt --all --check
	cargo fmt --check --manifest-path tests/apps/reqwest-app/Cargo.toml
	cargo clippy --locked --workspace --all-targets -- -D warnings
	msrv=$$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml) && \
	  CARGO_TARGET_DIR=target/msrv cargo +$$msrv check --locked -q -p user-management-client --lib && \
	  CARGO_TARGET_DIR=target/msrv cargo +$$msrv check --locked -q -p user-management-client --lib --target wasm32-unknown-unknown
	@tree=$$(cargo tree --locked -p user-management-client --no-default-features -e normal) || exit 1; \
	  if grep -E ' (rustls|ring|aws-lc-rs|aws-lc-sys) v' <<<"$$tree"; then \
	  echo "lint: with default features off the library compiles a TLS of its own (above)" >&2; exit 1; fi
	@tree=$$(cargo tree --locked -p user-management-client-js --target wasm32-unknown-unknown -e normal) || exit 1; \
	  if grep -E ' wasm-bindgen-futures v' <<<"$$tree"; then \
	  echo "lint: the npm package's .wasm depends on an executor (above): its calls are driven from JS" >&2; exit 1; fi
	cargo clippy --locked -p user-management-client -p user-management-client-js --target wasm32-unknown-unknown --lib -- -D warnings
	cargo clippy --locked -p user-management-client -p user-management-client-js --target wasm32-unknown-unknown --all-targets -- -D warnings
	RUSTDOCFLAGS="-D warnings" cargo doc --locked -q --no-deps -p user-management-client -p user-management-client-js
	RUSTDOCFLAGS="-D warnings" cargo doc --locked -q --no-deps -p user-management-client -p user-management-client-js --target wasm32-unknown-unknown
	cargo clippy --locked -p user-management-client -p user-management-client-component --target wasm32-wasip2 --lib -- -D warnings
	cargo clippy --locked -p user-management-client --target wasm32-wasip2 --lib --tests -- -D warnings
	cargo clippy --locked -p user-management-client-component --target wasm32-wasip2 --example joined --example edge --example users_handler --features joined-example,edge-example,users-handler-example -- -D warnings
	@out=$$(cargo check --locked -q -p user-management-client --target wasm32-wasip1 2>&1) && \
	  { echo "lint: the library built for wasm32-wasip1, which has no wasi:http" >&2; exit 1; }; \
	  grep -q "needs wasm32-wasip2" <<<"$$out" || { echo "$$out" >&2; echo "lint: the wasm32-wasip1 build did not fail with the message naming wasm32-wasip2" >&2; exit 1; }

## Native tests: the client's pure modules, the whole client on tokio
## against the reference server (its debug binary, built first), and the
## reference server; then the private-CA test again with the webpki-roots
## feature (Mozilla's roots instead of the platform's verifier). `--workspace` on the second run too: cargo
## resolves features for the packages a command selects, so the root
## package alone would compile much of its graph again; with the workspace
## selected, only the crates webpki-roots changes compile.
unit: debug-server
	cargo test --locked --workspace
	cargo test --locked --workspace --features user-management-client/webpki-roots --test native_tls

## The reference server as the tests run it (debug build, rebuilt when its
## source changed), its features resolved for it alone: `cargo test
## --workspace` resolves them for every member with its dev-dependencies, and
## builds the server's graph again for its own tests (CONTRIBUTING.md).
debug-server:
	cargo build --locked -q -p user-management-server

## The shared wasm suite in Node, headless Chromium, headless Firefox ESR and
## WebKitGTK, against the server; each run must execute the same tests.
wasm-tests: debug-server
	scripts/with-server.sh --faults -- scripts/wasm-tests.sh

## Tests of the built package (pkg/) from plain JS, and the book's marked
## JavaScript samples run against it (tests/js/docs.test.mjs; the server's
## fault routes give them their failures).
js-tests: debug-server $(PKG)
	scripts/with-server.sh --faults -- node --test tests/js/

## 10,000 calls with 1,000 in flight through the package, against the server;
## and 10,000 whose fetch, body or header provider never settles, each scenario.
load: debug-server $(PKG)
	scripts/with-server.sh -- node --test tests/load/

## The package's manifest and types checked by attw (node10, node16 from
## CommonJS and ESM, bundler) and publint (warnings fail); then the packed
## package installed and used in Node (ESM, CommonJS, bundled), Bun (import,
## require), Deno, workerd, and Chromium, Firefox and WebKit (plain modules,
## esbuild, Vite build and dev server, webpack, the manual loader); and its
## types under each resolver, and with TypeScript 5.9 (tests/openapi's), the
## oldest the book's Compatibility page names; and the TanStack Query
## helpers' types against the oldest @tanstack/query-core the peer range
## allows (tests/types/floor). publint runs
## with NO_COLOR: with CI set it colours its output, and the check reads text.
smoke: debug-server $(PKG)
	attw --pack pkg --format table-flipped
	@out=$$(NO_COLOR=1 publint --strict pkg 2>&1); echo "$$out"; grep -q '^All good!$$' <<<"$$out" || { echo "publint: not all good" >&2; exit 1; }
	tsc -p tests/types
	tests/openapi/node_modules/.bin/tsc -p tests/types
	tsc -p tests/types/floor
	scripts/with-server.sh -- node tests/smoke/run.mjs

## The packed package in frameworks, against the server: a Next.js 16 app
## (examples/next: `next build` with Turbopack, standalone output, run from a
## copy; `next build --webpack` with `next start`; `next dev`; a server
## component, Node.js and Edge route handlers, a client page in Chromium), a
## Vite SSR bundle with `ssr.noExternal` run from a copy (examples/vite-ssr),
## Rollup bundles for Node.js and a page (examples/rollup; the page in
## Chromium, Firefox and WebKit), SvelteKit 3 with adapter-node (a server
## `load`; examples/sveltekit) and Nuxt 4 (a Nitro server route, the .output
## server run from a copy; examples/nuxt), Astro 7 with @astrojs/node (a
## page rendered on the server; examples/astro) and `wrangler dev --local`
## (examples/worker in workerd), all four built and run on Node 24.
## Set-up installs the apps' locks under target/frameworks/; the test, the
## tarball, offline. Next.js in one process, the others in a second, at once: the two take
## about as long, and much of each is waiting on a build of one thread.
frameworks: setup debug-server $(PKG)
	scripts/with-server.sh -- scripts/parallel.sh \
	  "node tests/frameworks/run.mjs next" \
	  "node tests/frameworks/run.mjs ssr rollup sveltekit nuxt astro wrangler"

## The packed package on Node 22, 24 and 26 (ESM and CommonJS: examples/node;
## `npm install --engine-strict` warning-free on each; `engines` an open
## lower bound), and
## in the test runners' user projects, on Node 22, 24 and 26: Jest 30 (examples/jest: jsdom,
## node) and Vitest 5 (examples/vitest: node, jsdom, happy-dom, browser mode in
## Chromium). Set-up installs their locks under target/runners/; the test, the tarball, offline.
runners: setup debug-server $(PKG)
	scripts/with-server.sh -- node tests/runners/run.mjs

## The packed package where importing must not wait for the .wasm, in the
## browser engines (Chromium, Firefox and WebKit): a page whose .wasm the test server holds back
## until the page's own code has run, whose first call then succeeds; and a
## module Web Worker calling the API, built by webpack (a web-target page's
## `new Worker(new URL(…))`, and `target: "webworker"`), Vite (its default
## worker format) and esbuild (examples/worker-web), and unbundled, with a
## module service worker (examples/worker-plain), each page opened 3 times.
workers: debug-server $(PKG)
	scripts/with-server.sh -- node tests/workers/run.mjs

## The mocks users' tests use, in front of the packed package (no server):
## MSW 3 setupServer on Node 22, 24 and 26, ESM and CommonJS (examples/msw-node);
## MSW setupWorker in a page built by Vite and Vitest 5 browser mode with MSW
## (examples/msw-browser); Playwright's page.route. Set-up installs their
## locks under target/mocks/; the test, the tarball, offline.
mocks: setup $(PKG)
	node tests/mocks/run.mjs

## The Rust API example (examples/rust), built with wasm-pack and run in Node against the server.
rust-example: debug-server
	scripts/rust-example.sh

## An app outside the workspace on today's reqwest (tests/apps/reqwest-app,
## its own lock and target dir) against the server with its fault routes:
## its own reqwest client through http_client, the re-export's type, a
## spawned count, the pages, a 503, a refused base URL; and a match on
## Operation without a wildcard arm failing with E0004.
reqwest-app: debug-server
	scripts/reqwest-app.sh

## A Leptos 0.8 app (examples/leptos) against the server, both ways it runs:
## its server render, natively on tokio (the client's native transport),
## and its page, for wasm32, in Chromium, Firefox and WebKit (tests/leptos/).
## Not part of `make test`: its two builds take some 5 minutes of CPU
## (CONTRIBUTING.md has the figures), more than that run's time
## budget has left.
leptos: debug-server leptos-build
	scripts/with-server.sh -- node --test tests/leptos/

## examples/leptos built both ways into target/leptos/ (scripts/leptos.sh).
leptos-build: setup
	scripts/leptos.sh

## Rust apps on other wasm-bindgen releases: one pinning the oldest the
## library allows (built for wasm32), one taking the newest (the Leptos-style
## SSR example, checked natively). Resolves against the crates.io index.
versions: setup
	scripts/versions.sh

## The WebAssembly component (wasm32-wasip2): target/component/user-management-client.wasm,
## its WIT checked (exports user-management:client/users@0.1.0, imports only wasi:*),
## and its jco transpilation for Node in target/component/jco/; and the
## joined-calls program (component/examples/joined.rs) in target/component/joined.wasm.
component: setup
	scripts/component.sh

## The component against the server, one table of cases (tests/component/cases.json)
## in four hosts, each running every case: transpiled by jco in Node, the
## wasmtime CLI (`wasmtime run -S http --invoke`), wasmtime-py
## (tests/component/python_host.py), and jco's browser output in Chromium;
## and the library's calls joined under wstd's runtime in the wasmtime CLI
## (tests/component/joined.test.mjs: they overlap, a timeout fires while
## another call waits, a dropped call's request goes).
## The two edge handlers (tests/edge), which `make component` builds with
## the component: target/edge/handler.wasm, the handler on the library, and
## target/edge/composed.wasm, a handler importing `users` composed with the
## component (wasm-tools compose).
edge: component

## component-tests runs first the library's unit tests built for
## wasm32-wasip2, in the wasmtime CLI with wasi:http (the WASI transport's
## own among them), then the cases above and the edge handlers.
component-tests: debug-server component
	scripts/with-server.sh --faults -- env CARGO_TARGET_WASM32_WASIP2_RUNNER="$(CURDIR)/target/venv/bin/wasmtime run -S http" \
	  cargo test --locked -p user-management-client --target wasm32-wasip2 --lib
	scripts/with-server.sh --faults -- node --test tests/component/ tests/edge/

## The book (docs/) built by mdBook into target/book/, any warning failing
## it, with the JS API reference (TypeDoc, from the shipped .d.ts) and the
## Rust one (rustdoc) beside its pages; then every relative link of every
## Markdown file checked (scripts/check-links.mjs), and the README's "Where it
## runs": a Tested and an Expected-only table, every path they name existing,
## each tested example named by the test its row names
## (scripts/check-where-it-runs.mjs).
docs: setup-docs
	scripts/book.sh

## The publish checks: both client crates (`cargo package`, built from their
## packaged sources, offline) and the npm package in pkg/ (`npm publish
## --dry-run`), each file list checked against what users need.
publish-check: $(PKG)
	scripts/publish-check.sh

## The OpenAPI document (openapi/openapi.json) linted by Redocly's
## recommended-strict rules (redocly.yaml; no telemetry, no update check),
## and its digit patterns checked against its integer ranges.
openapi-lint: setup
	REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true redocly lint --format=stylish openapi/openapi.json
	node --test tests/openapi/document.test.mjs

## Schemathesis against the server, generating requests from the document:
## every check, a fixed seed, at least 300 cases, no failure (tests/openapi/conformance.sh).
openapi-conformance: debug-server
	scripts/with-server.sh -- tests/openapi/conformance.sh

## Types generated from the document by openapi-typescript agree with the
## package's (npm/index.d.ts), under tsc --strict (tests/openapi/types.test.mjs).
openapi-types: setup
	node --test tests/openapi/types.test.mjs

## Benchmarks side by side with raw fetch (not part of `make test`): see
## bench/README.md. One run on each of the two newest long-term-support
## Node.js lines, each naming its line; BENCH_NODE=path/to/node runs one line instead.
BENCH_NODE ?= tests/node-lines/node_modules/node24/bin/node tests/node-lines/node_modules/node26/bin/node
bench: setup $(PKG)
	for node in $(BENCH_NODE); do $$node bench/run.mjs || exit 1; done

## Mutation testing (not part of `make test`): cargo-mutants mutates every
## file of src/ that a native build compiles, one change at a time in a copy
## of the tree, in three groups (scripts/mutants.sh): `rest` (the model,
## errors, options, the host layer, the plain and native transports) against
## the unit tests and every native integration test (tests/native*.rs, the
## reference server built first beside them); `loop` (src/api/client.rs,
## src/api/hooks/) against the unit tests, tests/native_client.rs,
## tests/native.rs and tests/native_hooks.rs; `rules` (src/rules/) against the unit tests. Cheap
## settings for a 2-core machine: one job, the `mutants` profile (no debug
## info, the library at opt-level 1), and one target directory for every
## copy, so the dependencies build once. What it leaves out (the property
## tests' helpers): .cargo/mutants.toml. Reports:
## target/mutants-report/{rest,loop,rules}/mutants.out/; mutants.md's score
## table is written from them (scripts/mutants_table.py). Needs cargo-mutants
## (`cargo install --locked cargo-mutants`). The run fails on a survivor
## mutants.md does not list, and on one it lists that did not survive.
## Mutation testing, not part of `make test` (CONTRIBUTING.md, mutants.md):
## cargo-mutants over the natively compiled code (scripts/mutants.sh) and
## over what only wasm32 compiles (scripts/mutants-wasm.sh: the fetch and
## WASI transports, the JS layer), StrykerJS over the JavaScript files
## (scripts/mutants-js.sh); each writes mutants.md's table. Every run goes
## on when one before it fails; the target fails if any did.
## mutants-sample: a tenth of every group, in under an hour.
mutants: setup debug-server $(PKG)
	status=0; for run in scripts/mutants.sh scripts/mutants-wasm.sh scripts/mutants-js.sh; do $$run || status=1; done; exit $$status

mutants-sample: setup debug-server $(PKG)
	status=0; for run in scripts/mutants.sh scripts/mutants-wasm.sh scripts/mutants-js.sh; do $$run --sample || status=1; done; exit $$status

## The demo page (www/) end to end in Chromium, Firefox and WebKit (the
## screenshots in Chromium), against the server (needs `make build`).
e2e: debug-server $(PKG)
	scripts/with-server.sh -- node --test tests/e2e/

clean:
	cargo clean
	rm -rf pkg node_modules tests/node-lines/node_modules tests/openapi/node_modules
