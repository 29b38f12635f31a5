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
PROBE=cfend.sh
. "$(dirname "$0")/probe.sh"
probe_args "$@"
probe_setup
for name in bsearch matmult_opt; do
	probe_gen $name
	grep -q '^#if defined(BRG_CF_END)$' "$work/$name.c" || {
		echo "cfend.sh: $name.c has no brg_cf_end" >&2
		exit 1
	}
	sed 's/^#if defined(BRG_CF_END)$/#if 0/' "$work/$name.c" \
		>"$work/$name-inline.c"
	probe_link "$work/$name.c" "$work/$name"
	probe_link "$work/$name-inline.c" "$work/$name-inline"
done

r=0
while [ "$r" -lt "$rounds" ]; do
	for prog in "bsearch $keys 5" "matmult_opt $side 3"; do
		set -- $prog
		for form in "" -inline; do
			line=$(BRT_RUNTIME=cpu "$work/$1$form" "$2" "$3") ||
				exit 1
			f=${form#-}
			probe_record "$line" "$1" "${f:-out-of-line}"
		done
	done
	r=$((r + 1))
done
probe_medians
