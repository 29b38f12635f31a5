#!/bin/sh
# cfend.sh - a probe, not a case: what brg_cf_end is worth on the CPU
# backend. The generated C clamps a float gather index with SSE's
# conversion and one unsigned compare (brg_cf), and with gcc or clang
# takes an index out of range through brg_cf_end, a cold function out of
# line (lib/brook/gen_kcode.c). This builds bsearch.br and matmult_opt.br
# as bench/build.sh does, twice each: as brgen writes them ("out-of-line")
# and with brg_cf's older inline end put back ("inline": the #if of
# BRG_CF_END in brg_cf made #if 0), then runs the four programs in turn,
# ROUNDS times, on the CPU backend.
#
#   bench/probe/cfend.sh [ROUNDS [KEYS [SIDE]]]
#
# ROUNDS (default 3), bsearch's KEYS (default 262144, 5 runs a program)
# and matmult_opt's SIDE (default 1024, 3 runs). The tools, compiler and
# libbrt as for build.sh (BROOK_TOOLS, CC, BENCH_CFLAGS, BRT_CFLAGS,
# BRT_LIBS, OPENCL_LIBS); BRT_CPU_THREADS as the caller sets it. Prints
# one line a case and form: CASE FORM medians_ms=M1 M2 ... (a median of
# each round's runs). RESULTS.md, 2026-11-29 06:26, quotes it.
set -u
usage() {
	echo "usage: cfend.sh [ROUNDS [KEYS [SIDE]]] (each a number at least 1)" >&2
	exit 2
}
[ $# -le 3 ] || usage
rounds=${1:-3} keys=${2:-262144} side=${3:-1024}
for v in "$rounds" "$keys" "$side"; do
	case $v in '' | *[!0-9]*) usage ;; esac
	[ "$v" -ge 1 ] || usage
done
src=$(cd "$(dirname "$0")/.." && pwd)
top=$(dirname "$src")
CC=${CC:-cc}
cflags="-std=c99 -D_POSIX_C_SOURCE=200809L ${BENCH_CFLAGS:--O3 -march=native}"
tools=${BROOK_TOOLS:+$BROOK_TOOLS/}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for f in bench ref brook_device; do
	# shellcheck disable=SC2086
	$CC $cflags ${BRT_CFLAGS:--I$top/lib/brt} -I"$src" -c "$src/$f.c" \
		-o "$work/$f.o" || exit 1
done
for name in bsearch matmult_opt; do
	# brcheck's warnings (W-index-vector) to a log, shown on failure
	if ! { "${tools}brpp" "$src/br/$name.br" | "${tools}brparse" |
		"${tools}brcheck" | "${tools}brgen" --fast-math \
		-o "$work/$name"; } 2>"$work/$name.log"; then
		cat "$work/$name.log" >&2
		exit 1
	fi
	grep -q '^#if defined(BRG_CF_END)$' "$work/$name.c" || {
		echo "cfend.sh: $name.c has no brg_cf_end" >&2
		exit 1
	}
	sed 's/^#if defined(BRG_CF_END)$/#if 0/' "$work/$name.c" \
		>"$work/$name-inline.c"
	for form in "" -inline; do
		# shellcheck disable=SC2086
		$CC $cflags ${BRT_CFLAGS:--I$top/lib/brt} -I"$src" -I"$work" \
			"$work/$name$form.c" "$work/bench.o" "$work/ref.o" \
			"$work/brook_device.o" ${BRT_LIBS:--lbrt} \
			${OPENCL_LIBS:--lOpenCL} -pthread -lm \
			-o "$work/$name$form" || exit 1
	done
done

r=0
while [ "$r" -lt "$rounds" ]; do
	for prog in "bsearch $keys 5" "matmult_opt $side 3"; do
		set -- $prog
		for form in "" -inline; do
			line=$(BRT_RUNTIME=cpu "$work/$1$form" "$2" "$3") ||
				exit 1
			case $line in *" ok=1"*) ;; *)
				echo "cfend.sh: $1$form: $line" >&2
				exit 1 ;;
			esac
			ms=${line#*median_ms=}
			echo "$1 ${form:--out-of-line} ${ms%% *}" >>"$work/ms"
		done
	done
	r=$((r + 1))
done
awk '{ k = $1 " " substr($2, 2); m[k] = m[k] " " $3; if (!(k in seen)) {
	seen[k] = 1; order[n++] = k } }
	END { for (i = 0; i < n; i++) print order[i] " medians_ms=" substr(m[order[i]], 2) }' "$work/ms"
