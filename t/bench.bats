#!/usr/bin/env bats
# bench.bats - the benchmark suite's own machinery (bench/): the table it
# computes from result lines, the plain C and Brook versions' checks, the
# front end's generated program. The benchmarks themselves are make bench,
# never make check.
load helper

bench=$top_srcdir/bench

setup() {
	work=$(mktemp -d)
}

teardown() {
	rm -rf "$work"
}

# report: the golden table, CSV and chart data of t/bench/raw.txt
report() {
	awk -v host=h -v date=d -v csv="$work/results.csv" \
		-v dat="$work/ratios.dat" -f "$bench/report.awk" \
		"$top_srcdir/t/bench/raw.txt" >"$work/table.md"
}

@test "report.awk: table, CSV and ratios from result lines" {
	report
	diff_golden "$top_srcdir/t/bench/table.md" "$work/table.md"
	diff_golden "$top_srcdir/t/bench/results.csv" "$work/results.csv"
	diff_golden "$top_srcdir/t/bench/ratios.dat" "$work/ratios.dat"
}

@test "report.awk: of several runs the median one is kept" {
	report
	# saxpy ran three times on the OpenCL device: 3, 2 and 1 ms
	grep -q '^| saxpy | 1024 | opencl | brook | 2.000 |' "$work/table.md"
}

@test "report.awk: a failed or missing version has its status, no ratio" {
	report
	grep -q '^| sum | 1024 | opencl | brook | (failed) | - | - |  | >= 0.95 no result' "$work/table.md"
	grep -q '^| chain | 64 | opencl | brook | (missing) |' "$work/table.md"
}

@test "report.awk: targets against hand-written code, copy and cuBLAS" {
	report
	grep -q '| 0.950 | >= 0.95 met; bw MISSED | 60% |' "$work/table.md"
	grep -q '| 0.750 | >= 0.80 MISSED; bw MISSED | 60% |' "$work/table.md"
	grep -q 'of cuBLAS: 0.25 MISSED' "$work/table.md"
	grep -q 'startup: .*15.0 ms.*met' "$work/table.md"
}

@test "report.awk: the chain's processes also by the mean of their medians" {
	# three processes each way, one raw one timed out: the medians keep
	# 7.0 and 4.6 ms, the means of the successful ones are 6.4 and 5.2
	local ms impl m ok
	for ms in brook:5.0:1 opencl:4.5:1 brook:7.0:1 opencl:6.5:1 \
		brook:7.2:1 opencl:4.6:1 opencl:0:timeout-60s; do
		IFS=: read -r impl m ok <<<"$ms"
		echo "case=chain size=64 impl=$impl backend=opencl device=\"d\" runs=20 median_ms=$m min_ms=$m gbs=1 gflops=0.1 ok=$ok"
	done >"$work/raw.txt"
	awk -v host=h -v date=d -v csv="$work/c.csv" -v dat="$work/c.dat" \
		-f "$bench/report.awk" "$work/raw.txt" >"$work/table.md"
	grep -q '^| chain | 64 | opencl | brook | 7.000 | .* | 0.657 | >= 0.83 MISSED |' "$work/table.md"
	grep -q "^chain on the OpenCL device, by the mean of each version's process medians (a process draws its launch rate): Brook 6.400 ms of 3, raw OpenCL 5.200 ms of 3, ratio 0.813$" "$work/table.md"
	# with no Brook process that succeeded, no such line
	grep -v 'impl=brook' "$work/raw.txt" >"$work/raw2.txt"
	awk -v host=h -v date=d -v csv="$work/c.csv" -v dat="$work/c.dat" \
		-f "$bench/report.awk" "$work/raw2.txt" >"$work/table2.md"
	! grep -q '^chain on the OpenCL device' "$work/table2.md"
}

@test "report.awk: a row of K calls a run (NAME_xK) is measured against copy_xK" {
	report
	# rowsum_x16 at 18 GB/s: 90% of copy_x16's 20, not of copy's 10
	grep -q '^| rowsum_x16 | 32 | opencl | brook | .* | 1.050 | >= 0.95 met; bw met | 90% |' "$work/table.md"
	grep -q '^| rowsum_x16 | 32 | opencl | opencl | .* | 85% |' "$work/table.md"
	# copy_x16 is a reference, with no target of its own
	grep -q '^| copy_x16 | 1024 | opencl | brook | .* | 0.800 |  |  |$' "$work/table.md"
}

