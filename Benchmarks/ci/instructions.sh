#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Instruction counts of the end-to-end paths, counted by valgrind's callgrind (package-benchmark's `instructions`
# metric needs perf counters, which shared and containerised machines often lack), compared with
# Benchmarks/Thresholds/instructions.json within TOLERANCE_PERCENT:
# - png@1x, svg: `ink-timing --probe STAGE` (one pass over Benchmarks/Fixtures/signatures) minus the `load` run
#   (process start and decoding the fixtures): the library's rendering.
# - cli-one-png: the whole of one `signature-ink render FILE -o OUT.png` process, start-up included (the dynamic
#   loader, the Swift runtime, reading, drawing, writing), with the binary `make release` builds: what a script
#   calling the tool once per signature waits for (BENCHMARKS.md: 3 ms).
# - cli-flags-png: the same with the render flags people give (`--scale 2 --width 400 --height 200 --fit
#   --pen-color '#1f3a93' --quiet`), which are read without ArgumentParser as the bare command is.
# - cli-batch-png: `signature-ink render DIR --out-dir OUT --jobs 1` over the same fixtures, per file (the
#   process's count divided by the number of files).
# - cli-one-pdf, cli-batch-pdf: the same two as PDF (`-o OUT.pdf`, `--format pdf`): ink alone, which the engine
#   writes itself rather than through Cairo's PDF surface.
# - cli-decorated-png: one file with a signature line and an "X" (`--signature-line --x-mark`), drawn by Cairo and
#   written as RGBA rather than as coverage.
# - cli-decorated-background-png: the same file with a signature line on a white background
#   (`--signature-line --background white`): every pixel opaque, where the transparent image above is mostly empty.
# - cli-signature-pad-batch: `signature-ink render FILES --out-dir OUT --jobs 1` over the signature_pad recordings of
#   Tests/Fixtures/realink/signature-pad-chromium/dpr1 (toData() as web front ends post it, each group with its pen:
#   opaque, translucent and eraser pens among them), per file: what users send, with the file's pen honoured.
# - cli-inkml-brushes-batch: the same recordings written as InkML by `signature-ink convert --to inkml` (each pen a
#   <brush> with its colour and width, and the signature_pad width model as the engine's own brush property), then
#   rendered as one batch the same way, per file: InkML's XML and brushes instead of signature_pad's JSON.
# - consent-pdf: `signature-ink consent` of the sample study consent with two signers, in a new process: the
#   argument parser, loading Pango and the fonts, laying out and drawing the PDF, the record (every thread counted).
# - cli-text-png: one file with a timestamp and a watermark (`--timestamp --watermark DRAFT`): opening HarfBuzz and
#   two faces of Noto Sans for two short lines that it sets without Pango, what such text costs a new process.
# - cli-sign-form: `signature-ink sign` of Tests/Fixtures/forms/ten-pages.pdf at its signature field, with the
#   signer's name and the date: opening qpdf and HarfBuzz, the form read and written (the peer is `qpdf --overlay`).
#
#   Benchmarks/ci/instructions.sh            check (part of make bench-check)
#   Benchmarks/ci/instructions.sh --update   re-record (part of make bench-update)
#
# Counts depend on the toolchain and on the system's Cairo, libpng and zlib: re-record when those change.
# Exit status: 0 within tolerance (or valgrind missing: skipped with a notice), 1 outside it.
set -euo pipefail
# A step that fails says which line it was, so that a log never ends without a reason.
trap 'echo "error: instructions.sh: line $LINENO failed (exit $?)" >&2' ERR
cd "$(dirname "$0")/.."
TOLERANCE_PERCENT=2
probes=(png@1x svg)
cli_probes=(cli-one-png cli-flags-png cli-batch-png cli-one-pdf cli-batch-pdf cli-decorated-png cli-decorated-background-png
    cli-signature-pad-batch cli-inkml-brushes-batch consent-pdf cli-text-png cli-sign-form)
file=Thresholds/instructions.json

if ! command -v valgrind >/dev/null; then
    echo "notice: valgrind is not installed; instruction counts not checked (apt-get install valgrind)"
    exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# A build's own output is shown only when it fails (swift build writes its errors to standard output).
