#!/usr/bin/env bats
# rt.bats - libbrt, the runtime (brt(3)). The C programs in t/rt/ call
# brt.h directly, with hand-written kernels (t/rt/kernels.h), so the
# runtime is tested without the compiler. Each runs under BRT_RUNTIME=cpu
# and BRT_RUNTIME=opencl; both must print the same, and the golden file
# t/rt/NAME.out where there is one.

load helper
bats_require_minimum_version 1.5.0

setup() {
	RT=$BATS_FILE_TMPDIR
	export BRT_CACHE_DIR=$RT/cache
	unset BRT_LOG_FILE BRT_ADAPTER BRT_PERMIT_READ_WRITE_ALIASING \
		BRT_FAIL_ALLOC BRT_FAIL_LAUNCH BRT_FAIL_OPEN BRT_RUNTIME
}

# The test programs' flags: the hand-written OpenCL C of t/rt/kernels.h
# is one literal longer than C99's 4095 characters, which brgen's code
# never has.
RT_CFLAGS="$BROOK_CFLAGS -Wno-overlength-strings"

# rt_build NAME [LIBS]: compiles t/rt/NAME.c once into $RT/NAME.
rt_build() {
	local name=$1 libs=${2-$BROOK_LIBS -ldl}
	[ -x "$RT/$name" ] && return 0
	$BROOK_CC $RT_CFLAGS "$top_srcdir/t/rt/$name.c" -o "$RT/$name" $libs
}

# rt_golden NAME [ARGS]: both backends agree with t/rt/NAME.out.
rt_golden() {
	local name=$1
	shift
	rt_build "$name"
	run_both "$RT/$name" "$@"
	echo "$output" > "$RT/$name.actual"
	diff_golden "$top_srcdir/t/rt/$name.out" "$RT/$name.actual"
}

# rt_error CASE MESSAGE...: errors CASE prints each MESSAGE on both backends.
rt_error() {
	local case=$1 m
	shift
	rt_build errors
	run_both "$RT/errors" "$case"
	for m in "$@"; do
		if ! grep -qF -- "$m" <<<"$output"; then
			echo "$output"
			echo "missing: $m" >&2
			return 1
		fi
	done
}

@test "map kernels: 1D, 2D, a value argument, packed float3, a large stream" {
	rt_golden basic
}

@test "K__packed of a program that does not declare brg_pv takes K's parameters (brt.h)" {
	rt_build basic
	BRT_RUNTIME=opencl BRT_LOG_FILE=$RT/pk.log "$RT/basic" > "$RT/pk.out"
	grep -q "runtime: 1 OpenCL devices" "$RT/pk.log" ||
		skip "no OpenCL device"
	diff_golden "$top_srcdir/t/rt/basic.out" "$RT/pk.out"
	grep -q '^brt: kernel: scale__packed for ' "$RT/pk.log"
}

@test "implicit resize: the spec's copy examples, 2D as in BrookGPU" {
	rt_golden resize
	BRT_LOG_FILE=$RT/resize.log "$RT/resize" > /dev/null
	grep -q "copy: input 0: Input stream dimension doesn't match with output dimension; implicit resize" "$RT/resize.log"
}

@test "timing: brt_lastKernelTime gives OpenCL profiling times, none on the CPU" {
	rt_golden timing
}

@test "iterator streams: BrookGPU's value tables in 1D and 2D" {
	rt_golden iter
}

@test "reductions: scalar, partial, reduce variable, large, errors" {
	rt_golden reduce
}

@test "domain views, ranges, fill, assign, exec domain, gather, scatter, group" {
	rt_golden views
}

@test "asynchrony: isSync, finish, async and nocopy, the four-tile pipeline" {
	rt_golden async
}

@test "freeing a stream waits for an async write or a nocopy read of the caller's array" {
	rt_golden free
}

@test "assign onto itself and between overlapping views: as memmove, on both backends" {
	rt_golden overlap
}

@test "an error on a view (kernel, assign, read, write, fill) reaches the stream it is a view of" {
	rt_golden viewerr
}

@test "asynchrony: kernels on inputs with pending transfers, 20 runs under OpenCL" {
	rt_golden pending
	local i out
	for i in $(seq $(($(rounds 20) - 1))); do
		out=$(BRT_RUNTIME=opencl "$RT/pending")
		[ "$out" = "$(cat "$top_srcdir/t/rt/pending.out")" ]
	done
}

@test "scatters outside their array: one line a kernel between synchronisations" {
	rt_golden records
}

@test "threads: kernels at once on the CPU and OpenCL devices" {
	rt_golden threads
}

# --- spec 8 messages, one test each ----------------------------------------
@test "error: Stream Read: Stream can't read from a NULL pointer" {
	rt_error read_null "s: error 2" \
		"Stream Read: Stream can't read from a NULL pointer" \
		"NULL stream: last error 2: Stream Read: NULL stream"
}

@test "error: Stream Write: Stream can't write to a NULL pointer" {
	rt_error write_null "s: error 3" \
		"Stream Write: Stream can't write to a NULL pointer"
}

