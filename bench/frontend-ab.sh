#!/bin/sh
# frontend-ab.sh - two builds of the front end against each other, on the
# 4,000-line program of gen-big.sh: the whole pipeline, brpp | brparse |
# brcheck | brgen, run by each in turn PAIRS times (A, B, A, B, ...), so
# that both meet the same phases of a busy or throttled host; then the
# median, quartiles and least wall time of each. The "alternating pairs"
# of RESULTS.md's front-end sections are this, run once each way round
# (A B, then B A).
#
#   bench/frontend-ab.sh PAIRS DIR_A DIR_B
#
# Each DIR holds the four programs brpp, brparse, brcheck and brgen
# (a build's cmd/*/ programs copied into one folder). Prints one line a
# DIR: DIR median_ms=... q1_ms=... q3_ms=... min_ms=... runs=PAIRS.
set -u
usage() {
	echo "usage: frontend-ab.sh PAIRS DIR_A DIR_B (PAIRS at least 1; each DIR with brpp, brparse, brcheck and brgen)" >&2
	exit 2
}
[ $# -eq 3 ] || usage
pairs=$1
case $pairs in '' | *[!0-9]*) usage ;; esac
[ "$pairs" -ge 1 ] || usage
shift
for d in "$@"; do
	for t in brpp brparse brcheck brgen; do
		[ -x "$d/$t" ] || usage
	done
done
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$here/gen-big.sh" >"$work/big.br"
i=0
while [ $i -lt "$pairs" ]; do
	n=0
	for d in "$@"; do
		n=$((n + 1))
		t0=$(date +%s%N)
		"$d/brpp" "$work/big.br" | "$d/brparse" | "$d/brcheck" |
			"$d/brgen" -o "$work/out$n" || { echo "frontend-ab: the pipeline of $d failed" >&2; exit 1; }
		t1=$(date +%s%N)
		echo "$n $(((t1 - t0) / 1000))"
	done
	i=$((i + 1))
done >"$work/times"
for n in 1 2; do
	eval "d=\${$n}"
	awk -v n=$n '$1 == n { print $2 }' "$work/times" | sort -n |
		awk -v d="$d" '{ t[NR] = $1 / 1000 }
		END {
			printf "%s median_ms=%.1f q1_ms=%.1f q3_ms=%.1f min_ms=%.1f runs=%d\n",
				d, t[int((NR + 1) / 2)], t[int((NR + 3) / 4)],
				t[int((3 * NR + 1) / 4)], t[1], NR
		}'
done
