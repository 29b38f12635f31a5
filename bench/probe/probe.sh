# probe.sh - what the shell probes share (cfend.sh, clgather.sh,
# buildab.sh), sourced after PROBE (the probe's name) is set: the
# arguments [ROUNDS [KEYS [SIDE]]] (buildab.sh has its own), and bench/br
# programs built as bench/build.sh builds them, into a folder removed at
# exit. The tools, compiler and libbrt as for build.sh (BROOK_TOOLS, CC,
# BENCH_CFLAGS, BRT_CFLAGS, BRT_LIBS, OPENCL_LIBS).

probe_usage() {
	echo "usage: $PROBE [ROUNDS [KEYS [SIDE]]] (each a number at least 1)" >&2
	exit 2
}

# probe_args "$@": ROUNDS (default 3), KEYS (262144) and SIDE (1024)
probe_args() {
	[ $# -le 3 ] || probe_usage
	rounds=${1:-3} keys=${2:-262144} side=${3:-1024}
	for v in "$rounds" "$keys" "$side"; do
		case $v in '' | *[!0-9]*) probe_usage ;; esac
		[ "$v" -ge 1 ] || probe_usage
	done
}

# probe_setup: $src (bench/), $top, $work and the objects the programs share
probe_setup() {
	src=$(cd "$(dirname "$0")/.." && pwd)
	top=$(dirname "$src")
	CC=${CC:-cc}
	cflags="-std=c99 -D_POSIX_C_SOURCE=200809L ${BENCH_CFLAGS:--O3 -march=native}"
	tools=${BROOK_TOOLS:+$BROOK_TOOLS/}
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	for f in bench ref brook_device; do
		# shellcheck disable=SC2086
		$CC $cflags ${BRT_CFLAGS:--I$top/lib/brt} -I"$src" \
			-c "$src/$f.c" -o "$work/$f.o" || exit 1
	done
}

# probe_gen NAME: bench/br/NAME.br through the tools into $work/NAME.c
probe_gen() {
	# brcheck's warnings (W-index-vector) to a log, shown on failure
	if ! { "${tools}brpp" "$src/br/$1.br" | "${tools}brparse" |
		"${tools}brcheck" | "${tools}brgen" --fast-math \
		-o "$work/$1"; } 2>"$work/$1.log"; then
		cat "$work/$1.log" >&2
		exit 1
	fi
}

# probe_link FILE.c OUT: the program of generated FILE.c
probe_link() {
	# shellcheck disable=SC2086
	$CC $cflags ${BRT_CFLAGS:--I$top/lib/brt} -I"$src" -I"$work" \
		"$1" "$work/bench.o" "$work/ref.o" "$work/brook_device.o" \
		${BRT_LIBS:--lbrt} ${OPENCL_LIBS:--lOpenCL} -pthread -lm \
		-o "$2" || exit 1
}

# probe_record LINE CASE FORM: a program's line (bench.h) kept as
# "CASE -FORM MS" in $work/ms; the probe stops on a wrong result
probe_record() {
	case $1 in *" ok=1"*) ;; *)
		echo "$PROBE: $2 $3: $1" >&2
		exit 1 ;;
	esac
	ms=${1#*median_ms=}
	echo "$2 -$3 ${ms%% *}" >>"$work/ms"
}

# probe_medians: $work/ms's lines "CASE -FORM MS" as one line a case and
# form, in their first order: CASE FORM medians_ms=M1 M2 ...
probe_medians() {
	awk '{ k = $1 " " substr($2, 2); m[k] = m[k] " " $3
		if (!(k in seen)) { seen[k] = 1; order[n++] = k } }
		END { for (i = 0; i < n; i++)
			print order[i] " medians_ms=" substr(m[order[i]], 2) }' \
		"$work/ms"
}
