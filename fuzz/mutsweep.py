#!/usr/bin/env python3
"""mutsweep.py - mutation sweep of the toolchain's own test programs.

Takes the valid Brook+ programs of the source tree (t/run, t/brrun,
examples, bench/br, t/gen and the t/check cases that check clean), makes
small random edits (a type, a swizzle, a qualifier, a stream or array
shape, a name, an operator, a literal, a call's argument order, a line,
a statement at the start of a kernel), and runs each edited program
through brpp | brparse | brcheck. Whatever brcheck accepts must then go
through brgen -k, and the C it writes must compile (cc -std=c99) and the
OpenCL C must pass clang's OpenCL 1.2 front end (-fsyntax-only). Reported:

  brpp, brparse, brcheck, brgen  a crash, a status above 2 (brgen: 1
                                 without a diagnostic) or a sanitizer report
  brgen-refused                  brcheck accepted, brgen refused with an ID
                                 that brgen(1) does not document, or says
                                 brcheck rejects first
  cc, opencl                     the generated C or OpenCL C does not compile
                                 (the user's own host C is cc's to report:
                                 errors only in host functions, in a global
                                 initializer or declaration written as in
                                 the program, or of a missing #include are
                                 left out)

Each finding goes to OUT/KIND-HASH/ (p.br, NOTES). Python 3 standard
library only; needs gcc and clang. With a build configured with
--enable-sanitizers the tools' crashes show as sanitizer reports.

  python3 fuzz/mutsweep.py --build BUILD [--seed S] [-n N] [--out DIR]
"""
import argparse
import glob
import hashlib
import os
import random
import re
import subprocess
import sys

TYPES = ["float", "float2", "float3", "float4", "int", "int2", "int3", "int4",
         "uint", "uint2", "uint4", "double", "double2", "double3", "char", "char2",
         "uchar", "uchar4", "short", "short3", "ushort2", "bool"]
