#!/bin/sh
# bench/check-bench.sh - how long brcheck takes on a 50,000-line program.
#
# Writes a .br file of about 50,000 lines (kernels with gathers, swizzles,
# vector constructors and reductions, and host code calling them), parses
# it once, then times `brcheck` on the AST (the checker alone) and on the
# source (preprocessor and parser included). The goal is under 0.5 s for
# the checker. Not a test: run it by hand.
#   sh bench/check-bench.sh [BUILDDIR]
set -e
builddir=${1:-.}
tmp=${TMPDIR:-/tmp}/check-bench.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT INT TERM
src=$tmp/big.br
n=0
: >"$src"
while [ "$n" -lt 2500 ]; do
	cat >>"$src" <<EOB
kernel float4 helper$n(float4 v, float s)
{
    float4 w = float4(s, s, s, 1.0f);
    return v.wzyx * w + v.xxyy;
}

kernel void map$n(float4 a<>, float g[][], float s, out float4 b<>)
{
    float2 p = indexof(b).xy;
    float4 t = helper$n(a, s);
    if (t.x > 0.0f)
        t = t + float4(g[p.y][p.x], 0.0f, 0.0f, 0.0f);
    b = t;
}

reduce void red$n(float a<>, reduce float r<>)
{
    r += a;
}
EOB
	n=$((n + 1))
done
printf 'int main(void)\n{\n    float4 a<64>;\n    float4 b<64>;\n    float g<8, 8>;\n    float r;\n    float h[64];\n' >>"$src"
n=0
while [ "$n" -lt 2500 ]; do
	printf '    map%d(a, g, 2.0f, b);\n    red%d(g, r);\n' "$n" "$n" >>"$src"
	n=$((n + 1))
done
printf '    streamWrite(b, h);\n    return 0;\n}\n' >>"$src"
echo "lines: $(wc -l <"$src")"
"$builddir/cmd/brpp/brpp" "$src" | "$builddir/cmd/brparse/brparse" >"$tmp/big.ast"
best() {
	best=""
	for i in 1 2 3 4 5; do
		s=$(date +%s.%N)
		"$@" >/dev/null
		e=$(date +%s.%N)
		t=$(echo "$e - $s" | bc)
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then
			best=$t
		fi
	done
	echo "$best"
}
# cpu TITLE CMD...: user+sys seconds, the best of 5 (less noisy than the
# wall clock on a busy machine); needs /usr/bin/time
cpu() {
	title=$1
	shift
	[ -x /usr/bin/time ] || return 0
	b=""
	for i in 1 2 3 4 5; do
		t=$(/usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -n 1 |
			awk '{ print $1 + $2 }')
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then
			b=$t
		fi
	done
	echo "$title (user+sys, best of 5): $b s"
}
echo "load: $(uptime | sed 's/.*load average: //')"
echo "brcheck on the AST (best of 5): $(best "$builddir/cmd/brcheck/brcheck" "$tmp/big.ast") s"
echo "brcheck --lint on the source (best of 5): $(best "$builddir/cmd/brcheck/brcheck" --lint "$src") s"
cpu "brcheck on the AST" "$builddir/cmd/brcheck/brcheck" "$tmp/big.ast"
cpu "brcheck --lint on the source" "$builddir/cmd/brcheck/brcheck" --lint "$src"