# the shared part and the plain C versions, built as build.sh builds them
build_c() {
	$BROOK_CC -std=c99 -D_POSIX_C_SOURCE=200809L -O2 -I"$bench" \
		"$bench/cpu.c" "$bench/bench.c" "$bench/ref.c" "$bench/par.c" \
		-pthread -lm -o "$work/bench-c"
}

@test "bench-c: every case computes the right result and reports it" {
	build_c
	for c in copy:4096 saxpy:4099 sum:4099 rowsum:64 matmult_simple:64 matmult_tiled:64 \
		matmult_reg:128 matmult_opt:64 bsearch:5000 mandel:64 nbody:100 stencil:67 \
		chain:100 startup:100; do
		run "$work/bench-c" "${c%%:*}" "${c#*:}" 2
		[ "$status" -eq 0 ]
		[[ "$output" == "case=${c%%:*} size=${c#*:} impl=c backend=cpu "* ]]
		[[ "$output" == *" ok=1" ]]
	done
}

@test "bench-c: CALLS makes K calls a run for copy, saxpy and rowsum, and fails elsewhere" {
	build_c
	for c in copy:4096 saxpy:4099 rowsum:64; do
		run "$work/bench-c" "${c%%:*}" "${c#*:}" 2 3
		[ "$status" -eq 0 ]
		[[ "$output" == "case=${c%%:*}_x3 size=${c#*:} impl=c "*" ok=1" ]]
	done
	run "$work/bench-c" sum 4099 2 3
	[ "$status" -eq 1 ]
	[[ "$output" == *"case=sum_x3 "*" ok=0"* ]]
	[[ "$output" == *"this case makes one call per run (no CALLS)"* ]]
}

@test "bench-c: an unknown case is a usage error" {
	build_c
	run "$work/bench-c" nosuchcase
	[ "$status" -eq 2 ]
	[[ "$output" == *"no case nosuchcase"* ]]
}