@test "error: Stream Write: Uninitialized stream; errors reach BRT_LOG_FILE" {
	rt_error write_uninit "s: error 3" "Stream Write: Uninitialized stream"
	BRT_LOG_FILE=$RT/err.log "$RT/errors" write_uninit > /dev/null
	grep -q "^brt: error 3: Stream Write: Uninitialized stream$" "$RT/err.log"
}

@test "error: an unknown read flag" {
	rt_error flags "s: error 2" 'Stream Read: unknown flag "fast"'
}

@test "error: Stream Allocation: Stream of this type not supported on the device" {
	rt_error alloc_type "float5: error 1" \
		"Stream Allocation: Stream of this type not supported on the device"
}

@test "error: Stream Allocation: Rank and dimension of stream doesn't support this stream type" {
	rt_error alloc_rank "rank 0: error 1" "rank 5: error 1" \
		"a zero extent: error 1" "NULL dims: error 1" \
		"Stream Allocation: Rank and dimension of stream doesn't support this stream type"
}

@test "error: a dimension product that overflows is BR_ERROR_DECLARATION" {
	rt_error alloc_overflow "overflow: error 1" "count 0" \
		"Stream Allocation: This dimension not supported on underlying hardware"
}

@test "error: a stream released with an error its program never asked about is reported on standard error, each line once, 8 at most" {
	local b
	rt_build errors
	for b in cpu opencl; do
		BRT_RUNTIME=$b "$RT/errors" unchecked > "$RT/unchecked.$b" 2>&1
		diff_golden "$top_srcdir/t/rt/unchecked.out" "$RT/unchecked.$b"
	done
}

@test "error: a reduction to a host scalar that failed is reported at the program's end unless brt_lastError read it" {
	cd "$BATS_TEST_TMPDIR"
	cat > scalar.br <<'SRC'
reduce void r(float a<>, reduce float s<>) { s += a; }
int main(int argc, char **argv) {
	float a<4>;
	float s = 5.0f, x[4] = {1, 2, 3, 4};
	const char *msg;
	(void)argv;
	r(a, s);	/* a never written */
	if (argc > 1) {
		int e = (int)brt_lastError(&msg);
		printf("asked: %d %s\n", e, msg);
	}
	streamRead(a, x);
	r(a, s);	/* fine: no error after it */
	printf("%g\n", s);
	return 0;
}
SRC
	brook_build scalar.br scalar
	local want="brt: a kernel call with no output stream failed, and its program never checked (brt_lastError): Kernel Execution: Uninitialized Input streams. The results might be undefined"
	for b in cpu opencl; do
		BRT_RUNTIME=$b run --separate-stderr ./scalar
		[ "$status" -eq 0 ] && [ "$output" = 10 ]
		# the second reduction ran without an error: the first stays last
		[ "$stderr" = "$want" ]
		BRT_RUNTIME=$b run --separate-stderr ./scalar ask
		[ "$status" -eq 0 ] && [ -z "$stderr" ]
		[ "${lines[0]}" = "asked: 4 Kernel Execution: Uninitialized Input streams. The results might be undefined" ]
	done
}

@test "error: Stream Allocation: Failed to create buffer (BRT_FAIL_ALLOC)" {
	export BRT_FAIL_ALLOC=2
	rt_error alloc_fail "b: error 1" \
		"Stream Allocation: Failed to create buffer (16 bytes: BRT_FAIL_ALLOC)" \
		"Kernel Execution: Output stream is not allocated" \
		"Kernel Execution: Input streams Allocation failed" \
		"Internal buffer is not initialized"
}

@test "error: Stream Allocation: Struct streams doesn't support this stream type" {
	rt_error iter_struct "struct iterator: error 1" \
		"Stream Allocation: Struct streams doesn't support this stream type" \
		"int iterator: error 7" "Kernel Execution: Invalid output stream" \
		"Stream Read: an iterator stream can't be read"
}

@test "error: Stream Assign messages" {
	rt_error assign "Stream Assign: Invalid input stream" \
		"Stream Assign: Input stream rank and dimension doesn't match with destination" \
		"Stream Assign: Uninitialized input stream" \
		"Stream Assign: Input stream type doesn't match with destination" \
		"NULL destination: last error 6: Stream Assign: Invalid destination stream"
}

@test "error: streamSwap of streams of other element types swaps nothing" {
	rt_error swap "float and int swapped: no" "float: error 6" "int: error 6" \
		"streamSwap: Stream types don't match (float and int)" \
		"float and float swapped: yes"
}

@test "error: Domain Operator messages" {
	rt_error domain "NULL start: error 5" \
		"Domain Operator: Domain start point can't be NULL" \
		"Domain Operator: Domain end point can't be NULL" \
		"Domain Operator: Start point is more than end point, failed to create domain stream" \
		"Domain Operator: Domain dimensions are bigger than original stream, failed to create domain stream" \
		"empty: error 5" "Domain Operator: Failed to create domain stream" \
		"NULL stream: (nil)"
}

@test "error: Exec Domain messages" {
	rt_error exec "size 0: error 4" \
		"Exec Domain: Number of threads must be more than 0" \
		"Exec Domain: Number of threads specified more than stream dimension" \
		"Exec Domain: domain rank 3 is more than the stream's rank" \
		"offset at the end: error 4" "offset of rank 3: error 4"
}

