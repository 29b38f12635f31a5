#!/bin/sh
# run.sh - runs every benchmark case in its three versions on the same
# device and data, then writes the table, the CSV and the chart.
#
#   bench/run.sh [--profile cpu|gpu] [--bin DIR] [--out DIR] [--repeat K]
#                [--only CASE,...] [--no-cpu] [--no-opencl] [--extra FILE]
#
#   --profile  the sizes: cpu (this kind of machine, the default) or gpu
#              (large enough to fill an H100/H200)
#   --bin      where build.sh put the programs (default: bench-build in
#              the current folder)
#   --out      where results go (default: --bin's folder): raw.txt (every
#              result line), results-HOST.csv, table.md, ratios.png
#   --repeat   run each program K times, interleaving the versions, and
#              keep the median run (default 1; BENCH_REPEAT); startup
#              runs at least 9 times, chain at least 21
#   --only     only these cases
#   --no-cpu   skip the CPU rows (the CPU backend against plain C)
#   --no-opencl  skip the OpenCL rows (the CPU backend alone, as when
#              tuning it)
#   --extra    result lines measured elsewhere, for the same table (the
#              front end's time, cuBLAS)
#
# BENCH_HOST names the machine in the CSV's name (default: hostname).
# BENCH_TIMEOUT (default 600) bounds each program's run, in seconds; a
# program stopped by it shows as timeout-600s in the table.
#
# The OpenCL rows compare the Brook program (BRT_RUNTIME=opencl) with the
# hand-written OpenCL on the device both pick (a GPU first, else a CPU).
# The CPU rows compare the Brook program on libbrt's CPU backend
# (BRT_RUNTIME=cpu) with plain C, both on BENCH_THREADS threads (default:
# every online CPU; BRT_CPU_THREADS is set to the same).
set -u
here=$(cd "$(dirname "$0")" && pwd)
profile=cpu bin=bench-build out= repeat=${BENCH_REPEAT:-1} only= cpurows=1
oclrows=1
extra=
while [ $# -gt 0 ]; do
	case $1 in
	--profile) profile=$2; shift ;;
	--bin) bin=$2; shift ;;
	--out) out=$2; shift ;;
	--repeat) repeat=$2; shift ;;
	--only) only=$2; shift ;;
	--no-cpu) cpurows= ;;
	--no-opencl) oclrows= ;;
	--extra) extra=$2; shift ;;
	-h|--help) sed -n '2,32s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
bin=$(cd "$bin" && pwd) || exit 2
out=${out:-$bin}
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 2
threads=${BENCH_THREADS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
export BENCH_THREADS=$threads BRT_CPU_THREADS=$threads
host=${BENCH_HOST:-$(hostname 2>/dev/null || echo host)}
# the longest one program may run (BENCH_TIMEOUT seconds)
limit=${BENCH_TIMEOUT:-600}
raw=$out/raw.txt
log=$out/run.log
: >"$raw"
: >"$log"

# The cases: NAME SIZE RUNS REPEAT-CAP [CALLS], per profile. Sizes:
# elements, or the side of a square, or the bodies (bench.h). REPEAT-CAP
# bounds --repeat for slow cases. CALLS (copy, saxpy, rowsum): each run
# makes that many calls, waits once and counts the time per call (a row
# NAME_xCALLS: what a loop of calls sustains, without each call's launch
# and wait).
cases_cpu() {
	cat <<'END'
copy 16777216 9 9
saxpy 16777216 9 9
sum 16777216 9 9
rowsum 4096 9 9
matmult_simple 512 1 3
matmult_opt 1024 1 3
matmult_tiled 1024 1 3
matmult_reg 1024 1 3
bsearch 262144 3 3
mandel 2048 3 3
nbody 4096 3 3
stencil 4096 5 9
chain 4096 9 9
startup 1024 1 9
END
}
cases_gpu() {
	cat <<'END'
copy 67108864 20 3
saxpy 67108864 20 3
sum 67108864 20 3
sum 268435456 10 3
rowsum 4096 20 3
copy 67108864 20 3 16
saxpy 67108864 20 3 16
rowsum 4096 20 3 16
matmult_simple 2048 10 3
matmult_simple 4096 5 3
matmult_opt 2048 10 3
matmult_opt 4096 5 3
matmult_tiled 2048 10 3
matmult_tiled 4096 10 3
matmult_reg 2048 10 3
matmult_reg 4096 10 3
bsearch 16777216 20 3
mandel 8192 10 3
nbody 65536 10 3
stencil 8192 20 3
chain 4096 20 9
startup 1024 1 9
END
}

# One run of one version; appends its result line (or a failure line) to
# $dest (raw.txt). IMPL: brook, opencl or c; BACKEND: opencl or cpu.
dest=$raw
# The line of run_one's version when it has no result, with status $1.
noresult() {
	echo "case=$label size=$size impl=$impl backend=$backend device=\"-\" runs=0 median_ms=0 min_ms=0 gbs=0 gflops=0 ok=$1"
}
run_one() {
	impl=$1 backend=$2 name=$3 size=$4 runs=$5 calls=${6:-1}
	label=$name
	[ "$calls" -gt 1 ] && label=${name}_x$calls
	case $impl in
	brook) prog="$bin/brook-$name" ;;
	opencl) prog="$bin/bench-opencl $name" ;;
	c) prog="$bin/bench-c $name" ;;
	esac
	if [ ! -x "${prog%% *}" ]; then
		noresult missing >>"$dest"
		return
	fi
	echo "-- $(date -u +%H:%M:%S) $impl/$backend $label $size $runs" >>"$log"
	# shellcheck disable=SC2086
	BRT_RUNTIME=$backend timeout "$limit" $prog "$size" "$runs" "$calls" \
		>"$out/.line" 2>>"$log"
	rc=$?
	line=$(grep '^case=' "$out/.line" | tail -n 1)
	rm -f "$out/.line"
	why=failed
	[ $rc = 124 ] && why="timeout-${limit}s"
	[ -n "$line" ] || line=$(noresult "$why")
	echo "$line" >>"$log"
	echo "$line" >>"$dest"
}

