#!/usr/bin/env python3
"""difftest_gpu.py - difftest.py's random programs, run on a remote GPU.

The remote machine has an OpenCL driver but no compiler and maybe no
python3, so the work is split in three (see fuzz/DIFFTEST-GPU.md):

  pack     here: generate N programs with difftest.py's generator, build
           each (brpp|brparse|brcheck|brgen, cc, no sanitizer, stripped),
           run each with BRT_RUNTIME=cpu for the reference output, and write
           DIR/run.sh (plain POSIX sh) plus what compare needs (meta.json,
           ref/, src/) and the libraries the binaries load (lib/)
  run.sh   there: `sh DIR/run.sh` runs every binary with BRT_RUNTIME=opencl
           (a timeout each, a time budget in all) and appends stdout, stderr,
           libbrt's log and the exit status of each to
           $OUT/difftest/results.txt (one file: the device tool brings back
           at most 8 files)
  compare  here: compare the remote outputs with the CPU references by
           difftest.py's rules (same(), to_num(), parse_prog_out()), print a
           summary and write each finding under --out

Python 3 standard library only.  difftest.py is imported, not changed.
"""
import argparse
import concurrent.futures
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import difftest as dt  # noqa: E402

TOP = os.path.dirname(HERE)
FORMAT = 1
RESULTS = "results.txt"

# --------------------------------------------------------------------------
# run.sh, written into the pack.  POSIX sh; `timeout`, `date +%s` and `dd`
# are used when present.
RUN_SH = r'''#!/bin/sh
# run.sh - written by fuzz/difftest_gpu.py pack (@SEEDS@).
# On the GPU machine: sh run.sh [RESULTDIR]
# Runs every program in bin/ with BRT_RUNTIME=opencl and appends its exit
# status, stdout, stderr and libbrt log (BRT_LOG_FILE) to
# RESULTDIR/results.txt (default $OUT/difftest), one record a program:
#   @@ NAME start
#   @@ NAME rc RC secs S
#   @@ NAME out|err|log BYTES    then BYTES bytes and a newline
# Programs not started because the time budget ran out: @@ NAME skipped budget
# Environment: DIFFTEST_TIMEOUT (seconds a program, default @TIMEOUT@),
# DIFFTEST_BUDGET (seconds in all before no new program starts, default
# @BUDGET@; 0: no budget), BRT_ADAPTER (which OpenCL device).
here=$(cd "$(dirname "$0")" && pwd)
if [ -n "${1:-}" ]; then res=$1
elif [ -n "${OUT:-}" ]; then res=$OUT/difftest
else res=$here/out/difftest; fi
mkdir -p "$res" || exit 1
tmo=${DIFFTEST_TIMEOUT:-@TIMEOUT@}
budget=${DIFFTEST_BUDGET:-@BUDGET@}
tmp=${TMPDIR:-/tmp}/difftest-gpu.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' 0
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export BRT_RUNTIME=opencl
export BRT_CACHE_DIR=		# empty: no disk cache, the driver compiles each
# no ICD file for the NVIDIA driver (the echo line was left out): point
# ocl-icd at one of our own
if [ -z "${OCL_ICD_VENDORS:-}" ] && ! ls /etc/OpenCL/vendors/*.icd >/dev/null 2>&1; then
	for l in /usr/local/nvidia/lib64/libnvidia-opencl.so.1 \
	         /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1; do
		if [ -e "$l" ]; then
			mkdir -p "$tmp/icd" && echo "$l" > "$tmp/icd/nvidia.icd"
			export OCL_ICD_VENDORS="$tmp/icd"
			echo "run.sh: no /etc/OpenCL/vendors/*.icd; OCL_ICD_VENDORS=$tmp/icd ($l)"
			break
		fi
	done
fi
T=
if command -v timeout >/dev/null 2>&1; then
	if timeout -k 5 1 true 2>/dev/null; then T="timeout -k 5 $tmo"; else T="timeout $tmo"; fi
else
	echo "run.sh: no timeout command; programs run without one"
fi
now() { date +%s 2>/dev/null || echo 0; }
rf=$res/results.txt
sf=$res/summary.txt
{
	echo "# difftest_gpu run.sh on $(uname -n 2>/dev/null)"
	echo "date: $(date 2>/dev/null)"
	echo "uname: $(uname -a 2>/dev/null)"
	echo "libc: $(ldd --version 2>&1 | head -n 1)"
	echo "icd: $(cat /etc/OpenCL/vendors/*.icd 2>/dev/null | tr '\n' ' ') ${OCL_ICD_VENDORS:-}"
	echo "gpu: $(nvidia-smi -L 2>/dev/null | head -n 4 | tr '\n' ' ')"
	echo "timeout: ${T:-none}; budget: ${budget}s"
} > "$sf"
cat "$sf"
: > "$rf"
start=$(now)
ok=0 bad=0 skip=0
put() {	# NAME WHAT FILE: a record of at most 256 KiB of FILE
	[ -f "$3" ] || : > "$3"
	dd if="$3" of="$3.cut" bs=262144 count=1 2>/dev/null || cp "$3" "$3.cut"
	echo "@@ $1 $2 $(wc -c < "$3.cut" | tr -d ' ')" >> "$rf"
	cat "$3.cut" >> "$rf"
	echo >> "$rf"
	rm -f "$3" "$3.cut"
}
for b in "$here"/bin/*; do
	[ -f "$b" ] || continue
	n=${b##*/}
	if [ "$budget" -gt 0 ] && [ $(($(now) - start)) -ge "$budget" ]; then
		echo "@@ $n skipped budget" >> "$rf"
		skip=$((skip + 1))
		continue
	fi
	echo "@@ $n start" >> "$rf"
	t0=$(now)
	BRT_LOG_FILE="$tmp/log" $T "$b" > "$tmp/out" 2> "$tmp/err" < /dev/null
	rc=$?
	t1=$(now)
	echo "@@ $n rc $rc secs $((t1 - t0))" >> "$rf"
	put "$n" out "$tmp/out"
	put "$n" err "$tmp/err"
	put "$n" log "$tmp/log"
	if [ "$rc" = 0 ]; then ok=$((ok + 1)); else bad=$((bad + 1)); fi
	echo "$n: exit $rc, $((t1 - t0))s" | tee -a "$sf"
done
echo "difftest: $ok programs exited 0, $bad did not, $skip not run (budget), $(($(now) - start))s" | tee -a "$sf"
'''