@test "error: Kernel Execution: Invalid output stream, Invalid Input stream, NULL values" {
	rt_error kernel_null \
		"NULL output: last error 4: Kernel Execution: Invalid output stream" \
		"NULL input: error 4" "Kernel Execution: Invalid Input stream" \
		"argument 1 of scale can't be a NULL pointer" \
		"NULL kernel: last error 6" "NULL reduce target: last error 6"
}

@test "error: Kernel Execution: Uninitialized Input streams (the kernel still runs)" {
	rt_error uninit "b: error 4" \
		"Kernel Execution: Uninitialized Input streams. The results might be undefined" \
		"b (ran): 0 0 0 0"
}

@test "error: Kernel Execution: Input stream is same as output stream" {
	rt_error alias "a: error 4" \
		"Kernel Execution: Input stream is same as output stream. Binding kernels read-write is prohibited" \
		"a: 0 1 2 3"
}

@test "BRT_PERMIT_READ_WRITE_ALIASING lets a stream be input and output" {
	export BRT_PERMIT_READ_WRITE_ALIASING=1
	rt_error alias "a: error 0" "a: 0 2 4 6"
}

@test "error: Kernel Execution: input stream rank doesn't match with first output rank" {
	rt_error shapes "2D input, 1D output: error 4" \
		"Kernel Execution: input stream rank doesn't match with first output rank" \
		"input stream rank doesn't match with the kernel's declaration (2, not 1)"
}

@test "error: Kernel Execution: output stream rank and dimension messages" {
	rt_error outputs \
		"Kernel Execution: output stream dimension doesn't match with first output dimension. The results might be undefined" \
		"Kernel Execution: output stream rank doesn't match with first output rank. The results might be undefined"
}

@test "error: an input's error propagates to the outputs" {
	rt_error propagate "c: error 2" \
		"Stream Read: Stream can't read from a NULL pointer" \
		"Kernel Execution: Error with input streams" "after error(): 0"
}

@test "error: an error carried around a loop of 4000 kernel calls keeps small logs" {
	rt_error loop "b: error 2, " "within 64 KiB" "last: (more errors)" \
		"first: Stream Read: Stream can't read from a NULL pointer"
}

@test "error: Kernel Execution: stream device is different from current device" {
	rt_error device \
		"Kernel Execution: Input stream device is different from current device" \
		"Kernel Execution: Output stream device is different from current device" \
		"assigned across devices: 0 1 2 3" "d: error 0"
}

@test "error: a lost device (BRT_FAIL_LAUNCH)" {
	export BRT_FAIL_LAUNCH=1
	rt_error lost "b: error 4" \
		"Kernel Execution: Failed to run kernel (copy: the device was lost (BRT_FAIL_LAUNCH))" \
		"Stream Write: Failed to Initiate DMA (the device was lost)" \
		"isSync 1" "finish 0" "a, finish: error 4" \
		"Stream Finish: Could not flush previous events (the device was lost)"
}

@test "error: NULL everywhere in the API, never a crash" {
	rt_error null_api "error(NULL) 6" 'errorLog(NULL) ""' \
		"finish(NULL): last error 6: Stream Finish: NULL stream" \
		"isSync(NULL): last error 6: Stream isSync: NULL stream" \
		"fill(NULL): last error 6: Stream Fill: NULL stream" \
		"write(NULL): last error 3: Stream Write: NULL stream" \
		"streamSwap(NULL): last error 6: streamSwap: NULL pointer" \
		"Stream Allocation: iterator start and end can't be NULL" \
		"Stream Fill: Stream can't fill from a NULL pointer" \
		"Stream Read: range [1, 9) of dimension 0 is outside the stream's extent 4" \
		"Stream Write: range start point can't be NULL" \
		"streamSwap(NULL): last error 6" "getDevices(\"gpu\") (nil)"
}

@test "error: Kernel Execution: Unable to create temporary stream required for reduction" {
	export BRT_FAIL_ALLOC=2
	rt_error reduce_alloc \
		"sum: last error 4: Kernel Execution: Unable to create temporary stream required for reduction" \
		"again: 2016"
}

@test "error: iterators as targets, no domain, 4D groups, bad devices" {
	rt_error misc "fill an iterator: error 7" \
		"Stream Fill: an iterator stream can't be filled" \
		"Stream Assign: Destination Internal buffer is not initialized" \
		"Kernel Execution: No appropriate map technique found" \
		"Kernel Execution: a group kernel's domain has at most 3 dimensions" \
		"Kernel Execution: Failed to execute a reduction pass (sum needs an input stream and a reduce argument)" \
		"useDevices of a foreign pointer: last error 6: Use Devices: not a device of brt_getDevices" \
		"getDevices(NULL): (nil) 0" \
		"reduce argument of a map kernel: last error 7: Kernel Execution: argument 1 of sum is a reduce argument of a kernel that is not a reduction" \
		"getDevices(NULL): last error 6: Get Devices: device type can't be NULL"
}

