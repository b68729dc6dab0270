#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What CI checks of performance, on measures that do not wobble on a shared machine: every suite is built and run
# briefly (so none stops compiling), and heap allocations and, where the kernel exposes a counter, instruction
# counts are compared with the thresholds committed in Benchmarks/Thresholds/.
#
#   Benchmarks/ci/check.sh            check (make bench-check)
#   Benchmarks/ci/check.sh --update   re-record the thresholds after an intended change (make bench-update),
#                                     then review `git diff Benchmarks/Thresholds` and commit it
#
# - Raster, Vector (tolerances in their code: instructions +-3 %, allocations +-2 a signature, output bytes exact):
#   mallocCountTotal and instructions.
# - Capture, Simplify, PNG (no tolerances in their code, so package-benchmark's strict default applies): only
#   mallocCountTotal, which is exact; the streaming benchmark's threshold is 0 allocations.
# - Batch: run briefly, no threshold (it measures wall time and threads).
# SIGNATURE_INK_BENCH_CI=1 shortens the Raster, Vector and Batch runs to a few iterations.
# package-benchmark exits 2 on a regression (fails here) and 4 when every deviation is an improvement (passes
# here with a notice to re-record).
set -uo pipefail
cd "$(dirname "$0")/.."
export SIGNATURE_INK_BENCH_CI=1

mode=check
[ "${1:-}" = "--update" ] && mode=update
own=(--target Raster --target Vector --metric mallocCountTotal --metric instructions)
shared=(--target Capture --target Simplify --target PNG --metric mallocCountTotal)
status=0

run() {
    echo "+ swift package $*"
    swift package "$@"
    local rc=$?
    case "$rc" in
        0) ;;
        4) echo "notice: better than the committed thresholds; run 'make bench-update' and commit Benchmarks/Thresholds" ;;
        *) status=1 ;;
    esac
}

if [ "$mode" = update ]; then
    run --allow-writing-to-package-directory benchmark thresholds update "${own[@]}" --no-progress
    run --allow-writing-to-package-directory benchmark thresholds update "${shared[@]}" --no-progress
else
    run benchmark thresholds check "${own[@]}" --no-progress
    run benchmark thresholds check "${shared[@]}" --no-progress
    run benchmark --target Batch --no-progress --quiet
fi
exit "$status"
