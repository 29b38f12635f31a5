#!/bin/sh
# bench/parse-bench.sh - times brparse on 50,000 lines of Brook+ and C.
#
# usage: bench/parse-bench.sh [BRPARSE] [LINES]
# Generates a translation unit of kernels, reductions, structs, typedefs and
# host functions (about LINES lines, default 50000), then reports the best
# of three runs of brparse on it (source to AST file) and of brparse
# --print (AST file to C). Not a test: the goal is under 0.5 s for 50,000
# lines on a 2-core machine.
set -eu
BRPARSE=${1:-brparse}
LINES=${2:-50000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM

awk -v lines="$LINES" 'BEGIN {
	print "#include <stdio.h>"
	print "typedef struct vec { float x, y, z; } vec;"
	n = 0
	for (i = 0; n < lines; i++) {
		printf "kernel void mad%d(float a<>, float b<>, float c, out float d<>)\n{\n", i
		printf "    d = a * b + c;\n}\n\n"
		printf "reduce void sum%d(float a<>, reduce float r<>)\n{\n    r += a;\n}\n\n", i
		printf "kernel void gather%d(float2 idx<>, float t[][], out float4 o<>)\n{\n", i
		printf "    float4 v = float4(t[idx], 1.0f, 2.0f, (float)%d);\n", i
		printf "    if (v.x > 0.5f && v.y < 2.0f)\n        o = v.wzyx;\n"
		printf "    else\n        o = float4(indexof(o).x, 0.0f, 0.0f, 1.0f);\n}\n\n"
		printf "static int host%d(int n, const vec *p, size_t len)\n{\n", i
		printf "    int i, s = 0;\n    float a<100>, b<10, 10>;\n"
		printf "    for (i = 0; i < n; i++) {\n"
		printf "        s += (int)(p[i %% len].x * 2.0f) << 1 | i;\n"
		printf "        switch (s & 3) {\n        case 0: s ^= 0x%x; break;\n", i
		printf "        default: s -= i ? i : 1;\n        }\n    }\n"
		printf "    streamRead(a, p);\n    mad%d(a, a, 2.0f, a);\n", i
		printf "    printf(\"%%d %%s\\n\", s, \"host%d\");\n    return s;\n}\n\n", i
		n += 36	# the lines written above
	}
}' >"$dir/big.i"

# best WALL CPU of three runs: elapsed and user+system seconds (on a busy
# machine the second is the one to compare)
best() {
	bw= bc=
	for r in 1 2 3; do
		out=$( { /usr/bin/time -f '%e %U %S' "$@" >/dev/null; } 2>&1 | tail -1)
		w=${out%% *}
		c=$(echo "$out" | awk '{ print $2 + $3 }')
		if [ -z "$bw" ] || [ "$(echo "$w < $bw" | bc)" = 1 ]; then bw=$w; fi
		if [ -z "$bc" ] || [ "$(echo "$c < $bc" | bc)" = 1 ]; then bc=$c; fi
	done
	echo "$bw s elapsed, $bc s CPU"
}

n=$(wc -l <"$dir/big.i")
echo "brparse: $n lines"
echo "  source to AST:  $(best "$BRPARSE" -o "$dir/big.json" "$dir/big.i")"
echo "  AST to C:       $(best "$BRPARSE" --print "$dir/big.json")"
echo "  AST file:       $(wc -c <"$dir/big.json") bytes"
