#!/bin/sh
# t/device/run.sh - runs what pack.sh packed, on a machine with a GPU.
# Prints one line per program (ok / FAIL) and a closing count.
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
pass=0 fail=0
check() {	# NAME GOLDEN PROGRAM [ARGS]
	name=$1 golden=$2
	shift 2
	# standard output against the golden, as t/run.bats compares it
	gpu=$(BRT_RUNTIME=opencl "$@" 2>"$here/.err"); rc=$?
	if [ $rc = 0 ] && [ "$gpu" = "$(cat "$golden")" ]; then
		pass=$((pass + 1)); echo "ok   $name"
	else
		fail=$((fail + 1)); echo "FAIL $name (exit $rc)"
		echo "$gpu" | diff "$golden" - | head -n 20
		head -n 10 "$here/.err"
	fi
}
for p in "$here"/run/*.out "$here"/rt/*.out; do
	[ -f "$p" ] || continue
	bin=${p%.out}
	check "$(basename "$(dirname "$p")")/$(basename "$bin")" "$p" "$bin"
done
# brgen --checked: standard error against its golden too
for p in "$here"/checked/*.out; do
	[ -f "$p" ] || continue
	bin=${p%.out}
	check "checked/$(basename "$bin")" "$p" "$bin"
	if diff "${bin}.err" "$here/.err" > /dev/null; then
		pass=$((pass + 1)); echo "ok   checked/$(basename "$bin") (reports)"
	else
		fail=$((fail + 1)); echo "FAIL checked/$(basename "$bin") (reports)"
		diff "${bin}.err" "$here/.err" | head -n 20
	fi
done
# brrun --checked: output and reports against the CPU backend's
for a in "$here"/brrun-checked/case*.args; do
	[ -f "$a" ] || continue
	n=$(basename "$a" .args)
	got=$(cd "$here/brrun-checked" && rm -f s.txt && eval "'$here/brrun' \
		--backend opencl --checked $(cat "$a")" 2>&1)
	if [ "$got" = "$(cat "$here/brrun-checked/$n.out")" ]; then
		pass=$((pass + 1)); echo "ok   brrun --checked $(cat "$a")"
	else
		fail=$((fail + 1)); echo "FAIL brrun --checked $(cat "$a")"
		echo "$got" | diff "$here/brrun-checked/$n.out" - | head -n 20
	fi
done
echo "brrun:"; BRT_RUNTIME=opencl "$here/brrun" "$here/sum.br" sum a=[1,2,3] b=[10,20,30] c
"$here/brrun" --list-devices
echo "$pass passed, $fail failed"
