# SignatureInk: `make demo` and `make test` do all the set-up on a fresh Debian machine with Swift.
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
SWIFT ?= swift
SAMPLES := $(wildcard SampleStrokes/*.json)

.PHONY: all deps build release release-tool test test-steps test-api test-browser test-server test-store test-signing test-release test-readme test-spark server load docs demo bench bench-store bench-check bench-update fuzz sanitize clean

all: build

# Installs the system libraries when they are missing: with apt-get when running as root, otherwise it names them.
deps:
	@command -v $(SWIFT) >/dev/null || { echo "error: swift is not on PATH; install Swift 6.1 or newer." >&2; exit 1; }
	@missing=""; \
	command -v pkg-config >/dev/null || missing="$$missing pkg-config"; \
	command -v ld.gold >/dev/null && command -v readelf >/dev/null || missing="$$missing binutils"; \
	pkg-config --exists cairo 2>/dev/null || missing="$$missing libcairo2-dev"; \
	pkg-config --exists libpng 2>/dev/null || missing="$$missing libpng-dev"; \
	pkg-config --exists pangocairo 2>/dev/null || missing="$$missing libpango1.0-dev"; \
	[ -f /usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf ] || missing="$$missing fonts-noto-core"; \
	[ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ] || missing="$$missing fonts-noto-cjk"; \
	[ -f /usr/share/fonts/truetype/ecolier-court/Ecolier-court.ttf ] || missing="$$missing fonts-ecolier-court"; \
	command -v pdfinfo >/dev/null || missing="$$missing poppler-utils"; \
	command -v qpdf >/dev/null || missing="$$missing qpdf"; \
	pkg-config --exists sqlite3 2>/dev/null || missing="$$missing libsqlite3-dev"; \
	command -v sqlite3 >/dev/null || missing="$$missing sqlite3"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && command -v psql >/dev/null || missing="$$missing postgresql"; \
	pkg-config --exists libqpdf 2>/dev/null || missing="$$missing libqpdf-dev"; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	command -v chromedriver >/dev/null || missing="$$missing chromium-driver"; \
	command -v wrk >/dev/null || missing="$$missing wrk"; \
	command -v curl >/dev/null || missing="$$missing curl"; \
	command -v openssl >/dev/null || missing="$$missing openssl"; \
	command -v certutil >/dev/null || missing="$$missing libnss3-tools"; \
	python3 -c "import ensurepip, venv" 2>/dev/null || missing="$$missing python3-venv"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "Installing$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "error: missing system packages:$$missing" >&2; \
	    echo "install them with: sudo apt-get install$$missing" >&2; exit 1; \
	  fi; \
	fi

build: deps
	$(SWIFT) build

# The command-line tool as users should run it, built to start fast (see BENCHMARKS.md): optimised; the Swift
# runtime, FoundationEssentials and the C++ runtime linked in statically; Cairo, libpng and fontconfig linked in from
# the archives of their Debian development packages (SIGNATURE_INK_SHARED_CAIRO=1 links the shared ones); a
# position-dependent executable, which leaves the loader 85,000 fewer relocations to apply at start; exporting only
# the Cairo, fontconfig and FreeType functions that Pango must share; and linked by Scripts/link-release with
# --as-needed, so that Pango, which the engine opens only when text is drawn, is not loaded by every process; with
# qpdf linked in from its archive too, its initializers run when a form is first read (Scripts/qpdf-static.c:
# opening libqpdf.so, the C++ runtime and GnuTLS took 4.2 ms of a 15 ms `sign`); and with concrete types' metadata reached through their accessors rather than by mangled
# name, so that a process does not scan every protocol conformance record in the binary the first time it builds a
# [String: String] or an array of ranges (three scans took 0.69 M of the 3.59 M instructions of rendering one sample
# file, 0.9 M fewer with the flag); and with each function in a section of its own, laid out in the order of
# Scripts/release-order.txt, so that the code the common commands run is read from a few pages rather than from all
# over the executable (a render in a new process, 0.88 to 1.00 of the time; Scripts/record-release-order re-records it).
# Beside it, signature-ink-store, which `consent --store` runs to keep a consent: the store's databases and Foundation
# live there, not in the tool (they were 58 MB of its 83 MB stripped, and 0.3-0.5 ms of every process's start).
RELEASE_FLAGS := -c release --static-swift-stdlib -Xswiftc -Xclang-linker -Xswiftc -no-pie \
	-Xswiftc -ld-path=$(CURDIR)/Scripts/link-release -Xlinker --no-export-dynamic \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
	-Xswiftc -Xfrontend -Xswiftc -function-sections -Xlinker --section-ordering-file=$(CURDIR)/Scripts/release-order.txt
release: release-tool
	$(if $(RELEASE_BUILT),,$(SWIFT) build $(RELEASE_FLAGS) --product signature-ink-store)
	@echo "signature-ink is $$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/signature-ink"

# The tool alone, as the release steps of `make test` and the CI's instruction counts run it: none of them keeps a
# consent, and signature-ink-store's release build (the store's databases, SwiftNIO and BoringSSL) took 408 s of a
# CI run on two cores. `consent --store` in the tests runs the debug signature-ink-store.
release-tool: deps
	$(if $(RELEASE_BUILT),,$(SWIFT) build $(RELEASE_FLAGS) --product signature-ink)

# Builds the named products (debug) unless BUILT is set: `make test` builds every product once and sets it (with
# RELEASE_BUILT once `make release` has run) for its steps, since asking SwiftPM again plans the build anew each
# time, 2-17 s a step, and switching between the debug and release builds about 25 s (70 s of a CI run in all).
# A step run on its own builds what it needs.
products = $(if $(BUILT),@:,$(foreach p,$(1),$(SWIFT) build --product $(p) &&) :)

# Builds everything (failing on any warning in this project's own code) and runs the tests, the store's on SQLite and
# on a throw-away PostgreSQL cluster, then the HTTP API against its description (test-api), the pages in a real
# browser (test-browser) and the rest below. Every step runs beside the one cluster (Scripts/with-postgres starts it
# and removes it after; the kill test of test-store makes its databases there too). `swift test --skip-build` runs
# the build just made: `swift test` alone plans the build again and recompiled two modules, 43 s in CI.
test: deps
	@Scripts/with-postgres $(MAKE) --no-print-directory test-steps

test-steps:
	$(SWIFT) build --build-tests 2>&1 | tee .build-log.txt
	@if grep -E "^/.*/(Sources|Tests)/.*: warning:" .build-log.txt; then echo "error: warnings in the build" >&2; exit 1; fi
	@rm -f .build-log.txt
	$(SWIFT) test --skip-build
	$(MAKE) test-api BUILT=yes
	$(MAKE) test-browser BUILT=yes
	$(MAKE) test-server BUILT=yes
	$(MAKE) test-store BUILT=yes
	$(MAKE) test-signing BUILT=yes
	$(MAKE) test-release BUILT=yes
	$(MAKE) test-readme BUILT=yes RELEASE_BUILT=yes
	$(MAKE) test-spark BUILT=yes RELEASE_BUILT=yes

# schemathesis with every check (--checks all) against the debug signature-ink-server on a free port, from the
# description the server serves (/openapi.yaml): statuses, content types, headers and bodies as described, schema-valid
# data accepted and invalid data refused, 405 with Allow for undescribed methods. 25 cases per operation with a fixed
# seed (API_EXAMPLES and API_SEED change them); about 15 seconds. schemathesis is installed, at the version below,
# into a virtual environment under .build/ when missing. Tests/API/schemathesis.toml says what it expects beyond that.
SCHEMATHESIS_VERSION := 4.32.5
API_VENV := .build/api-venv
test-api: deps
	@$(API_VENV)/bin/schemathesis --version 2>/dev/null | grep -qF "$(SCHEMATHESIS_VERSION)" || { \
	  python3 -m venv $(API_VENV) && $(API_VENV)/bin/python -m pip install -q "schemathesis==$(SCHEMATHESIS_VERSION)"; }
	$(call products,signature-ink-server)
	python3 Tests/API/run.py "$$($(SWIFT) build --show-bin-path)/signature-ink-server" $(API_VENV)/bin/schemathesis

# The server's pages in headless Chromium through chromedriver and selenium (installed with pip when missing):
# the signature form cell's life cycle and the consent walk-through, drawn with real pen and touch input; the
# OpenAPI description read with PyYAML (installed likewise) against the routes; in each state axe-core 4.12.1 (the
# axe.min.js of axe-playwright-python, installed likewise without its dependencies) checks WCAG 2.2 A and AA, and the
# page's reflow at 320 CSS px; the keyboard walks the dialogs and the pad. Screenshots and axe's reports of each
# state go to Tests/Browser/artifacts/.
test-browser: deps
	@python3 -c "import selenium" 2>/dev/null || python3 -m pip install -q "selenium>=4.20"
	@python3 -c "import yaml" 2>/dev/null || python3 -m pip install -q pyyaml
	@python3 -c "import axe_playwright_python" 2>/dev/null || python3 -m pip install -q --no-deps "axe-playwright-python==0.1.8"
	$(call products,signature-ink-server signature-ink)
	python3 Tests/Browser/test_pages.py "$$($(SWIFT) build --show-bin-path)/signature-ink-server"

# The server under the requests that used to starve it (Tests/Server/starve.py): the pages answered within 100 ms
# while the costliest renders run, memory under its bound, 503 at once past the queue, a client that hangs up
# freeing its worker, the work timeout, and SIGTERM within its grace.
test-server: deps
	$(call products,signature-ink-server)
	python3 Tests/Server/starve.py "$$($(SWIFT) build --show-bin-path)/signature-ink-server"

# The consent store the hard way (Tests/Store/crash.py): consents signed from four threads while the server is killed
# with SIGKILL at random moments and started again, four times; every consent answered 200 must be there, once, with
# the digests it was answered with, and the hash chain must verify. On SQLite, on PostgreSQL (a throw-away cluster),
# and with two servers on one PostgreSQL database (then withdrawals through one, read on the other). About a minute.
test-store: deps
	$(call products,signature-ink-server)
	Scripts/with-postgres python3 Tests/Store/crash.py "$$($(SWIFT) build --show-bin-path)/signature-ink-server"

# The PAdES signatures of `signature-ink sign --key` and `consent --seal-key` checked by tools that did not make them
# (Tests/Signing/check_signatures.py): five forms signed with the P-256, P-384 and RSA keys of a throw-away PKI made
# with openssl, one of them by two signers in turn, and a consent sealed with an RSA and a P-256 key; every signature
# validated by pyHanko (intact, trusted, and what changed after it), by poppler's pdfsig against an NSS database that
# trusts the root, and by `openssl cms -verify` over its byte range, and its /ByteRange, /Contents and signed
# attributes (exactly PAdES B-B's three) read from the file; a flipped bit refused, and a drawing appended after
# signing told from a second signature. The seal also as a certification (DocMDP 2), the consent record inside it
# (/AF) and beside it with their SHA-256s, the audit trail page (pdftotext), and `consent verify` on the sealed, the
# changed and an untrusted root's files. A few seconds.
# certutil (libnss3-tools) and openssl come with `deps`; pyHanko and pikepdf are installed with pip when missing.
test-signing: deps
	@python3 -c "import pyhanko" 2>/dev/null || python3 -m pip install -q "pyhanko==0.38.0"
	@python3 -c "import pikepdf" 2>/dev/null || python3 -m pip install -q pikepdf
	$(call products,signature-ink)
	python3 Tests/Signing/check_signatures.py "$$($(SWIFT) build --show-bin-path)/signature-ink"

# The tool as `make release` links it against the development build the tests run: the same bytes, errors and exit
# status for images, text, consent documents, forms and a batch, and no Cairo shared library loaded at start.
test-release: release-tool
	$(call products,signature-ink)
	Tests/Release/agreement.sh "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/signature-ink" \
		"$$($(SWIFT) build --show-bin-path)/signature-ink"

# Every shell line of the README's ```sh blocks, run as a new user types them in a fresh copy of the repository with
# the tools just built (the server started and stopped); and every Swift example of the README and of the DocC
# articles found, as printed, in the compiled Examples/DocExamples.
test-readme: release-tool
	$(call products,signature-ink signature-ink-server)
	python3 Tests/README/readme_commands.py "$$($(SWIFT) build --show-bin-path)" "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)"

# The Spark job of Examples/spark/render.py on local[2] (Tests/Spark/run.py): a JSON-lines table with bad lines through
# spark-submit, a Parquet table and a folder of files, over the repository's stroke files, with the binary `make
# release` builds, as executors run it: every id once, every image the one `signature-ink render FILE -o OUT` writes,
# failures with their id and error, and the job's exit status. About a minute. Java (default-jre-headless) is
# installed with apt-get when `java` is missing, and pyspark, pyarrow and pandas, at the versions below, into a
# virtual environment under .build/ when they are.
PYSPARK_VERSION := 4.3.0
PYARROW_VERSION := 26.0.1
PANDAS_VERSION := 2.3.3
SPARK_VENV := .build/spark-venv
test-spark: release-tool
	@command -v java >/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "Installing default-jre-headless"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless >/dev/null; \
	  else \
	    echo "error: java is missing; install it with: sudo apt-get install default-jre-headless" >&2; exit 1; \
	  fi; }
	@major=$$(java -version 2>&1 | sed -n '1s/.*version "\([0-9]*\).*/\1/p'); [ "$${major:-0}" -ge 17 ] || { \
	  echo "error: Spark 4 needs Java 17 or newer; java is version $${major:-unknown}" >&2; exit 1; }
	@$(SPARK_VENV)/bin/python -c "import pyspark, pyarrow, pandas; \
	  assert (pyspark.__version__, pyarrow.__version__, pandas.__version__) == \
	  ('$(PYSPARK_VERSION)', '$(PYARROW_VERSION)', '$(PANDAS_VERSION)')" 2>/dev/null || { \
	  echo "Installing pyspark $(PYSPARK_VERSION), pyarrow and pandas into $(SPARK_VENV)"; \
	  python3 -m venv $(SPARK_VENV) && $(SPARK_VENV)/bin/python -m pip install -q "pyspark==$(PYSPARK_VERSION)" \
	    "pyarrow==$(PYARROW_VERSION)" "pandas==$(PANDAS_VERSION)"; }
	$(SPARK_VENV)/bin/python Tests/Spark/run.py "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/signature-ink"

