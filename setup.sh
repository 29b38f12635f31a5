#!/bin/sh
# setup.sh - installs what brook needs on Debian, builds and installs it,
# then compiles and runs examples/sum.br through the whole toolchain.
#
#   ./setup.sh              everything (uses sudo when not root)
#   ./setup.sh --no-deps    skip the Debian packages
#   ./setup.sh --no-install build only; run sum.br from the build tree
#
# Environment: CONFIGURE_FLAGS (extra ./configure arguments), PREFIX
# (default /usr/local), MAKEFLAGS.
set -eu

deps=yes
install=yes
for arg in "$@"; do
	case $arg in
	--no-deps) deps=no ;;
	--no-install) install=no ;;
	-h|--help) sed -n '2,11s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "setup.sh: unknown option $arg" >&2; exit 2 ;;
	esac
done

here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
sudo=
[ "$(id -u)" = 0 ] || sudo=sudo

# The packages that building, testing and running need. Keep this list
# complete: CI runs this script on a fresh Debian machine. (clang and its
# libFuzzer runtime build fuzz/'s harnesses, which t/reliability.bats
# builds and runs; strace lets t/reliability.bats see how a tool waits for a
# pipe, and t/gen.bats where brgen starts its second thread; python3 writes
# deep inputs and reads brt(3)'s lists in the tests.)
packages="build-essential autoconf automake libtool pkg-config re2c lemon
libjansson-dev ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-c-headers
pocl-opencl-icd clinfo bats valgrind clang libclang-rt-dev strace groff-base
python3"

if [ $deps = yes ]; then
	echo "== installing Debian packages"
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	# shellcheck disable=SC2086
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $packages
fi

echo "== building"
[ -x configure ] || autoreconf -fi >/dev/null
[ -f Makefile ] || ./configure -q --prefix="${PREFIX:-/usr/local}" ${CONFIGURE_FLAGS:-}
make -j"$(nproc 2>/dev/null || echo 2)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ $install = yes ]; then
	echo "== installing into ${PREFIX:-/usr/local}"
	$sudo make install >/dev/null
	$sudo ldconfig 2>/dev/null || true
	echo "== examples/sum.br: brpp | brparse | brcheck | brgen, cc, run"
	cp examples/sum.br "$work/"
	(cd "$work" &&
	 brpp sum.br | brparse | brcheck | brgen -o sum &&
	 cc -std=c99 sum.c $(pkg-config --cflags --libs brt) -o sum &&
	 ./sum)
else
	echo "== examples/sum.br (build tree)"
	cmd/brpp/brpp examples/sum.br | cmd/brparse/brparse |
		cmd/brcheck/brcheck | cmd/brgen/brgen -o "$work/sum"
	cc -std=c99 -Ilib/brt "$work/sum.c" lib/brt/.libs/libbrt.a \
		-lOpenCL -pthread -lm -o "$work/sum"
	"$work/sum"
fi