OPS = ["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "<", ">", "==", "!=", "&&", "||"]
ASG = ["=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="]
SW = [".x", ".y", ".z", ".w", ".xy", ".yx", ".xyz", ".zw", ".xxxx", ".wzyx", ".xz"]
LITS = ["0", "1", "-1", "0.5f", "2147483647", "1e30f", "3", "(uint)7", "0.0", "(char)1"]
QUALS = ["out ", "reduce ", "", "const ", "shared ", "iter "]
SHAPES = ["<>", "[]", "[][]", "<4>", "", "[4]"]
STMTS = ["float4 brx = float4(1.0f, 2.0f, 3.0f, 4.0f);", "int bri = instance().x;",
         "syncGroup();", "return;", "float brf[3]; brf[1] = 2.0f;",
         "if (1) { } else { }", "while (0) { }", "{ int bq = 0; bq++; }"]
SANRE = re.compile(r"AddressSanitizer|runtime error:|LeakSanitizer|UndefinedBehaviorSanitizer")


def pick_match(r, pattern, src):
    ms = list(re.finditer(pattern, src))
    return r.choice(ms) if ms else None


def mutate(src, r):
    """one random edit of SRC, or None where the edit finds no place"""
    kind = r.randrange(11)
    if kind == 0:
        m = pick_match(r, r"\b(" + "|".join(TYPES) + r")\b", src)
        return m and src[:m.start()] + r.choice(TYPES) + src[m.end():]
    if kind == 1:
        m = pick_match(r, r"\.(?:[xyzw]{1,4})\b", src)
        return m and src[:m.start()] + r.choice(SW) + src[m.end():]
    if kind == 2:
        m = pick_match(r, r"\b(out|reduce|const|shared|iter)\s+", src)
        if m and r.random() < 0.6:
            return src[:m.start()] + r.choice(QUALS) + src[m.end():]
        m = pick_match(r, r"\(\s*|,\s*", src)
        return m and src[:m.end()] + r.choice(QUALS) + src[m.end():]
    if kind == 3:
        m = pick_match(r, r"<>|\[\]", src)
        return m and src[:m.start()] + r.choice(SHAPES) + src[m.end():]
    if kind == 4:
        ids = sorted(set(re.findall(r"\b[a-z_][a-z0-9_]*\b", src)))
        if len(ids) < 2:
            return None
        a, b = r.sample(ids, 2)
        m = pick_match(r, r"\b%s\b" % re.escape(a), src)
        return src[:m.start()] + b + src[m.end():]
    if kind == 5:
        lines = src.split("\n")
        i = r.randrange(len(lines))
        if r.random() < 0.5:
            lines.insert(i, lines[r.randrange(len(lines))])
        else:
            del lines[i]
        return "\n".join(lines)
    if kind == 6:
        m = pick_match(r, r" (\+|-|\*|/|%|&|\||\^|<<|>>|<|>|==|!=|&&|\|\|) ", src)
        return m and src[:m.start()] + " " + r.choice(OPS) + " " + src[m.end():]
    if kind == 7:
        m = pick_match(r, r" (=|\+=|-=|\*=|/=|%=|&=|\|=|\^=) ", src)
        return m and src[:m.start()] + " " + r.choice(ASG) + " " + src[m.end():]
    if kind == 8:
        m = pick_match(r, r"\b\d+(\.\d+)?f?\b", src)
        return m and src[:m.start()] + r.choice(LITS) + src[m.end():]
    if kind == 9:
        m = pick_match(r, r"\(([^()]*,[^()]*)\)", src)
        if not m:
            return None
        parts = m.group(1).split(",")
        r.shuffle(parts)
        return src[:m.start(1)] + ",".join(parts) + src[m.end(1):]
    m = pick_match(r, r"kernel[^{;]*\{", src)
    return m and src[:m.end()] + "\n\t" + r.choice(STMTS) + src[m.end():]


def run(cmd, inp=None, timeout=60):
    try:
        p = subprocess.run(cmd, input=inp, capture_output=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return -999, b"", "TIMEOUT after %d s" % timeout


def corpus_of(top):
    out = []
    for pat in ["t/run/*.br", "t/brrun/*.br", "examples/*.br", "bench/br/*.br",
                "t/gen/*.br", "t/check/*.br"]:
        for f in sorted(glob.glob(os.path.join(top, pat))):
            err = f[:-3] + ".err"
            if "/t/check/" in f and (not os.path.exists(err) or os.path.getsize(err) > 0):
                continue
            src = open(f, errors="replace").read()
            if "OPTIONS" in src.split("\n", 1)[0]:
                continue
            out.append((f, src))
    return out


def gen_documented(man, gid):
    """Whether brgen(1) documents GID as a refusal of its own: not one of
    those brcheck is to reject first, which brcheck let through."""
    for entry in man.split(".TP\n"):
        head = entry.split("\n", 1)[0]
        if gid.replace("-", "\\-") in head:
            return "brcheck rejects" not in entry.replace("\n", " ")
    return False


def main():
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", required=True, help="built build folder (its cmd/*/ tools)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-n", type=int, default=500, help="edited programs to try")
    ap.add_argument("--out", default="/tmp/mutsweep")
    a = ap.parse_args()
    tool = lambda n: os.path.join(a.build, "cmd", n, n)
    inc = ["-I" + os.path.join(top, "lib"), "-I" + os.path.join(top, "bench")]
    brgen_man = open(os.path.join(top, "man", "brgen.1")).read()
    corpus = corpus_of(top)
    r = random.Random(a.seed)
    work = os.path.join(a.out, "work%d" % a.seed)
    os.makedirs(work, exist_ok=True)
    stats = {"tried": 0, "accepted": 0, "findings": 0}
    seen = set()

    def finding(kind, src, detail):
        d = os.path.join(a.out, "%s-%s" % (kind, hashlib.md5(src.encode()).hexdigest()[:10]))
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "p.br"), "w") as f:
            f.write(src)
        with open(os.path.join(d, "NOTES"), "w") as f:
            f.write(detail)
        stats["findings"] += 1
        print("finding %s %s" % (kind, d), flush=True)

    for _ in range(a.n):
        path, src = r.choice(corpus)
        m = src
        for _ in range(r.choice([1, 1, 1, 2, 3])):
            m = mutate(m, r) or m
        h = hashlib.md5(m.encode()).hexdigest()
        if m == src or h in seen:
            continue
        seen.add(h)
        stats["tried"] += 1
        p = os.path.join(work, "m.br")
        with open(p, "w") as f:
            f.write(m)
        rc, pp, e = run([tool("brpp"), "-I", os.path.dirname(path), p])
        if rc < 0 or rc > 2 or SANRE.search(e):
            finding("brpp", m, "%s\nrc=%d\n%s" % (path, rc, e[-3000:]))
            continue
        rc, ast, e = (rc, b"", "") if rc else run([tool("brparse")], pp)
        if rc < 0 or rc > 2 or SANRE.search(e):
            finding("brparse", m, "%s\nrc=%d\n%s" % (path, rc, e[-3000:]))
            continue
        rc, cast, e = (rc, b"", "") if rc else run([tool("brcheck")], ast)
        if rc < 0 or rc > 2 or SANRE.search(e):
            finding("brcheck", m, "%s\nrc=%d\n%s" % (path, rc, e[-3000:]))
            continue
        if rc:
            continue
        stats["accepted"] += 1
        with open(os.path.join(work, "m.ast"), "wb") as f:
            f.write(cast)
        g = os.path.join(work, "g")
        rc, _, e = run([tool("brgen"), "-k", "-o", g, os.path.join(work, "m.ast")])
        if rc < 0 or rc > 1 or SANRE.search(e) or (rc == 1 and "error:" not in e):
            finding("brgen", m, "%s\nrc=%d\n%s" % (path, rc, e[-3000:]))
            continue
        if rc == 1:
            ids = re.findall(r"\[(E-gen-[a-z-]+)\]", e)
            if not ids or any(not gen_documented(brgen_man, i) for i in ids):
                finding("brgen-refused", m, "%s\nbrcheck accepted, brgen refused:\n%s" % (path, e[-3000:]))
            continue
        rc, _, e = run(["gcc", "-std=c99", "-c", "-w"] + inc + [g + ".c", "-o", g + ".o"], timeout=300)
        if rc != 0:
            fns = set(re.findall(r"In function .([A-Za-z_0-9]+).", e))
            kern = set(re.findall(r"(?:kernel|reduce)\s+\w+\s+(\w+)\s*\(", m))
            host_only = fns and all("__" not in x and not x.startswith("brg")
                                    and x not in kern for x in fns)
            # an error at file scope on a line of the user's own (a host
            # declaration, printed as written)
            at = re.search(r"\.c:(\d+):\d+: error:", e)
            if at and not fns:
                with open(g + ".c", errors="replace") as f:
                    lines = f.read().split("\n")
                ln = int(at.group(1))
                own = ln <= len(lines) and lines[ln - 1].strip() and lines[ln - 1].strip() in m
            else:
                own = False
            if not (host_only or own or re.search(r"fatal error: .*: No such file", e)
                    or re.search(r"undeclared here \(not in a function\)", e)):
                finding("cc", m, "%s\ngcc failed:\n%s" % (path, e[-3000:]))
            continue
        rc, _, e = run(["clang", "-x", "cl", "-cl-std=CL1.2", "-fsyntax-only", "-Xclang",
                        "-finclude-default-header", "-Wno-everything", g + ".cl"], timeout=300)
        if rc != 0:
            finding("opencl", m, "%s\nclang -x cl failed:\n%s" % (path, e[-3000:]))
    print("mutsweep: seed %d: %d edited programs tried, %d accepted by brcheck, %d findings"
          % (a.seed, stats["tried"], stats["accepted"], stats["findings"]), flush=True)
    return 1 if stats["findings"] else 0


if __name__ == "__main__":
    sys.exit(main())