@test "brt(3)'s ERRORS lists every message that libbrt sets (t/rt/messages.py)" {
	command -v python3 > /dev/null || skip "no python3"
	run python3 "$top_srcdir/t/rt/messages.py" "$top_srcdir"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "error: a kernel without code for the backend" {
	cat > "$RT/nocode.c" <<-'END'
	#include "kernels.h"
	static const brt_kernel k_none = { .name = "copy", .nargs = 2,
		.args = copy_args, .kclass = BRT_KERNEL_MAP };
	int main(void)
	{
		brt_stream *a = rt_new1(4), *b = rt_new1(4);
		brt_stream_fill(a, &(float){ 1 });
		brt_arg args[2] = { { .s = a }, { .s = b } };
		brt_run(&k_none, args, NULL);
		rt_errors("b", b);
		brt_stream_free(a);
		brt_stream_free(b);
		return 0;
	}
	END
	$BROOK_CC $RT_CFLAGS -I"$top_srcdir/t/rt" "$RT/nocode.c" \
		-o "$RT/nocode" $BROOK_LIBS -ldl
	run env BRT_RUNTIME=cpu "$RT/nocode"
	[ "${lines[0]}" = "b: error 7" ]
	[ "${lines[1]}" = "  Kernel Execution: Failed to run kernel (copy has no CPU code)" ]
	run env BRT_RUNTIME=opencl "$RT/nocode"
	[ "$status" -eq 0 ]
	case ${lines[0]} in
	"b: error 4") [ "${lines[1]}" = "  Kernel Execution: Failed to create Program (kernel copy has no OpenCL source)" ] ;;
	*) [ "${lines[0]}" = "b: error 7" ] ;;	# no OpenCL device
	esac
}

@test "error: Kernel Execution: Failed to create Program, with the build log" {
	rt_build build_fail
	rt_build devices
	run env BRT_RUNTIME=opencl "$RT/build_fail"
	[ "$status" -eq 0 ]
	if [ "$(env BRT_RUNTIME=opencl "$RT/devices" 2>/dev/null | head -1)" != "current opencl" ]; then
		skip "no OpenCL device"
	fi
	grep -qF "Kernel Execution: Failed to create Program bad.br for" <<<"$output"
	grep -qF "undeclared_x" <<<"$output"
	run env BRT_RUNTIME=cpu "$RT/build_fail"
	[ "$output" = "b: error 0" ]
}

# --- devices and environment -------------------------------------------------
@test "BRT_RUNTIME picks the backend; unset, OpenCL when there is a device" {
	rt_build devices
	run env BRT_RUNTIME=cpu "$RT/devices"
	[ "${lines[0]}" = "current cpu" ]
	[ "${lines[2]}" = "list consistent: yes" ]
	[ "${lines[4]}" = "1 2 3" ]
	run env BRT_RUNTIME=opencl "$RT/devices"
	[ "${lines[4]}" = "1 2 3" ]
	case ${lines[1]} in
	"all 1 = opencl 0 + cpu 1; cal 0") [ "${lines[0]}" = "current cpu" ] ;;
	*) [ "${lines[0]}" = "current opencl" ]
	   run env BRT_RUNTIME=cal "$RT/devices"
	   [ "${lines[0]}" = "current opencl" ]
	   run "$RT/devices"
	   [ "${lines[0]}" = "current opencl" ] ;;
	esac
}

@test "an OpenCL device opens when first used; one that cannot (BRT_FAIL_OPEN) is not used" {
	rt_build devices
	rt_build open
	if [ "$(env BRT_RUNTIME=opencl "$RT/devices" 2>/dev/null | head -1)" != "current opencl" ]; then
		skip "no OpenCL device"
	fi
	# listed, never used: never opened
	BRT_RUNTIME=cpu BRT_LOG_FILE="$RT/listed.log" "$RT/devices" >/dev/null
	grep -q "looking up the OpenCL devices" "$RT/listed.log"
	[ "$(grep -c ' opened$' "$RT/listed.log")" -eq 0 ]
	# the default opens when the runtime starts, the others alone
	BRT_RUNTIME=opencl BRT_LOG_FILE="$RT/default.log" "$RT/devices" >/dev/null
	[ "$(grep -c ' opened$' "$RT/default.log")" -eq 1 ]
	grep -q "^brt: OpenCL device 0: .* opened$" "$RT/default.log"
	# each other device on its first brt_useDevices, once
	run env BRT_RUNTIME=cpu BRT_LOG_FILE="$RT/used.log" "$RT/open"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "current cpu" ]
	[ "${lines[1]}" = "1 2 3" ]
	[ "${lines[2]}" = "use opencl 0: error 0" ]
	[ "${lines[3]}" = "current opencl" ]
	[ "${lines[4]}" = "1 2 3" ]
	[ "${lines[5]}" = "use opencl 0: error 0" ]
	[ "${lines[7]}" = "1 2 3" ]
	local n
	n=$(grep -c "^use opencl [0-9]*: error 0$" <<<"$output")
	[ "$(grep -c ' opened$' "$RT/used.log")" -eq $((n / 2)) ]
	# the default refused: the CPU backend runs the program
	run env BRT_FAIL_OPEN=1 BRT_RUNTIME=opencl BRT_LOG_FILE="$RT/fail.log" \
		"$RT/devices"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "current cpu" ]
	[ "${lines[2]}" = "list consistent: yes" ]
	[ "${lines[4]}" = "1 2 3" ]
	grep -q "^brt: runtime: .* could not be opened (no context: BRT_FAIL_OPEN); using the CPU backend$" \
		"$RT/fail.log"
	# brt_useDevices refused: an error, the thread keeps its device, and
	# the device stays lost
	run env BRT_FAIL_OPEN=1 BRT_RUNTIME=cpu "$RT/open"
	[ "$status" -eq 0 ]
	[[ "${lines[2]}" == "use opencl 0: error 6: Use Devices: "*" could not be opened (no context: BRT_FAIL_OPEN)" ]]
	[ "${lines[3]}" = "current cpu" ]
	[ "${lines[4]}" = "1 2 3" ]
	[[ "${lines[5]}" == "use opencl 0: error 6: Use Devices: "*" could not be opened (the device could not be opened before)" ]]
	[ "${lines[6]}" = "current cpu" ]
	[ "${lines[7]}" = "1 2 3" ]
}