quiet() {
    if ! "$@" > "$work/build.log" 2>&1; then
        grep -Ev '^\[[0-9]+/[0-9]+\]|prohibited flag|distributed-tracing|CMakeLists' "$work/build.log" | tail -40 >&2
        echo "error: instructions.sh: '$*' failed" >&2
        exit 1
    fi
}
# Only the counter this check runs. The document and form timers are built before the scripts that use them
# (document/compare.py, forms/compare.py: their usage says how); built here, they added the consent, forms,
# certificate and CMS modules to this package's release build, 86 s on two cores of a CI run over its 30 minutes.
quiet swift build -c release --product ink-timing
# A copy without debug information: valgrind 3.19 cannot read the DWARF 5 that clang writes for the C code the
# package compiles (swift-crypto's BoringSSL), and callgrind counts instructions, which debug information does not
# change.
bin="$work/ink-timing"
strip --strip-debug -o "$bin" "$(swift build -c release --show-bin-path)/ink-timing"
# The command-line tool as shipped (make release), stripped the same way.
quiet make -s -C .. release-tool
cli="$work/signature-ink"
strip --strip-debug -o "$cli" "$(cd .. && swift build -c release --show-bin-path)/signature-ink"
fixtures=Fixtures/signatures
# A glob, not `ls | head -1`: under pipefail, head closing the pipe early makes ls die of SIGPIPE whenever the
# listing outgrows one pipe write, and the script would stop without a word.
listing=("$fixtures"/*)
one="${listing[0]}"
files=${#listing[@]}
# The signature_pad recordings: their toData() files, not the options and canvas images beside them.
pad_listing=(../Tests/Fixtures/realink/signature-pad-chromium/dpr1/*[0-9].json)
# The same recordings as InkML with brushes, written by the tool itself (not counted).
quiet "$cli" convert "${pad_listing[@]}" --to inkml --out-dir "$work/inkml" --quiet
inkml_listing=("$work"/inkml/*.inkml)

# Two probes at a time (CI has 2 cores); Swift's per-process hash seed is fixed so counts repeat.
count() {
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" --probe "$1" \
        2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p' > "$work/$1"
}
count_cli() {
    local name="$1"; shift
    mkdir -p "$work/out-$name"
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$cli" "$@" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p' > "$work/$name"
}
for p in load "${probes[@]}" "${cli_probes[@]}"; do
    case "$p" in
        cli-one-png) count_cli "$p" render "$one" -o "$work/out-one.png" & ;;
        cli-flags-png) count_cli "$p" render "$one" -o "$work/out-flags.png" --scale 2 --width 400 --height 200 --fit \
            --pen-color '#1f3a93' --quiet & ;;
        cli-batch-png) count_cli "$p" render "$fixtures" --out-dir "$work/out-batch" --jobs 1 --quiet & ;;
        cli-one-pdf) count_cli "$p" render "$one" -o "$work/out-one.pdf" & ;;
        cli-batch-pdf) count_cli "$p" render "$fixtures" --format pdf --out-dir "$work/out-batch-pdf" --jobs 1 --quiet & ;;
        cli-decorated-png) count_cli "$p" render "$one" -o "$work/out-decorated.png" --signature-line --x-mark & ;;
        cli-decorated-background-png) count_cli "$p" render "$one" -o "$work/out-decorated-background.png" \
            --signature-line --background white & ;;
        cli-signature-pad-batch) count_cli "$p" render "${pad_listing[@]}" --out-dir "$work/out-pad" --jobs 1 --quiet & ;;
        cli-inkml-brushes-batch) count_cli "$p" render "${inkml_listing[@]}" --out-dir "$work/out-inkml" --jobs 1 --quiet & ;;
        consent-pdf) count_cli "$p" consent ../SampleStrokes/consent/study-consent.json \
            --sign participant=../SampleStrokes/long-name.json --name participant="Ada Lovelace" \
            --sign investigator=../SampleStrokes/short-name.json --name investigator="Charles Babbage" \
            --sharing investigatorOnly -o "$work/consent.pdf" --record "$work/consent.json" & ;;
        cli-text-png) count_cli "$p" render "$one" -o "$work/out-text.png" --timestamp --watermark DRAFT & ;;
        cli-sign-form) count_cli "$p" sign ../Tests/Fixtures/forms/ten-pages.pdf \
            --ink Fixtures/signatures/uim-hello-world-000.json --field CustomerSignature --name "Ada Lovelace" \
            --date 2026-11-25 -o "$work/signed-form.pdf" & ;;
        *) count "$p" & ;;
    esac
    while [ "$(jobs -rp | wc -l)" -ge 2 ]; do sleep 0.5; done
done
wait
echo "$files" > "$work/files"
echo "${#pad_listing[@]}" > "$work/pad-files"
echo "${#inkml_listing[@]}" > "$work/inkml-files"

python3 - "$work" "$file" "${1:-}" "$TOLERANCE_PERCENT" "${probes[@]}" "${cli_probes[@]}" <<'EOF'
import json, os, sys
work, path, mode, tolerance, probes = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5:]
def read(name):
    text = open(os.path.join(work, name)).read().strip()
    if not text.isdigit():
        sys.exit(f"error: instructions.sh: callgrind gave no count for {name} (valgrind failed or was killed)")
    return int(text)
base, files = read("load"), read("files")
now = {}
for p in probes:
    if p in ("cli-one-png", "cli-one-pdf", "cli-flags-png", "cli-decorated-png", "cli-decorated-background-png", "consent-pdf",
             "cli-text-png", "cli-sign-form"):
        now[p] = read(p)
    elif p in ("cli-batch-png", "cli-batch-pdf"):
        now[p] = read(p) // files
    elif p == "cli-signature-pad-batch":
        now[p] = read(p) // read("pad-files")
    elif p == "cli-inkml-brushes-batch":
        now[p] = read(p) // read("inkml-files")
    else:
        now[p] = read(p) - base
if mode == "--update":
    json.dump(now, open(path, "w"), indent=2, sort_keys=True)
    print(f"wrote {path}: {now}")
    sys.exit(0)
want = json.load(open(path))
failed = False
for p in probes:
    delta = 100.0 * (now[p] - want[p]) / want[p]
    verdict = "ok" if abs(delta) <= tolerance else ("WORSE" if delta > 0 else "better (re-record)")
    failed |= delta > tolerance
    print(f"instructions {p}: {now[p]:,} vs threshold {want[p]:,} ({delta:+.2f} %, tolerance {tolerance} %): {verdict}")
sys.exit(1 if failed else 0)
EOF
