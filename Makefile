# TripLedger: `make demo` and `make test` on a fresh machine. See README.md.
SHELL := /bin/bash
SWIFT ?= swift
# libpq-dev: the headers of PostgreSQL's client library for shared trips (loaded only by `trip sync` & co).
APT_PACKAGES := libsqlite3-dev libcurl4-openssl-dev libpq-dev
# Only the tests need these: openssl runs a real TLS server with a self-signed certificate;
# hledger and ledger (and Beancount, from PyPI) read our exported journals.
# postgresql-15: the throwaway server of the shared-trip tests (Tests/Postgres/pg-cluster.sh); iproute2
# gives the lo of a test's own network namespace an address (RemoteTLSTests); procps: pgrep.
TEST_APT_PACKAGES := openssl hledger ledger postgresql-15 iproute2 procps
# The bench compares `trip list` with the sqlite3 shell printing the same rows, and edits a
# shared trip with it for the pull row. valgrind counts instructions (BENCH_ARGS=--instructions).
BENCH_APT_PACKAGES := sqlite3 valgrind
# Release builds link the Swift runtime statically: it halves process start-up (see make bench).
RELEASE_FLAGS := -c release --static-swift-stdlib
BENCH_DIR ?= $(CURDIR)/.build-bench-data
# Seconds each fuzz target runs in `make fuzz`.
FUZZ_SECONDS ?= 300

# `make install PREFIX=…` (default /usr/local; DESTDIR for packaging).
PREFIX ?= /usr/local
TRIP_BIN ?= .build/release/trip

.PHONY: all deps test-deps apt-install build release install install-files man demo test test-long test-convergence bench fuzz fuzz-smoke report-screenshot format lint clean

all: build

## deps: install the system libraries the package links against, if missing (apt, sudo when not root).
deps:
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(APT_PACKAGES)"

test-deps: deps
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(TEST_APT_PACKAGES)"
	@python3 -c "import beancount" 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check beancount

apt-install:
	@if command -v dpkg >/dev/null 2>&1; then \
	  missing=""; \
	  for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	  if [ -n "$$missing" ]; then \
	    sudo=""; [ "$$(id -u)" -ne 0 ] && sudo=sudo; \
	    echo "installing:$$missing"; \
	    $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing; \
	  fi; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product trip

## install: the release binary to $(PREFIX)/bin, the man page (docs/trip.1) to share/man/man1, and
## bash, zsh and fish completion scripts where those shells look for them under $(PREFIX)/share.
install: release
	@$(MAKE) --no-print-directory install-files

## install-files: install without building; TRIP_BIN is the binary to install (the tests use the debug one).
install-files:
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 0755 $(TRIP_BIN) $(DESTDIR)$(PREFIX)/bin/trip
	install -m 0644 docs/trip.1 $(DESTDIR)$(PREFIX)/share/man/man1/trip.1
	$(TRIP_BIN) --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/trip
	$(TRIP_BIN) --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_trip
	$(TRIP_BIN) --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/trip.fish

## man: regenerate docs/trip.1 from the commands' help texts (argument-parser's generate-manual
## plugin, offline). Run it after changing a help text and commit the result.
man:
	$(SWIFT) package generate-manual
	cp .build/plugins/GenerateManual/outputs/trip/trip.1 docs/trip.1

## demo: build and run a sample trip end to end, offline, in a temporary ledger.
demo: release
	.build/release/trip demo

## test: every test (unit, ledger, rate service over loopback HTTP, end to end through the binary).
test: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