@test "bench: every Brook version passes brpp, brparse and brcheck" {
	for f in "$bench"/br/*.br; do
		brpp "$f" | brparse | brcheck >/dev/null
	done
}

@test "bench: the Brook saxpy runs on both backends and checks its result" {
	brpp "$bench/br/saxpy.br" | brparse | brcheck | brgen -o "$work/saxpy"
	$BROOK_CC $BROOK_CFLAGS -I"$bench" "$work/saxpy.c" "$bench/bench.c" \
		"$bench/ref.c" "$bench/brook_device.c" -o "$work/saxpy" \
		$BROOK_LIBS -lm
	for rt in cpu opencl; do
		run env BRT_RUNTIME=$rt "$work/saxpy" 10007 2
		[ "$status" -eq 0 ]
		[[ "$output" == "case=saxpy size=10007 impl=brook "*" ok=1" ]]
		# four calls a run, one wait
		run env BRT_RUNTIME=$rt "$work/saxpy" 10007 2 4
		[ "$status" -eq 0 ]
		[[ "$output" == "case=saxpy_x4 size=10007 impl=brook "*" ok=1" ]]
	done
}

@test "bench: the Brook matmult_reg (groups, shared, 8 x 8 per thread) is right on both backends" {
	brpp -I "$bench" "$bench/br/matmult_reg.br" | brparse | brcheck |
		brgen --fast-math -o "$work/mm"
	$BROOK_CC $BROOK_CFLAGS -I"$bench" "$work/mm.c" "$bench/bench.c" \
		"$bench/ref.c" "$bench/brook_device.c" -o "$work/mm" \
		$BROOK_LIBS -lm
	# 256: four groups, each its own 128 x 128 tile of C
	for rt in cpu opencl; do
		run env BRT_RUNTIME=$rt "$work/mm" 256 1
		[ "$status" -eq 0 ]
		[[ "$output" == "case=matmult_reg size=256 impl=brook "*" ok=1" ]]
	done
	run "$work/mm" 200 1
	[ "$status" -eq 1 ]
	[[ "$output" == *"SIZE must be a multiple of 128"* ]]
}

@test "run.sh --no-opencl runs only the CPU rows, --no-cpu only the OpenCL ones" {
	mkdir "$work/bin"
	# no programs built: each version is reported missing, once a row
	"$bench/run.sh" --bin "$work/bin" --only saxpy --no-opencl > /dev/null
	[ "$(grep -c . "$work/bin/raw.txt")" -eq 2 ]
	grep -q '^case=saxpy .*impl=brook backend=cpu .*ok=missing' "$work/bin/raw.txt"
	grep -q '^case=saxpy .*impl=c backend=cpu .*ok=missing' "$work/bin/raw.txt"
	"$bench/run.sh" --bin "$work/bin" --only saxpy --no-cpu > /dev/null
	[ "$(grep -c . "$work/bin/raw.txt")" -eq 2 ]
	[ "$(grep -c 'backend=opencl' "$work/bin/raw.txt")" -eq 2 ]
}

@test "run.sh: the chain runs 21 times each version and startup 9, whatever --repeat says" {
	mkdir "$work/bin"
	# stand-ins that count their runs and print a result line
	for p in brook-chain brook-startup bench-opencl; do
		cat >"$work/bin/$p" <<-EOF
		#!/bin/sh
		c=\${1:-x}; [ "$p" = bench-opencl ] || c=$p
		echo "\$c" >>"$work/runs"
		echo "case=\${c#brook-} size=1 impl=x backend=opencl device=\"-\" runs=1 median_ms=1 min_ms=1 gbs=0 gflops=0 ok=1"
		EOF
		chmod +x "$work/bin/$p"
	done
	"$bench/run.sh" --bin "$work/bin" --only chain,startup --no-cpu --repeat 3 > /dev/null
	[ "$(grep -cx brook-chain "$work/runs")" -eq 21 ]
	[ "$(grep -cx chain "$work/runs")" -eq 21 ]
	# startup: one more run each, untimed, fills the program caches
	[ "$(grep -cx brook-startup "$work/runs")" -eq 10 ]
	[ "$(grep -cx startup "$work/runs")" -eq 10 ]
}

@test "run.sh: a ratio past 4 clips the chart's bars at 4 and is named" {
	mkdir "$work/bin"
	# stand-ins: the Brook saxpy 1 ms, plain C's 5 ms (ratio 5.0); the
	# Brook sum 1 ms, plain C's 2 ms (2.0, not clipped)
	for p in brook-saxpy brook-sum bench-c; do
		cat >"$work/bin/$p" <<-EOF
		#!/bin/sh
		c=\${1:-x}; impl=c; ms=2
		[ "$p" = bench-c ] || { c=\$(echo $p | sed 's/^brook-//'); impl=brook; ms=1; }
		[ "$p\$c" = bench-csaxpy ] && ms=5
		echo "case=\$c size=8 impl=\$impl backend=cpu device=\"-\" runs=1 median_ms=\$ms min_ms=\$ms gbs=0 gflops=0 ok=1"
		EOF
		chmod +x "$work/bin/$p"
	done
	run "$bench/run.sh" --bin "$work/bin" --only saxpy,sum --no-opencl
	[ "$status" -eq 0 ]
	[[ "$output" == *"chart: bars clipped at 4: CPU saxpy/8 5.0"$'\n'* ]]
	run "$bench/run.sh" --bin "$work/bin" --only sum --no-opencl
	[ "$status" -eq 0 ]
	[[ "$output" != *"clipped"* ]]
}

@test "run.sh --profile gpu: rowsum once a run and 16 times a run" {
	mkdir "$work/bin"
	"$bench/run.sh" --profile gpu --bin "$work/bin" --only rowsum --no-cpu > /dev/null
	[ "$(grep -c . "$work/bin/raw.txt")" -eq 4 ]
	[ "$(grep -c '^case=rowsum size=4096 .*ok=missing' "$work/bin/raw.txt")" -eq 2 ]
	[ "$(grep -c '^case=rowsum_x16 size=4096 .*ok=missing' "$work/bin/raw.txt")" -eq 2 ]
}

@test "configure: the pipeline tools take jansson from its static archive when there is one" {
	case $BROOK_TOOL_JANSSON in
	*.a) ;;
	*) skip "configured with the shared jansson ($BROOK_TOOL_JANSSON)" ;;
	esac
	command -v ldd >/dev/null || skip "no ldd"
	for t in brpp brparse brcheck brgen; do
		run ldd "$top_builddir/cmd/$t/$t"
		[[ "$output" != *libjansson* ]]
	done
}

@test "gen-big.sh: 4,000 lines and 100 kernels for the front end" {
	"$bench/gen-big.sh" >"$work/big.br"
	[ "$(wc -l <"$work/big.br")" -eq 4000 ]
	[ "$(grep -c '^kernel\|^reduce' "$work/big.br")" -eq 100 ]
	brpp "$work/big.br" | brparse | brcheck >/dev/null
}

@test "frontend.sh: the pipeline, each stage alone and the processor time, a result line each" {
	local c
	run sh "$bench/frontend.sh" 1
	[ "$status" -eq 0 ]
	for c in frontend frontend-brpp frontend-brparse frontend-brcheck \
			frontend-brgen; do
		printf '%s\n' "$output" |
			grep -Eq "^case=$c size=[0-9]+ impl=brook backend=host .* runs=1 median_ms=[0-9.]+ .* ok=1\$"
	done
	if [ -x /usr/bin/time ]; then
		# the mean of five pipelines, in ms to three places, never 0
		printf '%s\n' "$output" |
			grep -Eq '^case=frontend-cpu .* runs=1 median_ms=[0-9]+\.[0-9]{3} .* ok=1$'
		[ "$(printf '%s\n' "$output" | sed -n 's/^case=frontend-cpu .*median_ms=\([0-9]*\).*/\1/p')" -gt 0 ]
	fi
}