# Runs the HTTP server (signature-ink-server, release build) on 127.0.0.1:8080: the form cell page at /, the consent
# pages at /consent, POST /render.
server: deps
	$(SWIFT) build -c release --product signature-ink-server
	"$$($(SWIFT) build -c release --show-bin-path)/signature-ink-server"

# wrk against the release server's /render with a real signature_pad body for 60 seconds, then malformed bodies;
# prints requests per second, latency percentiles and the server's memory at the start and the end.
load: deps
	Benchmarks/server/load.sh

# Builds the DocC documentation of every library, articles included, into .build/plugins/Swift-DocC/outputs/;
# a broken symbol link or any other DocC warning fails it.
DOC_TARGETS := SignatureInk SignatureInkFormats SignatureInkRender SignatureInkConsent SignatureInkForms SignatureInkStore SignatureInkServer
docs: deps
	$(SWIFT) package generate-documentation $(foreach t,$(DOC_TARGETS),--target $(t)) --warnings-as-errors

# Builds the libFuzzer targets in Fuzz/ (one per decoder, auto-detection and rendering) and runs each for
# FUZZ_SECONDS seconds from a seed corpus; a crash fails the run and leaves its input in fuzz-out/crashes/.
FUZZ_SECONDS ?= 20
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) SWIFT=$(SWIFT) Fuzz/run.sh

