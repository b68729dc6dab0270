#!/usr/bin/env bash
# Load on loopback against signature-ink-server's POST /render (PNG), with a real signature_pad body from
# Tests/Fixtures/realink/signature-pad-chromium: wrk for DURATION seconds (default 60) with CONNECTIONS connections (default 2, one a core: more only queue behind the renders) on 2
# threads, the server's resident memory sampled every 10 seconds, then 10 seconds of eight kinds of malformed body in
# turn (syntax, ranges, truncated, XML entities, a bad colour, binary, empty, past --max-body) that must all get a
# 4xx with the server still up. Uses a release build. Prints wrk's report, the answers by status and the memory.
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
# A signature_pad toData() recorded in Chromium from real pen writing: a full name, six strokes, 171 samples with
# their pen (15 KB), as a web front end posts it; BODY picks another file.
BODY=${BODY:-Tests/Fixtures/realink/signature-pad-chromium/dpr1/Hello-World-1-00.json}
BAD=$(mktemp -d)
trap 'rm -rf "$BAD"; kill "$PID" 2>/dev/null || true' EXIT
# Malformed bodies of every kind the decoders refuse, and one past --max-body.
printf '{"format":"signature-ink","version":1,"channels":["x","y","t"],"strokes":[[[1,2,@]]]}' > "$BAD/syntax.json"
printf '{"format":"signature-ink","version":1,"channels":["x","y","t"],"strokes":[[[1e308,2,0],[1,2,1e400]]]}' > "$BAD/range.json"
head -c 3000 "$BODY" > "$BAD/truncated.json"
printf '<?xml version="1.0"?><!DOCTYPE ink [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><ink><trace>&b;</trace></ink>' > "$BAD/entities.inkml"
printf '[{"penColor":"bluish","points":[{"x":1,"y":2,"time":0}]}]' > "$BAD/colour.json"
head -c 4096 /dev/urandom > "$BAD/binary.bin"
printf '' > "$BAD/empty.json"
head -c 1100000 /dev/zero | tr '\0' ' ' > "$BAD/too-large.json"
BAD_BODIES=$(ls "$BAD"/* | paste -sd:)

LOG_LEVEL=warning "$SERVER" --port "$PORT" --no-store &
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
echo "--- $(ls "$BAD" | wc -l) kinds of malformed body in turn for 10 s (every answer must be a 4xx) ---"
BAD_BODIES="$BAD_BODIES" wrk -t2 -c"$CONNECTIONS" -d10s -s Benchmarks/server/post.lua "http://127.0.0.1:$PORT/render?format=png"
echo "server RSS after the malformed bodies: $(rss)"
status=$(curl -s -o /dev/null -w '%{http_code}' -X POST --data-binary @"$BODY" "http://127.0.0.1:$PORT/render")
echo "a good body after the run: HTTP $status; server still up: $(kill -0 "$PID" && echo yes)"
