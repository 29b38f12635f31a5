#!/bin/sh
# buildab.sh - a probe, not a case: two builds of brook against each
# other on bench's Brook programs. Each CASE (bench/br/CASE.br) is built
# by each build's tools and linked with its libbrt, as bench/build.sh
# builds it; then the programs run in turn, A then B, ROUNDS times, so
# that both meet the same phases of a busy host. What frontend-ab.sh is
# to the front end, this is to the programs: a change to brgen's code or
# to libbrt measured beside the code before it.
#
#   bench/probe/buildab.sh ROUNDS DIR_A DIR_B CASE[:SIZE[:RUNS]]...
#
# Each DIR holds brpp, brparse, brcheck, brgen and libbrt.a, and may hold
# brt.h (else lib/brt's is used); from a build folder B:
#   mkdir A && cp B/lib/brt/.libs/libbrt.a A/ &&
#   for t in brpp brparse brcheck brgen; do cp B/cmd/$t/$t A/; done
# SIZE and RUNS are the program's own arguments (bench/README.md), its
# defaults where left out. The backend is BRT_RUNTIME's, as the caller
# sets it (and BRT_CPU_THREADS). The compiler and flags as for build.sh
# (CC, BENCH_CFLAGS, OPENCL_LIBS); BRT_LIBS is what each DIR's libbrt.a
# needs after it (default -pthread -lm -ldl; a build with the sanitizers
# adds their flags). Prints one line a case and build, A's first:
# CASE a|b medians_ms=M1 M2 ... (a median of each round's runs). A wrong
# result stops the probe (status 1).
set -u
PROBE=buildab.sh
. "$(dirname "$0")/probe.sh"
ab_usage() {
	echo "usage: buildab.sh ROUNDS DIR_A DIR_B CASE[:SIZE[:RUNS]]... (ROUNDS at least 1; each DIR with brpp, brparse, brcheck, brgen and libbrt.a; each CASE one of bench/br/)" >&2
	exit 2
}
[ $# -ge 4 ] || ab_usage
rounds=$1
case $rounds in '' | *[!0-9]*) ab_usage ;; esac
[ "$rounds" -ge 1 ] || ab_usage
dir_a=$2 dir_b=$3
shift 3
for d in "$dir_a" "$dir_b"; do
	for t in brpp brparse brcheck brgen; do
		[ -x "$d/$t" ] || ab_usage
	done
	[ -f "$d/libbrt.a" ] || ab_usage
done
libs=${BRT_LIBS:--pthread -lm -ldl}
probe_setup
dir_a=$(cd "$dir_a" && pwd) dir_b=$(cd "$dir_b" && pwd)
cases=$*
for c in $cases; do
	name=${c%%:*} rest=${c#"$name"}
	case $name in '' | *[!a-z0-9_]*) ab_usage ;; esac
	[ -f "$src/br/$name.br" ] || ab_usage
	# :SIZE or :SIZE:RUNS, numbers
	[ -z "$rest" ] || case ${rest#:} in
	'' | *[!0-9:]* | :* | *: | *:*:*) ab_usage ;;
	esac
done

# each case's program of each build: $work/CASE-a and $work/CASE-b
for side in a b; do
	eval "d=\$dir_$side"
	tools=$d/
	h=-I$top/lib/brt
	[ -f "$d/brt.h" ] && h=-I$d
	for c in $cases; do
		name=${c%%:*}
		[ -f "$work/$name-$side" ] && continue
		probe_gen "$name"
		BRT_CFLAGS=$h BRT_LIBS="$d/libbrt.a $libs" \
			probe_link "$work/$name.c" "$work/$name-$side"
	done
done

r=0
while [ "$r" -lt "$rounds" ]; do
	for c in $cases; do
		name=${c%%:*} rest=${c#"$name"}
		# shellcheck disable=SC2046
		set -- $(echo "$rest" | tr : ' ')
		for side in a b; do
			line=$("$work/$name-$side" "$@") || exit 1
			probe_record "$line" "$name" "$side"
		done
	done
	r=$((r + 1))
done
probe_medians
