#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each for FUZZ_SECONDS (default 20) from a seed corpus of the sample
# strokes, the real ink in Tests/Fixtures/realink, the test fixtures and Fuzz/Corpus/.
#
#   Fuzz/run.sh                          every target, 20 s each
#   FUZZ_SECONDS=600 Fuzz/run.sh         every target, 10 minutes each
#   FUZZ_TARGETS="inkml render" Fuzz/run.sh
#   FUZZ_OUT=fuzz-out/a Fuzz/run.sh          another output folder, for a second run at the same time
#
# Corpora grow in fuzz-out/corpus/<target>/; a crashing input is saved as fuzz-out/crashes/<target>-crash-*,
# and the script then exits 1. Copy it into Fuzz/Corpus/<target>/ and add a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
SECONDS_EACH=${FUZZ_SECONDS:-20}
TARGETS=${FUZZ_TARGETS:-"native inkml signature-pad svc2004 uim stroke-list detect render consent form"}
CONFIG=${FUZZ_CONFIG:-release}
OUT=${FUZZ_OUT:-fuzz-out}
REALINK=Tests/Fixtures/realink

# Line tables rather than full debug information: enough for a crash's stack trace, and the debug build of the
# engine, swift-crypto's C and the ten targets took about 250 CPU-seconds instead of 295 (measured one after the
# other on this project's 2-core machine).
FLAGS=(--package-path Fuzz --scratch-path .build-fuzz --sanitize=fuzzer -c "$CONFIG"
       -Xswiftc -gline-tables-only -Xcc -gline-tables-only)
$SWIFT build "${FLAGS[@]}" 2>&1 | grep -Ev '^\[[0-9]+/[0-9]+\]' || true
BIN=$($SWIFT build "${FLAGS[@]}" --show-bin-path)

# The seed files of each target, one path a line.
seeds() {
  local fixtures=Tests/SignatureInkFormatsTests/Fixtures
  case $1 in
    native) ls SampleStrokes/*.json ;;
    inkml) ls $fixtures/*.inkml ;;
    signature-pad) ls $REALINK/signature-pad/*.json ;;
    svc2004) ls $fixtures/svc2004*.txt ;;
    uim) ;;
    stroke-list) ls $REALINK/hwrt/*.json ;;
    consent) ls SampleStrokes/consent/*.json Benchmarks/Fixtures/document/consent.json ;;
    form) ls Tests/Fixtures/forms/*.pdf ;;
    detect | render)
      for t in native inkml signature-pad svc2004 uim stroke-list; do seeds $t; ls Fuzz/Corpus/$t/* 2>/dev/null || true; done ;;
  esac
  ls Fuzz/Corpus/$1/* 2>/dev/null || true
}

dictionary() {
  case $1 in
    inkml) echo Fuzz/xml.dict ;;
    svc2004) echo "" ;;
    detect | render) cat Fuzz/json.dict Fuzz/xml.dict > $OUT/all.dict; echo $OUT/all.dict ;;
    form) echo Fuzz/pdf.dict ;;
    *) echo Fuzz/json.dict ;;
  esac
}

mkdir -p $OUT/crashes
failed=""
: > $OUT/summary.txt
for target in $TARGETS; do
  corpus=$OUT/corpus/$target
  mkdir -p "$corpus"
  seeds "$target" | while read -r f; do
    # Seeds larger than the fuzz limit (1 MiB) are left out; they would only test the size check.
    if [ -f "$f" ] && [ "$(stat -c %s "$f")" -le 1048576 ]; then cp "$f" "$corpus/seed-$(basename "$f")"; fi
  done
  dict=$(dictionary "$target")
  log=$OUT/$target.log
  echo "fuzz-$target: ${SECONDS_EACH}s, $(ls "$corpus" | wc -l) inputs in the corpus"
  status=0
  "$BIN/fuzz-$target" "$corpus" ${dict:+-dict=$dict} -max_total_time="$SECONDS_EACH" -max_len=65536 \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$OUT/crashes/$target-" \
    >"$log" 2>&1 || status=$?
  runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  line="fuzz-$target: $runs executions in ${SECONDS_EACH}s, exit $status"
  echo "$line" | tee -a $OUT/summary.txt
  if [ $status -ne 0 ]; then
    failed="$failed $target"
    grep -E 'ERROR|Fatal error|fuzz invariant|Test unit written' "$log" | head -5 >&2 || true
  fi
done
if [ -n "$failed" ]; then echo "error: crashes in:$failed (see $OUT/crashes/ and $OUT/<target>.log)" >&2; exit 1; fi
