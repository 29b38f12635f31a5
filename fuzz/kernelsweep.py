#!/usr/bin/env python3
"""kernelsweep.py - every kernel of the tree through brrun on both backends.

Takes the Brook+ programs of the source tree (t/run, t/brrun, t/gen,
t/reliability, examples, bench/br), and runs each kernel that brrun can
launch twice, with `brrun --backend cpu` (brrun's interpreter) and with
`brrun --backend opencl` (the OpenCL C brgen writes), on the same
generated data:

  input stream    rand:SEED, 16 elements (8x4 where a stream of the
                  kernel is 2-D or more); for a GroupSize kernel two
                  whole groups along each axis (in a partial group, what
                  a work-item reads of shared memory that only idle
                  work-items would have written is 0 in the interpreter
                  and undefined on OpenCL)
  gather array    rand:SEED, 6 along each axis (integer indices 0-99,
                  so most fall outside: the clamping path)
  scatter array   zeros, 12 along each axis
  output stream   the input's shape
  value           3
  reduction       onto a host scalar

and compares standard output and standard error, which must be the same
text. With the default options (`--checked`) the reports of accesses
outside their array and of scatter races take part; a launch of more than
16 such accesses may show different ones on each backend (brt(3)), so a
kernel whose output says "N more --checked reports" is counted apart, not as a
difference; so is one whose scatter writes race (reported the same on
both), whose values depend on the order the writes ran in, and one whose
numbers differ within --tol (default 1e-5, relative above 1): a GPU folds
a float reduction in another order. Kernels the generator cannot bind (a struct value, no stream
giving the domain) fail on both backends alike and are counted as such.

  python3 fuzz/kernelsweep.py --build BUILD [--timeout S] [-- BRRUN-OPTION...]

Prints each difference (a unified diff of the two outputs) and a closing
count; exit status 1 when a kernel differs or fails on one backend only.
Python 3 standard library only.
"""
import argparse
import difflib
import glob
import json
import os
import subprocess
import sys

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
DIRS = ("t/run", "t/brrun", "t/gen", "t/reliability", "examples", "bench/br")


def rank_of(t):
    n = 0
    while t.get("t") == "array":
        n += 1
        t = t["of"]
    return n


def command(f, x):
    """brrun's arguments for kernel X of file F, or None."""
    params = x["type"]["params"]
    twod = any(len(q["type"].get("dims") or []) >= 2
               for q in params if q["type"].get("t") == "stream")
    dom = "8x4" if twod else "16"
    for a in x.get("attrs") or []:
        if a.get("name") == "GroupSize":
            # two whole groups along each axis: a partial group's idle
            # work-items write no shared memory, and what the others
            # read there is 0 in the interpreter, undefined on OpenCL
            g = [v.get("value") or 1 for v in a.get("args", [])] + [1, 1]
            dom = "%dx%d" % (2 * g[0], 2 * g[1]) if twod else "%d" % (2 * g[0])
    args, shapes = [], []
    for i, q in enumerate(params):
        role, t, n = q.get("role"), q["type"], q["name"]
        if role == "in":
            args.append("%s=rand:%d" % (n, i + 3))
            shapes.append("%s=%s" % (n, dom))
        elif role == "gather":
            args.append("%s=rand:%d" % (n, i + 5))
            shapes.append("%s=%s" % (n, "x".join(["6"] * rank_of(t))))
        elif role == "out":
            args.append(n)
            shapes.append("%s=%s" % (n, dom))
        elif role == "scatter":
            args.append("%s=zeros" % n)
            shapes.append("%s=%s" % (n, "x".join(["12"] * rank_of(t))))
        elif role == "value":
            args.append("%s=3" % n)
        elif role == "reduce":
            args.append(n)
        else:
            return None
    cmd = [os.path.relpath(f, TOP), x["name"]] + args
    for s in shapes:
        cmd += ["--shape", s]
    return cmd


def close(a, b, tol):
    """Whether texts A and B differ only in numbers within TOL (relative
    above 1, absolute below), as a float sum folded in another order
    does."""
    ta, tb = a.split(), b.split()
    if len(ta) != len(tb):
        return False
    for x, y in zip(ta, tb):
        if x == y:
            continue
        try:
            xs, ys = x.split(","), y.split(",")
            if len(xs) != len(ys):
                return False
            for u, v in zip(map(float, xs), map(float, ys)):
                if abs(u - v) > tol * max(abs(u), 1.0):
                    return False
        except ValueError:
            return False
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True, help="configured and built build folder")
    ap.add_argument("--timeout", type=int, default=300, help="seconds a run")
    ap.add_argument("--tol", type=float, default=1e-5,
                    help="numbers of the outputs within it count as the same rounding")
    ap.add_argument("brrun_options", nargs="*", help="brrun options (default --checked)")
    o = ap.parse_args()
    b = os.path.abspath(o.build)
    tools = ("brpp", "brparse", "brcheck", "brrun")
    env = dict(os.environ, PATH=":".join("%s/cmd/%s" % (b, t) for t in tools)
               + ":" + os.environ.get("PATH", ""))
    extra = o.brrun_options or ["--checked"]
    n = {"same": 0, "rounding": 0, "more than 16": 0, "races": 0, "differ": 0,
         "fail on both": 0, "fail on one": 0}
    for d in DIRS:
        for f in sorted(glob.glob(os.path.join(TOP, d, "*.br"))):
            p = subprocess.run("brpp -I'%s' '%s' | brparse | brcheck" % (os.path.dirname(f), f),
                               shell=True, capture_output=True, env=env)
            if p.returncode:
                continue
            try:
                doc = json.loads(p.stdout)
            except ValueError:
                continue
            for x in doc.get("decls", []):
                if (x.get("k") != "func" or not (x.get("kernel") or x.get("reduce"))
                        or not x.get("body")):
                    continue
                cmd = command(f, x)
                if not cmd:
                    continue
                outs = []
                for be in ("cpu", "opencl"):
                    r = subprocess.run(["brrun", "--backend", be] + extra + cmd, cwd=TOP,
                                       capture_output=True, env=env, timeout=o.timeout)
                    outs.append((r.returncode, r.stdout.decode("utf-8", "replace")
                                 + "--- stderr\n" + r.stderr.decode("utf-8", "replace")))
                (rc1, o1), (rc2, o2) = outs
                line = "brrun " + " ".join(extra + cmd)
                if rc1 == rc2 == 0 and o1 == o2:
                    n["same"] += 1
                elif rc1 == rc2 == 0 and close(o1, o2, o.tol):
                    n["rounding"] += 1
                elif rc1 == rc2 == 0 and "more --checked reports not printed" in o1 + o2:
                    n["more than 16"] += 1
                elif (rc1 == rc2 == 0 and "the writes race" in o1
                      and o1.split("--- stderr")[1] == o2.split("--- stderr")[1]):
                    n["races"] += 1     # the values, not the reports, vary
                elif rc1 and rc2 and rc1 < 128 and rc2 < 128:
                    n["fail on both"] += 1
                else:
                    k = "differ" if rc1 == rc2 == 0 else "fail on one"
                    n[k] += 1
                    print("%s (status cpu %d, opencl %d): %s" % (k.upper(), rc1, rc2, line))
                    for l in list(difflib.unified_diff(o1.splitlines(), o2.splitlines(),
                                                       "cpu", "opencl", lineterm=""))[:30]:
                        print("    " + l)
                    sys.stdout.flush()
    print(", ".join("%s %d" % kv for kv in n.items()))
    return 1 if n["differ"] or n["fail on one"] else 0


if __name__ == "__main__":
    sys.exit(main())