@test "no OpenCL ICD at all: the CPU backend runs the program" {
	rt_build devices
	rt_build basic
	for rt in "" opencl cal cpu; do
		run env OCL_ICD_VENDORS=/nonexistent-dir BRT_RUNTIME=$rt "$RT/devices"
		[ "$status" -eq 0 ]
		[ "${lines[0]}" = "current cpu" ]
		[ "${lines[1]}" = "all 1 = opencl 0 + cpu 1; cal 0" ]
		[ "${lines[4]}" = "1 2 3" ]
	done
	OCL_ICD_VENDORS=/nonexistent-dir "$RT/basic" > "$RT/noicd.out"
	diff_golden "$top_srcdir/t/rt/basic.out" "$RT/noicd.out"
	OCL_ICD_VENDORS=/nonexistent-dir BRT_RUNTIME=opencl \
		BRT_LOG_FILE="$RT/noicd.log" "$RT/devices" > /dev/null
	grep -q "no OpenCL device found; using the CPU backend" "$RT/noicd.log"
	grep -q "runtime: 0 OpenCL devices; default device CPU" "$RT/noicd.log"
}

@test "a program links without -lOpenCL (libOpenCL is loaded at run time)" {
	local libs=${BROOK_LIBS//-lOpenCL/}
	rt_build devices "$libs -ldl"
	run env BRT_RUNTIME=cpu "$RT/devices"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "current cpu" ]
}

@test "BRT_RUNTIME=cpu loads no OpenCL until a list with OpenCL devices is asked for" {
	local libs="${BROOK_LIBS//-lOpenCL/} -ldl" p
	for p in basic devices; do
		$BROOK_CC $RT_CFLAGS "$top_srcdir/t/rt/$p.c" \
			-o "$RT/$p-nocl" $libs
	done
	# the dynamic loader names every library it opens (LD_DEBUG=files)
	BRT_RUNTIME=cpu BRT_LOG_FILE="$RT/cpuonly.log" LD_DEBUG=files \
		"$RT/basic-nocl" > "$RT/cpuonly.out" 2> "$RT/cpuonly.ld"
	diff_golden "$top_srcdir/t/rt/basic.out" "$RT/cpuonly.out"
	grep -q "file=libc.so" "$RT/cpuonly.ld"
	[ "$(grep -ci "libOpenCL\|pocl" "$RT/cpuonly.ld")" -eq 0 ]
	grep -q "runtime: default device CPU .*; OpenCL not loaded" \
		"$RT/cpuonly.log"
	[ "$(grep -c "looking up the OpenCL devices" "$RT/cpuonly.log")" -eq 0 ]
	# brt_getDevices("all") still lists the OpenCL devices
	run env BRT_RUNTIME=opencl "$RT/devices-nocl"
	local listed=${lines[1]}
	BRT_RUNTIME=cpu BRT_LOG_FILE="$RT/cpulist.log" LD_DEBUG=files \
		"$RT/devices-nocl" > "$RT/cpulist.out" 2> "$RT/cpulist.ld"
	[ "$(sed -n 1p "$RT/cpulist.out")" = "current cpu" ]
	[ "$(sed -n 2p "$RT/cpulist.out")" = "$listed" ]
	[ "$(sed -n 3p "$RT/cpulist.out")" = "list consistent: yes" ]
	grep -q "looking up the OpenCL devices" "$RT/cpulist.log"
	case $listed in
	"all 1 = "*) ;;
	*) grep -q "libOpenCL" "$RT/cpulist.ld" ;;
	esac
}