versions() {
	if [ -n "$oclrows" ]; then
		echo "brook opencl"
		echo "opencl opencl"
	fi
	if [ -n "$cpurows" ]; then
		echo "brook cpu"
		echo "c cpu"
	fi
}

echo "== bench: profile $profile, $threads threads, repeat $repeat, $(uptime | sed 's/.*load/load/')"
"cases_$profile" | while read -r name size runs cap calls; do
	if [ -n "$only" ]; then
		case ",$only," in *",$name,"*) ;; *) continue ;; esac
	fi
	k=$repeat
	[ "$k" -gt "$cap" ] && k=$cap
	# startup and chain: processes that time a few ms of host work, whose
	# medians a busy host moves by tens of percent (RESULTS.md): never
	# fewer than 9 runs of each version, interleaved; the chain 21, as
	# on a GPU host a whole process, raw or Brook, runs its launches at
	# one of two rates 1.5 times apart (RESULTS.md, 2026-11-26 16:21)
	case $name in
	startup) [ "$k" -lt 9 ] && k=9 ;;
	chain) [ "$k" -lt 21 ] && k=21 ;;
	esac
	# startup: a first run fills the program caches, then each run is a
	# fresh process
	if [ "$name" = startup ]; then
		versions | while read -r impl backend; do
			dest=/dev/null
			run_one "$impl" "$backend" "$name" "$size" 1
		done
	fi
	printf '   %s %s%s:' "$name" "$size" "${calls:+ x$calls}"
	i=0
	while [ $i -lt "$k" ]; do
		versions | while read -r impl backend; do
			run_one "$impl" "$backend" "$name" "$size" "$runs" \
				"${calls:-1}"
		done
		i=$((i + 1))
		printf ' %d' $i
	done
	echo
done

[ -n "$extra" ] && [ -f "$extra" ] && grep '^case=' "$extra" >>"$raw"
awk -v host="$host" -v date="$(date -u +%Y-%m-%dT%H:%MZ)" \
	-v csv="$out/results-$host.csv" -v dat="$out/ratios.dat" \
	-f "$here/report.awk" "$raw" | tee "$out/table.md"
# a ratio past CAP (the CPU backend's chain reached 160) flattens every
# other bar: the chart clips the bars at CAP then, and names those it clips
cap=4
clip=$(awk -v cap=$cap '!/^#/ { for (i = 2; i <= 3; i++)
	if ($i != "-" && $i + 0 > cap) {
		printf "%s%s %s %.1f", sep, (i == 2 ? "OpenCL" : "CPU"), $1, $i
		sep = ", " } }' "$out/ratios.dat" 2>/dev/null)
ymax=
if [ -n "$clip" ]; then
	ymax="ymax='$cap'; "
	echo "chart: bars clipped at $cap: $clip"
	clip="; clipped at $cap: $clip"
fi
if command -v gnuplot >/dev/null 2>&1 && [ -s "$out/ratios.dat" ]; then
	gnuplot -e "dat='$out/ratios.dat'; png='$out/ratios.png'; ${ymax}title='brook: generated code against hand-written ($host, $profile$clip)'" \
		"$here/ratios.gp" && echo "chart: $out/ratios.png"
else
	echo "no chart: gnuplot is missing (apt-get install gnuplot-nox)"
fi
echo "csv: $out/results-$host.csv"