@test "frontend-ab.sh: two builds' pipelines in turn, a line each; its arguments checked" {
	local d t
	for d in a b; do
		mkdir "$work/$d"
		for t in brpp brparse brcheck brgen; do
			ln -s "$(command -v $t)" "$work/$d/$t"
		done
	done
	run sh "$bench/frontend-ab.sh" 2 "$work/a" "$work/b"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[0]}" =~ ^$work/a\ median_ms=[0-9.]+\ q1_ms=[0-9.]+\ q3_ms=[0-9.]+\ min_ms=[0-9.]+\ runs=2$ ]]
	[[ "${lines[1]}" =~ ^$work/b\ median_ms=[0-9.]+ ]]
	run sh "$bench/frontend-ab.sh" 0 "$work/a" "$work/b"
	[ "$status" -eq 2 ]
	[[ "$output" == *"PAIRS at least 1"* ]]
	run sh "$bench/frontend-ab.sh" 1 "$work/a" "$work"
	[ "$status" -eq 2 ]
}

@test "probe/buildab.sh: bench's programs built by two builds, run in turn on both backends, a line a case and build; its arguments checked" {
	local d t rt
	for d in a b; do
		mkdir "$work/$d"
		for t in brpp brparse brcheck brgen; do
			ln -s "$(command -v $t)" "$work/$d/$t"
		done
		cp "$top_builddir/lib/brt/.libs/libbrt.a" "$work/$d/"
	done
	# BROOK_LIBS less its first word, libbrt.a: the sanitizers' flags
	# where the build has them
	for rt in cpu opencl; do
		CC="$BROOK_CC" BENCH_CFLAGS=-O2 BRT_LIBS="${BROOK_LIBS#* }" \
			BRT_RUNTIME=$rt run sh "$bench/probe/buildab.sh" 2 \
			"$work/a" "$work/b" chain:256:3 saxpy
		[ "$status" -eq 0 ]
		[ "${#lines[@]}" -eq 4 ]
		[[ "${lines[0]}" =~ ^chain\ a\ medians_ms=[0-9.]+\ [0-9.]+$ ]]
		[[ "${lines[1]}" =~ ^chain\ b\ medians_ms=[0-9.]+\ [0-9.]+$ ]]
		[[ "${lines[2]}" =~ ^saxpy\ a\ medians_ms=[0-9.]+\ [0-9.]+$ ]]
		[[ "${lines[3]}" =~ ^saxpy\ b\ medians_ms= ]]
	done
	# a build folder without libbrt.a, no case, an unknown case, and
	# sizes that are not numbers are usage errors
	rm "$work/b/libbrt.a"
	for t in "$work/b chain" "$work/a" "$work/a nosuch" "$work/a ../br/chain" \
		"$work/a chain:x" "$work/a chain:1:2:3" "$work/a chain:"; do
		run sh "$bench/probe/buildab.sh" 1 "$work/a" $t
		[ "$status" -eq 2 ]
		[[ "$output" == *"usage: buildab.sh ROUNDS DIR_A DIR_B"* ]]
	done
	run sh "$bench/probe/buildab.sh" 0 "$work/a" "$work/a" chain
	[ "$status" -eq 2 ]
}

