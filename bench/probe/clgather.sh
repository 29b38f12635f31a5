#!/bin/sh
# clgather.sh - a probe, not a case: what the OpenCL C's gather forms for
# a CPU device are worth (lib/brook/gen_kcode.c, brg_cf and BRG_GE).
# Built for a CPU device (libbrt's -DBRG_CPU), the generated OpenCL C
# tests a float gather index's range with a branch the processor
# predicts and reads a gather through the view's own pointer; with
# -DBRG_NO_CPU_GATHER in BRT_CL_OPTIONS it uses a GPU's forms (selects,
# and the element addressed from the buffer's start). This builds
# bsearch.br and matmult_opt.br as bench/build.sh does, then runs each
# in turn with both ("cpu-forms", "gpu-forms"), ROUNDS times, on the
# OpenCL device (BRT_RUNTIME=opencl; on a GPU the two are the same).
#
#   bench/probe/clgather.sh [ROUNDS [KEYS [SIDE]]]
#
# ROUNDS (default 3), bsearch's KEYS (default 262144, 5 runs a program)
# and matmult_opt's SIDE (default 1024, 3 runs). The tools, compiler and
# libbrt as for build.sh (BROOK_TOOLS, CC, BENCH_CFLAGS, BRT_CFLAGS,
# BRT_LIBS, OPENCL_LIBS). Prints the device, then one line a case and
# form: CASE FORM medians_ms=M1 M2 ... (a median of each round's runs).
# RESULTS.md, 2026-11-29 10:00, quotes it.
set -u
usage() {
	echo "usage: clgather.sh [ROUNDS [KEYS [SIDE]]] (each a number at least 1)" >&2
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
	# shellcheck disable=SC2086
	$CC $cflags ${BRT_CFLAGS:--I$top/lib/brt} -I"$src" -I"$work" \
		"$work/$name.c" "$work/bench.o" "$work/ref.o" \
		"$work/brook_device.o" ${BRT_LIBS:--lbrt} \
		${OPENCL_LIBS:--lOpenCL} -pthread -lm -o "$work/$name" || exit 1
done

r=0 dev=
while [ "$r" -lt "$rounds" ]; do
	for prog in "bsearch $keys 5" "matmult_opt $side 3"; do
		set -- $prog
		for form in cpu-forms gpu-forms; do
			opt=
			[ "$form" = cpu-forms ] || opt=-DBRG_NO_CPU_GATHER
			line=$(BRT_RUNTIME=opencl BRT_CL_OPTIONS=$opt \
				"$work/$1" "$2" "$3") || exit 1
			case $line in *" backend=opencl "*" ok=1"*) ;; *)
				echo "clgather.sh: $1 $form: $line" >&2
				exit 1 ;;
			esac
			[ -n "$dev" ] || { dev=${line#*device=\"}; dev=${dev%%\"*}; }
			ms=${line#*median_ms=}
			echo "$1 -$form ${ms%% *}" >>"$work/ms"
		done
	done
	r=$((r + 1))
done
echo "device: $dev"
awk '{ k = $1 " " substr($2, 2); m[k] = m[k] " " $3; if (!(k in seen)) {
	seen[k] = 1; order[n++] = k } }
	END { for (i = 0; i < n; i++) print order[i] " medians_ms=" substr(m[order[i]], 2) }' "$work/ms"