@test "BRT_ADAPTER out of range or not a number falls back to the first device, with a line on standard error and in the log" {
	rt_build devices
	run --separate-stderr env BRT_ADAPTER=99 BRT_LOG_FILE="$RT/adapter.log" "$RT/devices"
	[ "$status" -eq 0 ]
	[ "${lines[4]}" = "1 2 3" ]
	if [ "${lines[0]}" = "current opencl" ]; then
		msg="BRT_ADAPTER=99 is not an OpenCL device number from 0 to [0-9]*; using 0"
		grep -q "^brt: $msg$" "$RT/adapter.log"
		[[ "$stderr" =~ ^brt:\ $msg$ ]]
	fi
	run --separate-stderr env BRT_ADAPTER=x BRT_LOG_FILE="$RT/adapterx.log" "$RT/devices"
	[ "$status" -eq 0 ]
	[ "${lines[4]}" = "1 2 3" ]
	if [ "${lines[0]}" = "current opencl" ]; then
		grep -q "BRT_ADAPTER=x is not an OpenCL device number from 0 to [0-9]*; using 0" \
			"$RT/adapterx.log"
		[[ "$stderr" == "brt: BRT_ADAPTER=x is not an OpenCL device number from 0 to "* ]]
	fi
	run env BRT_ADAPTER=0 BRT_RUNTIME=opencl "$RT/devices"
	case ${lines[1]} in
	"all 1 = "*) [ "${lines[0]}" = "current cpu" ] ;;
	*) [ "${lines[0]}" = "current opencl" ] ;;
	esac
	run --separate-stderr env BRT_RUNTIME=gpu BRT_LOG_FILE="$RT/bad.log" "$RT/devices"
	[ "$status" -eq 0 ]
	grep -q "BRT_RUNTIME=gpu is not cpu, opencl or cal; ignored" "$RT/bad.log"
	[ "$stderr" = "brt: BRT_RUNTIME=gpu is not cpu, opencl or cal; ignored" ]
	# a log file that cannot be opened: the line, and no log
	run --separate-stderr env BRT_LOG_FILE="$RT/no/such/dir/x.log" "$RT/devices"
	[ "$status" -eq 0 ] && [ "${lines[4]}" = "1 2 3" ]
	[ "$stderr" = "brt: BRT_LOG_FILE=$RT/no/such/dir/x.log: No such file or directory; no log" ]
}

@test "BRT_CL_OPTIONS: added to the build options, logged, part of the cache key" {
	rt_build basic
	export BRT_CACHE_DIR=$RT/opt-cache BRT_RUNTIME=opencl
	rm -rf "$BRT_CACHE_DIR"
	BRT_LOG_FILE=$RT/opt0.log "$RT/basic" > /dev/null
	grep -q "runtime: 1 OpenCL devices" "$RT/opt0.log" ||
		skip "no OpenCL device"
	BRT_CL_OPTIONS=-DBRT_TEST_OPTION BRT_LOG_FILE=$RT/opt1.log \
		"$RT/basic" > "$RT/opt1.out"
	diff_golden "$top_srcdir/t/rt/basic.out" "$RT/opt1.out"
	# other options: compiled again, not taken from the cache
	grep -q '^brt: compiled: rt.br for .*, options ".*-DBRT_TEST_OPTION"' \
		"$RT/opt1.log"
	# a CPU device's programs are built with -DBRG_CPU, its local
	# memory's size and -w, the user's options after
	if grep -q "^brt: compiled: rt.br for \(pthread\|cpu\)-" "$RT/opt0.log"; then
		grep -q '^brt: compiled: rt.br for .*, options "\(-cl-fp32-correctly-rounded-divide-sqrt \)\?-DBRG_CPU -DBRG_LOCAL_MEM=[1-9][0-9]* -w"' \
			"$RT/opt0.log"
		grep -q '^brt: compiled: rt.br for .*, options "\(-cl-fp32-correctly-rounded-divide-sqrt \)\?-DBRG_CPU -DBRG_LOCAL_MEM=[1-9][0-9]* -w -DBRT_TEST_OPTION"' \
			"$RT/opt1.log"
	fi
	BRT_CL_OPTIONS=-DBRT_TEST_OPTION BRT_LOG_FILE=$RT/opt2.log \
		"$RT/basic" > /dev/null
	grep -q "^brt: cache hit: rt.br for " "$RT/opt2.log"
	! grep -q "compiled" "$RT/opt2.log" || false
	# an option the driver rejects: a stream error with the driver's
	# error and the options, never a crash
	BRT_CL_OPTIONS=-no-such-option-at-all BRT_LOG_FILE=$RT/opt3.log \
		run "$RT/basic"
	[ "$status" -eq 0 ]	# basic prints its streams' errors, no crash
	grep -q "^errors 4 4 4$" <<<"$output"
	grep -qF "Invalid build option" "$RT/opt3.log" ||
		grep -qF "CL_INVALID_BUILD_OPTIONS" "$RT/opt3.log"
	grep -qF "Kernel Execution: Failed to create Program rt.br for" \
		"$RT/opt3.log"
	grep -q -- 'options "\(-cl-fp32-correctly-rounded-divide-sqrt \)\?\(-DBRG_CPU -DBRG_LOCAL_MEM=[0-9]* \)\?-w -no-such-option-at-all"' "$RT/opt3.log"
}

