#!/bin/sh
# frontend.sh - times the whole front end, brpp | brparse | brcheck |
# brgen, on the 4,000-line program of gen-big.sh (about 100 kernels):
# the median wall time of RUNS runs (default 21) after one warm-up,
# processes started included, as a user runs the pipeline.
#
#   bench/frontend.sh [RUNS]
#
# Prints one result line in bench.h's format (case=frontend), then one per
# stage run alone from a file (case=frontend-brpp, ...), so a slow stage
# shows, and with GNU time installed the processor time of the whole
# pipeline, user plus system (case=frontend-cpu; each run the mean of
# five pipelines), which a busy machine inflates less than the wall time.
# The tools come from BROOK_TOOLS when set, else from the PATH.
set -u
here=$(cd "$(dirname "$0")" && pwd)
runs=${1:-21}
tools=${BROOK_TOOLS:+$BROOK_TOOLS/}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$here/gen-big.sh" >"$work/big.br"
lines=$(wc -l <"$work/big.br")

pipeline() {
	"${tools}brpp" "$work/big.br" | "${tools}brparse" | "${tools}brcheck" |
		"${tools}brgen" -o "$work/big"
}

if ! pipeline 2>"$work/err"; then
	echo "frontend: the pipeline failed on the generated program:" >&2
	head -n 20 "$work/err" >&2
	echo "case=frontend size=$lines impl=brook backend=host device=\"-\" runs=0 median_ms=0 min_ms=0 gbs=0 gflops=0 ok=0"
	exit 1
fi
# the stages alone, on the previous stage's output
"${tools}brpp" "$work/big.br" >"$work/big.i" 2>/dev/null
"${tools}brparse" <"$work/big.i" >"$work/big.ast" 2>/dev/null
"${tools}brcheck" <"$work/big.ast" >"$work/big.chk" 2>/dev/null
stage() {
	case $1 in
	all) pipeline ;;
	brpp) "${tools}brpp" "$work/big.br" >/dev/null ;;
	brparse) "${tools}brparse" <"$work/big.i" >/dev/null ;;
	brcheck) "${tools}brcheck" <"$work/big.ast" >/dev/null ;;
	brgen) "${tools}brgen" -o "$work/one" <"$work/big.chk" ;;
	esac
}

# the microseconds of one run of stage S: wall time, or for "cpu" the
# pipeline's user plus system time, the mean of CPU_PIPES pipelines (GNU
# time counts in hundredths of a second: one pipeline's 50 or 60 ms)
CPU_PIPES=5
one_run() {
	if [ "$1" = cpu ]; then
		/usr/bin/time -f '%U %S' -o "$work/t" sh -c "i=0
			while [ \$i -lt $CPU_PIPES ]; do
				'${tools}brpp' '$work/big.br' | '${tools}brparse' |
				'${tools}brcheck' | '${tools}brgen' -o '$work/big'
				i=\$((i + 1))
			done" 2>/dev/null
		awk -v n=$CPU_PIPES '{ printf "%d\n", ($1 + $2) * 1e6 / n }' "$work/t"
		return
	fi
	t0=$(date +%s%N)
	stage "$1" 2>/dev/null
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000))
}

cpu=$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)
stages="all brpp brparse brcheck brgen"
[ -x /usr/bin/time ] && stages="$stages cpu"
for s in $stages; do
	i=0
	while [ $i -lt "$runs" ]; do
		one_run "$s"
		i=$((i + 1))
	done | sort -n | awk -v lines="$lines" -v name="$s" -v cpu="$cpu" '
	{ t[NR] = $1 / 1000 }
	END {
		med = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
		printf "case=frontend%s size=%d impl=brook backend=host device=\"%s\" runs=%d median_ms=%.3f min_ms=%.3f gbs=0 gflops=0 ok=1\n",
			name == "all" ? "" : "-" name, lines, cpu, NR, med, t[1]
	}'
done