# build_probe NAME: bench/probe/NAME.c as $work/probe, warnings as errors
build_probe() {
	$BROOK_CC $BROOK_CFLAGS -D_POSIX_C_SOURCE=200809L -O2 \
		"$bench/probe/$1.c" -o "$work/probe" $BROOK_LIBS
}

# probe_rejects ARG WORD: $work/probe ARG is a usage error (status 2)
# that says "WORD a multiple of 256"
probe_rejects() {
	run "$work/probe" "$1"
	[ "$status" -eq 2 ]
	[[ "$output" == *"$2 a multiple of 256"* ]]
}

@test "probe/memo.br: builds without warnings; each case prints the same on both backends, the right elements; a wrong case is a usage error; the log says how many launches were found kept, of views made anew, of 200 different launches and of kernels of 7 and 12 arguments too" {
	brpp "$bench/probe/memo.br" | brparse | brcheck | brgen -o "$work/memo"
	$BROOK_CC $BROOK_CFLAGS "$work/memo.c" -o "$work/memo" $BROOK_LIBS
	# each case: two of its elements, the same on both backends, then
	# how many of its 3,000 launches the OpenCL device found kept (its
	# log line at exit). loop20's 20 launches are kept the first time
	# round; views made anew at 50 places are found from the second
	# round on, wherever malloc puts the view objects; 200 places are
	# more than 64 and fewer than the 256 kept; views3000's are never
	# found; kernels of 7 and of 12 arguments are kept alike
	while read -r c x y found; do
		for rt in cpu opencl; do
			run env BRT_RUNTIME=$rt "$work/memo" "$c"
			[ "$status" -eq 0 ]
			[ "$output" = "$c: $x $y" ]
		done
		BRT_LOG_FILE="$work/l$c" BRT_RUNTIME=opencl "$work/memo" "$c"
		grep -q "^brt: launches kept on .*: $found of 3000 found again\$" \
			"$work/l$c"
	done <<-'END'
	loop20 2.125 2.125 2980
	views50 2 1 2950
	views200 8 7 2800
	views3000 8 7 0
	args7 0.75 38.25 2999
	args12 0 97.5 2999
	END
	run "$work/memo" views
	[ "$status" -eq 2 ]
	[[ "$output" == "usage: memo loop20|views50|views200|views3000|args7|args12" ]]
	BRT_LOG_FILE="$work/lcpu" BRT_RUNTIME=cpu "$work/memo" loop20
	[ "$(grep -c 'launches kept' "$work/lcpu")" -eq 0 ]
}

@test "probe/rowsum.c: builds without warnings, its rowsums are right, SIDE is checked" {
	build_probe rowsum
	run "$work/probe" 256
	[ "$status" -eq 0 ]
	[ "$(grep -c ' check: ok$' <<<"$output")" -eq 12 ]
	! grep -q WRONG <<<"$output" || false
	grep -q '^copy 1MB  *calls=16 bytes=2097152 ms=' <<<"$output"
	grep -q '^read 256KB 16/item  *device_ms=' <<<"$output"
	probe_rejects 100 SIDE
}

