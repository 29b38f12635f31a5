#!/bin/sh
# fuzz/build.sh BUILD - builds the libFuzzer harnesses (BUILD/parse_fuzz,
# pp_fuzz, check_fuzz, ast_fuzz) from the sources beside this script and
# the lexer and parser that `make` generated in the build directory BUILD.
# Run it (a folder outside the source tree first: libFuzzer writes what
# it grows there; fuzz/README.md):
#   mkdir -p /tmp/corpus/parse
#   BUILD/parse_fuzz -max_total_time=600 /tmp/corpus/parse fuzz/corpus t
set -eu
build=$(cd "${1:?usage: fuzz/build.sh BUILD}" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
make -C "$build" lib/brook/grammar.c lib/brook/lex.c >/dev/null

# fuzz_cc OUT SOURCES...: BUILD/OUT from SOURCES, util.c and diag.c, with
# the include folders of Makefile.am's AM_CPPFLAGS (lib/brt before an
# installed brt.h).
fuzz_cc() {
	out=$1
	shift
	${CLANG:-clang} -g -O1 -std=c99 -D_POSIX_C_SOURCE=200809L \
		-DHAVE_CONFIG_H -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined \
		-I"$build" -I"$src/lib" -I"$build/lib/brook" -I"$src/lib/brt" \
		"$@" "$src/lib/brook/util.c" "$src/lib/brook/diag.c" \
		-o "$build/$out" -ljansson -lm
	echo "built $build/$out"
}
parser="$src/lib/brook/parse.c $src/lib/brook/parse_build.c
	$src/lib/brook/ast.c $src/lib/brook/astprint.c
	$build/lib/brook/grammar.c $build/lib/brook/lex.c"
# shellcheck disable=SC2086 # $parser is a list of paths without spaces
fuzz_cc parse_fuzz "$src/fuzz/parse_fuzz.c" $parser

# The harnesses of brpp, brcheck + brgen and the AST reader (fuzz/README.md):
# BUILD/pp_fuzz, BUILD/check_fuzz, BUILD/ast_fuzz.
front="$parser
	$(ls "$src"/lib/brook/check*.c) $src/lib/brook/type.c
	$(ls "$src"/lib/brook/gen*.c)"
fuzz_cc pp_fuzz "$src/fuzz/pp_fuzz.c" "$src/lib/brook/pp.c"
# shellcheck disable=SC2086
fuzz_cc check_fuzz "$src/fuzz/check_fuzz.c" $front
# shellcheck disable=SC2086
fuzz_cc ast_fuzz "$src/fuzz/ast_fuzz.c" $front
