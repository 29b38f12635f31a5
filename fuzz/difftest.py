#!/usr/bin/env python3
"""difftest.py - differential random-program tester for the Brook+ toolchain.

Generates random, valid, UB-free Brook+ programs (several kernels each, a
main() that feeds them deterministic data and prints every output), then runs
every kernel three ways and compares the results:

  interp  brrun --backend cpu (brrun's own interpreter), data from .npy files
  cpu     the program built through brpp|brparse|brcheck|brgen + cc, run with
          BRT_RUNTIME=cpu
  opencl  the same binary with BRT_RUNTIME=opencl

Integer results and "exact" float results (integer-valued or dyadic floats
whose every operation is exact) must match bit for bit; "inexact" float
outputs (transcendentals, divisions) are compared with a tolerance.  Any
pipeline failure, crash, sanitizer report or mismatch is saved in the output
folder with the program and a note.  See fuzz/DIFFTEST.md.

Python 3 standard library only.
"""
import argparse
import math
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import time

INT_MAX = 2 ** 31 - 1
SAFE = 2 ** 31 - 1          # |int value| <= SAFE can be negated / added to 0
FEXACT = 2 ** 22            # bound*den of an exact float
XYZW = "xyzw"
# 8- and 16-bit integers (guide 1.11): the largest |value| the generator lets
# an expression of the type hold (char -128 only as data)
NARROW = {"char": 127, "uchar": 255, "short": 32767, "ushort": 65535}
NLIMIT = {"char": 128, "uchar": 255, "short": 32768, "ushort": 65535}
SIGNED_N = ("char", "short")
FLOATS = ("float", "double")
# the optional features; a program enables a random subset of them
# (--features), with no feature the generator makes what it made before
# known bugs the generator can be told to step around (--avoid), so that
# a long run finds new ones: "domainsize1", k.domainSize() of a 2-D or
# deeper stream with size 1 on the slower axes (brgen's brg_domain_set
# takes the rank from the last size that is not 1, and the runtime then
# runs those axes whole)
AVOID = set()
FEATURES = ("narrow", "double", "rank34", "multiout", "iter", "struct", "group", "domain",
            "struct2", "gather34", "group2d", "domaininst", "iter34", "chain", "supdate",
            "effects", "swizzles", "reduce34", "repeat")


# --------------------------------------------------------------------------
# types and expressions
class T:
    __slots__ = ("base", "n")

    def __init__(self, base, n=1):
        self.base, self.n = base, n

    @property
    def name(self):
        return self.base if self.n == 1 else "%s%d" % (self.base, self.n)

    def scalar(self):
        return T(self.base, 1)

    def with_n(self, n):
        return T(self.base, n)

    def __eq__(self, o):
        return isinstance(o, T) and o.base == self.base and o.n == self.n

    def __hash__(self):
        return hash((self.base, self.n))


class E:
    """code, type, bound (ints / exact floats), den (exact floats), exact."""
    __slots__ = ("c", "t", "b", "d", "ex")

    def __init__(self, c, t, b=0, d=1, ex=True):
        self.c, self.t, self.b, self.d, self.ex = c, t, b, d, ex


class Var:
    __slots__ = ("name", "t", "b", "d", "ex", "kind", "written")

    def __init__(self, name, t, b=0, d=1, ex=True, kind="local"):
        self.name, self.t, self.b, self.d, self.ex, self.kind = name, t, b, d, ex, kind
        self.written = False


def ilit(v, base):
    if base == "float":
        s = repr(float(v)) + "f"
        return s if v >= 0 else "(%s)" % s
    if base == "double":
        s = repr(float(v))
        return s if v >= 0 else "(%s)" % s
    if base in NARROW:
        return "((%s)%s)" % (base, ilit(int(v), "int"))
    if base == "uint":
        return "%du" % v
    if v == -2 ** 31:
        return "(-2147483647 - 1)"
    return "%d" % v if v >= 0 else "(%d)" % v


def vlit(t, v):
    """literal of type t, every component v"""
    s = ilit(v, t.base)
    if t.n == 1:
        return s
    return "%s(%s)" % (t.name, ", ".join([s] * t.n))