@test "program cache: the second run compiles nothing (BRT_LOG_FILE, BRT_CACHE_DIR, XDG_CACHE_HOME)" {
	rt_build basic
	export BRT_CACHE_DIR=$RT/fresh-cache BRT_RUNTIME=opencl
	rm -rf "$BRT_CACHE_DIR"
	BRT_LOG_FILE=$RT/first.log "$RT/basic" > /dev/null
	grep -q "runtime: 1 OpenCL devices" "$RT/first.log" ||
		skip "no OpenCL device"
	grep -q "^brt: compiled: rt.br for " "$RT/first.log"
	ls "$BRT_CACHE_DIR"/*.bin
	BRT_LOG_FILE=$RT/second.log "$RT/basic" > /dev/null
	grep -q "^brt: cache hit: rt.br for " "$RT/second.log"
	! grep -q "compiled" "$RT/second.log" || false
	# an empty BRT_CACHE_DIR turns the disk cache off
	BRT_CACHE_DIR= BRT_LOG_FILE=$RT/third.log "$RT/basic" > /dev/null
	grep -q "^brt: compiled: rt.br for " "$RT/third.log"
	# a folder that cannot be made: the program runs, the log says why
	BRT_CACHE_DIR=/proc/no/such BRT_LOG_FILE=$RT/fourth.log "$RT/basic" \
		> "$RT/fourth.out"
	diff_golden "$top_srcdir/t/rt/basic.out" "$RT/fourth.out"
	grep -q "^brt: cache: cannot create /proc/no/such" "$RT/fourth.log"
	# unset: $XDG_CACHE_HOME/brook, else ~/.cache/brook
	rm -rf "$RT/xdg" "$RT/home"
	(unset BRT_CACHE_DIR; XDG_CACHE_HOME=$RT/xdg "$RT/basic" > /dev/null)
	ls "$RT"/xdg/brook/*.bin
	(unset BRT_CACHE_DIR XDG_CACHE_HOME; HOME=$RT/home "$RT/basic" \
		> /dev/null)
	ls "$RT"/home/.cache/brook/*.bin
	(unset BRT_CACHE_DIR; XDG_CACHE_HOME= HOME=$RT/home \
		BRT_LOG_FILE=$RT/fifth.log "$RT/basic" > /dev/null)
	grep -q "^brt: cache hit: rt.br for " "$RT/fifth.log"
}

# PoCL itself is not valgrind-clean, so the ICD is hidden here
@test "valgrind: no errors and no leaks on the CPU backend" {
	case "$BROOK_CFLAGS" in *-fsanitize*) skip "sanitizer build" ;; esac
	command -v valgrind > /dev/null || skip "no valgrind"
	[ "${BROOK_VALGRIND-}" != 1 ] || skip "every program runs under valgrind"
	local p run
	for p in basic reduce views errors iter resize async threads free \
		overlap viewerr; do
		rt_build $p
	done
	for run in basic reduce views iter resize async threads free overlap \
		viewerr "errors alloc_rank" "errors null_api" "errors assign" \
		"errors swap" \
		"errors propagate" "errors misc" \
		"BRT_FAIL_ALLOC=2 errors alloc_fail" \
		"BRT_FAIL_LAUNCH=1 errors lost"; do
		set -- $run
		case $1 in *=*) export "$1"; shift ;; esac
		OCL_ICD_VENDORS=/nonexistent-dir BRT_RUNTIME=cpu valgrind -q \
			--error-exitcode=9 --leak-check=full \
			--errors-for-leak-kinds=definite "$RT/$1" "${@:2}" > /dev/null
		unset BRT_FAIL_ALLOC BRT_FAIL_LAUNCH
	done
}

@test "the guide's four-tile pipeline; BRT_PROFILE logs each command's queue and times" {
	rt_golden pipeline
	BRT_RUNTIME=opencl BRT_PROFILE=1 BRT_LOG_FILE=$RT/profile.log \
		"$RT/pipeline" > /dev/null
	grep -q "runtime: 1 OpenCL devices" "$RT/profile.log" ||
		skip "no OpenCL device"
	# 2 rounds of 4 tiles: 8 reads, 8 kernels, 8 writes, on two queues
	[ "$(grep -c 'profile: poly queue=compute start=' "$RT/profile.log")" -eq 8 ]
	[ "$(grep -c 'profile: read (host to device) queue=transfer' "$RT/profile.log")" -eq 8 ]
	[ "$(grep -c 'profile: write (device to host) queue=transfer' "$RT/profile.log")" -eq 8 ]
}

@test "a brgen-built program runs on the CPU backend with no OpenCL ICD" {
	command -v brgen > /dev/null && [ -x "$(command -v brgen)" ] ||
		skip "brgen not built"
	brook_build "$top_srcdir/examples/sum.br" "$RT/sum" || skip "brgen failed"
	BRT_RUNTIME=cpu "$RT/sum" > "$RT/sum.cpu"
	OCL_ICD_VENDORS=/nonexistent-dir BRT_LOG_FILE="$RT/sum.log" "$RT/sum" \
		> "$RT/sum.noicd"
	diff_golden "$RT/sum.cpu" "$RT/sum.noicd"
	grep -q "runtime: 0 OpenCL devices; default device CPU" "$RT/sum.log"
	[ "$(wc -l < "$RT/sum.cpu")" -ge 10 ]
}

@test "C++ host code includes brt.h and links libbrt" {
	command -v c++ > /dev/null || skip "no C++ compiler"
	local san=
	case "$BROOK_CFLAGS" in *-fsanitize*) san="-fsanitize=address,undefined" ;; esac
	c++ -Wall -Wextra -Werror $san -I"$top_srcdir/lib/brt" \
		"$top_srcdir/t/rt/cxx.cc" -o "$RT/cxx" $BROOK_LIBS -ldl
	run_both "$RT/cxx"
	[ "$output" = "$(printf '(1, 2, 3, 4) (1, 2, 3, 4) (1, 2, 3, 4)\nerror 0')" ]
}

@test "streams used after the runtime shut down at exit fail gently" {
	cat > "$RT/late.c" <<-'END'
	#include "kernels.h"
	static brt_stream *g;
	static void late(void)
	{
		brt_stream_free(g);
		brt_stream *s = rt_new1(4);
		rt_errors("late", s);
		brt_stream_free(s);
	}
	int main(void)
	{
		float x[4] = { 1, 2, 3, 4 };
		atexit(late);	/* before the runtime's own exit handler */
		g = rt_new1(4);
		brt_stream_read(g, x, NULL);
		streamPrint(g);
		return 0;
	}
	END
	$BROOK_CC $RT_CFLAGS -I"$top_srcdir/t/rt" "$RT/late.c" \
		-o "$RT/late" $BROOK_LIBS -ldl
	run_both "$RT/late"
	[ "$output" = "$(printf '%s\n' '1 2 3 4' 'late: error 1' \
		'  Stream Allocation: Failed to create buffer (16 bytes: the device was lost)')" ]
}

