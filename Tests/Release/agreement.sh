#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The command-line tool as `make release` builds it (Cairo, libpng, fontconfig and qpdf linked in from their archives,
# HarfBuzz and Pango opened on first use; Scripts/link-release) against the development build the Swift tests run:
# every command below must write byte-identical files, print the same errors and exit with the same status, and the
# release binary must start without loading Cairo's shared libraries, open HarfBuzz alone for a Latin line and Pango
# for other text, without loading the shared Cairo, fontconfig and FreeType (their stand-ins: Sources/CPango/shim.h)
# or what they need (X11, pixman), and sign a form without loading the shared qpdf, C++ runtime or GnuTLS; it must
# have no run path, and the order its functions are laid out in must name the functions it has.
#
#   Tests/Release/agreement.sh RELEASE_BINARY DEVELOPMENT_BINARY      (make test-release)
set -euo pipefail
cd "$(dirname "$0")/../.."
release="$1" development="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failed=0

needed="$(readelf -d "$release" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
for library in libcairo libpng libfontconfig libfreetype libpango libqpdf libX11; do
    case " $needed" in *" $library"*)
        echo "FAIL: the release binary loads $library at start (needed: $needed)"; failed=1 ;;
    esac
done

# No run path: the loader would look for the C libraries beside the executable first, at every start.
if readelf -d "$release" | grep -qE '\((RUNPATH|RPATH)\)'; then
    echo "FAIL: the release binary has a run path: $(readelf -d "$release" | grep -E '\((RUNPATH|RPATH)\)')"
    failed=1
fi

# Text opens HarfBuzz alone for a line Noto Sans sets by itself, and Pango for any other; the loader's log names
# every shared object it loads (LD_DEBUG=files, on standard error).
loads="$(LD_DEBUG=files "$release" render SampleStrokes/pressure.json -o "$work/loads.png" --watermark COPY 2>&1 >/dev/null)"
case "$loads" in *"file=libharfbuzz.so"*) ;; *) echo "FAIL: HarfBuzz was not opened for the watermark COPY"; failed=1 ;; esac
case "$loads" in *"file=libpangocairo-1.0.so"*) echo "FAIL: Pango was opened for the watermark COPY"; failed=1 ;; esac
pango_loads="$(LD_DEBUG=files "$release" render SampleStrokes/pressure.json -o "$work/loads-pango.png" \
    --watermark "نسخة COPY" 2>&1 >/dev/null)"
case "$pango_loads" in *"file=libpangocairo-1.0.so"*) ;; *) echo "FAIL: Pango was not opened for an Arabic watermark"; failed=1 ;; esac
for library in libcairo.so libfontconfig.so libfreetype.so libpixman-1.so libX11.so libxcb.so; do
    case "$loads$pango_loads" in *"file=$library"*)
        echo "FAIL: opening HarfBuzz or Pango loaded the shared $library (the release binary has Cairo, fontconfig and FreeType)"
        failed=1 ;;
    esac
done

# qpdf is linked in (Scripts/qpdf-static.c): signing a form loads no shared qpdf, C++ runtime or GnuTLS.
sign_loads="$(LD_DEBUG=files "$release" sign Tests/Fixtures/forms/ten-pages.pdf --ink SampleStrokes/long-name.json \
    --field CustomerSignature --name Ada --date 2026-11-25 -o "$work/loads.pdf" 2>&1 >/dev/null)"
[ -s "$work/loads.pdf" ] || { echo "FAIL: sign wrote no PDF: $sign_loads"; failed=1; }
for library in libqpdf.so libstdc++.so libgnutls.so; do
    case "$sign_loads" in *"file=$library"*)
        echo "FAIL: signing a form loaded the shared $library (the release binary has qpdf linked in)"; failed=1 ;;
    esac
done

# The release link lays functions out in the order of Scripts/release-order.txt, so that a command reads its code from
# a few pages. A list that names many functions the executable no longer has has gone stale: re-record it.
listed="$(wc -l < Scripts/release-order.txt)"
missing="$(sed 's/^\.text\.//' Scripts/release-order.txt | sort -u \
    | comm -23 - <(nm "$release" | awk '{ print $NF }' | sort -u) | wc -l)"
if (( listed == 0 || missing * 5 > listed )); then
    echo "FAIL: Scripts/release-order.txt names $missing functions of $listed that the release binary does not have;"
    echo "      run Scripts/record-release-order and commit the list"
    failed=1
fi

pad=Tests/Fixtures/realink/signature-pad-chromium
pad_file="$pad/dpr1/Hello-World-1-01.json"
# A damaged stroke file (a native document cut short): it fails, alone and in a folder.
head -c 80 SampleStrokes/pressure.json > "$work/bad.json"
mkdir -p "$work/batch"
cp SampleStrokes/pressure.json SampleStrokes/dotted-i.json "$work/bad.json" "$work/batch/"