@test "probe/sum.c: builds without warnings, each way's sum is right, N is checked" {
	build_probe sum
	run "$work/probe" 4096
	[ "$status" -eq 0 ]
	! grep -q WRONG <<<"$output" || false
	grep -q '^copy + finish  *ms=.* GB/s=' <<<"$output"
	grep -q '^two passes g=1024 + read nb+finish  *ms=.* of_copy=' <<<"$output"
	grep -q '^one pass g=1024 + map  *ms=' <<<"$output"
	grep -q 'device_ms once=' <<<"$output"
	# the OpenCL C 3.0 one pass where the device offers its atomics
	grep -q '^atomics: .*; fences: .*; OpenCL C 3.0: [a-z]*; acq_rel: [a-z]*; device scope: [a-z]*$' <<<"$output"
	if grep -q '^atomics: .*OpenCL C 3.0: yes; acq_rel: yes; device scope: yes$' <<<"$output"; then
		[ "$(grep -c ' check: ok (' <<<"$output")" -eq 28 ]
		grep -q '^one pass C3 g=1024 + read nb+finish  *ms=' <<<"$output"
		grep -q 'device_ms once_c3=' <<<"$output"
	else
		[ "$(grep -c ' check: ok (' <<<"$output")" -eq 26 ]
		grep -q '^one pass C3: not run (the device does not offer it)$' <<<"$output"
	fi
	probe_rejects 1000 N
}

@test "probe/chain.c: builds without warnings, every variant's chains add up, N is checked" {
	build_probe chain
	run "$work/probe" 256
	[ "$status" -eq 0 ]
	! grep -q WRONG <<<"$output" || false
	[ "$(grep -c ' round [0-9]: ms=.* us/launch=' <<<"$output")" -eq 34 ]
	grep -q '^args3 setargs  *round 3: ms=' <<<"$output"
	grep -q '^all +xfer +pool  *round 5: ms=' <<<"$output"
	probe_rejects 1000 N
}

@test "probe/rename.c: builds without warnings, times both ways of putting a file in place, leaves nothing, checks its arguments" {
	build_probe rename
	mkdir "$work/dir"
	run "$work/probe" "$work/dir" 65536 3
	[ "$status" -eq 0 ]
	grep -q '^rename  *size=65536 rounds=3 median_ms=[0-9.]* min_ms=[0-9.]*$' <<<"$output"
	grep -q '^exchange  *size=65536 rounds=3 median_ms=[0-9.]* min_ms=[0-9.]*$' <<<"$output" ||
		grep -q '^exchange: not run' <<<"$output"
	[ -z "$(ls -A "$work/dir")" ]
	run "$work/probe" "$work/dir" 0
	[ "$status" -eq 2 ]
	[[ "$output" == *"SIZE at least 1"* ]]
}

# probe_forms SCRIPT FIRST FORM_A FORM_B: SCRIPT of probe/ on small sizes;
# its lines from FIRST on are bsearch and matmult_opt, each in FORM_A then
# FORM_B, a median each
probe_forms() {
	local k=$2 c f
	CC="$BROOK_CC" BENCH_CFLAGS=-O2 BRT_LIBS="$BROOK_LIBS" \
		run sh "$bench/probe/$1" 1 4096 64
	[ "$status" -eq 0 ] || return 1
	[ "${#lines[@]}" -eq $((k + 4)) ] || return 1
	for c in bsearch matmult_opt; do
		for f in "$3" "$4"; do
			[[ "${lines[k]}" =~ ^$c\ $f\ medians_ms=[0-9.]+$ ]] ||
				return 1
			k=$((k + 1))
		done
	done
}

@test "probe/cfend.sh: both forms of brg_cf's end built and timed on the CPU backend, a line each; its arguments checked" {
	probe_forms cfend.sh 0 out-of-line inline
	run sh "$bench/probe/cfend.sh" 0
	[ "$status" -eq 2 ]
	[[ "$output" == *"each a number at least 1"* ]]
}

