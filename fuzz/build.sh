#!/bin/sh
# fuzz/build.sh BUILD [OUT] - builds the libFuzzer harnesses parse_fuzz,
# pp_fuzz, check_fuzz and ast_fuzz into OUT (default BUILD) from the
# sources beside this script and the lexer and parser that `make`
# generated in the build directory BUILD. Run them (a folder outside the
# source tree first: libFuzzer writes what it grows there; fuzz/README.md):
#   mkdir -p /tmp/corpus/parse
#   BUILD/parse_fuzz -max_total_time=600 /tmp/corpus/parse fuzz/corpus t
set -eu
build=$(cd "${1:?usage: fuzz/build.sh BUILD [OUT]}" && pwd)
out=$(mkdir -p "${2:-$build}" && cd "${2:-$build}" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
make -C "$build" lib/brook/grammar.c lib/brook/lex.c >/dev/null

# Every source of lib/brook but brrun's (run_*.c), with the lexer and
# parser of BUILD, compiled once for all four harnesses with the include
# folders of Makefile.am's AM_CPPFLAGS (lib/brt before an installed
# brt.h). Taking the folder, not a list, keeps the harnesses building
# when a file is split or added.
cc_fuzz() {
	${CLANG:-clang} -g -O1 -std=c99 -D_POSIX_C_SOURCE=200809L \
		-DHAVE_CONFIG_H -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined \
		-I"$build" -I"$src/lib" -I"$build/lib/brook" -I"$src/lib/brt" "$@"
}
objs=$(mktemp -d)
trap 'rm -rf "$objs"' EXIT
sources="$build/lib/brook/grammar.c $build/lib/brook/lex.c"
for f in "$src"/lib/brook/*.c; do
	case $f in */run_*) ;; *) sources="$sources $f" ;; esac
done
n=0 par=$(nproc 2>/dev/null || echo 2)
for f in $sources; do
	cc_fuzz -fsanitize=fuzzer-no-link -c "$f" \
		-o "$objs/$(basename "$f" .c).o" &
	n=$((n + 1))
	[ $((n % par)) -ne 0 ] || wait	# PAR compilers at a time
done
wait
# a compiler that failed in the background said why; its object is missing
for f in $sources; do
	[ -f "$objs/$(basename "$f" .c).o" ] || {
		echo "fuzz/build.sh: $f did not compile" >&2
		exit 1
	}
done
# brparse's, brpp's, brcheck + brgen's and the AST reader's harnesses
# (fuzz/README.md)
for h in parse pp check ast; do
	cc_fuzz "$src/fuzz/${h}_fuzz.c" "$objs"/*.o -o "$out/${h}_fuzz" \
		-ljansson -lm
	echo "built $out/${h}_fuzz"
done