# Runs the tests under the address sanitizer and the thread sanitizer, each in its own build folder. Leaks inside
# the toolchain's XCTest and Foundation are suppressed (Tests/lsan-suppressions.txt); any other leak fails.
sanitize: deps
	LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/lsan-suppressions.txt $(SWIFT) test --sanitize=address --scratch-path .build-asan
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan

# Renders every file in SampleStrokes/ to out/ as PNG, and signs the sample consent document (two signers) into
# out/study-consent.pdf with its record out/study-consent.json.
demo: build
	@mkdir -p out
	$(SWIFT) run -q signature-ink render $(SAMPLES) --out-dir out --background '#ffffff'
	$(SWIFT) run -q signature-ink consent SampleStrokes/consent/study-consent.json \
	  --sign participant=SampleStrokes/long-name.json --name participant="Ada Lovelace" \
	  --sign investigator=SampleStrokes/short-name.json --name investigator="Charles Babbage" \
	  --date 2026-11-25T14:30:00+01:00 --sharing investigatorOnly \
	  -o out/study-consent.pdf --record out/study-consent.json
	$(SWIFT) run -q signature-ink consent verify out/study-consent.json out/study-consent.pdf
	@echo "Rendered $(words $(SAMPLES)) signatures and one signed consent PDF to $(CURDIR)/out/:"
	@ls out

