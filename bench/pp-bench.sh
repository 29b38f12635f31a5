#!/bin/bash
# bench/pp-bench.sh - times brpp on a generated, macro-heavy input of
# 50,000 lines (not a test: prints the time). Usage:
#   bench/pp-bench.sh [BRPP]     (default: brpp on PATH)
BRPP=${1:-brpp}
dir=$(mktemp -d) || exit 2
trap 'rm -rf "$dir"' EXIT
in=$dir/big.br
{
	cat <<'HDR'
#define SQ(x) ((x) * (x))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define CAT(a, b) a ## b
#define XCAT(a, b) CAT(a, b)
#define STR(x) #x
#define XSTR(x) STR(x)
#define LOG(fmt, ...) printf("%s:%d: " fmt "\n", __FILE__, __LINE__, __VA_ARGS__)
#define VEC4(v) float4(v, v, v, v)
#define N 1000000
HDR
	i=0
	while [ $i -lt 5000 ]; do
		cat <<EOF2
#if defined(N) && N > $i
kernel void XCAT(k, $i)(float a<>, float b<>, out float c<>)
{
	float t = MAX(SQ(a), SQ(b)) + $i;
	c = t * VEC4(SQ(t)).x;
}
#else
#error unreachable
#endif
int XCAT(f, $i)(void) { LOG("%s", XSTR(CAT(id, $i))); return MAX($i, N); }
EOF2
		i=$((i + 1))
	done
} > "$in"
lines=$(wc -l < "$in")
echo "brpp on $lines generated lines, three runs:"
TIMEFORMAT="  %R s elapsed, %U s user, %S s system"
for run in 1 2 3; do
	time "$BRPP" "$in" > "$dir/out.i" || { echo "brpp failed" >&2; exit 1; }
done
