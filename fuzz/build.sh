#!/bin/sh
# fuzz/build.sh BUILD - builds the libFuzzer harness of brparse as
# BUILD/parse_fuzz, from the sources beside this script and the lexer and
# parser that `make` generated in the build directory BUILD.
# Run it:  BUILD/parse_fuzz -max_total_time=600 fuzz/corpus
set -eu
build=$(cd "${1:?usage: fuzz/build.sh BUILD}" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
make -C "$build" lib/brook/grammar.c lib/brook/lex.c >/dev/null
${CLANG:-clang} -g -O1 -std=c99 -D_POSIX_C_SOURCE=200809L -DHAVE_CONFIG_H \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-I"$build" -I"$src/lib" -I"$build/lib/brook" \
	"$src/fuzz/parse_fuzz.c" "$src/lib/brook/parse.c" \
	"$src/lib/brook/parse_build.c" "$src/lib/brook/ast.c" \
	"$src/lib/brook/astprint.c" "$src/lib/brook/util.c" \
	"$src/lib/brook/diag.c" "$build/lib/brook/grammar.c" \
	"$build/lib/brook/lex.c" \
	-o "$build/parse_fuzz" -ljansson -lm
echo "built $build/parse_fuzz"

# The harnesses of brpp, brcheck + brgen and the AST reader (fuzz/README.md):
# BUILD/pp_fuzz, BUILD/check_fuzz, BUILD/ast_fuzz.
fuzz_cc() {
	out=$1
	shift
	${CLANG:-clang} -g -O1 -std=c99 -D_POSIX_C_SOURCE=200809L \
		-DHAVE_CONFIG_H -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined \
		-I"$build" -I"$src/lib" -I"$build/lib/brook" "$@" \
		"$src/lib/brook/util.c" "$src/lib/brook/diag.c" \
		-o "$build/$out" -ljansson -lm
	echo "built $build/$out"
}
front="$src/lib/brook/parse.c $src/lib/brook/parse_build.c
	$src/lib/brook/ast.c $src/lib/brook/astprint.c
	$build/lib/brook/grammar.c $build/lib/brook/lex.c
	$(ls "$src"/lib/brook/check*.c) $src/lib/brook/type.c
	$(ls "$src"/lib/brook/gen*.c)"
fuzz_cc pp_fuzz "$src/fuzz/pp_fuzz.c" "$src/lib/brook/pp.c"
# shellcheck disable=SC2086 # $front is a list of paths without spaces
fuzz_cc check_fuzz "$src/fuzz/check_fuzz.c" $front
# shellcheck disable=SC2086
fuzz_cc ast_fuzz "$src/fuzz/ast_fuzz.c" $front
