#!/bin/sh
# t/device/pack.sh BUILDDIR [DEST] - builds every t/run program and every
# t/rt program (static libbrt) into DEST (default .dev/), with their golden
# files and run.sh, for a machine with a GPU and no compiler: there,
# `sh DEST/run.sh` runs each on the OpenCL device and compares with the
# goldens (and with the CPU backend). Not part of make check.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
b=$(cd "$1" && pwd)
dest=${2:-$top/.dev}
mkdir -p "$dest/run" "$dest/rt" "$dest/lib"
PATH=$b/cmd/brpp:$b/cmd/brparse:$b/cmd/brcheck:$b/cmd/brgen:$b/cmd/brrun:$PATH
cflags="-std=c99 -O2 -I$top/lib/brt"
libs="$b/lib/brt/.libs/libbrt.a -ldl -pthread -lm"
for f in "$top"/t/run/*.br; do
	n=$(basename "$f" .br)
	[ -f "$top/t/run/$n.out" ] || continue
	# a program built with brcheck -a says so on its first line
	chk=brcheck
	head -n 1 "$f" | grep -q 'brcheck -a' && chk="brcheck -a"
	if brpp "$f" | brparse | $chk 2>/dev/null | brgen -o "$dest/run/$n" &&
	   cc $cflags "$dest/run/$n.c" -o "$dest/run/$n" $libs; then
		cp "$top/t/run/$n.out" "$dest/run/"
	else
		echo "pack: $n does not build" >&2
	fi
	rm -f "$dest/run/$n.c" "$dest/run/$n.h"
done
# brgen --checked programs whose reports have a golden (t/gen.bats)
mkdir -p "$dest/checked"
for n in scatter_race checked_array checked_shared; do
	cp "$top/t/gen/$n.br" "$dest/checked/"
	(cd "$dest/checked" && brpp $n.br | brparse | brcheck 2>/dev/null |
		brgen --checked -o $n && cc $cflags $n.c -o $n $libs &&
		rm -f $n.c $n.h $n.br) || echo "pack: $n does not build" >&2
	cp "$top/t/gen/$n.out" "$top/t/gen/$n.err" "$dest/checked/"
done
# brrun --checked (t/device/brrun-checked.txt, one case a line, its
# arguments): the output and reports of the CPU backend, the
# interpreter's, which run.sh expects of the device (the cases whose
# values race write them to s.txt)
mkdir -p "$dest/brrun-checked"
cp "$top/t/brrun/checked.br" "$top/t/gen/scatter_race.br" \
	"$top/t/gen/checked_array.br" "$top/t/gen/checked_shared.br" \
	"$dest/brrun-checked/"
i=0
while IFS= read -r args; do
	i=$((i + 1))
	printf '%s\n' "$args" > "$dest/brrun-checked/case$i.args"
	# (a scatter array's file is read first: none there)
	(cd "$dest/brrun-checked" && rm -f s.txt &&
		eval "brrun --backend cpu --checked $args" > case$i.out 2>&1 &&
		rm -f s.txt) || echo "pack: brrun case $i fails" >&2
done < "$top/t/device/brrun-checked.txt"
for f in "$top"/t/rt/*.c; do
	n=$(basename "$f" .c)
	[ -f "$top/t/rt/$n.out" ] || continue
	cc $cflags "$f" -o "$dest/rt/$n" $libs && cp "$top/t/rt/$n.out" "$dest/rt/"
done
cp "$b/cmd/brrun/.libs/brrun" "$dest/" 2>/dev/null || cp "$b/cmd/brrun/brrun" "$dest/"
# libbrt.so.N, N its ABI version (the soname)
abi=$(sed -n 's/^#define BRT_ABI_VERSION \([0-9]*\).*/\1/p' "$top/lib/brt/brt.h")
cp -L "$b/lib/brt/.libs/libbrt.so.$abi" "$dest/lib/"
cp -L /usr/lib/x86_64-linux-gnu/libjansson.so.4 "$dest/lib/"
cp -L /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 "$dest/lib/"
cp "$top/examples/sum.br" "$dest/"
cp "$top/t/device/run.sh" "$dest/"
# without their debug sections (libbrt.a's, mostly), the programs take a
# third of the room: 17 MB against 49, which the device tool carries
# beside the tree (64 MiB in all)
find "$dest" -type f -perm -u+x ! -name '*.sh' \
	-exec strip --strip-debug {} + 2>/dev/null || :