@test "probe/clgather.sh: the OpenCL device's gather forms, a CPU device's and a GPU's (-DBRG_NO_CPU_GATHER), built and timed, a line each; its arguments checked" {
	probe_forms clgather.sh 1 cpu-forms gpu-forms
	[[ "${lines[0]}" == "device: "?* ]]
	run sh "$bench/probe/clgather.sh" 1 x
	[ "$status" -eq 2 ]
	[[ "$output" == *"each a number at least 1"* ]]
}

@test "probe/mmbody.sh: brgen's simple_matmult and the lean body built and timed beside the hand kernel, both right; its arguments checked" {
	CC="$BROOK_CC" run sh "$bench/probe/mmbody.sh" 2 128
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
	[[ "${lines[0]}" == "device: "?* ]]
	[[ "${lines[1]}" =~ ^brgen\.cl\ brook_ms=[0-9.]+\ hand_ms=[0-9.]+\ ratio=[0-9.]+\ ok=1$ ]]
	[[ "${lines[2]}" =~ ^lean\.cl\ brook_ms=[0-9.]+\ hand_ms=[0-9.]+\ ratio=[0-9.]+\ ok=1$ ]]
	for a in 0 "1 100" "1 0" "1 16384" x "1 2 3"; do
		run sh "$bench/probe/mmbody.sh" $a
		[ "$status" -eq 2 ]
		[[ "$output" == *"usage: mmbody.sh [ROUNDS [SIDE]]"* ]]
	done
}

@test "probe/mmbody.c: a result unlike the hand kernel's is ok=0 and status 1; SIDE, ROUNDS and a file are checked" {
	local f
	$BROOK_CC -O2 -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra \
		-Werror "$bench/probe/mmbody.c" -lOpenCL -o "$work/probe"
	brpp "$bench/br/matmult_simple.br" | brparse | brcheck 2>/dev/null |
		brgen --target=opencl >"$work/good.cl"
	# the accumulator's first value 1, not 0: every element one more
	sed 's/^\tfloat accumulator = 0.0f;$/\tfloat accumulator = 1.0f;/' \
		"$work/good.cl" >"$work/bad.cl"
	[ "$(grep -c 'accumulator = 1.0f' "$work/bad.cl")" -eq 1 ]
	run "$work/probe" 64 1 "$work/good.cl" "$work/bad.cl"
	[ "$status" -eq 1 ]
	[[ "${lines[1]}" == "$work/good.cl "*" ok=1" ]]
	[[ "${lines[2]}" == "$work/bad.cl "*" ok=0" ]]
	for f in "" "64" "64 1" "100 1 x.cl" "64 0 x.cl" "8256 1 x.cl"; do
		run "$work/probe" $f
		[ "$status" -eq 2 ]
		[[ "$output" == *"usage: mmbody-probe SIDE ROUNDS FILE.cl..."* ]]
	done
	run "$work/probe" 64 1 "$work/none.cl"
	[ "$status" -eq 1 ]
	[[ "$output" == *"cannot read $work/none.cl"* ]]
}

@test "probe/charsel.c: builds without warnings, and on a device that computes right every variant prints C's values" {
	local want
	build_probe charsel
	run "$work/probe"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^-DV=[0-3] -DW=[0-2]' <<<"$output")" -eq 13 ]
	want=$(sed -n 's/^C:  *//p' <<<"$output")
	[ "$want" = "-28,-37 87,3 -42,-39 95,54 -77,11 48,-6" ]
	# PoCL computes them right: each variant's values are C's
	[ "$(grep -c -- "^-DV=.*  $want   max: " <<<"$output")" -eq 13 ]
}

@test "probe/stencil.c: builds without warnings, each kernel and shape is right, SIDE is checked" {
	build_probe stencil
	run "$work/probe" 256
	[ "$status" -eq 0 ]
	[ "$(grep -c ' check: ok$' <<<"$output")" -eq 21 ]
	grep -q '^hand    local=driver  ms=.* device_ms=' <<<"$output"
	grep -q '^view    local=64x4    ms=' <<<"$output"
	probe_rejects 300 SIDE
}