# --------------------------------------------------------------------------
class Gen:
    def __init__(self, rnd, inexact_ok=True, features=()):
        self.r = rnd
        self.inexact_ok = inexact_ok
        self.n = 0
        self.feat = set(features)
        self.shared = []

    def has(self, f):
        return f in self.feat

    def extra_bases(self):
        """element types the enabled features add"""
        x = []
        if self.has("narrow"):
            x += ["char", "uchar", "short", "ushort"]
        if self.has("double"):
            x += ["double"]
        return x

    def fresh(self, p="v"):
        self.n += 1
        return "%s%d" % (p, self.n)

    # ---- context for one function body
    def begin(self, vars_, gathers, domain, streams, subs, arrays=None):
        self.vars = list(vars_)
        self.gathers = gathers          # list of (name, T, dims, bound, den)
        self.domain = domain            # (H, W) or (N,) or None
        self.streams = streams          # list of (name, dims) for indexof
        self.subs = subs                # callable subkernels
        self.arrays = arrays if arrays is not None else []
        self.shared = []                # list of (name, T, size, bound, den)
        self.mult = 1                   # times a statement here may run
        self.lines = []
        self.ind = 1

    def emit(self, s):
        self.lines.append("\t" * self.ind + s)

    # ---- bounding helpers
    def bound_int(self, e, lim):
        if e.b <= lim:
            return e
        r = self.r
        if lim >= 2 ** 16 and r.random() < 0.4:
            sh = 16 if e.b <= 2 ** 32 else 17
            return E("(%s >> %s)" % (e.c, vlit(e.t, sh)), e.t, (int(e.b) >> sh) + 1)
        k = r.choice([7, 10, 97, 1000, 46340])
        k = min(k, lim)
        if k < 1:
            k = 1
        return E("(%s %% %s)" % (e.c, vlit(e.t, k)), e.t, k - 1)

    def bound_float(self, e, lim, dlim=16):
        c, b, d = e.c, e.b, e.d
        if d > dlim:
            c, b, d = "floor(%s)" % c, b + 1, 1
        if b > lim:
            k = self.r.choice([lim, 64, 1000]) if lim >= 1000 else lim
            k = min(k, lim)
            c, b = "clamp(%s, %s, %s)" % (c, vlit(e.t, -k), vlit(e.t, k)), k
        return E(c, e.t, b, d, True)

    def bound_narrow(self, e, lim):
        """e % K of e's narrow type, |result| <= lim"""
        if e.b <= lim:
            return e
        k = min(self.r.choice([3, 7, 11, 100, 1000]), lim + 1)
        return E("(%s %% %s)" % (e.c, vlit(e.t, k)), e.t, k - 1)

    def fits(self, b, d):
        return b * d <= FEXACT

    # ---- expressions
    def leaf(self, t, exact):
        r = self.r
        cands = []
        for v in self.vars:
            if v.t.base != t.base or v.kind == "ctr":
                continue
            if t.base == "float" and exact and not v.ex:
                continue
            if v.t.n >= t.n or (t.n == 1):
                cands.append(v)
        opts = []
        if cands:
            opts += ["var"] * 6
        opts += ["lit"] * 2
        if t.n == 1 and self.domain and t.base not in NARROW:
            opts += ["inst"]
        if t.n == 1 and t.base == "float" and self.streams:
            opts += ["indexof"]
        # a gather's index may hold gathers, three deep at most (else the
        # recursion is unbounded: each index starts again at depth 2)
        if getattr(self, "gnest", 0) < 3 and any(
                g[1].base == t.base and (t.n == 1 or g[1].n >= t.n) for g in self.gathers):
            opts += ["gather"] * 2
        if any(a[1].base == t.base and a[1].n == t.n for a in self.arrays):
            opts += ["array"]
        if any(a[1] == t for a in self.shared):
            opts += ["shared"] * 3
        k = r.choice(opts)
        if k == "var":
            v = r.choice(cands)
            c = v.name
            if v.t.n > 1 and self.has("swizzles") and r.random() < 0.3:
                # a swizzle of a swizzle: (v.wzx).yx, v.xy.yyx
                inner = "".join(r.choice(XYZW[:v.t.n]) for _ in range(r.randint(2, 4)))
                outer = "".join(r.choice(XYZW[:len(inner)]) for _ in range(t.n))
                form = "(%s.%s).%s" if r.random() < 0.5 else "%s.%s.%s"
                return E(form % (v.name, inner, outer), t, v.b, v.d, v.ex)
            if v.t.n > 1 and (t.n != v.t.n or r.random() < 0.3):
                c += "." + "".join(r.choice(XYZW[:v.t.n]) for _ in range(t.n))
            elif v.t.n == 1 and t.n > 1:
                c = "%s(%s)" % (t.name, ", ".join([v.name] * t.n))
            return E(c, t, v.b, v.d, v.ex)
        if k == "lit" and t.base in NARROW:
            M = NARROW[t.base]
            pool = [0, 1, 2, 3, 5, 17, 100, M, M - 1] + ([-1, -3, -100, -M] if t.base in SIGNED_N else [])
            pool = [x for x in pool if abs(x) <= M]
            vals = [r.choice(pool) for _ in range(t.n)]
            b = max(abs(x) for x in vals)
            if t.n == 1:
                return E(ilit(vals[0], t.base), t, b)
            return E("%s(%s)" % (t.name, ", ".join(ilit(x, t.base) for x in vals)), t, b)
        if k == "shared":
            name, st, size, sb, sd = r.choice([a for a in self.shared if a[1] == t])
            ie = self.gen(T("int"), 1)
            return E("%s[(%s) & %d]" % (name, ie.c, size - 1), t, sb, sd)
        if k == "lit":
            if t.base in FLOATS:
                vals = [r.choice([0, 1, -1, 2, 0.5, -0.25, 3, 10, -7.75, 100]) for _ in range(t.n)]
                d = 4
            elif t.base == "uint":
                vals = [r.choice([0, 1, 2, 3, 31, 32, 33, 255, 65535, 4294967295, 2147483648]) for _ in range(t.n)]
                d = 1
            else:
                vals = [r.choice([0, 1, -1, 2, -3, 5, 17, 31, 32, 100, -1000, INT_MAX, -2 ** 31]) for _ in range(t.n)]
                d = 1
            b = max(abs(x) for x in vals)
            if t.n == 1:
                return E(ilit(vals[0], t.base), t, b, d)
            return E("%s(%s)" % (t.name, ", ".join(ilit(x, t.base) for x in vals)), t, b, d)
        if k == "inst":
            if len(self.domain) <= 2:
                ax = r.choice([0, 1]) if len(self.domain) == 2 else 0
            else:
                ax = r.randrange(len(self.domain))
            dim = self.domain[::-1][ax]     # x is the last (fastest) dim
            c = "instance().%s" % XYZW[ax]
            if t.base == "int":
                return E(c, t, dim)
            if t.base == "uint":
                return E("(uint)%s" % c, t, dim)
            return E("(%s)%s" % (t.base, c), t, dim, 1)
        if k == "indexof":
            name, dims = r.choice(self.streams)
            if len(dims) <= 2:
                ax = r.choice([0, 1]) if len(dims) == 2 else 0
            else:
                ax = r.randrange(len(dims))
            return E("indexof(%s).%s" % (name, XYZW[ax]), t, dims[::-1][ax], 1)
        if k == "gather":
            gs = [g for g in self.gathers if g[1].base == t.base and (t.n == 1 or g[1].n >= t.n)]
            gg = r.choice(gs)
            name, gt, dims, gb, gd = gg[:5]
            self.gnest = getattr(self, "gnest", 0) + 1
            idx = self.gather_index(dims)
            self.gnest -= 1
            c = "%s%s%s" % (name, idx, gg[5] if len(gg) > 5 else "")
            if gt.n > 1 and (t.n != gt.n):
                c = "%s.%s" % (c, "".join(r.choice(XYZW[:gt.n]) for _ in range(t.n)))
            elif gt.n == 1 and t.n > 1:
                c = "%s(%s)" % (t.name, ", ".join([c] * t.n))
            return E(c, t, gb, gd)
        if k == "array":
            arrs = [a for a in self.arrays if a[1].base == t.base and a[1].n == t.n]
            name, at, ab, ad = r.choice(arrs)
            ie = self.gen(T("int"), 1)
            return E("%s[(%s) & 3]" % (name, ie.c), t, ab, ad)
        raise AssertionError(k)

    def gather_index(self, dims):
        """index text: [i] / [i][j] / [int2] / [float2] / [float]; any value
        (outside the array reads the nearest element)"""
        r = self.r
        if len(dims) >= 3:
            return "".join("[%s]" % (self.gen(T("int"), 2).c if r.random() < 0.8 else
                                     self.gen(T("float"), 2, exact=True).c) for _ in dims)
        if len(dims) == 1:
            if r.random() < 0.7:
                return "[%s]" % self.gen(T("int"), 2).c
            e = self.gen(T("float"), 2, exact=True)
            return "[%s]" % e.c
        k = r.random()
        if k < 0.5:
            return "[%s][%s]" % (self.gen(T("int"), 2).c, self.gen(T("int"), 2).c)
        if k < 0.8:
            return "[%s]" % self.gen(T("int", 2), 2).c
        return "[%s]" % self.gen(T("float", 2), 2, exact=True).c

    def gen(self, t, depth, exact=True):
        r = self.r
        if t.base == "float" and not self.inexact_ok:
            exact = True
        if depth <= 0 or r.random() < 0.18:
            return self.leaf(t, exact)
        if self.subs and t.base in ("int", "uint", "float") and r.random() < 0.15:
            # a subkernel of this type, its arguments calls too at times
            e = self.sub_call(t, depth)
            if e:
                return e
        if t.base == "int":
            return self.gen_int(t, depth)
        if t.base == "uint":
            return self.gen_uint(t, depth)
        if t.base in NARROW:
            return self.gen_narrow(t, depth)
        if exact or t.base == "double":
            return self.gen_fexact(t, depth)
        return self.gen_finexact(t, depth)

    def cmp(self, t, depth):
        """a relational expression of result type t (int scalar/vector)"""
        r = self.r
        base = r.choice(["int", "int", "uint", "float"] + self.extra_bases())
        if base == "double" and t.n > 2:
            base = "float"
        ot = T(base, t.n)
        a = self.gen(ot, depth - 1)
        b = self.gen(ot, depth - 1)
        op = r.choice(["<", "<=", ">", ">=", "==", "!="])
        return E("(%s %s %s)" % (a.c, op, b.c), t, 1)

    def cond(self, depth):
        r = self.r
        k = r.random()
        if k < 0.45:
            return self.cmp(T("int"), depth).c
        if k < 0.65:
            a = self.cmp(T("int"), depth - 1).c
            if r.random() < 0.3:
                a = "!" + a
            b = self.cmp(T("int"), depth - 1).c
            return "(%s %s %s)" % (a, r.choice(["&&", "||"]), b)
        if k < 0.75:
            return "!%s" % self.cmp(T("int"), depth - 1).c
        t = T(r.choice(["int", "uint"]))
        return "(%s != %s)" % (self.gen(t, depth - 1).c, vlit(t, 0))

    def sub_call(self, t, depth):
        """a call of a subkernel returning t; or of one returning t's
        scalar type in more components (its first components) or in one
        (the first component of a constructor)"""
        subs = [s for s in self.subs if s["ret"] == t and not s.get("out")]
        if not subs:
            subs = [s for s in self.subs if not s.get("out") and s["ret"].base == t.base and
                    (s["ret"].n > t.n or s["ret"].n == 1)]
            if not subs:
                return None
            s = self.r.choice(subs)
            e = self.sub_call(s["ret"], depth)
            if e is None:
                return None
            if s["ret"].n > t.n:
                return E("%s.%s" % (e.c, "xyzw"[:t.n]), t, e.b, e.d, e.ex)
            rest = [self.leaf(t.scalar(), True) for _ in range(t.n - 1)]
            return E("%s(%s)" % (t.name, ", ".join([e.c] + [x.c for x in rest])), t,
                     max([e.b] + [x.b for x in rest]), max([e.d] + [x.d for x in rest]),
                     e.ex and all(x.ex for x in rest))
        s = self.r.choice(subs)
        args = self.sub_args(s, depth)
        if args is None:
            return None
        return E("%s(%s)" % (s["name"], ", ".join(args)), t, s["b"], s["d"], s["ex"])

    def sub_args(self, s, depth):
        """the arguments of a call of subkernel S but its out parameter,
        or None where no gather fits"""
        args = []
        for p in s["params"]:
            if p[0] == "gather":
                # a gather of the same type and rank, not a struct's field
                gs = [g for g in self.gathers if g[1] == p[2] and len(g[2]) == len(p[3])
                      and len(g) <= 5]
                if not gs:
                    return None
                args.append(self.r.choice(gs)[0])
                continue
            pt, pb, pd = p[2], p[3], p[4]
            e = self.gen(pt, depth - 1)
            if pt.base == "int":
                e = self.bound_int(e, pb)
            elif pt.base in FLOATS:
                e = self.bound_float(e, pb, pd)
            args.append(e.c)
        return args

    def gen_int(self, t, depth):
        r = self.r
        k = r.choice(["add", "add", "sub", "mul", "div", "mod", "bit", "shr", "shl",
                      "neg", "not", "abs", "minmax", "clamp", "cmp", "tern", "cast_f",
                      "cast_u", "ctor", "call", "logic", "leaf"] + self.cast_opts(t))
        g = lambda: self.gen(t, depth - 1)
        if k.startswith("cast_x"):
            return self.cast_from(t, k[7:], depth)
        if k == "leaf":
            return self.leaf(t, True)
        if k in ("add", "sub"):
            a, b = g(), g()
            while a.b + b.b > SAFE:
                if a.b >= b.b:
                    a = self.bound_int(a, SAFE // 2)
                else:
                    b = self.bound_int(b, SAFE // 2)
            return E("(%s %s %s)" % (a.c, "+" if k == "add" else "-", b.c), t, a.b + b.b)
        if k == "mul":
            a, b = g(), g()
            while a.b * b.b > SAFE:
                if a.b >= b.b:
                    a = self.bound_int(a, 46340)
                else:
                    b = self.bound_int(b, 46340)
            return E("(%s * %s)" % (a.c, b.c), t, a.b * b.b)
        if k == "div":
            a, b = g(), g()
            return E("(%s / %s)" % (a.c, b.c), t, a.b)
        if k == "mod":
            a, b = g(), g()
            return E("(%s %% %s)" % (a.c, b.c), t, a.b)
        if k == "bit":
            a, b = g(), g()
            m = max(a.b, b.b)
            p = 1
            while p <= m:
                p *= 2
            return E("(%s %s %s)" % (a.c, r.choice("&|^"), b.c), t, min(p, 2 ** 31))
        if k == "shr":
            a, b = g(), g()
            return E("(%s >> %s)" % (a.c, b.c), t, a.b)
        if k == "shl":
            a, b = g(), g()
            m, s = r.choice([(1023, 15), (65535, 7), (255, 22)])
            return E("((%s & %s) << (%s & %s))" % (a.c, vlit(t, m), b.c, vlit(t, s)), t, m << s)
        if k == "neg":
            a = self.bound_int(g(), SAFE)
            return E("(-%s)" % a.c, t, a.b)
        if k == "not":
            a = g()
            return E("(~%s)" % a.c, t, min(a.b + 1, 2 ** 31))
        if k == "abs":
            a = self.bound_int(g(), SAFE)
            return E("abs(%s)" % a.c, t, a.b)
        if k == "minmax":
            a, b = g(), g()
            return E("%s(%s, %s)" % (r.choice(["min", "max"]), a.c, b.c), t, max(a.b, b.b))
        if k == "clamp":
            a = g()
            lo = r.choice([-100, -5, 0, 3])
            hi = lo + r.choice([0, 1, 10, 200])
            return E("clamp(%s, %s, %s)" % (a.c, vlit(t, lo), vlit(t, hi)), t, max(abs(lo), abs(hi)))
        if k == "cmp":
            return self.cmp(t, depth)
        if k == "tern":
            c = self.cond(depth - 1)
            a, b = g(), g()
            return E("(%s ? %s : %s)" % (c, a.c, b.c), t, max(a.b, b.b))
        if k == "cast_f":
            f = self.gen(t.with_n(t.n) if False else T("float", t.n), depth - 1, exact=True)
            f = self.bound_float(f, 2 ** 24, 16)
            return E("(%s)%s" % (t.name, f.c), t, f.b)
        if k == "cast_u":
            u = self.gen(T("uint", t.n), depth - 1)
            if r.random() < 0.5:
                return E("(%s)(%s >> %s)" % (t.name, u.c, vlit(T("uint", t.n), 8)), t, 2 ** 24)
            return E("(%s)(%s & %s)" % (t.name, u.c, vlit(T("uint", t.n), 65535)), t, 65535)
        if k == "ctor" and t.n > 1:
            parts = [self.gen(t.scalar(), depth - 1) for _ in range(t.n)]
            return E("%s(%s)" % (t.name, ", ".join(p.c for p in parts)), t, max(p.b for p in parts))
        if k == "call":
            e = self.sub_call(t, depth)
            if e:
                return e
        if k == "logic" and t.n == 1:
            return E("(%s)" % self.cond(depth), t, 1)
        return self.leaf(t, True)

    def gen_uint(self, t, depth):
        r = self.r
        k = r.choice(["add", "sub", "mul", "div", "mod", "bit", "shr", "shl", "neg", "not",
                      "minmax", "clamp", "tern", "cast_i", "cast_f", "ctor", "call", "leaf"] + self.cast_opts(t))
        g = lambda: self.gen(t, depth - 1)
        if k.startswith("cast_x"):
            return self.cast_from(t, k[7:], depth)
        ops = {"add": "+", "sub": "-", "mul": "*", "div": "/", "mod": "%", "shr": ">>", "shl": "<<"}
        if k in ops:
            a, b = g(), g()
            return E("(%s %s %s)" % (a.c, ops[k], b.c), t, 2 ** 32)
        if k == "bit":
            a, b = g(), g()
            return E("(%s %s %s)" % (a.c, r.choice("&|^"), b.c), t, 2 ** 32)
        if k == "neg":
            return E("(-%s)" % g().c, t, 2 ** 32)
        if k == "not":
            return E("(~%s)" % g().c, t, 2 ** 32)
        if k == "minmax":
            a, b = g(), g()
            return E("%s(%s, %s)" % (r.choice(["min", "max"]), a.c, b.c), t, 2 ** 32)
        if k == "clamp":
            lo = r.choice([0, 5, 1000])
            hi = lo + r.choice([0, 7, 100000])
            return E("clamp(%s, %s, %s)" % (g().c, vlit(t, lo), vlit(t, hi)), t, hi)
        if k == "tern":
            c = self.cond(depth - 1)
            return E("(%s ? %s : %s)" % (c, g().c, g().c), t, 2 ** 32)
        if k == "cast_i":
            i = self.gen(T("int", t.n), depth - 1)
            return E("(%s)%s" % (t.name, i.c), t, 2 ** 32)
        if k == "cast_f":
            f = self.bound_float(self.gen(T("float", t.n), depth - 1, exact=True), 2 ** 22, 16)
            return E("(%s)abs(%s)" % (t.name, f.c), t, 2 ** 32)
        if k == "ctor" and t.n > 1:
            parts = [self.gen(t.scalar(), depth - 1) for _ in range(t.n)]
            return E("%s(%s)" % (t.name, ", ".join(p.c for p in parts)), t, 2 ** 32)
        if k == "call":
            e = self.sub_call(t, depth)
            if e:
                return e
        return self.leaf(t, True)

    def gen_fexact(self, t, depth):
        r = self.r
        k = r.choice(["add", "add", "sub", "mul", "neg", "abs", "floor", "ceil", "round",
                      "frac", "sign", "minmax", "clamp", "fmod", "fdiv", "fsqrt", "tern",
                      "cast_i", "cast_u", "ctor", "dot", "lerp", "cross", "call", "cmpf", "leaf"]
                     + self.cast_opts(t))
        g = lambda: self.gen(t, depth - 1, exact=True)
        if k.startswith("cast_x"):
            return self.cast_from(t, k[7:], depth)
        if k == "leaf":
            return self.leaf(t, True)
        if k in ("add", "sub"):
            a, b = g(), g()
            for _ in range(4):
                if self.fits(a.b + b.b, max(a.d, b.d)):
                    break
                if a.b * a.d >= b.b * b.d:
                    a = self.bound_float(a, 1000, 4)
                else:
                    b = self.bound_float(b, 1000, 4)
            else:
                return self.leaf(t, True)
            return E("(%s %s %s)" % (a.c, "+" if k == "add" else "-", b.c), t,
                     a.b + b.b, max(a.d, b.d))
        if k == "mul":
            a, b = g(), g()
            a = self.bound_float(a, 1000, 4)
            b = self.bound_float(b, 1000, 4)
            if not self.fits(a.b * b.b, a.d * b.d):
                a = self.bound_float(a, 64, 1)
                b = self.bound_float(b, 64, 4)
            return E("(%s * %s)" % (a.c, b.c), t, a.b * b.b, a.d * b.d)
        if k == "neg":
            a = g()
            return E("(-%s)" % a.c, t, a.b, a.d)
        if k == "abs":
            a = g()
            return E("abs(%s)" % a.c, t, a.b, a.d)
        if k in ("floor", "ceil"):
            a = g()
            return E("%s(%s)" % (k, a.c), t, a.b + 1, 1)
        if k == "round":
            a = g()
            return E("round(%s)" % a.c, t, a.b + 1, 1)
        if k == "frac":
            a = g()
            return E("frac(%s)" % a.c, t, 1, a.d)
        if k == "sign":
            return E("sign(%s)" % g().c, t, 1, 1)
        if k == "minmax":
            a, b = g(), g()
            return E("%s(%s, %s)" % (r.choice(["min", "max"]), a.c, b.c), t, max(a.b, b.b), max(a.d, b.d))
        if k == "clamp":
            a = g()
            lo = r.choice([-100.0, -2.5, 0.0, 3.0])
            hi = lo + r.choice([0.0, 1.0, 10.25, 200.0])
            return E("clamp(%s, %s, %s)" % (a.c, vlit(t, lo), vlit(t, hi)), t,
                     max(abs(lo), abs(hi)), max(a.d, 4))
        if k == "fmod":
            a = g()
            m = r.choice([1.0, 3.0, 7.0, 10.0, 0.5])
            return E("fmod(%s, %s)" % (a.c, vlit(t, m)), t, min(a.b, m), max(a.d, 2))
        if k == "fdiv":
            a, b = g(), g()
            return E("floor(%s / (abs(%s) + %s))" % (a.c, b.c, vlit(t, 1.0)), t, a.b + 1, 1)
        if k == "fsqrt":
            a = g()
            return E("floor(sqrt(abs(%s)))" % a.c, t, int(math.sqrt(a.b)) + 2, 1)
        if k == "tern":
            c = self.cond(depth - 1)
            a, b = g(), g()
            return E("(%s ? %s : %s)" % (c, a.c, b.c), t, max(a.b, b.b), max(a.d, b.d))
        if k == "cast_i":
            i = self.bound_int(self.gen(T("int", t.n), depth - 1), 2 ** 20)
            return E("(%s)%s" % (t.name, i.c), t, i.b, 1)
        if k == "call" and t.base == "double":
            k = "leaf"
        if k == "cast_u":
            u = self.gen(T("uint", t.n), depth - 1)
            return E("(%s)(%s & %s)" % (t.name, u.c, vlit(T("uint", t.n), 4095)), t, 4095, 1)
        if k == "cmpf":
            c = self.cmp(T("int", t.n), depth)
            return E("(%s)%s" % (t.name, c.c), t, 1, 1)
        if k == "ctor" and t.n > 1:
            parts = [self.gen(t.scalar(), depth - 1, exact=True) for _ in range(t.n)]
            return E("%s(%s)" % (t.name, ", ".join(p.c for p in parts)), t,
                     max(p.b for p in parts), max(p.d for p in parts))
        if k == "dot" and t.n == 1:
            n = r.choice([2, 3, 4]) if t.base == "float" else 2
            vt = T(t.base, n)
            a = self.bound_float(self.gen(vt, depth - 1), 100, 4)
            b = self.bound_float(self.gen(vt, depth - 1), 100, 4)
            return E("dot(%s, %s)" % (a.c, b.c), t, n * a.b * b.b, a.d * b.d)
        if k == "lerp":
            x = self.bound_float(g(), 100, 4)
            y = self.bound_float(g(), 100, 4)
            a = self.bound_float(g(), 10, 4)
            return E("lerp(%s, %s, %s)" % (x.c, y.c, a.c), t, (1 + a.b) * x.b + a.b * y.b,
                     a.d * max(x.d, y.d))
        if k == "cross" and t.n == 3:
            a = self.bound_float(g(), 100, 4)
            b = self.bound_float(g(), 100, 4)
            return E("cross(%s, %s)" % (a.c, b.c), t, 2 * a.b * b.b, a.d * b.d)
        if k == "call":
            e = self.sub_call(t, depth)
            if e and e.ex:
                return e
        return self.leaf(t, True)

    def gen_finexact(self, t, depth):
        r = self.r
        k = r.choice(["exact", "add", "sub", "mul", "div", "sin", "cos", "exp", "log",
                      "sqrt", "rsqrt", "pow", "atan", "lerp", "length", "normalize",
                      "distance", "dot", "exp2", "log2", "tern", "minmax"])
        g = lambda: self.gen(t, depth - 1, exact=r.random() < 0.4)
        if k == "exact":
            return self.gen(t, depth, exact=True)
        if k in ("add", "sub", "mul"):
            a, b = g(), g()
            return E("(%s %s %s)" % (a.c, {"add": "+", "sub": "-", "mul": "*"}[k], b.c), t, ex=False)
        if k == "div":
            a, b = g(), g()
            return E("(%s / (abs(%s) + %s))" % (a.c, b.c, vlit(t, 1.0)), t, ex=False)
        if k == "atan":
            return E("atan(%s)" % g().c, t, ex=False)
        if k in ("sin", "cos"):
            # a bounded argument: of a large one (cos(exp(10.0f)), 22026)
            # one ulp of the argument, which exp may give either way,
            # moves the result by 1e-3
            return E("%s(clamp(%s, %s, %s))" % (k, g().c, vlit(t, -100.0), vlit(t, 100.0)), t, ex=False)
        if k in ("exp", "exp2"):
            return E("%s(clamp(%s, %s, %s))" % (k, g().c, vlit(t, -10.0), vlit(t, 10.0)), t, ex=False)
        if k in ("log", "log2"):
            return E("%s(abs(%s) + %s)" % (k, g().c, vlit(t, 1.0)), t, ex=False)
        if k == "sqrt":
            return E("sqrt(abs(%s))" % g().c, t, ex=False)
        if k == "rsqrt":
            return E("rsqrt(abs(%s) + %s)" % (g().c, vlit(t, 1.0)), t, ex=False)
        if k == "pow":
            return E("pow(abs(clamp(%s, %s, %s)) + %s, %s)" % (g().c, vlit(t, -100.0), vlit(t, 100.0),
                                                           vlit(t, 0.5), vlit(t, r.choice([0.5, 1.5, 2.0, 3.0]))), t, ex=False)
        if k == "lerp":
            return E("lerp(%s, %s, %s)" % (g().c, g().c, g().c), t, ex=False)
        if k == "minmax":
            return E("%s(%s, %s)" % (r.choice(["min", "max"]), g().c, g().c), t, ex=False)
        if k == "tern":
            return E("(%s ? %s : %s)" % (self.cond(depth - 1), g().c, g().c), t, ex=False)
        if t.n == 1 and k in ("length", "dot", "distance"):
            vt = T("float", r.choice([2, 3, 4]))
            a = self.gen(vt, depth - 1, exact=r.random() < 0.5)
            if k == "length":
                return E("length(%s)" % a.c, t, ex=False)
            b = self.gen(vt, depth - 1, exact=r.random() < 0.5)
            return E("%s(%s, %s)" % (k, a.c, b.c), t, ex=False)
        if k == "normalize" and t.n > 1:
            return E("normalize(abs(%s) + %s)" % (g().c, vlit(t, 1.0)), t, ex=False)
        return self.gen(t, depth, exact=True)

    # ---- the optional types: conversions between them and the old ones
    def cast_opts(self, t):
        """extra choices of gen_int/gen_uint/gen_fexact: conversions from
        the types the features add"""
        x = ["cast_x_float"] if t.base == "double" else []
        for b in self.extra_bases():
            if b != t.base and not (b == "double" and t.n > 2):
                x.append("cast_x_" + b)
        return x

    def cast_from(self, t, src, depth):
        """an expression of type t converted from one of type src"""
        st = T(src, t.n)
        if src in NARROW:
            e = self.gen(st, depth - 1)
            if t.base == "uint" and src in SIGNED_N:
                e = E("abs(%s)" % self.bound_narrow(e, NARROW[src]).c, st, e.b)
            return E("(%s)%s" % (t.name, e.c), t, e.b, 1)
        # from double: an exact value, bounded
        e = self.gen(st, depth - 1, exact=True)
        if t.base == "float":
            e = self.bound_float(e, 2 ** 16, 16)
            return E("(%s)%s" % (t.name, e.c), t, e.b, e.d)
        e = self.bound_float(e, 2 ** 20, 1)
        if t.base == "uint":
            return E("(%s)abs(%s)" % (t.name, e.c), t, e.b, 1)
        return E("(%s)%s" % (t.name, e.c), t, e.b, 1)

    def gen_narrow(self, t, depth):
        """char, uchar, short, ushort: every value (and every intermediate
        one, in C's int or in the vector's own width) stays in the type's
        range, so scalar promotion and vector arithmetic agree and nothing
        overflows; conversions from int wrap only into unsigned types"""
        r = self.r
        M = NARROW[t.base]
        sg = t.base in SIGNED_N
        k = r.choice(["add", "add", "sub", "mul", "div", "mod", "neg", "abs", "minmax", "clamp",
                      "tern", "cast_i", "cast_f", "ctor", "call", "leaf", "cmp", "cast_n"])
        g = lambda: self.gen(t, depth - 1)
        if k == "add" or (k == "sub" and sg):
            a, b = g(), g()
            for _ in range(3):
                if a.b + b.b <= M:
                    break
                if a.b >= b.b:
                    a = self.bound_narrow(a, M // 2)
                else:
                    b = self.bound_narrow(b, M // 2)
            return E("(%s %s %s)" % (a.c, "+" if k == "add" else "-", b.c), t, a.b + b.b)
        if k == "sub":
            # unsigned: a - a % b is in [0, a]
            a, b = g(), g()
            return E("(%s - %s %% %s)" % (a.c, a.c, b.c), t, a.b)
        if k == "mul":
            a, b = g(), g()
            lim = int(math.isqrt(M))
            if a.b * b.b > M:
                a = self.bound_narrow(a, lim)
                b = self.bound_narrow(b, lim)
            return E("(%s * %s)" % (a.c, b.c), t, a.b * b.b)
        if k == "div":
            a, b = g(), g()
            a = self.bound_narrow(a, M)      # not -128 / -1
            return E("(%s / %s)" % (a.c, b.c), t, a.b)
        if k == "mod":
            a, b = g(), g()
            return E("(%s %% %s)" % (a.c, b.c), t, a.b)
        if k in ("neg", "abs") and sg:
            a = self.bound_narrow(g(), M)
            return E("(-%s)" % a.c if k == "neg" else "abs(%s)" % a.c, t, a.b)
        if k == "minmax":
            a, b = g(), g()
            return E("%s(%s, %s)" % (r.choice(["min", "max"]), a.c, b.c), t, max(a.b, b.b))
        if k == "clamp":
            lo = r.choice([-100, -5, 0, 3]) if sg else r.choice([0, 3, 100])
            hi = min(M, lo + r.choice([0, 1, 10, 200]))
            return E("clamp(%s, %s, %s)" % (g().c, vlit(t, lo), vlit(t, hi)), t, max(abs(lo), abs(hi)))
        if k == "tern":
            c = self.cond(depth - 1)
            a, b = g(), g()
            return E("(%s ? %s : %s)" % (c, a.c, b.c), t, max(a.b, b.b))
        if k == "cast_i":
            it = T("int", t.n)
            i = self.gen(it, depth - 1)
            if sg:
                return E("(%s)(%s %% %s)" % (t.name, i.c, vlit(it, M + 1)), t, M)
            return E("(%s)%s" % (t.name, i.c), t, M)
        if k == "cast_f":
            f = self.bound_float(self.gen(T("float", t.n), depth - 1, exact=True), M, 1)
            if not sg:
                return E("(%s)abs(%s)" % (t.name, f.c), t, f.b)
            return E("(%s)%s" % (t.name, f.c), t, f.b)
        if k == "cast_n":
            # from another narrow type, in range of both
            o = r.choice([b for b in NARROW if b != t.base])
            e = self.gen(T(o, t.n), depth - 1)
            lim = min(M, NARROW[o])
            e = self.bound_narrow(e, lim)
            if o in SIGNED_N and not sg:
                return E("(%s)abs(%s)" % (t.name, e.c), t, e.b)
            return E("(%s)%s" % (t.name, e.c), t, e.b)
        if k == "cmp":
            c = self.cmp(T("int", t.n), depth)
            return E("(%s)%s" % (t.name, c.c), t, 1)
        if k == "ctor" and t.n > 1:
            parts = [self.gen(t.scalar(), depth - 1) for _ in range(t.n)]
            return E("%s(%s)" % (t.name, ", ".join(p.c for p in parts)), t, max(p.b for p in parts))
        if k == "call":
            e = self.sub_call(t, depth)
            if e:
                return e
        return self.leaf(t, True)

    # ---- statements
    def assign_to(self, v, e, cond=False):
        if cond:
            v.b, v.d = max(v.b, e.b), max(v.d, e.d)
            v.ex = v.ex and e.ex
        else:
            v.b, v.d, v.ex = e.b, e.d, e.ex
        v.written = True

    def rand_type(self, allow_inexact=True):
        r = self.r
        x = self.extra_bases()
        base = r.choice(["int", "int", "uint", "float", "float"] + x + x[:1])
        if base == "double":
            return T(base, r.choice([1, 1, 2]))
        return T(base, r.choice([1, 1, 2, 3, 4]))

    def stmt(self, depth, outs, in_cond=False):
        r = self.r
        k = r.choice(["decl", "decl", "decl", "if", "for", "assign", "swz", "array", "while"])
        if self.has("effects") and r.random() < 0.4:
            return self.effect(depth)
        if k == "decl" or (k in ("assign", "swz") and not [v for v in self.vars if v.kind in ("local", "out")]):
            t = self.rand_type()
            ex = not (t.base == "float" and self.inexact_ok and r.random() < 0.3)
            e = self.gen(t, depth, exact=ex)
            if t.base == "double":
                e = self.bound_float(e, 2 ** 20, 16)
            name = self.fresh("v")
            self.emit("%s %s = %s;" % (t.name, name, e.c))
            self.vars.append(Var(name, t, e.b, e.d, e.ex))
            return
        if k == "array":
            self.new_array(depth)
            return
        if k == "assign":
            v = r.choice([v for v in self.vars if v.kind in ("local", "out")])
            ex = v.ex if v.t.base == "float" else True
            e = self.gen(v.t, depth, exact=ex)
            if v.t.base == "double":
                e = self.bound_float(e, 2 ** 20, 16)
            op = "="
            if v.t.base == "int" and r.random() < 0.3:
                # compound assignment, bounded
                e = self.bound_int(e, 1000)
                if v.b + e.b <= SAFE:
                    op = r.choice(["+=", "-="])
                    e = E(e.c, e.t, v.b + e.b)
            elif v.t.base == "uint" and r.random() < 0.3:
                op = r.choice(["+=", "-=", "*=", "^=", "|=", "&=", "<<=", ">>="])
            self.emit("%s %s %s;" % (v.name, op, e.c))
            self.assign_to(v, e, in_cond)
            return
        if k == "swz":
            vs = [v for v in self.vars if v.kind in ("local", "out") and v.t.n > 1]
            if not vs:
                return self.stmt(depth, outs, in_cond)
            v = r.choice(vs)
            comps = r.sample(XYZW[:v.t.n], r.randint(1, v.t.n))
            ex = v.ex if v.t.base == "float" else True
            e = self.gen(v.t.with_n(len(comps)), depth, exact=ex)
            if v.t.base == "double":
                e = self.bound_float(e, 2 ** 20, 16)
            target = "%s.%s" % (v.name, "".join(comps))
            if self.has("swizzles") and r.random() < 0.5:
                target = self.nested_target(v.name, v.t.n, comps)
            self.emit("%s = %s;" % (target, e.c))
            self.assign_to(v, e, True)
            return
        if k == "if" and depth > 0:
            self.emit("if (%s) {" % self.cond(2))
            self.ind += 1
            nv, na = len(self.vars), len(self.arrays)
            for _ in range(r.randint(1, 2)):
                self.stmt(depth - 1, outs, True)
            del self.vars[nv:]
            del self.arrays[na:]
            self.ind -= 1
            if r.random() < 0.5:
                self.emit("} else {")
                self.ind += 1
                for _ in range(r.randint(1, 2)):
                    self.stmt(depth - 1, outs, True)
                del self.vars[nv:]
                del self.arrays[na:]
                self.ind -= 1
            self.emit("}")
            return
        if k in ("for", "while"):
            t = T(r.choice(["int", "float", "uint"]), r.choice([1, 1, 2, 4]))
            acc = self.fresh("acc")
            iv = self.fresh("i")
            n = r.choice([1, 2, 3, 5])
            self.emit("%s %s = %s;" % (t.name, acc, vlit(t, r.choice([0, 1, 3]))))
            self.emit("int %s;" % iv)
            step = ""
            if self.has("effects") and r.random() < 0.3:
                step = ", " + self.step(self.ctr(), n)
            if k == "for":
                self.emit("for (%s = 0; %s < %d; %s++%s) {" % (iv, iv, n, iv, step))
            else:
                self.emit("%s = 0;" % iv)
                self.emit("while (%s < %d) {" % (iv, n))
            self.ind += 1
            if k == "while":
                self.emit("%s++;" % iv)
            nv, na = len(self.vars), len(self.arrays)
            self.vars.append(Var(iv, T("int"), n, kind="loop"))
            accv = Var(acc, t, 1000 if t.base != "uint" else 2 ** 32, 16 if t.base == "float" else 1, kind="acc")
            self.vars.append(accv)
            self.mult *= n
            if r.random() < 0.5:
                self.stmt(depth - 1, outs, True)
            e = self.gen(t, depth, exact=True)
            if t.base == "int":
                e = self.bound_int(e, 2 ** 20)
                self.emit("%s = (%s + %s) %% %s;" % (acc, acc, e.c, vlit(t, 1000)))
            elif t.base == "float":
                e = self.bound_float(e, 2 ** 10, 16)
                self.emit("%s = clamp(%s + %s, %s, %s);" % (acc, acc, e.c, vlit(t, -1000.0), vlit(t, 1000.0)))
            else:
                self.emit("%s = %s * %s + %s;" % (acc, acc, vlit(t, 3), e.c))
            if r.random() < 0.2:
                self.emit("if (%s) break;" % self.cond(1))
            elif r.random() < 0.2:
                self.emit("if (%s) continue;" % self.cond(1))
            self.mult //= n
            del self.vars[nv:]
            del self.arrays[na:]
            self.ind -= 1
            self.emit("}")
            self.vars.append(Var(acc, t, accv.b, accv.d, True))
            return
        return self.stmt(depth, outs, in_cond)

    def new_array(self, depth, t=None):
        """a local array of 4 (of T, else of a random type), every element
        set"""
        r = self.r
        if t is None:
            t = T(r.choice(["int", "float", "uint"]), r.choice([1, 1, 4]))
        name = self.fresh("arr")
        self.emit("%s %s[4];" % (t.name, name))
        es = []
        for j in range(4):
            e = self.gen(t, depth - 1, exact=True)
            if t.base == "float":
                e = self.bound_float(e, 1000, 4)
            es.append(e)
            self.emit("%s[%d] = %s;" % (name, j, e.c))
        self.arrays.append((name, t, max(e.b for e in es), max(e.d for e in es)))

    def nested_target(self, base, n, comps):
        """components COMPS (distinct letters) of BASE, a vector of N, as
        a swizzle of a swizzle that writes them: v.zx as v.xzy.yx or
        (v.zwx).zx (feature "swizzles")"""
        r = self.r
        rest = [c for c in XYZW[:n] if c not in comps]
        # two components at least: a swizzle of one is a scalar
        inner = list(comps) + r.sample(rest, r.randint(max(0, 2 - len(comps)), len(rest)))
        r.shuffle(inner)
        outer = "".join(XYZW[inner.index(c)] for c in comps)
        form = "(%s.%s).%s" if r.random() < 0.5 else "%s.%s.%s"
        return form % (base, "".join(inner), outer)

    # ---- side effects (feature "effects"): an int counter stepped inside
    # indices and expressions. No generated expression reads a counter
    # (leaf skips kind "ctr"), so a statement that steps one touches it
    # once between sequence points; its value reaches the outputs only
    # through a copy (fold).
    def ctr(self):
        cs = [v for v in self.vars if v.kind == "ctr"]
        if cs and self.r.random() < 0.8:
            return self.r.choice(cs)
        v0 = self.r.choice([-3, 0, 1, 2, 5])
        name = self.fresh("ct")
        self.emit("int %s = %s;" % (name, ilit(v0, "int")))
        v = Var(name, T("int"), abs(v0), kind="ctr")
        self.vars.append(v)
        return v

    def step(self, c, times=1):
        """c++, ++c, c-- or --c, run up to TIMES times a run of this
        statement"""
        c.b += self.mult * times
        f = self.r.choice(["%s++", "++%s", "%s--", "--%s"])
        return f % c.name

    def fold(self, c):
        name = self.fresh("v")
        self.emit("int %s = %s;" % (name, c.name))
        self.vars.append(Var(name, T("int"), c.b))

    def set_array(self, i, b, d):
        name, at, ab, ad = self.arrays[i]
        self.arrays[i] = (name, at, max(ab, b), max(ad, d))

    def effect(self, depth):
        r = self.r
        c = self.ctr()
        k = r.choice(["aop", "aop", "aop", "incval", "comma", "ternary", "shortc",
                      "asgval", "gather", "fold", "outcall", "outcall"])
        outs = [s for s in self.subs if s.get("out")]
        if k == "outcall" and not outs:
            k = "aop"
        arrs = [i for i, a in enumerate(self.arrays) if a[1].base in ("int", "uint", "float")]
        if k in ("aop", "incval") and not arrs:
            self.new_array(depth)
            arrs = [len(self.arrays) - 1]
        if k == "gather" and not [g for g in self.gathers if len(g[2]) <= 2]:
            k = "ternary"
        if k == "aop":
            i = r.choice(arrs)
            name, at, ab, ad = self.arrays[i]
            idx = "%s[(%s) & 3]" % (name, self.step(c))
            if at.n > 1 and r.random() < 0.5:
                # some components of a vector element (v.zw += ...)
                comps = "".join(r.sample(XYZW[:at.n], r.randint(1, at.n)))
                if self.has("swizzles") and r.random() < 0.5:
                    idx = self.nested_target(idx, at.n, comps)
                else:
                    idx += "." + comps
                at = at.with_n(len(comps))
            if at.base == "float":
                e = self.bound_float(self.gen(at, depth, exact=True), 1000, 4)
                op = "="
                if (ab + e.b * self.mult) * max(ad, e.d) <= FEXACT and r.random() < 0.6:
                    op = r.choice(["+=", "-="])
                    self.set_array(i, ab + e.b * self.mult, e.d)
                else:
                    self.set_array(i, e.b, e.d)
            elif at.base == "uint":
                e = self.gen(at, depth)
                op = r.choice(["=", "+=", "-=", "*=", "/=", "%=", "^=", "|=", "&=",
                               "<<=", ">>="])
                self.set_array(i, 2 ** 32, 1)
            else:
                op = r.choice(["=", "+=", "-=", "/=", "%=", "/=", "%="])
                e = self.gen(at, depth)
                if op in ("+=", "-="):
                    e = self.bound_int(e, 1000)
                    if ab + e.b * self.mult > SAFE // 2:
                        op = "/="
                    else:
                        self.set_array(i, ab + e.b * self.mult, 1)
                elif op == "=":
                    self.set_array(i, e.b, 1)
            self.emit("%s %s %s;" % (idx, op, e.c))
        elif k == "incval":
            ints = [i for i in arrs if self.arrays[i][1].base != "float"] or arrs
            i = r.choice(ints)
            name, at, ab, ad = self.arrays[i]
            idx = "%s[(%s) & 3]" % (name, self.step(c))
            f = r.choice(["%s++", "%s--", "++%s", "--%s"]) % idx
            v = self.fresh("v")
            if at.base == "int" and ab + self.mult > SAFE:
                # an element that may be INT_MIN or INT_MAX is read, not
                # stepped: the step would overflow (undefined, brook(7);
                # seed 7500104 took --arr[1] of a (-2147483647 - 1))
                self.emit("%s %s = %s;" % (at.name, v, idx))
                self.vars.append(Var(v, at, ab, ad))
            else:
                self.set_array(i, ab + self.mult, ad)
                self.emit("%s %s = %s;" % (at.name, v, f))
                self.vars.append(Var(v, at, ab + self.mult, ad))
        elif k == "comma":
            t = self.rand_type(allow_inexact=False)
            e = self.gen(t, depth, exact=True)
            if t.base == "double":
                e = self.bound_float(e, 2 ** 20, 16)
            v = self.fresh("v")
            self.emit("%s %s = (%s, %s);" % (t.name, v, self.step(c), e.c))
            self.vars.append(Var(v, t, e.b, e.d, e.ex))
        elif k == "ternary":
            e = self.bound_int(self.gen(T("int"), depth - 1), 1000)
            v = self.fresh("v")
            a, b = self.step(c), self.step(c)
            self.emit("int %s = (%s) ? (%s) + %s : %s;" % (v, self.cond(1), a, e.c, b))
            self.vars.append(Var(v, T("int"), c.b + e.b))
        elif k == "shortc":
            v = self.fresh("v")
            op = r.choice(["&&", "||"])
            self.emit("int %s = (%s) %s ((%s & 1) != 0);" % (v, self.cond(1), op, self.step(c)))
            self.vars.append(Var(v, T("int"), 1))
        elif k == "asgval":
            lv = [x for x in self.vars if x.kind == "local" and x.t.base == "int" and x.t.n == 1]
            v = self.fresh("v")
            if lv and r.random() < 0.5:
                x = r.choice(lv)
                e = self.bound_int(self.gen(T("int"), depth - 1), 1000)
                op = "="
                if x.b + e.b * self.mult <= SAFE // 2 and r.random() < 0.6:
                    op = r.choice(["+=", "-="])
                    b = x.b + e.b * self.mult
                else:
                    b = max(x.b, e.b)
                self.emit("int %s = (%s %s %s) + (%s);" % (v, x.name, op, e.c, self.step(c)))
                x.b = b
                self.vars.append(Var(v, T("int"), b + c.b))
            else:
                e = self.bound_int(self.gen(T("int"), depth - 1), 1000)
                self.emit("int %s = (%s = %s) + 1;" % (v, c.name, e.c))
                c.b = max(c.b, e.b)
                self.vars.append(Var(v, T("int"), e.b + 1))
        elif k == "gather":
            gs = [g for g in self.gathers if len(g[2]) <= 2]
            gg = r.choice(gs)
            name, gt, dims, gb, gd = gg[:5]
            if len(dims) == 1:
                idx = "[%s]" % self.step(c)
            elif r.random() < 0.5:
                idx = "[%s][%s]" % (self.step(c), self.gen(T("int"), 1).c)
            else:
                idx = "[int2(%s, 0)]" % self.step(c)
            v = self.fresh("v")
            self.emit("%s %s = %s%s%s;" % (gt.name, v, name, idx, gg[5] if len(gg) > 5 else ""))
            self.vars.append(Var(v, gt, gb, gd))
        elif k == "outcall":
            # a subkernel's out argument, an array element whose index
            # steps the counter: read in, written back, located once
            sb = r.choice(outs)
            ot = sb["out"][0]
            ai = [i for i, a in enumerate(self.arrays) if a[1] == ot]
            if not ai:
                self.new_array(depth, ot)
                ai = [len(self.arrays) - 1]
            i = r.choice(ai)
            name, at, ab, ad = self.arrays[i]
            args = self.sub_args(sb, depth)
            if args is None:
                return
            args.append("%s[(%s) & 3]" % (name, self.step(c)))
            v = self.fresh("v")
            self.emit("%s %s = %s(%s);" % (sb["ret"].name, v, sb["name"], ", ".join(args)))
            self.vars.append(Var(v, sb["ret"], sb["b"], sb["d"], sb["ex"]))
            self.set_array(i, sb["out"][1], sb["out"][2])
        if k == "fold" or r.random() < 0.3:
            self.fold(c)


# --------------------------------------------------------------------------
# data
def rand_data(r, t, count, kind):
    """flat list of count*t.n numbers, and (bound, den)"""
    n = count * t.n
    if t.base in NARROW:
        lo = -NLIMIT[t.base] if t.base in SIGNED_N else 0
        hi = NARROW[t.base]
        R = r.choice([3, 9, 100, hi])
        vals = [r.randint(max(lo, -R), min(hi, R)) for _ in range(n)]
        if r.random() < 0.3:
            for _ in range(max(1, n // 5)):
                vals[r.randrange(n)] = r.choice([0, 1, hi, lo])
        return vals, max(abs(v) for v in vals), 1
    if t.base == "int":
        R = r.choice([3, 9, 1000, 100000])
        vals = [r.randint(-R, R) for _ in range(n)]
        if r.random() < 0.3:
            for _ in range(max(1, n // 5)):
                vals[r.randrange(n)] = r.choice([0, -1, 1, INT_MAX, -2 ** 31])
        return vals, max(abs(v) for v in vals), 1
    if t.base == "uint":
        vals = [r.choice([r.randint(0, 100), r.randint(0, 2 ** 32 - 1), 0, 1, 2 ** 31, 2 ** 32 - 1, 32, 33])
                for _ in range(n)]
        return vals, 2 ** 32, 1
    den = r.choice([1, 4])
    R = r.choice([4, 100, 1000])
    vals = [r.randint(-R * den, R * den) / den for _ in range(n)]
    return vals, R, den


NPY_DT = {"int": "<i4", "uint": "<u4", "float": "<f4", "char": "|i1", "uchar": "|u1",
          "short": "<i2", "ushort": "<u2", "double": "<f8"}
ST_FMT = {"int": "i", "uint": "I", "float": "f", "char": "b", "uchar": "B", "short": "h",
          "ushort": "H", "double": "d"}
# the host C type and printf format of an element's component
HOST_C = {"int": ("int", "%d", ""), "uint": ("unsigned int", "%u", ""),
          "float": ("float", "%a", "(double)"), "double": ("double", "%a", ""),
          "char": ("signed char", "%d", "(int)"), "uchar": ("unsigned char", "%u", "(unsigned)"),
          "short": ("short", "%d", "(int)"), "ushort": ("unsigned short", "%u", "(unsigned)")}


def write_npy(path, t, shape, vals):
    shp = tuple(shape) + ((t.n,) if t.n > 1 else ())
    hdr = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        NPY_DT[t.base], "".join("%d," % s for s in shp) if len(shp) == 1 else ", ".join(str(s) for s in shp))
    total = 10 + len(hdr) + 1
    pad = (64 - total % 64) % 64
    hdr = hdr + " " * pad + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) + hdr.encode())
        f.write(struct.pack("<%d%s" % (len(vals), ST_FMT[t.base]), *vals))


def read_npy(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:6] == b"\x93NUMPY", path
    major = data[6]
    if major == 1:
        hl = struct.unpack("<H", data[8:10])[0]
        off = 10
    else:
        hl = struct.unpack("<I", data[8:12])[0]
        off = 12
    hdr = data[off:off + hl].decode("latin1")
    descr = re.search(r"'descr':\s*'([^']+)'", hdr).group(1)
    body = data[off + hl:]
    fmt = {"<i4": "i", "<u4": "I", "<f4": "f", "|i1": "b", "|u1": "B", "<i2": "h", "<u2": "H",
           "<f8": "d", "|b1": "B"}[descr]
    sz = struct.calcsize(fmt)
    return list(struct.unpack("<%d%s" % (len(body) // sz, fmt), body))


CSIZE = {"char": 1, "uchar": 1, "short": 2, "ushort": 2, "int": 4, "uint": 4, "float": 4, "double": 8}


def struct_layout(tree, prefix=""):
    """C's layout of a struct (vectors packed, aligned to their component):
    (size, alignment, [(field path, T, offset)]); tree: [(name, T or tree)]"""
    off, al, leaves = 0, 1, []
    for fn, ft in tree:
        if isinstance(ft, list):
            sz, a, sub = struct_layout(ft, prefix + fn + ".")
        else:
            a = CSIZE[ft.base]
            sz, sub = a * ft.n, [(prefix + fn, ft, 0)]
        off = (off + a - 1) // a * a
        leaves += [(p, t, o + off) for p, t, o in sub]
        off += sz
        al = max(al, a)
    return (off + al - 1) // al * al, al, leaves


def read_struct_field(path, st, field):
    """the values of one field (a path: f1.g0) of a struct .bin file in
    the host layout"""
    with open(path, "rb") as f:
        data = f.read()
    size, _, leaves = struct_layout(st["tree"])
    out = []
    for i in range(0, len(data) - size + 1, size):
        for fn, ft, off in leaves:
            if fn == field:
                n = CSIZE[ft.base] * ft.n
                out += list(struct.unpack("<%d%s" % (ft.n, ST_FMT[ft.base]), data[i + off:i + off + n]))
    return out


def embed(vals, emb):
    """a view's result VALS (row-major over the box) put into the whole
    stream's data: emb = (full dims, start data, box start, box dims, ncomp
    [, "full"]), dims slowest first; with "full", VALS is the whole
    stream's (brrun --domain-offset), of which the box is taken"""
    dims, init, lo, box, nc = emb[:5]
    if len(emb) > 5:
        vals = slice_box(vals, dims, lo, box, nc)
    res = list(init)
    j = 0
    for idx in box_points(box):
        p = 0
        for a, (x, l) in enumerate(zip(idx, lo)):
            p = p * dims[a] + x + l
        res[p * nc:(p + 1) * nc] = vals[j * nc:(j + 1) * nc]
        j += 1
    return res


def box_points(box):
    """every index of a box, row-major"""
    if not box:
        yield ()
        return
    for x in range(box[0]):
        for rest in box_points(box[1:]):
            yield (x,) + rest


def slice_box(vals, dims, lo, box, nc):
    out = []
    for idx in box_points(box):
        p = 0
        for a, (x, l) in enumerate(zip(idx, lo)):
            p = p * dims[a] + x + l
        out += vals[p * nc:(p + 1) * nc]
    return out


def cinit(t, vals):
    def one(v):
        if t.base in FLOATS:
            if v != v:
                return "NAN"
            return repr(float(v)) + ("f" if t.base == "float" else "")
        if t.base == "uint":
            return "%du" % v
        return ilit(v, "int")
    if t.n == 1:
        return ", ".join(one(v) for v in vals)
    return ", ".join("{%s}" % ", ".join(one(v) for v in vals[i:i + t.n])
                     for i in range(0, len(vals), t.n))


def literal(t, dims, vals):
    def num(v):
        if t.base in FLOATS:
            return repr(float(v))
        return str(v)
    items = [num(v) for v in vals]
    if t.n > 1:
        items = ["[%s]" % ",".join(items[i:i + t.n]) for i in range(0, len(items), t.n)]
    if len(dims) == 2:
        w = dims[1]
        items = ["[%s]" % ",".join(items[i:i + w]) for i in range(0, len(items), w)]
    return "[%s]" % ",".join(items)


# reduce functions' bodies, by kind
REDFN_BODY = {"min": "b = min(a, b);", "max": "b = max(b, a);", "sum": "b = b + a;",
              "xor": "b = b ^ a;", "or": "b |= a;", "and": "b = a & b;",
              "ifmax": "if (a > b)\n\t\tb = a;", "ifmin": "if (b > a) { b = a; }"}


def dom_text(lo, box):
    """the .domain() of the box BOX at LO (slowest axis first), of any rank:
    .domain(x0, x1) in 1-D, else intN corners, x first"""
    hi = [l + b for l, b in zip(lo, box)]
    if len(lo) == 1:
        return ".domain(%d, %d)" % (lo[0], hi[0])
    v = "int%d" % len(lo)
    return ".domain(%s(%s), %s(%s))" % (v, ", ".join(map(str, reversed(lo))),
                                        v, ", ".join(map(str, reversed(hi))))


def dims_str(d):
    return ", ".join(str(x) for x in d)


def shape_arg(d):
    return "x".join(str(x) for x in reversed(d))


def prod(d):
    p = 1
    for x in d:
        p *= x
    return p


SHAPES1 = [(1,), (3,), (7,), (16,), (33,), (64,)]
SHAPES2 = [(2, 3), (4, 4), (3, 5), (1, 7), (6, 2), (5, 1), (8, 8)]
SHAPES3 = [(2, 3, 4), (3, 2, 2), (1, 4, 3), (4, 1, 1), (2, 2, 5)]
SHAPES4 = [(2, 2, 3, 2), (1, 3, 2, 4), (3, 1, 2, 2), (2, 1, 1, 3)]


# --------------------------------------------------------------------------
def pick_features(seed, allowed=FEATURES):
    """the features a program of this seed enables: a random subset of
    ALLOWED, from its own random numbers (the program's stay as they were)"""
    fr = random.Random(seed * 7919 + 17)
    return tuple(f for f in FEATURES if f in allowed and fr.random() < 0.5)


def add_features_option(ap):
    ap.add_argument("--features", default="random",
                    help="random (each program a random subset of %s), all, none (the "
                    "first version's programs) or a comma-separated list" % ",".join(FEATURES))


def parse_features(ap, text):
    """--features TEXT as Program's features: None for random"""
    if text == "random":
        return None
    if text == "all":
        return FEATURES
    if text == "none":
        return ()
    feats = tuple(f for f in text.split(",") if f)
    bad = [f for f in feats if f not in FEATURES]
    if bad:
        ap.error("unknown features: %s" % ", ".join(bad))
    return feats


class Program:
    def __init__(self, seed, nk, inexact_ok=True, features=None):
        """features: the optional features (FEATURES) to use; None picks
        a random subset from the seed, () makes the old programs"""
        self.seed = seed
        self.r = random.Random(seed)
        self.features = pick_features(seed) if features is None else tuple(features)
        self.g = Gen(self.r, inexact_ok, self.features)
        self.kernels = []     # text
        self.main = []        # text of main's blocks
        self.tests = []       # dict per kernel: name, args for brrun, outputs
        self.files = {}       # npy name -> (t, shape, vals)
        kinds = ["map"] * 6 + ["reduce", "redfn", "scatter"]
        if "group" in self.features:
            kinds += ["group"] * 2
        if "domain" in self.features:
            kinds += ["domain"] * 2
        if "group2d" in self.features:
            kinds += ["group2d"] * 2
        if "struct2" in self.features:
            kinds += ["sscatter", "sreduce"]
        if "chain" in self.features:
            kinds += ["chain"] * 3
        if "reduce34" in self.features:
            kinds += ["reduce34"] * 2
        for i in range(nk):
            kind = self.r.choice(kinds)
            getattr(self, "make_" + kind)(i)

    # -- helpers
    def add_input(self, kname, pname, t, dims, vals):
        fn = "%s_%s.npy" % (kname, pname)
        self.files[fn] = (t, dims, vals)
        return fn

    def group_result(self, ot, target):
        """a group kernel's end: 0-2 statements, then TARGET (its scatter
        element) = an expression of type OT, which it returns"""
        r, g = self.r, self.g
        for _ in range(r.randint(0, 2)):
            g.stmt(2, [])
        ex = not (ot.base == "float" and g.inexact_ok and r.random() < 0.3)
        e = g.gen(ot, 4, exact=ex)
        if ot.base == "double":
            e = g.bound_float(e, 2 ** 20, 16)
        g.emit("%s = %s;" % (target, e.c))
        return e

    def data_input(self, kname, pn, t, dims, params, vars_, streams, blk, call, brr):
        """input stream PN of type T filled from random data: its kernel
        parameter and variable, host stream, call argument and brrun file"""
        vals, b, d = rand_data(self.r, t, prod(dims), "in")
        params.append("%s %s<>" % (t.name, pn))
        vars_.append(Var(pn, t, b, d, True, "in"))
        streams.append((pn, dims))
        sn = "s_%s_%s" % (kname, pn)
        self.host_stream(blk, sn, t, dims, vals, "h_%s_%s" % (kname, pn))
        call.append(sn)
        brr.append("%s=@%s" % (pn, self.add_input(kname, pn, t, dims, vals)))

    def host_stream(self, blk, sname, t, dims, vals=None, hname=None):
        blk.append("\t\t%s %s<%s>;" % (t.name, sname, dims_str(dims)))
        if vals is not None:
            blk.insert(0, "\tstatic %s %s[%d] = { %s };" % (t.name, hname, prod(dims), cinit(t, vals)))
            blk.append("\t\tstreamRead(%s, %s);" % (sname, hname))

    def print_out(self, blk, kname, oname, t, count, hname):
        c, f, cast = HOST_C[t.base]
        blk.append('\tprintf("OUT %s.%s");' % (kname, oname))
        blk.append("\tfor (i = 0; i < %d; i++) printf(\" %s\", %s((const %s *)%s)[i]);" % (
            count * t.n, f, cast, c, hname))
        blk.append('\tprintf("\\n");')

    def subkernels(self, kname):
        """0-2 subkernels; returns their descriptors"""
        r, g = self.r, self.g
        subs = []
        x = g.extra_bases()
        for j in range(r.choice([0, 0, 1, 2])):
            name = "%s_f%d" % (kname, j)
            ret = T(r.choice(["int", "uint", "float"] + x), r.choice([1, 1, 2, 4]))
            if ret.base == "double":
                ret = T("double", min(ret.n, 2))
            params = []
            vars_ = []
            gathers = []
            for pi in range(r.randint(1, 3)):
                pt = T(r.choice(["int", "uint", "float"] + x), r.choice([1, 1, 2, 3, 4]))
                if pt.base == "double":
                    pt = T("double", min(pt.n, 2))
                pn = "p%d" % pi
                pb = 1000 if pt.base in ("int", "float", "double") else NLIMIT.get(pt.base, 2 ** 32)
                params.append(("val", pn, pt, pb, 4))
                vars_.append(Var(pn, pt, pb, 4, True, "param"))
            if r.random() < 0.3:
                gt = T(r.choice(["int", "float"]), 1)
                params.append(("gather", "gp", gt, (0,)))
                gathers.append(("gp", gt, (0,), 100000 if gt.base == "int" else 1000, 4))
            # effects: one out parameter, read in and written back
            out = None
            if g.has("effects") and r.random() < 0.5:
                out = (T(r.choice(["int", "uint", "float"]), r.choice([1, 1, 4])), "po")
            g.begin(vars_, gathers, None, [], subs[:])
            for _ in range(r.randint(0, 3)):
                g.stmt(2, [])
            e = g.gen(ret, 3, exact=True)
            if ret.base == "int":
                e = g.bound_int(e, 2 ** 20)
            elif ret.base in FLOATS:
                e = g.bound_float(e, 1000, 4)
            body = g.lines
            if out:
                ot = out[0]
                oe = g.gen(ot, 2, exact=True)
                if ot.base == "int":
                    oe = g.bound_int(oe, 2 ** 20)
                    body.append("\tpo = (po %% %s) + %s;" % (vlit(ot, 1000), oe.c))
                    out = (ot, oe.b + 1000, 1)
                elif ot.base == "float":
                    oe = g.bound_float(oe, 1000, 4)
                    body.append("\tpo = floor(clamp(po, %s, %s)) + %s;" % (
                        vlit(ot, -1000.0), vlit(ot, 1000.0), oe.c))
                    out = (ot, oe.b + 1000, oe.d)
                else:
                    body.append("\tpo = po * %s + %s;" % (vlit(ot, 3), oe.c))
                    out = (ot, 2 ** 32, 1)
            body = body + ["\treturn %s;" % e.c]
            ps = []
            for p in params:
                if p[0] == "gather":
                    ps.append("%s %s[]" % (p[2].name, p[1]))
                else:
                    ps.append("%s %s" % (p[2].name, p[1]))
            if out:
                ps.append("out %s po<>" % out[0].name)
            self.kernels.append("kernel %s %s(%s)\n{\n%s\n}\n" % (ret.name, name, ", ".join(ps), "\n".join(body)))
            # gathers of the subkernel must be 1-D; record their bound conservatively
            subs.append({"name": name, "ret": ret, "params": params, "b": e.b, "d": e.d, "ex": True,
                         "out": out})
        return subs

    # -- map kernels
    def make_map(self, i):
        r, g = self.r, self.g
        kname = "k%d" % i
        subs = self.subkernels(kname)
        two = r.random() < 0.35
        odims = r.choice(SHAPES2 if two else SHAPES1)
        shapes = SHAPES2 if two else SHAPES1
        if g.has("rank34") and r.random() < 0.4:
            shapes = SHAPES3 if r.random() < 0.6 else SHAPES4
            odims = r.choice(shapes)
        params, vars_, gathers, streams = [], [], [], []
        blk, call, brr = [], [], []
        # input streams
        for j in range(r.randint(1, 3)):
            t = g.rand_type()
            pn = "a%d" % j
            if r.random() < 0.3:
                dims = r.choice(shapes)
            else:
                dims = odims
            sn = "s_%s_%s" % (kname, pn)
            if g.has("iter") and len(dims) <= 2 and r.random() < 0.3:
                # an iterator stream (BrookGPU): start + (end - start) * i / n
                # per axis, with a step that makes every value exact
                it = T("float", len(dims))
                starts = [r.choice([0.0, -3.0, 1.5, 10.0]) for _ in dims]
                steps = [r.choice([1.0, 0.5, 0.25, 2.0, -1.0]) for _ in dims]
                ns = list(reversed(dims))           # x first
                ends = [a + st * n for a, st, n in zip(starts, steps, ns)]
                b = int(max(abs(a) + abs(st) * n for a, st, n in zip(starts, steps, ns))) + 1
                params.append("iter %s %s<>" % (it.name, pn))
                vars_.append(Var(pn, it, b, 4, True, "in"))
                if it.n == 1:
                    ini = "iter(%s, %s)" % (ilit(starts[0], "float"), ilit(ends[0], "float"))
                    barg = "'%s=iter(%r,%r)'" % (pn, starts[0], ends[0])
                else:
                    ini = "iter(float2(%s), float2(%s))" % (", ".join(ilit(x, "float") for x in starts),
                                                          ", ".join(ilit(x, "float") for x in ends))
                    barg = "'%s=iter([%r,%r],[%r,%r])'" % (pn, starts[0], starts[1], ends[0], ends[1])
                blk.append("\t\titer %s %s<%s> = %s;" % (it.name, sn, dims_str(dims), ini))
                call.append(sn)
                brr.append(barg)
                brr.append("--shape %s=%s" % (pn, shape_arg(dims)))
                continue
            if g.has("iter34") and len(dims) == 1 and r.random() < 0.3:
                # a 1-D float3/float4 iterator: every component along x
                it = T("float", r.choice([3, 4]))
                nn = dims[0]
                starts = [r.choice([0.0, -3.0, 1.5, 10.0, -0.25]) for _ in range(it.n)]
                steps = [r.choice([1.0, 0.5, 0.25, 2.0, -1.0, 0.0]) for _ in range(it.n)]
                ends = [a + st * nn for a, st in zip(starts, steps)]
                b = int(max(abs(a) + abs(st) * nn for a, st in zip(starts, steps))) + 1
                params.append("iter %s %s<>" % (it.name, pn))
                vars_.append(Var(pn, it, b, 4, True, "in"))
                ini = "iter(%s(%s), %s(%s))" % (it.name, ", ".join(ilit(x, "float") for x in starts),
                                               it.name, ", ".join(ilit(x, "float") for x in ends))
                barg = "'%s=iter([%s],[%s])'" % (pn, ",".join(repr(x) for x in starts),
                                                 ",".join(repr(x) for x in ends))
                blk.append("\t\titer %s %s<%s> = %s;" % (it.name, sn, dims_str(dims), ini))
                call.append(sn)
                brr.append(barg)
                brr.append("--shape %s=%s" % (pn, shape_arg(dims)))
                continue
            self.data_input(kname, pn, t, dims, params, vars_, streams, blk, call, brr)
        # gathers
        for j in range(r.choice([0, 1, 1, 2])):
            t = T(r.choice(["int", "uint", "float"]), r.choice([1, 1, 2, 4]))
            if g.has("narrow") or g.has("double"):
                t = T(r.choice(["int", "uint", "float"] + g.extra_bases()), t.n)
                if t.base == "double":
                    t = T("double", min(t.n, 2))
            pn = "g%d" % j
            dims = r.choice([(5,), (1,), (16,), (3, 4), (2, 2)])
            if g.has("gather34") and r.random() < 0.4:
                dims = r.choice([(2, 3, 2), (3, 2, 4), (1, 4, 3), (2, 2, 2, 3), (1, 3, 2, 2), (3, 1, 2, 1)])
            vals, b, d = rand_data(r, t, prod(dims), "g")
            sized = r.random() < 0.3
            params.append("%s %s%s" % (t.name, pn, "".join("[%d]" % x if sized else "[]" for x in dims)))
            gathers.append((pn, t, dims, b, d))
            sn = "s_%s_%s" % (kname, pn)
            self.host_stream(blk, sn, t, dims, vals, "h_%s_%s" % (kname, pn))
            call.append(sn)
            brr.append("%s=@%s" % (pn, self.add_input(kname, pn, t, dims, vals)))
        # constants
        for j in range(r.choice([0, 1, 2])):
            t = T(r.choice(["int", "uint", "float"]), r.choice([1, 1, 2, 4]))
            if g.has("narrow") or g.has("double"):
                t = T(r.choice(["int", "uint", "float"] + g.extra_bases()), t.n)
                if t.base == "double":
                    t = T("double", min(t.n, 2))
            pn = "c%d" % j
            if t.base == "int":
                v = r.choice([0, 1, -7, 1000, 31, -2 ** 31, INT_MAX])
            elif t.base == "uint":
                v = r.choice([0, 1, 7, 33, 2 ** 32 - 1])
            elif t.base in NARROW:
                v = r.choice([0, 1, 7, NARROW[t.base]] + ([-NLIMIT[t.base], -5] if t.base in SIGNED_N else []))
            else:
                v = r.choice([0.0, 1.5, -2.25, 100.0])
            params.append("%s %s" % (t.name, pn))
            vars_.append(Var(pn, t, abs(v), 4, True, "const"))
            hv = ilit(v, t.base) if t.base != "float" else repr(v) + "f"
            if t.n == 1:
                call.append(hv)
            else:
                blk.append("\t\t%s hc_%s = %s_(%s);" % (t.name, pn, t.name, ", ".join([hv] * t.n)))
                call.append("hc_%s" % pn)
            brr.append("%s=%s" % (pn, repr(v) if t.base in FLOATS else str(v)))
        # a struct type: an input stream, a gather, an output, a local
        st = None
        if g.has("struct") and r.random() < 0.6:
            st = self.make_struct2(kname) if g.has("struct2") and r.random() < 0.6 else self.make_struct(kname)
            sparts = r.sample(["in", "gather", "out", "local"], r.randint(1, 4))
            if "in" in sparts:
                pn = "sa"
                vals = self.struct_data(st, prod(odims))
                params.append("%s %s<>" % (st["name"], pn))
                for fn, ft, fb, fd in self.struct_bounds(st, vals):
                    vars_.append(Var("%s.%s" % (pn, fn), ft, fb, fd, True, "in"))
                sn = "s_%s_%s" % (kname, pn)
                self.struct_host(blk, st, sn, odims, vals, "h_%s_%s" % (kname, pn))
                call.append(sn)
                brr.append("%s=@%s:%s" % (pn, self.add_struct_input(kname, pn, st, vals), shape_arg(odims)))
            if "gather" in sparts:
                pn = "sg"
                dims = r.choice([(5,), (1,), (6,)])
                vals = self.struct_data(st, prod(dims))
                params.append("%s %s[]" % (st["name"], pn))
                for fn, ft, fb, fd in self.struct_bounds(st, vals):
                    gathers.append((pn, ft, dims, fb, fd, "." + fn))
                sn = "s_%s_%s" % (kname, pn)
                self.struct_host(blk, st, sn, dims, vals, "h_%s_%s" % (kname, pn))
                call.append(sn)
                brr.append("%s=@%s:%s" % (pn, self.add_struct_input(kname, pn, st, vals), shape_arg(dims)))
        # outputs
        outs = []
        nout = r.randint(1, 2)
        if g.has("multiout"):
            nout = r.choice([1, 2, 3, 4, 5])
        for j in range(nout):
            t = g.rand_type()
            pn = "o%d" % j
            params.append("out %s %s<>" % (t.name, pn))
            v = Var(pn, t, 0, 1, True, "out")
            outs.append(v)
            sn = "s_%s_%s" % (kname, pn)
            self.host_stream(blk, sn, t, odims)
            call.append(sn)
            brr.append("%s=@%s_%s.out.npy" % (pn, kname, pn))
            brr.append("--shape %s=%s" % (pn, shape_arg(odims)))
        souts = []
        if st and "out" in sparts:
            pn = "so"
            params.append("out %s %s<>" % (st["name"], pn))
            for fn, ft in st["fields"]:
                v = Var("%s.%s" % (pn, fn), ft, 0, 1, True, "out")
                souts.append(v)
            sn = "s_%s_%s" % (kname, pn)
            blk.append("\t\t%s %s<%s>;" % (st["name"], sn, dims_str(odims)))
            call.append(sn)
            brr.append("%s=@%s_%s.out.bin" % (pn, kname, pn))
            brr.append("--shape %s=%s" % (pn, shape_arg(odims)))
        g.begin(vars_ + outs + souts, gathers, odims, streams, subs)
        if st and "local" in sparts:
            # a struct local, every field set before it is read
            ln = g.fresh("sl")
            g.emit("%s %s;" % (st["name"], ln))
            for fn, ft in st["fields"]:
                e = g.gen(ft, 3, exact=True)
                if ft.base in FLOATS:
                    e = g.bound_float(e, 2 ** 20, 16)
                g.emit("%s.%s = %s;" % (ln, fn, e.c))
                g.vars.append(Var("%s.%s" % (ln, fn), ft, e.b, e.d, e.ex))
        for _ in range(r.randint(1, 5)):
            g.stmt(3, outs)
        if st and "local" in sparts and souts and r.random() < 0.6:
            g.emit("so = %s;" % ln)
            for o in souts:
                lv = [v for v in g.vars if v.name == ln + o.name[2:]][0]
                g.assign_to(o, E(lv.name, lv.t, lv.b, lv.d, lv.ex))
        for o in outs + souts:
            if r.random() < 0.85 or not o.written:
                ex = not (o.t.base == "float" and g.inexact_ok and r.random() < 0.35)
                e = g.gen(o.t, 4, exact=ex)
                if o.t.base == "double":
                    e = g.bound_float(e, 2 ** 20, 16)
                if r.random() < 0.15:
                    g.emit("if (%s)" % g.cond(2))
                    g.emit("\t%s = %s;" % (o.name, e.c))
                    g.assign_to(o, e, True)
                else:
                    g.emit("%s = %s;" % (o.name, e.c))
                    g.assign_to(o, e)
        self.kernels.append("kernel void %s(%s)\n{\n%s\n}\n" % (kname, ", ".join(params), "\n".join(g.lines)))
        # host
        blk.append("\t\t%s(%s);" % (kname, ", ".join(call)))
        for o in outs:
            hn = "h_%s_%s" % (kname, o.name)
            blk.insert(0, "\tstatic %s %s[%d];" % (o.t.name, hn, prod(odims)))
            blk.append("\t\tstreamWrite(s_%s_%s, %s);" % (kname, o.name, hn))
        if souts:
            hn = "h_%s_so" % kname
            blk.insert(0, "\tstatic %s %s[%d];" % (st["name"], hn, prod(odims)))
            blk.append("\t\tstreamWrite(s_%s_so, %s);" % (kname, hn))
        blk.append("\t}")
        tail = []
        for o in outs:
            self.print_out(tail, kname, o.name, o.t, prod(odims), "h_%s_%s" % (kname, o.name))
        if souts:
            self.struct_print(tail, kname, "so", st, prod(odims), "h_%s_so" % kname)
        self.main.append(self.wrap_block(blk, tail))
        tst_outs = [(o.name, o.t, "exact" if (o.t.base != "float" or o.ex) else "inexact", "npy")
                    for o in outs]
        for j, o in enumerate(souts):
            tst_outs.append((o.name, o.t, "exact" if (o.t.base != "float" or o.ex) else "inexact",
                             "sbin", o.name, "so", st))
        self.tests.append({"kernel": kname, "args": brr, "outs": tst_outs})

    # -- structs: fields of 4-byte components, so the host layout is packed
    def make_struct(self, kname):
        r = self.r
        fields = []
        for j in range(r.randint(1, 4)):
            fields.append(("f%d" % j, T(r.choice(["int", "uint", "float"]), r.choice([1, 1, 2, 3, 4]))))
        name = "%s_S" % kname
        self.kernels.append("typedef struct {\n%s\n} %s;\n" % (
            "\n".join("\t%s %s;" % (ft.name, fn) for fn, ft in fields), name))
        return {"name": name, "fields": fields, "tree": fields}

    def make_struct2(self, kname):
        """a struct with narrow, double, 3-component and nested struct
        fields (C's padding in the host layout)"""
        r = self.r

        def field_t():
            b = r.choice(["int", "uint", "float", "char", "uchar", "short", "ushort", "double", "float"])
            if b == "double":
                return T(b, r.choice([1, 2]))
            return T(b, r.choice([1, 1, 2, 3, 3, 4]))
        tree = []
        for j in range(r.randint(1, 4)):
            if r.random() < 0.3:
                sub = [("g%d" % q, field_t()) for q in range(r.randint(1, 3))]
                sname = "%s_N%d" % (kname, j)
                self.kernels.append("typedef struct {\n%s\n} %s;\n" % (
                    "\n".join("\t%s %s;" % (ft.name, fn) for fn, ft in sub), sname))
                tree.append(("f%d" % j, sub, sname))
            else:
                tree.append(("f%d" % j, field_t(), None))
        name = "%s_S" % kname
        self.kernels.append("typedef struct {\n%s\n} %s;\n" % (
            "\n".join("\t%s %s;" % (sn if sn else ft.name, fn) for fn, ft, sn in tree), name))
        tr = [(fn, ft) for fn, ft, sn in tree]
        fields = [(p, t) for p, t, o in struct_layout(tr)[2]]
        return {"name": name, "fields": fields, "tree": tr}

    def struct_data(self, st, count):
        """per field: (values, bound, den)"""
        out = []
        for fn, ft in st["fields"]:
            out.append(rand_data(self.r, ft, count, "in"))
        return out

    def struct_bounds(self, st, vals):
        return [(fn, ft, v[1], v[2]) for (fn, ft), v in zip(st["fields"], vals)]

    def struct_bytes(self, st, vals):
        count = len(vals[0][0]) // st["fields"][0][1].n
        size, _, leaves = struct_layout(st["tree"])
        b = bytearray(size * count)
        for i in range(count):
            for (fn, ft, off), v in zip(leaves, vals):
                struct.pack_into("<%d%s" % (ft.n, ST_FMT[ft.base]), b, i * size + off,
                                 *v[0][i * ft.n:(i + 1) * ft.n])
        return bytes(b)

    def add_struct_input(self, kname, pname, st, vals):
        fn = "%s_%s.bin" % (kname, pname)
        self.files[fn] = ("raw", self.struct_bytes(st, vals), None)
        return fn

    def struct_host(self, blk, st, sname, dims, vals, hname):
        count = prod(dims)
        elems = []
        for i in range(count):
            leaf = {}
            for (fn, ft), v in zip(st["fields"], vals):
                leaf[fn] = cinit(ft, v[0][i * ft.n:(i + 1) * ft.n])

            def init(tree, pre):
                return "{%s}" % ", ".join(init(ft, pre + fn + ".") if isinstance(ft, list) else leaf[pre + fn]
                                          for fn, ft in tree)
            elems.append(init(st["tree"], ""))
        blk.insert(0, "\tstatic %s %s[%d] = { %s };" % (st["name"], hname, count, ", ".join(elems)))
        blk.append("\t\t%s %s<%s>;" % (st["name"], sname, dims_str(dims)))
        blk.append("\t\tstreamRead(%s, %s);" % (sname, hname))

    def struct_print(self, blk, kname, oname, st, count, hname):
        for fn, ft in st["fields"]:
            c, f, cast = HOST_C[ft.base]
            blk.append('\tprintf("OUT %s.%s.%s");' % (kname, oname, fn))
            comps = [".%s" % XYZW[j] for j in range(ft.n)] if ft.n > 1 else [""]
            blk.append("\tfor (i = 0; i < %d; i++) printf(\"%s\", %s);" % (
                count, " " + " ".join([f] * ft.n),
                ", ".join("%s%s[i].%s%s" % (cast, hname, fn, cm) for cm in comps)))
            blk.append('\tprintf("\\n");')

    # -- GroupSize kernels (guide 1.17): each thread writes its own element
    # of a shared array, syncGroup(), an optional tree reduction in shared
    # memory (a uniform loop with syncGroup() in it), then every thread
    # reads the array at computed (masked) indices and writes its scatter
    # element o[instance().x]; the stream is a whole number of groups
    def make_group(self, i):
        r, g = self.r, self.g
        kname = "k%d" % i
        G = r.choice([4, 8, 16, 32])
        n = G * r.choice([1, 2, 3])
        dims = (n,)
        S = r.choice([1, 1, 2])
        lt = T(r.choice(["int", "uint", "float"]), r.choice([1, 1, 2, 4]))
        params, vars_, streams, blk, call, brr = [], [], [], [], [], []
        for j in range(r.randint(1, 2)):
            self.data_input(kname, "a%d" % j, g.rand_type(), dims, params, vars_, streams,
                            blk, call, brr)
        ot = g.rand_type()
        params.append("out %s o[]" % ot.name)
        g.begin(vars_ + [Var("t", T("int"), G, kind="loop")], [], dims, streams, [])
        g.emit("shared %s lds[%d];" % (lt.name, G * S))
        g.emit("int t = instanceInGroup().x;")
        tree = r.random() < 0.5
        if tree:
            g.emit("int gs;")
        for _ in range(r.randint(0, 3)):
            g.stmt(2, [])
        op = r.choice(["+", "min", "max"] + (["^"] if lt.base == "uint" else []))
        bs, ds = 0, 1
        for j in range(S):
            e = g.gen(lt, 3, exact=True)
            if lt.base == "int":
                e = g.bound_int(e, SAFE // (2 * G) if tree and op == "+" else SAFE)
            elif lt.base == "float":
                e = g.bound_float(e, 1000, 4)
            bs, ds = max(bs, e.b), max(ds, e.d)
            g.emit("lds[%d * instanceInGroup().x + %d] = %s;" % (S, j, e.c))
        g.emit("syncGroup();")
        if tree:
            g.emit("for (gs = %d; gs > 0; gs = gs / 2) {" % (G // 2))
            a, b = "lds[%d * t]" % S, "lds[%d * (t + gs)]" % S
            ex = "%s(%s, %s)" % (op, a, b) if op in ("min", "max") else "%s %s %s" % (a, op, b)
            g.emit("\tif (t < gs)")
            g.emit("\t\tlds[%d * instanceInGroup().x + 0] = %s;" % (S, ex))
            g.emit("\tsyncGroup();")
            g.emit("}")
            if op == "+":
                bs = bs * G if lt.base != "uint" else 2 ** 32
            elif op == "^":
                bs = 2 ** 32
        g.shared = [("lds", lt, G * S, bs, ds)]
        e = self.group_result(ot, "o[instance().x]")
        self.kernels.append("Attribute[GroupSize(%d, 1, 1)]\nkernel void %s(%s)\n{\n%s\n}\n" % (
            G, kname, ", ".join(params), "\n".join(g.lines)))
        hn = "h_%s_o" % kname
        blk.insert(0, "\tstatic %s %s[%d];" % (ot.name, hn, n))
        blk.append("\t\t%s s_%s_o<%d>;" % (ot.name, kname, n))
        blk.append("\t\t%s(%s, s_%s_o);" % (kname, ", ".join(call), kname))
        blk.append("\t\tstreamWrite(s_%s_o, %s);" % (kname, hn))
        blk.append("\t}")
        brr.append("o=@%s_o.out.npy" % kname)
        brr.append("--shape o=%d" % n)
        self.one_out(kname, blk, brr, "o", ot, n, hn,
                     "exact" if (ot.base != "float" or e.ex) else "inexact", "npy")

    # -- a map kernel run on part of its streams: .domain() views of its
    # inputs and outputs (the rest of an output keeps its data), or
    # kernel.domainOffset()/domainSize() on whole streams (guide 1.8)
    def make_domain(self, i):
        r, g = self.r, self.g
        kname = "k%d" % i
        rank = r.choice([1, 2])
        box = tuple(r.randint(1, 5) for _ in range(rank))
        offset = r.random() < 0.35
        if offset and "domainsize1" in AVOID and rank == 2 and box[0] == 1:
            box = (2, box[1])
        ofull = tuple(b + r.randint(0, 3) for b in box)
        olo = tuple(r.randint(0, f - b) for f, b in zip(ofull, box))
        params, vars_, blk, call, brr = [], [], [], [], []
        emb = {}

        for j in range(r.randint(1, 3)):
            t = g.rand_type()
            pn = "a%d" % j
            kind = r.choice(["view", "view", "plain", "other"])
            if offset:
                kind = r.choice(["same", "same", "other"])
            if kind == "view":
                fd = tuple(b + r.randint(0, 3) for b in box)
                lo = tuple(r.randint(0, f - b) for f, b in zip(fd, box))
            elif kind == "plain":
                fd, lo = box, (0,) * rank
            elif kind == "same":
                fd, lo = ofull, olo
            else:
                fd = tuple(r.randint(1, 6) for _ in range(rank))
                lo = None
            vals, b, d = rand_data(r, t, prod(fd), "in")
            params.append("%s %s<>" % (t.name, pn))
            vars_.append(Var(pn, t, b, d, True, "in"))
            sn = "s_%s_%s" % (kname, pn)
            self.host_stream(blk, sn, t, fd, vals, "h_%s_%s" % (kname, pn))
            call.append(sn + (dom_text(lo, box) if kind == "view" else ""))
            if lo is not None and not offset:
                bv, bd = slice_box(vals, fd, lo, box, t.n), box
            else:
                # brrun --domain-offset runs on the whole streams
                bv, bd = vals, fd
            brr.append("%s=@%s" % (pn, self.add_input(kname, pn, t, bd, bv)))
        outs = []
        for j in range(r.randint(1, 2)):
            t = g.rand_type()
            pn = "o%d" % j
            params.append("out %s %s<>" % (t.name, pn))
            outs.append(Var(pn, t, 0, 1, True, "out"))
            init, _, _ = rand_data(r, t, prod(ofull), "in")
            sn = "s_%s_%s" % (kname, pn)
            self.host_stream(blk, sn, t, ofull, init, "h_%s_%s_init" % (kname, pn))
            call.append(sn + ("" if offset else dom_text(olo, box)))
            brr.append("%s=@%s_%s.out.npy" % (pn, kname, pn))
            brr.append("--shape %s=%s" % (pn, shape_arg(ofull if offset else box)))
            emb[pn] = (ofull, init, olo, box, t.n) + (("full",) if offset else ())
        # instance() in the box: counts from the view's start (0) in a
        # .domain() view, from the offset with domainOffset (brt(3))
        g.begin(vars_ + outs, [], (ofull if offset else box) if g.has("domaininst") else None, [], [])
        for _ in range(r.randint(0, 3)):
            g.stmt(2, outs)
        for o in outs:
            ex = not (o.t.base == "float" and g.inexact_ok and r.random() < 0.3)
            e = g.gen(o.t, 4, exact=ex)
            if o.t.base == "double":
                e = g.bound_float(e, 2 ** 20, 16)
            g.emit("%s = %s;" % (o.name, e.c))
            g.assign_to(o, e)
        self.kernels.append("kernel void %s(%s)\n{\n%s\n}\n" % (kname, ", ".join(params), "\n".join(g.lines)))
        if offset:
            o4 = list(reversed(olo)) + [0] * (4 - rank)
            s4 = list(reversed(box)) + [1] * (4 - rank)
            brr.append("--domain-offset %s" % "x".join(map(str, reversed(olo))))
            brr.append("--domain-size %s" % "x".join(map(str, reversed(box))))
            blk.append("\t\t%s.domainOffset(uint4_(%s));" % (kname, ", ".join(map(str, o4))))
            blk.append("\t\t%s.domainSize(uint4_(%s));" % (kname, ", ".join(map(str, s4))))
        blk.append("\t\t%s(%s);" % (kname, ", ".join(call)))
        for o in outs:
            hn = "h_%s_%s" % (kname, o.name)
            blk.insert(0, "\tstatic %s %s[%d];" % (o.t.name, hn, prod(ofull)))
            blk.append("\t\tstreamWrite(s_%s_%s, %s);" % (kname, o.name, hn))
        blk.append("\t}")
        tail = []
        for o in outs:
            self.print_out(tail, kname, o.name, o.t, prod(ofull), "h_%s_%s" % (kname, o.name))
        self.main.append(self.wrap_block(blk, tail))
        tst = {"kernel": kname, "args": brr, "embed": emb,
               "outs": [(o.name, o.t, "exact" if (o.t.base != "float" or o.ex) else "inexact", "npy")
                        for o in outs]}
        self.tests.append(tst)

    # -- 2-D thread groups: GroupSize(GX, GY, 1) on a 2-D stream of whole
    # groups; the threads of row 0 of a group fill the shared array
    # (lds[S * instanceInGroup().x + j], the form brcheck wants, its
    # stride the array's size over the group's), syncGroup(), then every
    # thread reads what row 0 wrote and writes o[instance().y][instance().x]
    def make_group2d(self, i):
        r, g = self.r, self.g
        kname = "k%d" % i
        GX, GY = r.choice([(2, 2), (4, 2), (2, 4), (4, 4), (8, 2), (4, 3), (2, 8), (8, 4)])
        dims = (GY * r.choice([1, 2, 3]), GX * r.choice([1, 2]))
        S = r.choice([1, 1, 2])
        lt = T(r.choice(["int", "uint", "float"]), r.choice([1, 1, 2, 4]))
        params, vars_, streams, blk, call, brr = [], [], [], [], [], []
        for j in range(r.randint(1, 2)):
            self.data_input(kname, "a%d" % j, g.rand_type(), dims, params, vars_, streams,
                            blk, call, brr)
        ot = g.rand_type()
        params.append("out %s o[][]" % ot.name)
        g.begin(vars_ + [Var("tx", T("int"), GX, kind="loop"), Var("ty", T("int"), GY, kind="loop")],
                [], dims, streams, [])
        g.emit("shared %s lds[%d];" % (lt.name, GX * GY * S))
        g.emit("int tx = instanceInGroup().x;")
        g.emit("int ty = instanceInGroup().y;")
        for _ in range(r.randint(0, 2)):
            g.stmt(2, [])
        bs, ds = 0, 1
        g.emit("if (instanceInGroup().y == 0) {")
        for j in range(S):
            e = g.gen(lt, 3, exact=True)
            if lt.base == "int":
                e = g.bound_int(e, SAFE)
            elif lt.base == "float":
                e = g.bound_float(e, 1000, 4)
            bs, ds = max(bs, e.b), max(ds, e.d)
            g.emit("\tlds[%d * instanceInGroup().x + %d] = %s;" % (S, j, e.c))
        g.emit("}")
        g.emit("syncGroup();")
        g.shared = [("lds", lt, GX * S, bs, ds)]
        e = self.group_result(ot, "o[instance().y][instance().x]")
        self.kernels.append("Attribute[GroupSize(%d, %d, 1)]\nkernel void %s(%s)\n{\n%s\n}\n" % (
            GX, GY, kname, ", ".join(params), "\n".join(g.lines)))
        hn = "h_%s_o" % kname
        n = prod(dims)
        blk.insert(0, "\tstatic %s %s[%d];" % (ot.name, hn, n))
        blk.append("\t\t%s s_%s_o<%s>;" % (ot.name, kname, dims_str(dims)))
        blk.append("\t\t%s(%s, s_%s_o);" % (kname, ", ".join(call), kname))
        blk.append("\t\tstreamWrite(s_%s_o, %s);" % (kname, hn))
        blk.append("\t}")
        brr.append("o=@%s_o.out.npy" % kname)
        brr.append("--shape o=%s" % shape_arg(dims))
        self.one_out(kname, blk, brr, "o", ot, n, hn,
                     "exact" if (ot.base != "float" or e.ex) else "inexact", "npy")

    # -- a scatter of a struct (struct2): s[p] = element, s[p].field = e
    # or s[p] = local struct, 1-D, injective indices, some outside
    def make_sscatter(self, i):
        r, g = self.r, self.g
        kname = "k%d" % i
        st = self.make_struct2(kname)
        N = r.choice([4, 8, 13])
        picks = r.sample(range(-2, N + 2), r.randint(1, N + 4))
        n = len(picks)
        ivals = picks
        vals = self.struct_data(st, n)
        init = self.struct_data(st, N)
        blk, call, brr = [], [], []
        self.host_stream(blk, "s_%s_p" % kname, T("int"), (n,), ivals, "h_%s_p" % kname)
        self.struct_host(blk, st, "s_%s_v" % kname, (n,), vals, "h_%s_v" % kname)
        self.struct_host(blk, st, "s_%s_s" % kname, (N,), init, "h_%s_s" % kname)
        brr.append("p=@%s" % self.add_input(kname, "p", T("int"), (n,), ivals))
        brr.append("v=@%s:%d" % (self.add_struct_input(kname, "v", st, vals), n))
        # the start data, updated in place by brrun
        fn = "%s_s.out.bin" % kname
        self.files[fn] = ("raw", self.struct_bytes(st, init), None)
        brr.append("s=@%s:%d" % (fn, N))
        vv = [Var("p", T("int"), N + 2, 1, True, "in")]
        for (fnm, ft, fb, fd) in self.struct_bounds(st, vals):
            vv.append(Var("v.%s" % fnm, ft, fb, fd, True, "in"))
        g.begin(vv, [], (n,), [], [])
        for _ in range(r.randint(0, 2)):
            g.stmt(2, [])
        k = r.choice(["whole", "field", "local"])
        if k == "whole":
            g.emit("s[p] = v;")
        elif k == "field":
            fnm, ft = r.choice(st["fields"])
            e = g.gen(ft, 3, exact=True)
            if ft.base in FLOATS:
                e = g.bound_float(e, 2 ** 20, 16)
            g.emit("s[p].%s = %s;" % (fnm, e.c))
        else:
            ln = g.fresh("sl")
            g.emit("%s %s;" % (st["name"], ln))
            for fnm, ft in st["fields"]:
                e = g.gen(ft, 3, exact=True)
                if ft.base in FLOATS:
                    e = g.bound_float(e, 2 ** 20, 16)
                g.emit("%s.%s = %s;" % (ln, fnm, e.c))
            g.emit("s[p] = %s;" % ln)
        self.kernels.append("kernel void %s(int p<>, %s v<>, out %s s[])\n{\n%s\n}\n" % (
            kname, st["name"], st["name"], "\n".join(g.lines)))
        hn = "h_%s_s" % kname
        blk.append("\t\t%s(s_%s_p, s_%s_v, s_%s_s);" % (kname, kname, kname, kname))
        blk.append("\t\tstreamWrite(s_%s_s, %s);" % (kname, hn))
        blk.append("\t}")
        tail = []
        self.struct_print(tail, kname, "s", st, N, hn)
        self.main.append(self.wrap_block(blk, tail))
        self.tests.append({"kernel": kname, "args": brr, "outs": [
            ("s." + fnm, ft, "exact", "sbin", "s." + fnm, "s", st) for fnm, ft in st["fields"]]})

    # -- a reduce function over a struct (struct2), field by field, to a
    # host struct or a smaller stream (brrun: a .bin in the host layout)
    def make_sreduce(self, i):
        r = self.r
        kname = "k%d" % i
        st = self.make_struct2(kname)
        two = r.random() < 0.5
        idims = r.choice([(4, 6), (6, 4), (2, 3)]) if two else r.choice([(12,), (16,), (7,), (1,)])
        tdims = self.red_target(idims)
        vals = self.struct_data(st, prod(idims))
        body = []
        for j, (fnm, ft) in enumerate(st["fields"]):
            v = vals[j][0]
            if ft.base in FLOATS:
                v[:] = [math.floor(x) for x in v]
            if ft.base == "int":
                v[:] = [max(-10 ** 6, min(10 ** 6, x)) for x in v]
            ops = ["min", "max"]
            if ft.base in ("int", "uint", "float", "double"):
                ops += ["sum", "sum"]
            if ft.base == "uint":
                ops += ["xor", "or", "and"]
            op = r.choice(ops)
            a, b = "a.%s" % fnm, "b.%s" % fnm
            body.append({"min": "%s = min(%s, %s);" % (b, b, a), "max": "%s = max(%s, %s);" % (b, a, b),
                         "sum": "%s = %s + %s;" % (b, b, a), "xor": "%s = %s ^ %s;" % (b, b, a),
                         "or": "%s |= %s;" % (b, a), "and": "%s = %s & %s;" % (b, a, b)}[op])
        self.kernels.append("reduce void %s(%s a<>, reduce %s b<>)\n{\n\t%s\n}\n" % (
            kname, st["name"], st["name"], "\n\t".join(body)))
        blk = []
        sn = "s_%s_a" % kname
        self.struct_host(blk, st, sn, idims, vals, "h_%s_a" % kname)
        hn = "h_%s_r" % kname
        if tdims is None:
            blk.insert(0, "\t%s %s; /*outer*/" % (st["name"], hn))
            blk.append("\t\t%s(%s, %s);" % (kname, sn, hn))
            count, href = 1, "(&%s)" % hn
        else:
            count, href = prod(tdims), hn
            blk.insert(0, "\tstatic %s %s[%d];" % (st["name"], hn, count))
            blk.append("\t\t%s s_%s_r<%s>;" % (st["name"], kname, dims_str(tdims)))
            blk.append("\t\t%s(%s, s_%s_r);" % (kname, sn, kname))
            blk.append("\t\tstreamWrite(s_%s_r, %s);" % (kname, hn))
        blk.append("\t}")
        tail = []
        self.struct_print(tail, kname, "r", st, count, href)
        self.main.append(self.wrap_block(blk, tail))
        brr = ["a=@%s:%s" % (self.add_struct_input(kname, "a", st, vals), shape_arg(idims)),
               "b=@%s_b.out.bin" % kname]
        if tdims is not None:
            brr.append("--shape b=%s" % shape_arg(tdims))
        self.tests.append({"kernel": kname, "args": brr, "outs": [
            ("r." + fnm, ft, "exact", "sbin", "r." + fnm, "b", st) for fnm, ft in st["fields"]]})

    # -- host-level chains (chain): 2 to 4 steps on four streams of one
    # type and shape, each filled from data first: kernel calls on whole
    # streams, on .domain() views (inputs of the box's size or whole
    # streams, resized) and with domainOffset/domainSize, one call's output
    # the next one's input; streamSwap, s.assign(t) of streams and views;
    # every stream read back at the end.  The interpreter runs the chain
    # step by step (brrun per call, the previous step's data as files).
    def make_chain(self, i):
        r, g = self.r, self.g
        kname = "k%d" % i
        t = T(r.choice(["int", "int", "uint", "float", "float"]), r.choice([1, 1, 2, 4]))
        dims = r.choice([(6,), (9,), (16,), (3, 4), (4, 5), (2, 6)])
        rank = len(dims)
        B = 100000 if t.base == "int" else 1000
        nk = r.choice([1, 2, 2])
        knames = []
        for j in range(nk):
            kn = "%s_c%d" % (kname, j)
            knames.append(kn)
            vv = [Var("x", t, B, 16, True, "in"), Var("y", t, B, 16, True, "in")]
            g.begin(vv, [], None, [], [])
            for _ in range(r.randint(0, 3)):
                g.stmt(2, [])
            e = g.gen(t, 4, exact=True)
            if t.base == "int":
                e = g.bound_int(e, B)
            elif t.base == "float":
                e = g.bound_float(e, B, 16)
            g.emit("o = %s;" % e.c)
            self.kernels.append("kernel void %s(%s x<>, %s y<>, out %s o<>)\n{\n%s\n}\n" % (
                kn, t.name, t.name, t.name, "\n".join(g.lines)))
        blk = []
        hs = ["s_%s_%d" % (kname, j) for j in range(4)]
        for j, h in enumerate(hs):
            vals, _, _ = rand_data(r, t, prod(dims), "in")
            if t.base == "int":
                vals = [max(-B, min(B, v)) for v in vals]
            self.host_stream(blk, h, t, dims, vals, "h_%s_%d_init" % (kname, j))
            self.files["%s_%d.init" % (kname, j)] = ("chaininit", dims, vals)

        def rbox():
            return tuple(r.randint(1, d) for d in dims)

        def rlo(bx):
            return tuple(r.randint(0, d - b) for d, b in zip(dims, bx))

        steps = []
        # repeat: longer chains whose calls may come again as they were,
        # then maybe a loop of the last steps: launches libbrt keeps to
        # repeat (brt(3)), beside what changes between them
        repeat = "repeat" in self.features
        calls = []            # (lines, step) of each call so far
        marks = []            # where each step's lines begin in blk
        for q in range(r.randint(4, 8) if repeat else r.randint(2, 4)):
            if repeat and calls and r.random() < 0.35:
                lines, st = r.choice(calls)
                marks.append(len(blk))
                blk.extend(lines)
                steps.append(st)
                continue
            k = r.choice(["call", "call", "call", "view", "view", "offset", "swap", "assign", "vassign"])
            at = len(blk)
            if k in ("call", "view", "offset"):
                kn = r.choice(knames)
                a, b = r.choice(hs), r.choice(hs)
                c = r.choice([h for h in hs if h not in (a, b)])
                if k == "call":
                    blk.append("\t\t%s(%s, %s, %s);" % (kn, a, b, c))
                    steps.append(("call", kn, [(a, None), (b, None)], (c, None), dims))
                elif k == "view":
                    bx = rbox()
                    ins = [(h, rlo(bx) if r.random() < 0.7 else None) for h in (a, b)]
                    olo = rlo(bx)
                    blk.append("\t\t%s(%s, %s);" % (kn, ", ".join(h + (dom_text(lo, bx) if lo else "") for h, lo in ins),
                                                        c + dom_text(olo, bx)))
                    steps.append(("call", kn, ins, (c, olo), bx))
                else:
                    bx = rbox()
                    if "domainsize1" in AVOID and rank == 2 and bx[0] == 1:
                        bx = (dims[0], bx[1])
                    olo = rlo(bx)
                    o4 = list(reversed(olo)) + [0] * (4 - rank)
                    s4 = list(reversed(bx)) + [1] * (4 - rank)
                    blk.append("\t\t%s.domainOffset(uint4_(%s));" % (kn, ", ".join(map(str, o4))))
                    blk.append("\t\t%s.domainSize(uint4_(%s));" % (kn, ", ".join(map(str, s4))))
                    blk.append("\t\t%s(%s, %s, %s);" % (kn, a, b, c))
                    steps.append(("call", kn, [(a, olo), (b, olo)], (c, olo), bx))
                if repeat:
                    calls.append((blk[at:], steps[-1]))
            elif k == "swap":
                a, b = r.sample(hs, 2)
                blk.append("\t\tstreamSwap(%s, %s);" % (a, b))
                steps.append(("swap", a, b))
            elif k == "assign":
                a, b = r.sample(hs, 2)
                blk.append("\t\t%s.assign(%s);" % (a, b))
                steps.append(("assign", (a, None), (b, None), dims))
            else:
                a, b = r.choice(hs), r.choice(hs)
                bx = rbox()
                alo, blo = rlo(bx), rlo(bx)
                blk.append("\t\t%s%s.assign(%s%s);" % (a, dom_text(alo, bx), b, dom_text(blo, bx)))
                steps.append(("assign", (a, alo), (b, blo), bx))
            if repeat:
                marks.append(at)
        if repeat and r.random() < 0.6:
            # the last m steps in a loop run n times
            m = r.randint(2, min(4, len(marks)))
            n = r.randint(2, 4)
            lv = "lp_%s" % kname
            at = marks[-m]
            body = blk[at:]
            del blk[at:]
            blk.append("\t\tint %s;" % lv)
            blk.append("\t\tfor (%s = 0; %s < %d; %s++) {" % (lv, lv, n, lv))
            blk.extend("\t" + l for l in body)
            blk.append("\t\t}")
            steps.extend(steps[-m:] * (n - 1))
        tail = []
        for j, h in enumerate(hs):
            hn = "h_%s_%d" % (kname, j)
            blk.insert(0, "\tstatic %s %s[%d];" % (t.name, hn, prod(dims)))
            blk.append("\t\tstreamWrite(%s, %s);" % (h, hn))
            self.print_out(tail, kname, "s%d" % j, t, prod(dims), hn)
        blk.append("\t}")
        self.main.append(self.wrap_block(blk, tail))
        self.tests.append({"kernel": kname, "chain": steps, "t": t, "dims": dims, "handles": hs,
                           "outs": [("s%d" % j, t, "exact", "chain") for j in range(4)]})

    def wrap_block(self, blk, tail):
        outer = lambda l: l.startswith("\tstatic") or l.endswith("/*outer*/")
        statics = [l for l in blk if outer(l)]
        rest = [l for l in blk if not outer(l)]
        return "\n".join(["\t{"] + ["\t" + l for l in statics] + ["\t\t{"] + ["\t" + l for l in rest] + ["\t" + l for l in tail] + ["\t}"])

    # -- reductions with a reduce variable
    def make_reduce(self, i):
        r, g = self.r, self.g
        kname = "k%d" % i
        two = r.random() < 0.5
        idims = r.choice([(4, 6), (6, 4), (8, 8), (2, 3)]) if two else r.choice([(12,), (16,), (7,), (1,)])
        tdims = self.red_target(idims)
        base = r.choice(["int", "int", "uint", "float"])
        t = T(base, r.choice([1, 1, 2, 4]) if base != "float" else 1)
        op = r.choice(["+=", "+=", "|=", "^=", "&=", "*="]) if base != "float" else r.choice(["+=", "*="])
        if base == "float" and op == "*=":
            op = "+="
        at = t
        vals, b, d = rand_data(r, at, prod(idims), "in")
        if base == "float":
            vals = [math.floor(v) for v in vals]
        blk, call, brr = [], [], []
        sn = "s_%s_a" % kname
        self.host_stream(blk, sn, at, idims, vals, "h_%s_a" % kname)
        brr.append("a=@%s" % self.add_input(kname, "a", at, idims, vals))
        g.begin([Var("a", at, b, 1, True, "in")], [], None, [], [])
        n = prod(idims)
        if op == "*=":
            e = g.gen(T("int", t.n) if base == "int" else t, 2)
            ec = "((%s & %s) != %s ? %s : %s)" % (e.c, vlit(e.t, 1), vlit(e.t, 0), vlit(t, 3 if base == "uint" else -1), vlit(t, 1)) \
                if base == "int" else "(%s | %s)" % (e.c, vlit(t, 1))
            if base == "int" and t.n > 1:
                # ?: needs a scalar condition: build per component; the
                # expression in parentheses, a cast in it taking no swizzle
                comps = []
                for c in XYZW[:t.n]:
                    comps.append("(((%s).%s & 1) != 0 ? -1 : 1)" % (e.c, c))
                ec = "%s(%s)" % (t.name, ", ".join(comps))
        elif base == "int" and op == "+=":
            e = g.bound_int(g.gen(t, 3), max(1, SAFE // n // 2))
            ec = e.c
        elif base == "float":
            e = g.bound_float(g.gen(t, 3, exact=True), 1000, 1)
            e = E("floor(%s)" % e.c, t, 1001, 1) if e.d > 1 else e
            ec = e.c
        else:
            ec = g.gen(t, 3).c
        for l in g.lines:
            pass
        body = g.lines + ["\tr %s %s;" % (op, ec)]
        self.kernels.append("kernel void %s(%s a<>, reduce %s r)\n{\n%s\n}\n" % (kname, at.name, t.name, "\n".join(body)))
        ident = {"+=": 0, "|=": 0, "^=": 0, "&=": -1 if base == "int" else 2 ** 32 - 1, "*=": 1}[op]
        identc = ilit(ident, base) if base != "float" else ("1.0f" if op == "*=" else "0.0f")
        if t.n > 1:
            identc = "%s_(%s)" % (t.name, ", ".join([identc] * t.n))
        self.red_host(kname, blk, brr, t, tdims, identc, sn)

    def red_target(self, idims):
        r = self.r
        if r.random() < 0.4:
            return None           # host scalar
        if len(idims) == 1:
            n = idims[0]
            return (r.choice([d for d in range(1, n + 1) if n % d == 0]),)
        h, w = idims
        if r.random() < 0.3:
            return (r.choice([d for d in range(1, h + 1) if h % d == 0]),)
        return (r.choice([d for d in range(1, h + 1) if h % d == 0]),
                r.choice([d for d in range(1, w + 1) if w % d == 0]))

    def red_host(self, kname, blk, brr, t, tdims, identc, sn, ident_needed=True):
        hn = "h_%s_r" % kname
        if tdims is None:
            blk.insert(0, "\t%s %s%s; /*outer*/" % (t.name, hn, " = " + identc if ident_needed else ""))
            blk.append("\t\t%s(%s, %s);" % (kname, sn, hn))
            count = 1
            href = "&%s" % hn
            brr.append("r=@%s_r.out.npy" % kname)
        else:
            count = prod(tdims)
            blk.insert(0, "\tstatic %s %s[%d];" % (t.name, hn, count))
            tn = "s_%s_r" % kname
            blk.append("\t\t%s %s<%s>;" % (t.name, tn, dims_str(tdims)))
            if ident_needed:
                one = identc if t.n == 1 else "{%s}" % identc[len(t.name) + 2:-1]
                blk.insert(0, "\tstatic %s %s_init[%d] = { %s };" % (t.name, hn, count, ", ".join([one] * count)))
                blk.append("\t\tstreamRead(%s, %s_init);" % (tn, hn))
            blk.append("\t\t%s(%s, %s);" % (kname, sn, tn))
            blk.append("\t\tstreamWrite(%s, %s);" % (tn, hn))
            href = hn
            brr.append("r=@%s_r.out.npy" % kname)
            brr.append("--shape r=%s" % shape_arg(tdims))
        blk.append("\t}")
        self.one_out(kname, blk, brr, "r", t, count, href, "exact", "npy")

    # -- reductions over 3-D and 4-D streams and .domain() views, of
    # double and double2 too, by a reduce variable (maybe updated under a
    # condition: spec 4.1.2) or a reduce function, to a host scalar or a
    # target of the same rank whose every size divides the input's
    def make_reduce34(self, i):
        r = self.r
        kname = "k%d" % i
        rank = r.choice([1, 2, 3, 3, 4, 4])
        most = {1: 20, 2: 6, 3: 4, 4: 3}[rank]
        box = tuple(r.randint(1, most) for _ in range(rank))
        view = r.random() < 0.5
        fd = tuple(b + r.randint(0, 2) for b in box) if view else box
        lo = tuple(r.randint(0, f - b) for f, b in zip(fd, box))
        base = r.choice(["int", "uint", "float", "double", "double"])
        t = T(base, r.choice([1, 2] if base == "double" else [1, 1, 2, 4]))
        vals, _, _ = rand_data(r, t, prod(fd), "in")
        if base in FLOATS:
            vals = [math.floor(v) for v in vals]
        if base == "int":
            vals = [max(-10 ** 6, min(10 ** 6, v)) for v in vals]
        fn = r.random() < 0.5
        if fn:
            k = r.choice(["min", "max", "sum"] + (["xor", "or", "and"] if base in ("int", "uint") else []))
            self.redfn_kernel(kname, t, k)
        else:
            op = r.choice(["+=", "+="] + (["|=", "^="] if base in ("int", "uint") else []))
            upd = "r %s a;" % op
            if r.random() < 0.5:
                c = "a" if t.n == 1 else "a.x"
                upd = "if (%s > %s)\n\t\t%s" % (c, ilit(r.randint(-3, 3), base), upd)
            self.kernels.append("kernel void %s(%s a<>, reduce %s r<>)\n{\n\t%s\n}\n" % (
                kname, t.name, t.name, upd))
        blk, brr = [], []
        sn = "s_%s_a" % kname
        self.host_stream(blk, sn, t, fd, vals, "h_%s_a" % kname)
        bv = slice_box(vals, fd, lo, box, t.n) if view else vals
        brr.append("a=@%s" % self.add_input(kname, "a", t, box, bv))
        arg = sn + (dom_text(lo, box) if view else "")
        if rank <= 2:
            tdims = self.red_target(box)
        elif r.random() < 0.4:
            tdims = None
        else:
            tdims = tuple(r.choice([d for d in range(1, b + 1) if b % d == 0]) for b in box)
        identc = None       # a reduce function needs none
        if not fn:          # the identity of +=, |= and ^=
            identc = ilit(0, base)
            if t.n > 1:
                identc = "%s_(%s)" % (t.name, ", ".join([identc] * t.n))
        self.red_host(kname, blk, brr, t, tdims, identc, arg, ident_needed=not fn)
        if fn:
            self.redfn_out(t)

    # -- reduce functions
    def make_redfn(self, i):
        r = self.r
        kname = "k%d" % i
        two = r.random() < 0.5
        idims = r.choice([(4, 6), (6, 4), (8, 8), (2, 3)]) if two else r.choice([(12,), (16,), (7,), (1,)])
        tdims = self.red_target(idims)
        base = r.choice(["int", "int", "uint", "float"])
        t = T(base, r.choice([1, 1, 2, 4]))
        vals, b, d = rand_data(r, t, prod(idims), "in")
        if base == "float":
            vals = [math.floor(v) for v in vals]
        if base == "int":
            vals = [max(-10 ** 6, min(10 ** 6, v)) for v in vals]
        k = r.choice(["min", "max", "sum", "xor", "ifmax", "ifmin", "or", "and"])
        if base == "float" and k in ("xor", "or", "and"):
            k = "sum"
        if t.n > 1 and k in ("ifmax", "ifmin"):
            k = "max"
        self.redfn_kernel(kname, t, k)
        blk, brr = [], []
        sn = "s_%s_a" % kname
        self.host_stream(blk, sn, t, idims, vals, "h_%s_a" % kname)
        brr.append("a=@%s" % self.add_input(kname, "a", t, idims, vals))
        brr = [x.replace("r=", "b=") for x in brr]
        self.red_host(kname, blk, brr, t, tdims, None, sn, ident_needed=False)
        self.redfn_out(t)

    def redfn_kernel(self, kname, t, k):
        """reduce function KNAME of type T, its body REDFN_BODY[K]"""
        self.kernels.append("reduce void %s(%s a<>, reduce %s b<>)\n{\n\t%s\n}\n" % (
            kname, t.name, t.name, REDFN_BODY[k]))

    def redfn_out(self, t):
        """the last test, a reduce function's of type T: its output is the
        parameter b, printed as r (red_host names it r)"""
        tt = self.tests[-1]
        tt["args"] = [x.replace("r=@", "b=@").replace("--shape r=", "--shape b=") for x in tt["args"]]
        tt["outs"] = [("b", t, "exact", "npy", "r")]

    # -- scatter
    def make_scatter(self, i):
        r, g = self.r, self.g
        kname = "k%d" % i
        two = r.random() < 0.4
        sdims = r.choice([(3, 4), (4, 4), (2, 5)]) if two else r.choice([(8,), (16,), (5,)])
        n = r.randint(1, prod(sdims) + 4)
        ndims = (n,)
        # injective indices, some outside the array
        if two:
            H, W = sdims
            cells = [(y, x) for y in range(-1, H + 1) for x in range(-1, W + 1)]
            picks = r.sample(cells, min(n, len(cells)))
            n = len(picks)
            ndims = (n,)
            itype = r.choice([T("int", 2), T("float", 2)])
            ivals = []
            for (y, x) in picks:
                if itype.base == "float":
                    ivals += [x + r.choice([0, 0.25, 0.75]), y + r.choice([0, 0.5])]
                else:
                    ivals += [x, y]
        else:
            N = sdims[0]
            picks = r.sample(range(-3, N + 3), min(n, N + 6))
            n = len(picks)
            ndims = (n,)
            itype = r.choice([T("int"), T("float")])
            ivals = [p + (r.choice([0, 0.25, 0.75]) if itype.base == "float" else 0) for p in picks]
        vt = T(r.choice(["int", "uint", "float"]), r.choice([1, 1, 2, 4]))
        vals, b, d = rand_data(r, vt, n, "in")
        if vt.base == "float":
            vals = [math.floor(v) for v in vals]
        init, _, _ = rand_data(r, vt, prod(sdims), "in")
        if vt.base == "float":
            init = [math.floor(v) for v in init]
        blk, call, brr = [], [], []
        self.host_stream(blk, "s_%s_p" % kname, itype, ndims, ivals, "h_%s_p" % kname)
        self.host_stream(blk, "s_%s_v" % kname, vt, ndims, vals, "h_%s_v" % kname)
        hn_s = "h_%s_s" % kname
        self.host_stream(blk, "s_%s_s" % kname, vt, sdims, init, hn_s)
        brr.append("p=@%s" % self.add_input(kname, "p", itype, ndims, ivals))
        brr.append("v=@%s" % self.add_input(kname, "v", vt, ndims, vals))
        # the scatter array's start data as a literal (s=@FILE would be
        # updated in place, brrun(1))
        brr.append("'s=%s'" % literal(vt, sdims, init))
        g.begin([Var("p", itype, 100, 4, True, "in"), Var("v", vt, b, 1, True, "in")], [], ndims, [("v", ndims)], [])
        for _ in range(r.randint(0, 2)):
            g.stmt(2, [])
        e = g.gen(vt, 3, exact=True)
        if vt.base == "float":
            e = g.bound_float(e, 100000, 1)
        # supdate: an update reads the element (at the nearest index)
        # and writes it back where the index is inside: op=, ++ or --
        op = r.choice(["=", "+=", "-=", "++", "--"]) if "supdate" in self.features else "="
        # an update of an int must not overflow (undefined, brook(7)): the
        # start data and the operand within 2^30 (seed 7100025: ++ of
        # INT_MAX, which UBSan reported in the CPU backend's C)
        upd = op != "=" and vt.base == "int"
        if upd:
            fixed = [max(-2 ** 30, min(2 ** 30, v)) for v in init]
            if fixed != init:
                old, new = cinit(vt, init), cinit(vt, fixed)
                blk[:] = [l.replace(old, new) if " %s[" % hn_s in l else l for l in blk]
                brr[-1] = "'s=%s'" % literal(vt, sdims, fixed)
                init = fixed
            e = g.bound_int(e, 2 ** 30 - 1)
        if vt.n > 1 and r.random() < 0.4:
            comps = "".join(r.sample(XYZW[:vt.n], r.randint(1, vt.n - 1)))
            e2 = g.gen(vt.with_n(len(comps)), 2, exact=True)
            if vt.base == "float":
                e2 = g.bound_float(e2, 100000, 1)
            if upd:
                e2 = g.bound_int(e2, 2 ** 30 - 1)
            if op in ("++", "--"):
                g.emit("%ss[p].%s;" % (op, comps) if r.random() < 0.5 else "s[p].%s%s;" % (comps, op))
            else:
                g.emit("s[p].%s %s %s;" % (comps, op, e2.c))
        elif op in ("++", "--"):
            g.emit("s[p]%s;" % op)
        else:
            g.emit("s[p] %s %s;" % (op, e.c))
        self.kernels.append("kernel void %s(%s p<>, %s v<>, out %s s[%s])\n{\n%s\n}\n" % (
            kname, itype.name, vt.name, vt.name, "][" if two else "", "\n".join(g.lines)))
        hn = "h_%s_s" % kname
        blk.append("\t\t%s(s_%s_p, s_%s_v, s_%s_s);" % (kname, kname, kname, kname))
        blk.append("\t\tstreamWrite(s_%s_s, %s);" % (kname, hn))
        blk.append("\t}")
        self.one_out(kname, blk, brr, "s", vt, prod(sdims), hn, "exact", "stdout")

    def one_out(self, kname, blk, brr, name, t, n, hn, cls, fmt):
        """the end of a kernel's test with one output NAME: main() prints
        it after the block BLK, compared as CLS from FMT"""
        tail = []
        self.print_out(tail, kname, name, t, n, hn)
        self.main.append(self.wrap_block(blk, tail))
        self.tests.append({"kernel": kname, "args": brr, "outs": [(name, t, cls, fmt)]})

    def text(self):
        return ("/* difftest seed %d */\n#include <stdio.h>\n#include <math.h>\n\n" % self.seed
                + "\n".join(self.kernels)
                + "\nint main(void)\n{\n\tint i;\n\t(void)i;\n" + "\n".join(self.main) + "\n\treturn 0;\n}\n")


# --------------------------------------------------------------------------
# running
def sh(cmd, cwd, env=None, timeout=120, stdin=None):
    e = dict(os.environ)
    if env:
        e.update(env)
    try:
        p = subprocess.run(cmd, cwd=cwd, env=e, shell=isinstance(cmd, str), capture_output=True,
                           timeout=timeout, input=stdin)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return 124, "", "timeout"


def parse_prog_out(text):
    res = {}
    for line in text.splitlines():
        if line.startswith("OUT "):
            parts = line.split()
            res[parts[1]] = parts[2:]
    return res


def to_num(s, base):
    if base in FLOATS:
        if s in ("nan", "-nan"):
            return float("nan")
        return float.fromhex(s) if "0x" in s or s in ("inf", "-inf") else float(s)
    return int(s)


def same(a, b, base, cls, tol):
    if base not in FLOATS:
        return a == b
    if a != a or b != b:
        return (a != a) and (b != b)
    if cls == "exact":
        return a == b
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


SAN_RE = re.compile(r"(runtime error:|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer)")


class Runner:
    def __init__(self, args):
        self.a = args
        b = args.build
        self.path = ":".join("%s/cmd/%s" % (b, t) for t in ("brpp", "brparse", "brcheck", "brgen", "brrun"))
        self.env = {"PATH": self.path + ":" + os.environ["PATH"],
                    "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=0",
                    "UBSAN_OPTIONS": "print_stacktrace=1"}
        if args.cache:
            self.env["BRT_CACHE_DIR"] = args.cache
        self.brrun = args.brrun or "%s/cmd/brrun/brrun" % b
        self.lib = args.lib or "%s/lib/brt/.libs/libbrt.a" % b
        self.findings = 0

    def note(self, d, prog, kind, text):
        self.findings += 1
        fd = os.path.join(self.a.out, "seed%d" % prog.seed)
        os.makedirs(fd, exist_ok=True)
        for f in os.listdir(d):
            if f.endswith((".br", ".npy", ".c", ".txt")):
                shutil.copy(os.path.join(d, f), fd)
        with open(os.path.join(fd, "NOTES"), "a") as f:
            f.write("== %s\n%s\n" % (kind, text))
        print("  FINDING seed %d: %s: %s" % (prog.seed, kind, text.splitlines()[0] if text else ""), flush=True)

    def run_chain(self, d, prog, tst, res):
        """the interpreter's run of a host chain: a brrun per kernel call,
        the streams' data kept here (views cut out and put back)"""
        k, t, dims = tst["kernel"], tst["t"], tst["dims"]
        data = {}
        for j, h in enumerate(tst["handles"]):
            data[h] = list(prog.files["%s_%d.init" % (k, j)][2])
        nc = t.n
        for si, st in enumerate(tst["chain"]):
            if st[0] == "swap":
                data[st[1]], data[st[2]] = data[st[2]], data[st[1]]
            elif st[0] == "assign":
                (a, alo), (b, blo), bx = st[1:]
                src = slice_box(data[b], dims, blo, bx, nc) if blo else list(data[b])
                data[a] = embed(src, (dims, data[a], alo, bx, nc)) if alo else src
            else:
                kn, ins, (c, olo), bx = st[1:]
                args = []
                for pn, (h, lo) in zip(("x", "y"), ins):
                    fn = "%s_st%d_%s.npy" % (k, si, pn)
                    if lo is None:
                        write_npy(os.path.join(d, fn), t, dims, data[h])
                    else:
                        write_npy(os.path.join(d, fn), t, bx, slice_box(data[h], dims, lo, bx, nc))
                    args.append("%s=@%s" % (pn, fn))
                ofn = "%s_st%d_o.out.npy" % (k, si)
                cmd = "%s --backend cpu p.br %s %s o=@%s --shape o=%s" % (
                    self.brrun, kn, " ".join(args), ofn, shape_arg(bx))
                rc, o, e = sh(cmd, d, self.env)
                with open(os.path.join(d, "interp_%s_st%d.txt" % (k, si)), "w") as f:
                    f.write(cmd + "\n" + o + "\n--- stderr\n" + e)
                if rc != 0 or SAN_RE.search(e) or not os.path.exists(os.path.join(d, ofn)):
                    self.note(d, prog, "interp-fail", "%s\nrc=%d\n%s" % (cmd, rc, e[-2000:]))
                    return
                vals = read_npy(os.path.join(d, ofn))
                data[c] = embed(vals, (dims, data[c], olo, bx, nc)) if olo else vals
        for j, h in enumerate(tst["handles"]):
            res["%s.s%d" % (k, j)] = data[h]

    def run(self, prog):
        d = os.path.join(self.a.work, "s%d" % prog.seed)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        src = prog.text()
        with open(os.path.join(d, "p.br"), "w") as f:
            f.write(src)
        for fn, (t, dims, vals) in prog.files.items():
            if t == "raw":
                with open(os.path.join(d, fn), "wb") as f:
                    f.write(dims)
                continue
            if t == "chaininit":
                continue
            write_npy(os.path.join(d, fn), t, dims, vals)
        env = self.env
        rc, o, e = sh("brpp p.br | brparse | brcheck -o p.ast", d, env)
        if rc != 0:
            self.note(d, prog, "brcheck-reject", e)
            return "reject"
        rc, o, e = sh("brgen -o p p.ast", d, env)
        if rc != 0 or SAN_RE.search(e):
            self.note(d, prog, "brgen-fail", e)
            return "fail"
        cc = "cc -std=c99 -O2 -w -I%s %s p.c -o p %s -lOpenCL -pthread -lm" % (
            self.a.include, self.a.cflags, self.lib)
        rc, o, e = sh(cc, d, env, timeout=300)
        if rc != 0:
            self.note(d, prog, "cc-fail", e[-3000:])
            return "fail"
        results = {}
        for way, be in (("cpu", "cpu"), ("opencl", "opencl")):
            rc, o, e = sh(["./p"], d, dict(env, BRT_RUNTIME=be), timeout=300)
            with open(os.path.join(d, "%s.txt" % way), "w") as f:
                f.write(o + "\n--- stderr\n" + e)
            if rc != 0 or SAN_RE.search(e):
                self.note(d, prog, "%s-run-fail" % way, "rc=%d\n%s" % (rc, e[-3000:]))
            results[way] = parse_prog_out(o)
        # interpreter, kernel by kernel
        results["interp"] = {}
        for tst in prog.tests:
            k = tst["kernel"]
            if "ways" in tst:
                continue
            if "chain" in tst:
                self.run_chain(d, prog, tst, results["interp"])
                continue
            args = " ".join(tst["args"])
            cmd = "%s --backend cpu p.br %s %s" % (self.brrun, k, args)
            rc, o, e = sh(cmd, d, env)
            with open(os.path.join(d, "interp_%s.txt" % k), "w") as f:
                f.write(cmd + "\n" + o + "\n--- stderr\n" + e)
            if rc != 0 or SAN_RE.search(e):
                self.note(d, prog, "interp-fail", "%s\nrc=%d\n%s" % (cmd, rc, e[-2000:]))
                continue
            for out in tst["outs"]:
                oname, t, cls, how = out[:4]
                key = "%s.%s" % (k, out[4] if len(out) > 4 else oname)
                if how == "sbin":
                    fn = os.path.join(d, "%s_%s.out.bin" % (k, out[5]))
                    if os.path.exists(fn):
                        results["interp"][key] = read_struct_field(fn, out[6], oname.split(".", 1)[1])
                elif how == "npy":
                    fn = os.path.join(d, "%s_%s.out.npy" % (k, out[4] if len(out) > 4 else oname))
                    if os.path.exists(fn):
                        vals = read_npy(fn)
                        emb = tst.get("embed", {}).get(oname)
                        results["interp"][key] = embed(vals, emb) if emb else vals
                else:
                    nums = o.replace(",", " ").split()
                    results["interp"][key] = nums
        # compare
        bad = []
        self.compared = getattr(self, "compared", 0)
        for tst in prog.tests:
            k = tst["kernel"]
            for out in tst["outs"]:
                oname, t, cls = out[:3]
                key = "%s.%s" % (k, out[4] if len(out) > 4 else oname)
                vals = {}
                for way in tst.get("ways", ("interp", "cpu", "opencl")):
                    v = results[way].get(key)
                    if v is None:
                        continue
                    vals[way] = [to_num(x, t.base) if isinstance(x, str) else x for x in v]
                ways = list(vals)
                if len(ways) < 2:
                    continue
                ref = ways[0]
                if len(ways) == len(tst.get("ways", "123")):
                    self.compared += 1
                else:
                    bad.append("%s: only %s gave a result" % (key, "/".join(ways)))
                for w in ways[1:]:
                    a, b = vals[ref], vals[w]
                    if len(a) != len(b):
                        bad.append("%s: %s has %d values, %s has %d" % (key, ref, len(a), w, len(b)))
                        continue
                    diffs = [j for j in range(len(a)) if not same(a[j], b[j], t.base, cls, self.a.tol)]
                    if diffs:
                        j = diffs[0]
                        bad.append("%s (%s %s): %s vs %s differ at %d of %d places; first [%d]: %r vs %r" % (
                            key, t.name, cls, ref, w, len(diffs), len(a), j, a[j], b[j]))
        if bad:
            self.note(d, prog, "mismatch", "\n".join(bad))
            return "mismatch"
        if not self.a.keep:
            shutil.rmtree(d, ignore_errors=True)
        return "ok"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="/tmp/bdiff", help="configured and built build folder")
    ap.add_argument("--include", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib", "brt"))
    ap.add_argument("--lib", help="libbrt.a (default BUILD/lib/brt/.libs/libbrt.a)")
    ap.add_argument("--brrun", help="brrun program (default BUILD/cmd/brrun/brrun)")
    ap.add_argument("--cflags", default="-fsanitize=address,undefined", help="extra cc flags for the program")
    ap.add_argument("--seed", type=int, default=1, help="first seed")
    ap.add_argument("-n", type=int, default=10, help="number of programs")
    ap.add_argument("-k", type=int, default=6, help="kernels per program")
    ap.add_argument("--tol", type=float, default=1e-4, help="relative tolerance of inexact floats")
    ap.add_argument("--no-inexact", action="store_true", help="exact float expressions only")
    ap.add_argument("--work", default="/tmp/difftest-work")
    ap.add_argument("--out", default="/tmp/difftest-findings")
    ap.add_argument("--cache", help="BRT_CACHE_DIR for the OpenCL program cache")
    ap.add_argument("--keep", action="store_true", help="keep the work folder of passing programs")
    ap.add_argument("--print", action="store_true", help="print the program of --seed and exit")
    add_features_option(ap)
    ap.add_argument("--avoid", default="", help="comma-separated known bugs to step around: domainsize1")
    a = ap.parse_args()
    AVOID.update(x for x in a.avoid.split(",") if x)
    feats = parse_features(ap, a.features)
    if a.print:
        sys.stdout.write(Program(a.seed, a.k, not a.no_inexact, feats).text())
        return 0
    os.makedirs(a.work, exist_ok=True)
    os.makedirs(a.out, exist_ok=True)
    rn = Runner(a)
    stats = {}
    nk = 0
    t0 = time.time()
    for s in range(a.seed, a.seed + a.n):
        prog = Program(s, a.k, not a.no_inexact, feats)
        nk += len(prog.tests)
        res = rn.run(prog)
        stats[res] = stats.get(res, 0) + 1
        print("seed %d: %s (%.0fs) [%s]" % (s, res, time.time() - t0, ",".join(prog.features)), flush=True)
    print("programs %d, kernels %d, outputs compared 3 ways %d, results %s, findings %d" % (
        a.n, nk, getattr(rn, "compared", 0), stats, rn.findings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