# Each case: a name, then the arguments; OUT stands for the case's output folder.
cases=(
    "png|render SampleStrokes/pressure.json -o OUT/ink.png"
    "png-2x|render SampleStrokes/long-name.json -o OUT/ink.png --scale 2 --pen-color #1a237e --background #ffffff"
    "svg|render SampleStrokes/tilt.json -o OUT/ink.svg"
    "pdf|render SampleStrokes/fast-scribble.json -o OUT/ink.pdf"
    "signature-pad|render $pad_file -o OUT/ink.png"
    "text-png|render SampleStrokes/pressure.json -o OUT/text.png --signature-line --x-mark --watermark COPY --timestamp"
    "text-pdf|render SampleStrokes/pressure.json -o OUT/text.pdf --signature-line --watermark COPY --timestamp"
    "text-svg|render SampleStrokes/pressure.json -o OUT/text.svg --signature-line --watermark COPY --timestamp"
    "batch|render $work/batch --out-dir OUT --jobs 2 --quiet"
    "bad-input|render $work/bad.json -o OUT/bad.png"
    "consent|consent SampleStrokes/consent/study-consent.json --sign participant=SampleStrokes/long-name.json --name participant=Ada --sign investigator=SampleStrokes/short-name.json --name investigator=Charles --date 2026-11-25T14:30:00+01:00 --sharing investigatorOnly -o OUT/signed.pdf --record OUT/signed.json"
    "consent-preview|consent preview SampleStrokes/consent/study-consent.json --page 1 -o OUT/page-1.png"
    "form|sign Tests/Fixtures/forms/simple.pdf --ink SampleStrokes/long-name.json --field Signature1 --name Ada --date 2026-11-25 -o OUT/form.pdf"
    "form-ten-pages|sign Tests/Fixtures/forms/ten-pages.pdf --ink SampleStrokes/long-name.json --field CustomerSignature --name Ada --date 2026-11-25 -o OUT/form.pdf"
    "form-rect|sign Tests/Fixtures/forms/f1040-2010.pdf --ink SampleStrokes/long-name.json --page 2 --rect 101,122,170,22 -o OUT/form.pdf"
    "form-incremental|sign Tests/Fixtures/forms/va21-0966.pdf --ink SampleStrokes/long-name.json --field F[0].#subform[1].Digital_Signature[0] --incremental -o OUT/form.pdf"
    "bad-form|sign Tests/Fixtures/forms/encrypted.pdf --ink SampleStrokes/long-name.json --field Signature1 -o OUT/form.pdf"
)
run() {  # binary, folder, arguments with OUT
    local binary="$1" folder="$2"; shift 2
    mkdir -p "$folder"
    local status=0
    # shellcheck disable=SC2068
    "$binary" ${@//OUT/$folder} > "$folder.stdout" 2> "$folder.stderr" || status=$?
    echo "$status" > "$folder.status"
    # Paths differ between the two runs; the rest of each message must not.
    sed -i "s|$folder|OUT|g" "$folder.stdout" "$folder.stderr"
}
for entry in "${cases[@]}"; do
    name="${entry%%|*}"
    IFS=' ' read -r -a arguments <<< "${entry#*|}"
    run "$release" "$work/release-$name" "${arguments[@]}"
    run "$development" "$work/development-$name" "${arguments[@]}"
    a="$work/release-$name" b="$work/development-$name"
    if ! diff -r "$a" "$b" > /dev/null || ! cmp -s "$a.stderr" "$b.stderr" || ! cmp -s "$a.stdout" "$b.stdout" \
        || ! cmp -s "$a.status" "$b.status"; then
        echo "FAIL: $name: the release build's output differs from the development build's"
        diff -r "$a" "$b" || true
        diff "$a.stderr" "$b.stderr" || true
        diff "$a.status" "$b.status" || true
        failed=1
    elif [ -z "$(ls -A "$a")" ] && [[ "$name" != bad-* ]]; then
        echo "FAIL: $name wrote nothing: $(cat "$a.stderr")"; failed=1
    else
        echo "ok: $name ($(ls "$a" | wc -l) files, exit status $(cat "$a.status"))"
    fi
done
# The batch went on past the bad file: two images, exit status 1.
[ "$(cat "$work/release-batch.status")" = 1 ] && [ "$(ls "$work/release-batch" | wc -l)" = 2 ] \
    || { echo "FAIL: batch: expected exit status 1 and two images"; failed=1; }
[ "$(cat "$work/release-bad-input.status")" = 1 ] || { echo "FAIL: bad-input: expected exit status 1"; failed=1; }
[ "$(cat "$work/release-bad-form.status")" = 1 ] || { echo "FAIL: bad-form: expected exit status 1"; failed=1; }
exit "$failed"
