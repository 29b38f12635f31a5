#!/bin/sh
# mmbody.sh - a probe, not a case: where matmult_simple's time goes on an
# OpenCL device beside the hand-written kernel. The generated body of
# simple_matmult checks, for each work-item, that its float coordinates
# stay whole and inside A and B for the loop's whole run before it takes
# the loop that indexes with integers (brgen's strength-reduced form),
# and keeps a float loop for where they do not; the hand kernel checks
# nothing, and PoCL inlines a body only when it is small. This writes
# bench/br/matmult_simple.br's OpenCL C as brgen writes it ("brgen.cl")
# and the same text with the body replaced by the hand kernel's loop over
# the same views, none of those checks ("lean.cl"), then times both
# against the hand kernel in one process, in turn (mmbody.c).
#
#   bench/probe/mmbody.sh [ROUNDS [SIDE]]
#
# ROUNDS (default 9), SIDE (default 512, as the table's CPU row). The tools
# as for build.sh (BROOK_TOOLS, else the PATH), the compiler as CC,
# OPENCL_LIBS (default -lOpenCL). Prints the device, then a line a file:
# FILE brook_ms=... hand_ms=... ratio=HAND/BROOK ok=1. RESULTS.md's
# sections of 2026-11-29 19:20-20:30 quote it.
set -u
usage() {
	echo "usage: mmbody.sh [ROUNDS [SIDE]] (ROUNDS 1 to 1000; SIDE a multiple of 64 from 64 to 8192)" >&2
	exit 2
}
[ $# -le 2 ] || usage
rounds=${1:-9} side=${2:-512}
for v in "$rounds" "$side"; do
	case $v in '' | *[!0-9]*) usage ;; esac
done
if [ "$rounds" -lt 1 ] || [ "$rounds" -gt 1000 ] || [ "$side" -lt 64 ] ||
	[ "$side" -gt 8192 ] || [ $((side % 64)) -ne 0 ]; then
	usage
fi
here=$(cd "$(dirname "$0")" && pwd)
tools=${BROOK_TOOLS:+$BROOK_TOOLS/}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"${tools}brpp" "$here/../br/matmult_simple.br" | "${tools}brparse" |
	"${tools}brcheck" 2>/dev/null | "${tools}brgen" --fast-math \
	--target=opencl >"$work/brgen.cl" || {
	echo "mmbody.sh: the tools could not write matmult_simple's OpenCL C" >&2
	exit 1
}
# the body, from its first line to the next line "}", as the hand
# kernel's loop over the views
awk '
/^void simple_matmult__body\(/ {
	print
	print "{"
	print "\tconst int x = (int)result__idx.x, y = (int)result__idx.y;"
	print "\tconst int n = (int)Width;"
	print "\tfloat acc = 0.0f;"
	print "\tfor (int k = 0; k < n; k++)"
	print "\t\tacc += A[A_v.base + k + y * A_v.pitch[1]]"
	print "\t\t\t* B[B_v.base + x + k * B_v.pitch[1]];"
	print "\t*result = acc;"
	print "}"
	skip = 1
	done = 1
	next
}
skip { if ($0 == "}") skip = 0; next }
{ print }
END { exit !done }' "$work/brgen.cl" >"$work/lean.cl" || {
	echo "mmbody.sh: no simple_matmult__body in brgen's OpenCL C" >&2
	exit 1
}
# shellcheck disable=SC2086
${CC:-cc} -O2 -std=c99 -D_POSIX_C_SOURCE=200809L "$here/mmbody.c" \
	${OPENCL_LIBS:--lOpenCL} -o "$work/mmbody-probe" || exit 1
cd "$work" && ./mmbody-probe "$side" "$rounds" brgen.cl lean.cl