## test-long: the hardening suites at full size (TRIP_LONG_TESTS=1): 50 SIGKILLs during a 100,000-row
## import and 50 during a rates sync, 8 processes × 500 concurrent adds, disk full on a tmpfs, shared
## trips under kills and restarts, the convergence test over 200 seeds of 60 steps, and an older
## release (built from git history) against this one: sharing a trip, and the same bytes from
## report, list and export in every format.
## `make test` runs the same suites small. They run the release `trip` (TRIP_BIN), as users do: the
## debug build needs about four times the CPU for a 100,000-row import. CI runs both.
HARDENING_SUITES := CrashSafetyTests|ConcurrencyTests|DiskFullEndToEndTests|ConvergenceTests|OldReleaseCompatibilityTests|OldReleaseOutputTests|AddAFieldTests
test-long: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) build $(RELEASE_FLAGS) --product trip
	TRIP_LONG_TESTS=1 TRIP_BIN=$(CURDIR)/.build/release/trip $(SWIFT) test --skip-build --filter '$(HARDENING_SUITES)'

## test-convergence: only the shared-trip convergence test of test-long, 200 seeds of 60 steps
## (TRIP_LONG_TESTS=1), with the release `trip`. A failing seed replays with TRIP_SEED=N
## (TRIP_TRACE_STEPS=1 prints each step; TRIP_KEEP_TEMP=1 keeps the devices' ledgers).
test-convergence: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) build $(RELEASE_FLAGS) --product trip
	TRIP_LONG_TESTS=1 TRIP_BIN=$(CURDIR)/.build/release/trip $(SWIFT) test --skip-build --filter ConvergenceTests

## bench: release build, generated 1,000,000-purchase ledger, median timings as a table (sqlite3
## for the `trip list` comparison). BENCH_ARGS: TripBench's flags, e.g. `--only add,sharing`,
## `--cpu` (CPU time instead of wall time, steadier while other work runs) or `--instructions`
## (what `trip` executes, counted by valgrind: the same from run to run; slow, so with `--only`).
## The two products only: TestSupport reads ledgers through Storage's internal `Database`
## (`@testable`), which exists in debug builds, the tests', and not in release.
bench: deps
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(BENCH_APT_PACKAGES)"
	$(SWIFT) build $(RELEASE_FLAGS) --product trip
	$(SWIFT) build $(RELEASE_FLAGS) --product TripBench
	.build/release/TripBench --trip .build/release/trip --data $(BENCH_DIR) $(BENCH_ARGS)

## fuzz: libFuzzer + ASan on the amount, provider-body (Frankfurter, open.er-api, ECB) and CSV
## parsers, FUZZ_SECONDS (300) each, one after another; prints exec/s, executions, seconds and
## crashes per target and fails on any crash. Instrumented build in .build-fuzz. See Tests/Fuzz/fuzz.sh.
fuzz: deps
	SWIFT=$(SWIFT) Tests/Fuzz/fuzz.sh run $(FUZZ_SECONDS)

## fuzz-smoke: the same, 30 s per target (CI).
fuzz-smoke: deps
	SWIFT=$(SWIFT) Tests/Fuzz/fuzz.sh run 30

## report-screenshot: the demo trip's HTML report (.build/report/report.html) and, when Chromium
## is installed (apt-get install chromium), a headless screenshot of it (.build/report/report.png).
report-screenshot: release
	@mkdir -p .build/report
	@ledger=$$(TRIP_TODAY=2026-03-08 .build/release/trip demo --keep | tail -1 | awk '{print $$NF}'); \
	TRIP_DB=$$ledger TRIP_TODAY=2026-03-08 .build/release/trip report --format html --lines > .build/report/report.html; \
	rm -rf "$$(dirname $$ledger)"; \
	if command -v chromium >/dev/null 2>&1; then \
	  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1000,2200 \
	    --screenshot=$(CURDIR)/.build/report/report.png file://$(CURDIR)/.build/report/report.html 2>/dev/null && echo ".build/report/report.png"; \
	else echo ".build/report/report.html written; install chromium for the screenshot"; fi

format:
	$(SWIFT) format --in-place --parallel $$(git ls-files '*.swift')

lint:
	$(SWIFT) format lint --strict --parallel $$(git ls-files '*.swift')

clean:
	rm -rf .build .build-fuzz $(BENCH_DIR)
