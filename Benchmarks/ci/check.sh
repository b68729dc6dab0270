#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What CI checks of performance, on measures that do not wobble on a shared machine: every suite is built and run
# briefly (so none stops compiling), and heap allocations and, where the kernel exposes a counter, instruction
# counts are compared with the thresholds committed in Benchmarks/Thresholds/.
#
#   Benchmarks/ci/check.sh            check (make bench-check)
#   Benchmarks/ci/check.sh --update   re-record the thresholds after an intended change (make bench-update),
#                                     then review `git diff Benchmarks/Thresholds` and commit it
#   Benchmarks/ci/check.sh --suites   check the package-benchmark suites only, not ci/instructions.sh, which builds
#                                     the main package's release tool (CI runs the two apart: see .ci/run)
#
# - Raster, Vector (tolerances in their code: instructions +-3 %, allocations +-25 %): mallocCountTotal
#   and instructions (where perf counters are available; otherwise only allocations are compared).
# - Capture, Simplify (no tolerances in their code, so package-benchmark's strict default applies): only
#   mallocCountTotal, which is exact; the streaming benchmarks' threshold is 0 allocations.
# - PNG: its committed CoveragePNGEncoder thresholds (its owner's), checked on mallocCountTotal only here; an
#   update re-records them with the metrics its code declares.
# - Batch: run briefly, no threshold (it measures wall time and threads).
# - Instruction counts of PNG and SVG end to end under callgrind (ci/instructions.sh), because this machine's kind
#   has no perf counters for package-benchmark's `instructions` metric; tolerance 2 %.
# SIGNATURE_INK_BENCH_CI=1 shortens the Raster, Vector and Batch runs to a few iterations.
# package-benchmark's tool exits 2 on a regression and 4 when every deviation is an improvement, but `swift package`
# turns any error its plugin throws into exit status 1; the plugin's error names which it was, so the verdict is read
# from the output: a regression fails here, an improvement passes with a notice to re-record, and anything else (a
# crash) is retried once.
# package-benchmark 1.38 writes a thresholds file with the benchmark name's spaces as underscores but looks it up
# by the name as it is, so benchmark names must have no spaces. Should a Capture or Simplify name gain spaces (and
# no underscores), an update renames its file back to the exact name.
set -uo pipefail
cd "$(dirname "$0")/.."
export SIGNATURE_INK_BENCH_CI=1

mode=check
[ "${1:-}" = "--update" ] && mode=update
instructions=yes
[ "${1:-}" = "--suites" ] && instructions=no
own=(--target Raster --target Vector --metric mallocCountTotal --metric instructions)
geometry=(--target Capture --target Simplify --metric mallocCountTotal)
png=(--target PNG --filter 'CoveragePNGEncoder_.*')
status=0
# The steps that failed, named again at the end, where a log's tail shows them.
failed=()

output=$(mktemp)
trap 'rm -f "$output"' EXIT

# Runs `swift package ARGS` and prints its verdict: 0 passed, 2 a regression, 4 only improvements, else a failure.
verdict() {
    swift package "$@" 2>&1 | tee "$output"
    local rc=${PIPESTATUS[0]}
    if [ "$rc" = 0 ]; then return 0; fi
    if grep -q "error: benchmarkThresholdRegression" "$output"; then return 2; fi
    if grep -q "error: benchmarkThresholdImprovement" "$output"; then return 4; fi
    return "$rc"
}

run() {
    echo "+ swift package $*"
    verdict "$@"
    local rc=$?
    if [ "$rc" != 0 ] && [ "$rc" != 2 ] && [ "$rc" != 4 ]; then
        # Not a threshold verdict: the swift-package process itself crashed once here (in libdispatch). Retry once.
        echo "notice: swift package exited with $rc; retrying once"
        verdict "$@"
        rc=$?
    fi
    case "$rc" in
        0) ;;
        4) echo "notice: better than the committed thresholds; run 'make bench-update' and commit Benchmarks/Thresholds" ;;
        2) status=1; failed+=("swift package $* (worse than the committed thresholds)") ;;
        *) status=1; failed+=("swift package $*") ;;
    esac
}

if [ "$mode" = update ]; then
    run --allow-writing-to-package-directory benchmark thresholds update "${own[@]}" --no-progress
    run --allow-writing-to-package-directory benchmark thresholds update "${geometry[@]}" --no-progress
    run --allow-writing-to-package-directory benchmark thresholds update "${png[@]}" --no-progress
    for f in Thresholds/Capture.*_* Thresholds/Simplify.*_*; do
        [ -e "$f" ] && mv "$f" "Thresholds/$(basename "$f" | tr '_' ' ')"
    done
    ci/instructions.sh --update || { status=1; failed+=("ci/instructions.sh --update"); }
else
    run benchmark thresholds check "${own[@]}" --no-progress
    # Capture, Simplify and the PNG encoder in one run (one build check and start-up fewer): allocations only.
    run benchmark thresholds check --target Capture --target Simplify --target PNG --skip 'libpng_.*' \
        --metric mallocCountTotal --no-progress
    run benchmark --target Batch --no-progress --quiet
    if [ "$instructions" = yes ]; then
        echo "+ ci/instructions.sh"
        ci/instructions.sh || { status=1; failed+=("ci/instructions.sh"); }
    fi
fi
for f in "${failed[@]}"; do echo "error: bench-check: failed: $f" >&2; done
exit "$status"
