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
# RESULTS.md (2026-11-29 08:35-10:50, PoCL's bsearch) quotes it.
set -u
PROBE=clgather.sh
. "$(dirname "$0")/probe.sh"
probe_args "$@"
probe_setup
for name in bsearch matmult_opt; do
	probe_gen $name
	probe_link "$work/$name.c" "$work/$name"
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
			case $line in *" backend=opencl "*) ;; *)
				echo "clgather.sh: $1 $form: $line" >&2
				exit 1 ;;
			esac
			[ -n "$dev" ] || { dev=${line#*device=\"}; dev=${dev%%\"*}; }
			probe_record "$line" "$1" "$form"
		done
	done
	r=$((r + 1))
done
echo "device: $dev"
probe_medians
