#!/usr/bin/env bash
# Load on loopback against signature-ink-server's POST /render (PNG), with a real signature_pad body from
# Tests/Fixtures/realink/signature-pad-chromium: wrk for DURATION seconds (default 60) with CONNECTIONS connections (default 2, one a core: more only queue behind the renders) on 2
# threads, the server's resident memory sampled every 10 seconds, then 10 seconds of malformed bodies that must all
# get a 4xx with the server still up. Uses a release build. Prints wrk's report and the memory samples.
#
#   Benchmarks/server/load.sh              (make load)
#   DURATION=10 Benchmarks/server/load.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION=${DURATION:-60}
CONNECTIONS=${CONNECTIONS:-2}
PORT=${PORT:-18080}
command -v wrk >/dev/null || { echo "error: wrk is missing (make deps installs it)" >&2; exit 1; }
swift build -c release --product signature-ink-server 2>&1 | grep -Ev '^\[[0-9]+/[0-9]+\]' || true
SERVER="$(swift build -c release --show-bin-path)/signature-ink-server"
# A signature_pad toData() recorded in Chromium from real pen writing (six strokes); BODY picks another file.
BODY=${BODY:-Tests/Fixtures/realink/signature-pad-chromium/dpr1/Cell-Structure-1-19.json}
BAD=$(mktemp)
trap 'rm -f "$BAD"; kill "$PID" 2>/dev/null || true' EXIT
printf '{"format":"signature-ink","version":1,"channels":["x","y","t"],"strokes":[[[1,2,@]]]}' > "$BAD"

LOG_LEVEL=warning "$SERVER" --port "$PORT" &
PID=$!
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$PORT/openapi.yaml" && break; sleep 0.1; done
rss() { awk '/VmRSS/ {print $2 " kB"}' "/proc/$PID/status"; }
echo "body: $BODY ($(wc -c < "$BODY") bytes)"
echo "server RSS at start: $(rss)"
( for t in $(seq 10 10 "$DURATION"); do sleep 10; echo "server RSS after ${t}s: $(rss)"; done ) &
SAMPLER=$!
BODY_FILE="$BODY" wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s Benchmarks/server/post.lua \
  "http://127.0.0.1:$PORT/render?format=png"
wait "$SAMPLER" 2>/dev/null || true
echo "server RSS at the end: $(rss)"
echo "--- malformed bodies for 10 s (every answer must be a 4xx) ---"
BODY_FILE="$BAD" wrk -t2 -c"$CONNECTIONS" -d10s -s Benchmarks/server/post.lua "http://127.0.0.1:$PORT/render?format=png"
status=$(curl -s -o /dev/null -w '%{http_code}' -X POST --data-binary @"$BAD" "http://127.0.0.1:$PORT/render")
echo "a malformed body after the run: HTTP $status; server still up: $(kill -0 "$PID" && echo yes)"