@test "make check-valgrind's wrappers: t/vgcc builds a program that t/vgrun runs; a leak exits 86 with its report in BROOK_VG_LOG" {
	command -v valgrind > /dev/null || skip "no valgrind"
	cd "$BATS_TEST_TMPDIR"
	cat > leak.c <<-'END'
	#include <stdio.h>
	#include <stdlib.h>
	int main(int argc, char **argv)
	{
		char *volatile p = malloc(64);
		p = NULL;
		printf("%d arguments, %s\n", argc - 1, argv[argc - 1]);
		return 0;
	}
	END
	"$top_srcdir/t/vgcc" cc -c leak.c -o leak.o
	[ "$(head -c 4 leak.o | od -An -c | tr -d ' ')" = '177ELF' ]
	"$top_srcdir/t/vgcc" cc leak.o -o leak
	[ "$(head -c 2 leak)" = "#!" ]
	[ -x leak.vg ]
	mkdir vglog
	BROOK_VG_LOG=$PWD/vglog run ./leak
	[ "$status" -eq 86 ]
	grep -q "definitely lost" vglog/*.log
	# the arguments reach the program; without BROOK_VG_LOG the report
	# goes to standard error
	BROOK_VG_LOG= run ./leak 1 two
	[ "$status" -eq 86 ]
	[ "${lines[0]}" = "2 arguments, two" ]
	grep -q "definitely lost" <<<"$output"
}

@test "correctly rounded float division and sqrt where the device offers them, not for --fast-math programs" {
	cat > "$RT/div.br" <<'EOS'
#include <stdio.h>
kernel void q(float a<>, float b<>, out float o<>) { o = floor(a / b) + sqrt(b); }
int main(void)
{
	float a[4] = {-2996.0f, 2996.0f, -98.0f, 10.0f}, b[4] = {7.0f, 7.0f, 49.0f, 3.0f}, o[4];
	float sa<4>, sb<4>, so<4>;
	streamRead(sa, a);
	streamRead(sb, b);
	q(sa, sb, so);
	streamWrite(so, o);
	printf("%.9g %.9g %.9g %.9g\n", o[0], o[1], o[2], o[3]);
	return 0;
}
EOS
	brook_build "$RT/div.br" "$RT/div"
	brpp "$RT/div.br" | brparse | brcheck | brgen --fast-math -o "$RT/divf"
	$BROOK_CC $RT_CFLAGS "$RT/divf.c" -o "$RT/divf" $BROOK_LIBS
	export BRT_CACHE_DIR=
	[ "$(BRT_RUNTIME=cpu "$RT/div")" = "-425.354248 430.645752 5 4.7320509" ]
	BRT_RUNTIME=opencl BRT_LOG_FILE=$RT/div.log "$RT/div" > "$RT/div.out"
	grep -q "runtime: 1 OpenCL devices" "$RT/div.log" || skip "no OpenCL device"
	[ "$(cat "$RT/div.out")" = "-425.354248 430.645752 5 4.7320509" ]
	BRT_RUNTIME=opencl BRT_LOG_FILE=$RT/divf.log "$RT/divf" > /dev/null
	# PoCL offers them (CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT)
	if grep -q "^brt: compiled: .*div\.br for \(pthread\|cpu\)-" "$RT/div.log"; then
		grep -q '^brt: compiled: .*div\.br for .*, options "-cl-fp32-correctly-rounded-divide-sqrt' "$RT/div.log"
	fi
	grep -q '^brt: compiled: .*div\.br for ' "$RT/divf.log"
	! grep -q 'correctly-rounded' "$RT/divf.log" || false
}