# Runs every benchmark suite in Benchmarks/ (release build; several minutes). Figures and peers: BENCHMARKS.md.
bench: deps
	cd Benchmarks && $(SWIFT) package benchmark

# What keeping every consent costs (Benchmarks/store/bench.py): signings a second through the release server with
# each store beside the same without one, servers taking turns in slices of 3 s, on a throw-away PostgreSQL cluster;
# PostgreSQL on a core of its own and the servers on the other when taskset is there (a database on its own machine,
# as servers that share one use it). About five minutes; BENCHMARKS.md has the figures.
bench-store: deps
	@if command -v taskset >/dev/null && [ "$$(nproc)" -ge 2 ]; then \
	  taskset -c 1 Scripts/with-postgres taskset -c 0 python3 Benchmarks/store/bench.py --interleaved --rounds 12 --seconds 3; \
	else \
	  Scripts/with-postgres python3 Benchmarks/store/bench.py --interleaved --rounds 12 --seconds 3; \
	fi

# What CI runs: every suite built and run briefly; allocations and instruction counts checked against
# Benchmarks/Thresholds/ (see Benchmarks/ci/check.sh).
bench-check: deps
	Benchmarks/ci/check.sh

# Re-records Benchmarks/Thresholds/ after an intended change; review the diff and commit it.
bench-update: deps
	Benchmarks/ci/check.sh --update

clean:
	rm -rf .build out .build-fuzz fuzz-out
