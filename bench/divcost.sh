#!/bin/sh
# bench/divcost.sh [BRRUN] - what libbrt's correctly rounded float division
# and sqrt (-cl-fp32-correctly-rounded-divide-sqrt, brt(3)) cost on the
# OpenCL device against the device's own (brrun --fast-math, as brgen
# --fast-math builds a program): bench/br/divide.br's kernels on 2^24
# points, the median of 20 runs after a warm-up, OpenCL profiling events.
# Prints one line a kernel: the two medians and their ratio.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
brrun=${1:-brrun}
src=$here/br/divide.br
[ -f "$src" ] || src=$here/divide.br
median() { sed -n 's/.*"median_ms":\([0-9.e+-]*\).*/\1/p'; }
for k in divide root; do
	case $k in
	divide) args="a=rand:1 b=rand:2 c" ;;
	root) args="a=rand:1 c" ;;
	esac
	# shellcheck disable=SC2086
	exact=$("$brrun" --backend opencl --bench 20 --json "$src" $k $args \
		--shape a=4096x4096 | median)
	# shellcheck disable=SC2086
	fast=$("$brrun" --backend opencl --fast-math --bench 20 --json "$src" \
		$k $args --shape a=4096x4096 | median)
	awk -v k=$k -v e="$exact" -v f="$fast" 'BEGIN {
		printf "%-7s correctly rounded %8.3f ms  --fast-math %8.3f ms  ratio %.2f\n",
			k, e, f, e / f }'
done