# --------------------------------------------------------------------------
def outs_of(prog):
    """{key: {type, base, n, cls}} of a difftest Program, keyed as the
    program prints them (OUT kernel.name), the way Runner.run keys them."""
    res = {}
    for tst in prog.tests:
        k = tst["kernel"]
        for out in tst["outs"]:
            oname, t, cls = out[:3]
            key = "%s.%s" % (k, out[4] if len(out) > 4 else oname)
            res[key] = {"type": t.name, "base": t.base, "n": t.n, "cls": cls}
    return res


def glibc_needs(path):
    """highest GLIBC_x.y symbol version named in a binary"""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    vs = set(re.findall(rb"GLIBC_(\d+)\.(\d+)(?:\.(\d+))?", data))
    if not vs:
        return None
    best = max(tuple(int(x or 0) for x in v) for v in vs)
    return "%d.%d" % best[:2] + (".%d" % best[2] if best[2] else "")


def git_head():
    try:
        h = subprocess.run(["git", "-C", TOP, "rev-parse", "--short", "HEAD"], capture_output=True,
                           text=True).stdout.strip()
        d = subprocess.run(["git", "-C", TOP, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
        return h + ("+dirty" if d else "")
    except OSError:
        return ""


# --------------------------------------------------------------------------
# pack
def build_one(a, env, dest, seed):
    """generates, builds and runs one program; returns its meta entry, or a
    skip entry"""
    prog = dt.Program(seed, a.k, not a.no_inexact, a.feats)
    name = "s%d" % prog.seed
    d = os.path.join(a.work, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    src = prog.text()
    with open(os.path.join(d, "p.br"), "w") as f:
        f.write(src)

    def skip(why, text):
        return {"name": name, "seed": prog.seed, "skipped": why, "text": text[-3000:]}

    rc, o, e = dt.sh("brpp p.br | brparse | brcheck -o p.ast", d, env)
    if rc != 0:
        return skip("brcheck-reject", e)
    rc, o, e = dt.sh("brgen -o p p.ast", d, env)
    if rc != 0:
        return skip("brgen-fail", e)
    b = a.build
    if a.static:
        libs = "%s/lib/brt/.libs/libbrt.a -ldl" % b
    else:
        libs = "%s/lib/brt/.libs/libbrt.so" % b
    binp = os.path.join(dest, "bin", name)
    cc = "%s -std=c99 -O2 -w -s -I%s %s p.c -o %s %s -pthread -lm" % (
        a.cc, a.include, a.cflags, binp, libs)
    rc, o, e = dt.sh(cc, d, env, timeout=600)
    if rc != 0:
        return skip("cc-fail", e)
    renv = dict(env, BRT_RUNTIME="cpu", LD_LIBRARY_PATH=os.path.join(dest, "lib"))
    renv.pop("BRT_LOG_FILE", None)
    rc, o, e = dt.sh([binp], d, renv, timeout=a.timeout)
    outs = outs_of(prog)
    got = dt.parse_prog_out(o)
    if rc != 0 or any(k not in got for k in outs):
        os.unlink(binp)
        return skip("cpu-run-fail", "rc=%d\n%s\n--- stderr\n%s" % (rc, o[-1500:], e[-1500:]))
    with open(os.path.join(dest, "ref", name + ".txt"), "w") as f:
        f.write(o)
    if e.strip():
        with open(os.path.join(dest, "ref", name + ".err"), "w") as f:
            f.write(e)
    with open(os.path.join(dest, "src", name + ".br"), "w") as f:
        f.write(src)
    with open(os.path.join(d, "p.c"), "rb") as f, gzip.open(os.path.join(dest, "src", name + ".c.gz"), "wb") as g:
        shutil.copyfileobj(f, g)
    if not a.keep:
        shutil.rmtree(d, ignore_errors=True)
    return {"name": name, "seed": prog.seed, "kernels": [t["kernel"] for t in prog.tests], "outs": outs}


def cmd_pack(a):
    a.build = os.path.abspath(a.build)
    dest = os.path.abspath(a.dir)
    a.include = os.path.abspath(a.include)
    for p in ("%s/cmd/brgen/brgen" % a.build, "%s/lib/brt/.libs/libbrt.a" % a.build):
        if not os.path.exists(p):
            sys.exit("pack: %s missing: is --build a built build folder?" % p)
    os.makedirs(dest, exist_ok=True)
    # a pack replaces the pack in DEST; anything else there stays
    for sub in ("bin", "ref", "src", "lib", "out"):
        shutil.rmtree(os.path.join(dest, sub), ignore_errors=True)
    for f in ("meta.json", "run.sh"):
        if os.path.exists(os.path.join(dest, f)):
            os.unlink(os.path.join(dest, f))
    for sub in ("bin", "ref", "src", "lib"):
        os.makedirs(os.path.join(dest, sub))
    libdir = os.path.join(dest, "lib")
    shutil.copy(a.libopencl, os.path.join(libdir, "libOpenCL.so.1"))     # follows the link
    if not a.static:
        # libbrt.so.N, N its ABI version (the soname)
        so = [f for f in os.listdir("%s/lib/brt/.libs" % a.build) if re.match(r"libbrt\.so\.[0-9]+$", f)]
        if len(so) != 1:
            sys.exit("difftest_gpu: no single libbrt.so.N in %s/lib/brt/.libs" % a.build)
        shutil.copy("%s/lib/brt/.libs/%s" % (a.build, so[0]), os.path.join(libdir, so[0]))
        if shutil.which("strip"):
            subprocess.run(["strip", "--strip-unneeded", os.path.join(libdir, so[0])])
    os.makedirs(a.work, exist_ok=True)
    path = ":".join("%s/cmd/%s" % (a.build, t) for t in ("brpp", "brparse", "brcheck", "brgen"))
    env = {"PATH": path + ":" + os.environ["PATH"]}
    seeds = list(range(a.seed, a.seed + a.n))
    t0 = time.time()
    entries = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futs = [ex.submit(build_one, a, env, dest, s) for s in seeds]
        for s, fu in zip(seeds, futs):
            try:
                ent = fu.result()
            except Exception as err:     # a generator or pipeline bug: skip the seed
                ent = {"name": "s%d" % s, "seed": s, "skipped": "pack-error", "text": repr(err)}
            entries.append(ent)
            if "skipped" in ent:
                print("seed %d: NOT PACKED (%s): %s" % (s, ent["skipped"],
                                                         (ent["text"].strip().splitlines() or [""])[-1]), flush=True)
            else:
                print("seed %d: packed, %d kernels, %d outputs (%.0fs)" % (
                    s, len(ent["kernels"]), len(ent["outs"]), time.time() - t0), flush=True)
    packed = [e for e in entries if "skipped" not in e]
    skipped = [e for e in entries if "skipped" in e]
    glibc = max((v for v in (glibc_needs(os.path.join(dest, "bin", e["name"])) for e in packed) if v),
                key=lambda v: tuple(int(x) for x in v.split(".")), default=None)
    meta = {"format": FORMAT, "created": time.strftime("%Y-%m-%d %H:%M:%S"), "git": git_head(),
            "build": a.build, "seed": a.seed, "n": a.n, "k": a.k, "inexact": not a.no_inexact,
            "features": a.features,
            "link": "static" if a.static else "shared", "timeout": a.timeout, "budget": a.budget,
            "glibc": glibc, "programs": packed, "skipped": skipped}
    with open(os.path.join(dest, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    seeds_s = "seeds %d..%d, %d kernels each" % (a.seed, a.seed + a.n - 1, a.k)
    with open(os.path.join(dest, "run.sh"), "w") as f:
        f.write(RUN_SH.replace("@SEEDS@", seeds_s).replace("@TIMEOUT@", str(a.timeout))
                .replace("@BUDGET@", str(a.budget)))
    os.chmod(os.path.join(dest, "run.sh"), 0o755)
    size = 0
    for root, _, files in os.walk(dest):
        for fn in files:
            size += os.path.getsize(os.path.join(root, fn))
    nk = sum(len(e["kernels"]) for e in packed)
    no = sum(len(e["outs"]) for e in packed)
    print("pack %s: %d programs (%d kernels, %d outputs), %d not packed; %.1f MiB; needs glibc %s; %.0fs" % (
        dest, len(packed), nk, no, len(skipped), size / 2 ** 20, glibc or "?", time.time() - t0))
    return 0 if packed else 1


# --------------------------------------------------------------------------
# compare
def find_results(rdir):
    for p in (os.path.join(rdir, RESULTS), os.path.join(rdir, "difftest", RESULTS)):
        if os.path.isfile(p):
            return p
    return None


def parse_results(path):
    """{name: {"rc": int|None, "secs": int, "out": str, "err": str, "log": str,
    "started": bool, "skipped": str}}; tolerates a record cut off at the end"""
    with open(path, "rb") as f:
        data = f.read()
    res = {}
    i = 0
    while i < len(data):
        j = data.find(b"\n", i)
        if j < 0:
            j = len(data)
        line = data[i:j].decode("utf-8", "replace")
        i = j + 1
        tok = line.split()
        if len(tok) < 3 or tok[0] != "@@":
            continue        # stray text
        name, what = tok[1], tok[2]
        r = res.setdefault(name, {"rc": None, "secs": None, "out": None, "err": "", "log": "",
                                  "started": False, "skipped": None})
        if what == "start":
            r["started"] = True
        elif what == "skipped":
            r["skipped"] = " ".join(tok[3:]) or "skipped"
        elif what == "rc" and len(tok) >= 4:
            r["rc"] = int(tok[3])
            if len(tok) >= 6 and tok[4] == "secs":
                r["secs"] = int(tok[5])
        elif what in ("out", "err", "log") and len(tok) >= 4:
            n = int(tok[3])
            r[what] = data[i:i + n].decode("utf-8", "replace")
            i += n
            if data[i:i + 1] == b"\n":
                i += 1
    return res


def parse_dir_results(rdir):
    """the other layout: NAME.out, NAME.err, NAME.rc, NAME.log files"""
    res = {}
    for fn in os.listdir(rdir):
        m = re.match(r"(s\d+)\.(out|err|rc|log)$", fn)
        if not m:
            continue
        r = res.setdefault(m.group(1), {"rc": None, "secs": None, "out": None, "err": "", "log": "",
                                        "started": True, "skipped": None})
        with open(os.path.join(rdir, fn), errors="replace") as f:
            txt = f.read()
        if m.group(2) == "rc":
            r["rc"] = int(txt.strip() or -1)
        else:
            r[m.group(2)] = txt
    return res


DEV_RE = re.compile(r"default device (.*?)\s*$", re.M)
SAN_RE = dt.SAN_RE


def compare_prog(ent, ref_text, r, tol):
    """returns (kind, lines) of findings, outputs compared, outputs bad"""
    notes = []
    compared = bad = 0
    if r["rc"] is None:
        if r["started"]:
            return [("opencl-hang", ["started but no exit status: run.sh was killed while it ran"])], 0, 0
        return [], 0, 0
    m = DEV_RE.search(r["log"] or "")
    dev = m.group(1) if m else None
    if dev is None or dev.startswith("CPU"):
        notes.append(("not-on-opencl", ["libbrt's default device: %s" % (dev or "unknown (no log line)")]
                      + [l for l in (r["log"] or "").splitlines()[:20]]))
    if r["rc"] != 0:
        notes.append(("opencl-run-fail", ["exit %d%s" % (r["rc"], " (timeout)" if r["rc"] in (124, 137) else "")]
                      + (r["err"] or "").strip().splitlines()[-30:]))
    elif SAN_RE.search(r["err"] or ""):
        notes.append(("opencl-run-stderr", (r["err"] or "").strip().splitlines()[-30:]))
    ref = dt.parse_prog_out(ref_text)
    got = dt.parse_prog_out(r["out"] or "")
    outs = ent["outs"]
    keys = list(outs) + [k for k in ref if k not in outs]
    diffs = []
    for key in keys:
        info = outs.get(key, {"type": "?", "base": "?", "cls": "exact"})
        if key not in ref:
            diffs.append("%s: no reference output" % key)
            continue
        if key not in got:
            if r["rc"] == 0:
                diffs.append("%s: missing from the OpenCL output" % key)
            continue
        a, b = ref[key], got[key]
        compared += 1
        if len(a) != len(b):
            bad += 1
            diffs.append("%s: cpu has %d values, opencl %d" % (key, len(a), len(b)))
            continue
        try:        # difftest's rules for every type it knows
            av = [dt.to_num(x, info["base"]) for x in a]
            bv = [dt.to_num(x, info["base"]) for x in b]
            idx = [j for j in range(len(av)) if not dt.same(av[j], bv[j], info["base"], info["cls"], tol)]
        except (ValueError, TypeError):     # else the printed text
            av, bv = a, b
            idx = [j for j in range(len(a)) if a[j] != b[j]]
        if idx:
            bad += 1
            n = info.get("n", 1) or 1
            diffs.append("%s (%s %s): cpu vs opencl differ at %d of %d places; first [%d]: %r vs %r" % (
                key, info["type"], info["cls"], len(idx), len(av), idx[0], av[idx[0]], bv[idx[0]]))
            for j in idx[:24]:
                diffs.append("    [%d] (element %d%s): cpu %s  opencl %s" % (
                    j, j // n, "." + "xyzw"[j % n] if n > 1 else "", a[j], b[j]))
            if len(idx) > 24:
                diffs.append("    ... %d more" % (len(idx) - 24))
    for key in got:
        if key not in ref and key not in outs:
            diffs.append("%s: only in the OpenCL output" % key)
    if diffs:
        notes.append(("mismatch", diffs))
    return notes, compared, bad


def write_finding(a, dest, ent, ref_text, r, notes):
    fd = os.path.join(a.out, ent["name"])
    shutil.rmtree(fd, ignore_errors=True)
    os.makedirs(fd)
    name = ent["name"]
    for src, dst in (("%s.br" % name, "p.br"),):
        p = os.path.join(dest, "src", src)
        if os.path.exists(p):
            shutil.copy(p, os.path.join(fd, dst))
    p = os.path.join(dest, "src", name + ".c.gz")
    if os.path.exists(p):
        with gzip.open(p, "rb") as f, open(os.path.join(fd, "p.c"), "wb") as g:
            shutil.copyfileobj(f, g)
    with open(os.path.join(fd, "cpu.txt"), "w") as f:
        f.write(ref_text)
    with open(os.path.join(fd, "opencl.txt"), "w") as f:
        f.write("exit %s, %ss\n--- stdout\n%s\n--- stderr\n%s\n--- libbrt log\n%s" % (
            r["rc"], r["secs"], r["out"] or "", r["err"] or "", r["log"] or ""))
    with open(os.path.join(fd, "NOTES"), "w") as f:
        f.write("seed %d (difftest.py --print --seed %d -k %d, generator as of the pack)\n" % (
            ent["seed"], ent["seed"], a.meta_k))
        f.write("rebuild: brpp p.br | brparse | brcheck | brgen -o p && cc -std=c99 -O2 -Ilib/brt p.c "
                "libbrt.a -ldl -pthread -lm; run with BRT_RUNTIME=cpu and =opencl\n")
        for kind, lines in notes:
            f.write("== %s\n%s\n" % (kind, "\n".join(lines)))
    return fd


def cmd_compare(a):
    dest = os.path.abspath(a.dir)
    with open(os.path.join(dest, "meta.json")) as f:
        meta = json.load(f)
    a.meta_k = meta["k"]
    rpath = find_results(a.results)
    if rpath:
        res = parse_results(rpath)
    elif os.path.isdir(os.path.join(a.results, "difftest")):
        res = parse_dir_results(os.path.join(a.results, "difftest"))
    else:
        res = parse_dir_results(a.results)
    if not res:
        sys.exit("compare: no results in %s (looked for %s and difftest/%s)" % (a.results, RESULTS, RESULTS))
    os.makedirs(a.out, exist_ok=True)
    devices = {}
    stats = {"programs": len(meta["programs"]), "run": 0, "not run": 0, "kernels": 0,
             "outputs compared": 0, "outputs mismatching": 0}
    kinds = {}
    findings = []
    for ent in meta["programs"]:
        r = res.get(ent["name"])
        if r is None or r["skipped"] or (r["rc"] is None and not r["started"]):
            stats["not run"] += 1
            continue
        stats["run"] += 1
        stats["kernels"] += len(ent["kernels"])
        with open(os.path.join(dest, "ref", ent["name"] + ".txt")) as f:
            ref_text = f.read()
        notes, comp, bad = compare_prog(ent, ref_text, r, a.tol)
        stats["outputs compared"] += comp
        stats["outputs mismatching"] += bad
        m = DEV_RE.search(r["log"] or "")
        if m:
            devices[m.group(1)] = devices.get(m.group(1), 0) + 1
        if notes:
            for kind, _ in notes:
                kinds[kind] = kinds.get(kind, 0) + 1
            fd = write_finding(a, dest, ent, ref_text, r, notes)
            findings.append(fd)
            first = notes[0][1][0] if notes[0][1] else ""
            print("FINDING seed %d: %s: %s" % (ent["seed"], ", ".join(k for k, _ in notes), first))
        elif a.verbose:
            print("seed %d: ok (%s kernels, %ss)" % (ent["seed"], len(ent["kernels"]), r["secs"]))
    unknown = sorted(set(res) - {e["name"] for e in meta["programs"]})
    print("pack %s: seeds %d..%d, -k %d, git %s, packed %s" % (
        dest, meta["seed"], meta["seed"] + meta["n"] - 1, meta["k"], meta.get("git", ""), meta["created"]))
    if meta["skipped"]:
        print("not packed (failed here): %s" % ", ".join("%s %s" % (e["name"], e["skipped"]) for e in meta["skipped"]))
    print("devices: %s" % (", ".join("%s (%d programs)" % kv for kv in devices.items()) or "none in the logs"))
    if unknown:
        print("results for programs not in the pack: %s" % ", ".join(unknown))
    print("programs %d, run %d, not run %d, kernels %d, outputs compared %d, mismatching %d, "
          "findings %d %s" % (stats["programs"], stats["run"], stats["not run"], stats["kernels"],
                              stats["outputs compared"], stats["outputs mismatching"], len(findings),
                              kinds if kinds else ""))
    if findings:
        print("findings under %s" % a.out)
    if findings:
        return 1
    return 2 if stats["not run"] or not stats["run"] else 0


# --------------------------------------------------------------------------
def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("pack", help="generate, build and run here on the CPU; write DIR/run.sh")
    p.add_argument("dir", metavar="DIR")
    p.add_argument("--build", default="/tmp/bdiff", help="built (not sanitized) build folder")
    p.add_argument("--seed", type=int, default=1, help="first seed")
    p.add_argument("-n", type=int, default=40, help="number of programs")
    p.add_argument("-k", type=int, default=7, help="kernels per program")
    p.add_argument("--no-inexact", action="store_true", help="exact float expressions only")
    dt.add_features_option(p)
    p.add_argument("--include", default=os.path.join(TOP, "lib", "brt"))
    p.add_argument("--cc", default="cc")
    p.add_argument("--cflags", default="", help="extra cc flags (nothing that needs a runtime library there)")
    p.add_argument("--static", action="store_true", help="link libbrt.a into each binary (bigger pack) "
                   "instead of shipping lib/libbrt.so.N")
    p.add_argument("--libopencl", default="/usr/lib/x86_64-linux-gnu/libOpenCL.so.1",
                   help="the ICD loader (ocl-icd) to ship in lib/")
    p.add_argument("--timeout", type=int, default=60, help="seconds a program (here and in run.sh)")
    p.add_argument("--budget", type=int, default=480, help="run.sh starts no program after this many seconds")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    p.add_argument("--work", default="/tmp/difftest-gpu-work")
    p.add_argument("--keep", action="store_true", help="keep the work folders")
    c = sub.add_parser("compare", help="compare run.sh's results with the CPU references")
    c.add_argument("dir", metavar="DIR", help="the pack")
    c.add_argument("results", metavar="RESULTS_DIR", help="holds results.txt or difftest/results.txt")
    c.add_argument("--tol", type=float, default=1e-4, help="relative tolerance of inexact floats")
    c.add_argument("--out", default="/tmp/difftest-gpu-findings", help="findings folder")
    c.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    if a.cmd == "pack":
        a.feats = dt.parse_features(p, a.features)
    return cmd_pack(a) if a.cmd == "pack" else cmd_compare(a)


if __name__ == "__main__":
    sys.exit(main())
