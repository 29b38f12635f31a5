/* gen_kcode.c - kernel code for both targets: one printer of kernel
 * statements and expressions that writes OpenCL C (native vectors) or C99
 * for the CPU backend (brt.h's vector structs and generated helpers), so
 * the two backends compute the same thing by construction. Brook's
 * built-in functions are generated on both sides from one definition
 * (spec 5), never taken from a math library that defines them otherwise. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "brook/ast.h"
#include "brook/gen_int.h"
#include "brook/type.h"
#include "brt.h"

static const char comp[] = "xyzw";

void gen_c_chars(strbuf *b, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			sb_putc(b, '\\');
		if (c < ' ' || c == 127)
			sb_printf(b, "\\%03o", c);
		else
			sb_putc(b, (char)c);
		if (c == '?' && s[1] == '?')
			sb_putc(b, '\\');	/* no trigraph: ?\? */
	}
}

void gen_comment_chars(strbuf *b, const char *s)
{
	for (; *s; s++) {
		sb_putc(b, *s);
		if (*s == '*' && s[1] == '/')
			sb_putc(b, ' ');
	}
}

void gen_indent(strbuf *b, int depth)
{
	int i;
	for (i = 0; i < depth; i++)
		sb_putc(b, '\t');
}

/* ---- types ----------------------------------------------------------- */

/* The index type: on OpenCL BRG_L, int in the program variant libbrt
 * builds with -DBRG_I32 when every buffer of a launch has fewer than
 * 2^31 elements (brt.h, "32-bit variant"), else long. On the CPU int64_t,
 * or int32_t in the 32-bit instance of kernel code (G->i32; brt.h,
 * brt_cpu_call.index32). */
static const char *long_name(const gen_ctx *g, gen_target t)
{
	if (t == GEN_CL)
		return "BRG_L";
	return g->i32 ? "int32_t" : "int64_t";
}

/* The suffix of the index helpers (brg_gidx32, ...) and the view type of
 * the CPU's 32-bit instance (gen_cpu.c, gen_cpu_prelude). */
static const char *i32_sfx(const gen_ctx *g, gen_target t)
{
	return t == GEN_CPU && g->i32 ? "32" : "";
}

static const char *view_name(const gen_ctx *g, gen_target t)
{
	return t == GEN_CPU && g->i32 ? "brg_view32" : "brt_view";
}

/* " * V.pitch[K]" of a gather coordinate; none for x: every view's
 * pitch[0] is 1 (brt.h, brt_view; the CPU's 32-bit instance also runs
 * only when every gather's is, gen_entry.c): a multiply less on a
 * bsearch's chain of dependent reads, and the compiler sees a gather's
 * x as a plain offset (issue 9). */
static void pitch_term(const gen_ctx *g, gen_target t, strbuf *b,
	const char *v, int k)
{
	(void)g;
	(void)t;
	if (k == 0)
		return;
	sb_printf(b, " * %s%spitch[%d]", v, ty_streq(v, "v") ? "->" : "_v.",
		k);
}

/* The struct or union a type names, printed as "struct tag". */
static void type_base(gen_ctx *g, gen_target t, strbuf *b, const json_t *ty)
{
	const char *k;
	const json_t *r = gen_resolve(g, ty);

	/* a typedef of a struct prints as its name (it may have no tag) */
	if (ty_streq(ty_kind(ty), "typedef") && !gen_scalar(r)) {
		sb_puts(b, ast_str(ty, "name"));
		return;
	}
	ty = r;
	k = ty_kind(ty);
	if (gen_scalar(ty)) {
		if (ty_streq(k, "double") || strncmp(k, "double", 6) == 0)
			g->uses_double = 1;
		sb_puts(b, gen_arith_name(t, gen_scalar(ty), ty_ncomp(ty)));
	} else if (ty_streq(k, "struct") || ty_streq(k, "union")) {
		sb_printf(b, "%s %s", k, ast_str(ty, "tag"));
	} else if (ty_streq(k, "void")) {
		sb_puts(b, "void");
	} else if (ty_streq(k, "typedef")) {
		sb_puts(b, ast_str(ty, "name"));
	} else {
		sb_puts(b, "int");
	}
}

void gen_type(gen_ctx *g, gen_target t, strbuf *b, const json_t *ty,
	const char *name)
{
	const json_t *base = ty;
	strbuf dims = {0};

	if (ty_streq(ty_kind(gen_resolve(g, ty)), "array"))
		base = gen_resolve(g, ty);
	while (ty_streq(ty_kind(base), "array")) {
		const json_t *sz = ast_get(base, "size");
		if (json_is_object(sz))
			sb_printf(&dims, "[%lld]", ast_int(sz, "value"));
		else
			sb_puts(&dims, "[]");
		base = ast_get(base, "of");
		if (ty_streq(ty_kind(gen_resolve(g, base)), "array"))
			base = gen_resolve(g, base);
	}
	type_base(g, t, b, base);
	if (name)
		sb_printf(b, " %s", name);
	if (dims.s)
		sb_puts(b, dims.s);
	sb_free(&dims);
}

static const json_t *ety(const json_t *e)
{
	return ast_get(e, "ty");
}

static const char *tname(gen_target t, const json_t *ty)
{
	const char *s = gen_scalar(ty);
	return s ? gen_arith_name(t, s, ty_ncomp(ty)) : "int";
}

/* A type object for scalar S with N components (static storage). */
static json_t *mkty(const char *s, int n)
{
	return json_pack("{s:s}", "t", n > 1 ? ty_vector_name(s, n) : s);
}

/* The type both operands of a binary operator are brought to, as brcheck
 * brings them (spec 6.3.3, ty_promoted). */
static json_t *common_type(const json_t *a, const json_t *b)
{
	if (!gen_scalar(a) || !gen_scalar(b))
		return json_incref((json_t *)(gen_scalar(a) ? a : b));
	return json_incref((json_t *)ty_promoted(a, b));
}

/* ---- helpers: defined once per target --------------------------------- */

/* Whether helper NAME is new on target T; it is then marked, at the
 * offset its text will have in G's helpers. A helper asks for the
 * helpers it calls before this, so that its text starts there (gen.c,
 * piece_sound). */
int gen_need(gen_ctx *g, gen_target t, const char *name)
{
	if (json_object_get(g->done[t], name))
		return 0;
	json_object_set_new(g->done[t], name,
		json_integer((json_int_t)g->help[t].len));
	return 1;
}

const char *gen_kept(gen_ctx *g, const char *name)
{
	void *it = json_object_iter_at(g->kept, name);

	if (!it) {
		json_object_set_new(g->kept, name, json_true());
		it = json_object_iter_at(g->kept, name);
	}
	return it ? json_object_iter_key(it) : "brg_no_memory";
}

static const char *fnq(gen_target t)
{
	return t == GEN_CPU ? "BRG_FN " : "";
}

int gen_nolv(gen_ctx *g, gen_target t, const json_t *fn)
{
	static const char *const loops[] = { "for", "while", "do", NULL };
	gen_fninfo *fi;

	if (t != GEN_CPU || gen_is_group(fn) ||
			ty_streq(gen_kclass(fn), "reduce"))
		return 0;
	fi = gen_fn_info(g, fn);
	if (fi->nolv < 0)
		fi->nolv = gen_uses_any(ast_get(fn, "body"), loops);
	return fi->nolv;
}

/* The suffix of C's float math functions: sqrtf on the CPU; OpenCL's are
 * overloaded. */
static const char *msuf(gen_target t, const char *s)
{
	return t == GEN_CPU && ty_streq(s, "float") ? "f" : "";
}

static int is_unsigned(const char *s)
{
	return s[0] == 'u';
}

/* spec 5: the scalar definition of built-in NAME for scalar type S. */
static const char *scalar_builtin(gen_ctx *g, gen_target t, const char *name,
	const char *s)
{
	char fname[96];
	const char *T = gen_arith_name(t, s, 1), *m = msuf(t, s);
	strbuf *h = &g->help[t];
	int flt = ty_scalar_is_float(s);

	snprintf(fname, sizeof fname, "brg_f_%s_%s", name, s);
	if (!gen_need(g, t, fname))
		return gen_kept(g, fname);
	if (ty_streq(s, "double"))
		g->uses_double = 1;
	if (ty_streq(name, "isnan") || ty_streq(name, "isinf") ||
			ty_streq(name, "isfinite")) {
		sb_printf(h, "%sint %s(%s a) { return %s(a) ? 1 : 0; }\n",
			fnq(t), fname, T, name);
		return gen_kept(g, fname);
	}
#define ONE(body) sb_printf(h, "%s%s %s(%s a) { return %s; }\n", fnq(t), T, \
	fname, T, body)
#define TWO(body) sb_printf(h, "%s%s %s(%s a, %s b) { return %s; }\n", \
	fnq(t), T, fname, T, T, body)
#define THREE(body) sb_printf(h, \
	"%s%s %s(%s a, %s b, %s c) { return %s; }\n", fnq(t), T, fname, T, \
	T, T, body)
	char body[256];
	if (ty_streq(name, "abs")) {
		if (flt)
			snprintf(body, sizeof body, "fabs%s(a)", m);
		else if (is_unsigned(s))
			snprintf(body, sizeof body, "a");
		else
			snprintf(body, sizeof body, "(%s)(a < 0 ? -a : a)", T);
		ONE(body);
	} else if (ty_streq(name, "sign")) {
		if (is_unsigned(s))
			snprintf(body, sizeof body, "(%s)(a > 0)", T);
		else
			snprintf(body, sizeof body, "(%s)((a > 0) - (a < 0))",
				T);
		ONE(body);
	} else if (ty_streq(name, "frac")) {
		snprintf(body, sizeof body, "a - floor%s(a)", m);
		ONE(body);
	} else if (ty_streq(name, "round")) {
		/* spec 5: add 0.5 and truncate (toward minus infinity) */
		snprintf(body, sizeof body, "floor%s(a + (%s)0.5)", m, T);
		ONE(body);
	} else if (ty_streq(name, "rsqrt") && t == GEN_CL && g->o &&
			g->o->fast_math) {
		/* --fast-math: OpenCL's rsqrt (2 ulp, one instruction on
		 * GPUs), not spec 5's 1 / sqrt(x) */
		ONE("rsqrt(a)");
	} else if (ty_streq(name, "rsqrt")) {
		snprintf(body, sizeof body, "(%s)1 / sqrt%s(a)", T, m);
		ONE(body);
	} else if (ty_streq(name, "normalize")) {
		snprintf(body, sizeof body, "a / fabs%s(a)", m);
		ONE(body);
	} else if (t == GEN_CL && !flt && ty_scalar_bits(s) < 32 &&
			(ty_streq(name, "min") || ty_streq(name, "max") ||
			ty_streq(name, "clamp"))) {
		/* char, uchar, short, ushort through ints: NVIDIA's OpenCL
		   compiler miscompiled "b > a ? b : a" of chars inlined
		   into a char2 helper (H200, bench/probe/charsel.c); the
		   same through ints came out right */
		int three = ty_streq(name, "clamp");
		sb_printf(h, "%s %s(%s a, %s b", T, fname, T, T);
		if (three)
			sb_printf(h, ", %s c", T);
		sb_printf(h, ") { const int x = a, y = b%s; return (%s)(%s); }\n",
			three ? ", z = c" : "", T,
			three ? "x < y ? y : (x > z ? z : x)" :
			ty_streq(name, "min") ? "y < x ? y : x" :
			"y > x ? y : x");
	} else if (ty_streq(name, "min")) {
		TWO("b < a ? b : a");
	} else if (ty_streq(name, "max")) {
		TWO("b > a ? b : a");
	} else if (ty_streq(name, "clamp")) {
		THREE("a < b ? b : (a > c ? c : a)");
	} else if (ty_streq(name, "lerp")) {
		/* spec 5: (1 - a)x + ay */
		snprintf(body, sizeof body, "((%s)1 - c) * a + c * b", T);
		THREE(body);
	} else if (ty_streq(name, "fmod") || ty_streq(name, "pow") ||
			ty_streq(name, "atan2")) {
		snprintf(body, sizeof body, "%s%s(a, b)", name, m);
		TWO(body);
	} else if (ty_streq(name, "dot")) {
		TWO("a * b");
	} else if (ty_streq(name, "length")) {
		snprintf(body, sizeof body, "fabs%s(a)", m);
		ONE(body);
	} else if (ty_streq(name, "distance")) {
		snprintf(body, sizeof body, "fabs%s(a - b)", m);
		TWO(body);
	} else {
		/* acos asin atan ceil cos exp exp2 floor log log2 sin sqrt
		 * tan: C99 and OpenCL agree with spec 5 */
		snprintf(body, sizeof body, "%s%s(a)", name, m);
		ONE(body);
	}
#undef ONE
#undef TWO
#undef THREE
	return gen_kept(g, fname);
}

/* Vector form of a built-in: component-wise over the scalar definition,
 * or the vector rule (dot, length, distance, normalize, cross). */
static const char *builtin_helper(gen_ctx *g, gen_target t, const char *name,
	const char *s, int n, int nargs)
{
	char fname[96];
	char sc[96];
	const char *V, *S;
	strbuf *h = &g->help[t];
	int i, k;

	if (n <= 1)
		return scalar_builtin(g, t, name, s);
	V = ty_vector_name(s, n);
	S = gen_arith_name(t, s, 1);
	if (ty_streq(name, "length") || ty_streq(name, "distance") ||
			ty_streq(name, "normalize"))
		builtin_helper(g, t, "dot", s, n, 2);
	if (!ty_streq(name, "dot") && !ty_streq(name, "length") &&
			!ty_streq(name, "distance") &&
			!ty_streq(name, "normalize") &&
			!ty_streq(name, "cross"))
		snprintf(sc, sizeof sc, "%s", scalar_builtin(g, t, name, s));
	snprintf(fname, sizeof fname, "brg_f_%s_%s", name, V);
	if (!gen_need(g, t, fname))
		return gen_kept(g, fname);
	if (ty_streq(name, "dot")) {
		sb_printf(h, "%s%s %s(%s a, %s b) { return ", fnq(t), S, fname,
			V, V);
		for (k = 0; k < n; k++)
			sb_printf(h, "%sa.%c * b.%c", k ? " + " : "", comp[k],
				comp[k]);
		sb_puts(h, "; }\n");
	} else if (ty_streq(name, "length")) {
		sb_printf(h, "%s%s %s(%s a) { return sqrt%s(brg_f_dot_%s(a, a));"
			" }\n", fnq(t), S, fname, V, msuf(t, s), V);
	} else if (ty_streq(name, "distance")) {
		sb_printf(h, "%s%s %s(%s a, %s b) { %s d;", fnq(t), S, fname,
			V, V, V);
		for (k = 0; k < n; k++)
			sb_printf(h, " d.%c = a.%c - b.%c;", comp[k], comp[k],
				comp[k]);
		sb_printf(h, " return sqrt%s(brg_f_dot_%s(d, d)); }\n",
			msuf(t, s), V);
	} else if (ty_streq(name, "normalize")) {
		sb_printf(h, "%s%s %s(%s a) { %s r; %s l = sqrt%s(brg_f_dot_%s"
			"(a, a));", fnq(t), V, fname, V, V, S, msuf(t, s), V);
		for (k = 0; k < n; k++)
			sb_printf(h, " r.%c = a.%c / l;", comp[k], comp[k]);
		sb_puts(h, " return r; }\n");
	} else if (ty_streq(name, "cross")) {
		/* a float4's w is 0, as OpenCL C's cross gives it */
		sb_printf(h, "%s%s %s(%s a, %s b) { %s r;"
			" r.x = a.y * b.z - a.z * b.y;"
			" r.y = a.z * b.x - a.x * b.z;"
			" r.z = a.x * b.y - a.y * b.x;%s return r; }\n",
			fnq(t), V, fname, V, V, V, n == 4 ? " r.w = 0;" : "");
	} else {
		int pred = ty_streq(name, "isnan") ||
			ty_streq(name, "isinf") ||
			ty_streq(name, "isfinite");
		const char *R = pred ? ty_vector_name("int", n) : V;
		sb_printf(h, "%s%s %s(", fnq(t), R, fname);
		for (i = 0; i < nargs; i++)
			sb_printf(h, "%s%s %c", i ? ", " : "", V, 'a' + i);
		sb_printf(h, ") { %s r;", R);
		for (k = 0; k < n; k++) {
			sb_printf(h, " r.%c = %s(", comp[k], sc);
			for (i = 0; i < nargs; i++)
				sb_printf(h, "%s%c.%c", i ? ", " : "", 'a' + i,
					comp[k]);
			sb_puts(h, ");");
		}
		sb_puts(h, " return r; }\n");
	}
	return gen_kept(g, fname);
}

/* The mask of a shift count on the CPU, as OpenCL C and brrun's
 * interpreter take it (C leaves a count of the width or more undefined):
 * the bits of scalar S (promoted to int as in C when SCALAR) less 1; 0
 * for a float. */
static int shift_mask(const char *s, int scalar)
{
	int bits = s && !ty_scalar_is_float(s) ? ty_scalar_bits(s) : 0;

	if (scalar && bits && bits < 32)
		bits = 32;
	return bits ? bits - 1 : 0;
}

static int is_shift(const char *op)
{
	return ty_streq(op, "<<") || ty_streq(op, ">>");
}

/* Component-wise operators of target T: on the CPU every operator on
 * brt.h's vector structs, in OpenCL C integer vector + - * and negation
 * (cl_ivec_op). KIND: 'b' binary (result V), 'r' relational (result R, 1
 * or 0), 'u' unary. */
static const char *vec_op(gen_ctx *g, gen_target t, const char *opname,
	const char *op, int kind, const json_t *vty, const json_t *rty)
{
	char fname[96];
	strbuf *h = &g->help[t];
	const char *V = tname(t, vty), *R = tname(t, rty);
	int n = ty_ncomp(vty), k;

	int diff = kind == 'r' || kind == 'n';
	snprintf(fname, sizeof fname, "brg_%s_%s%s%s", opname, V,
		diff ? "_" : "", diff ? R : "");
	if (!gen_need(g, t, fname))
		return gen_kept(g, fname);
	if (kind == 'u' || kind == 'n')
		sb_printf(h, "%s%s %s(%s a) { %s r;", fnq(t), kind == 'n' ?
			R : V, fname, V, kind == 'n' ? R : V);
	else
		sb_printf(h, "%s%s %s(%s a, %s b) { %s r;", fnq(t),
			kind == 'r' ? R : V, fname, V, V, kind == 'r' ? R : V);
	int mask = kind == 'b' && is_shift(op) ? shift_mask(gen_scalar(vty),
		0) : 0;
	for (k = 0; k < n; k++) {
		if (kind == 'u' || kind == 'n')
			sb_printf(h, " r.%c = %sa.%c;", comp[k], op, comp[k]);
		else if (mask)	/* a vector's count: its component's width */
			sb_printf(h, " r.%c = a.%c %s (b.%c & %d);", comp[k],
				comp[k], op, comp[k], mask);
		else
			sb_printf(h, " r.%c = a.%c %s b.%c;", comp[k],
				comp[k], op, comp[k]);
	}
	sb_puts(h, " return r; }\n");
	return gen_kept(g, fname);
}

/* CPU: conversion of a vector or scalar FROM to vector TO. */
static const char *cpu_cvt(gen_ctx *g, const json_t *from, const json_t *to)
{
	char fname[96];
	strbuf *h = &g->help[GEN_CPU];
	const char *F = tname(GEN_CPU, from), *T = tname(GEN_CPU, to);
	const char *S = gen_arith_name(GEN_CPU, gen_scalar(to), 1);
	int nf = ty_ncomp(from), nt = ty_ncomp(to), k;

	if (nf <= 1)
		snprintf(fname, sizeof fname, "brg_splat_%s_%s",
			gen_scalar(from), T);
	else
		snprintf(fname, sizeof fname, "brg_cvt_%s_%s", F, T);
	if (!gen_need(g, GEN_CPU, fname))
		return gen_kept(g, fname);
	sb_printf(h, "BRG_FN %s %s(%s a) { %s r;", T, fname, F, T);
	for (k = 0; k < nt; k++) {
		if (nf <= 1)
			sb_printf(h, " r.%c = (%s)a;", comp[k], S);
		else if (k < nf)
			sb_printf(h, " r.%c = (%s)a.%c;", comp[k], S, comp[k]);
		else
			sb_printf(h, " r.%c = 0;", comp[k]);
	}
	sb_puts(h, " return r; }\n");
	return gen_kept(g, fname);
}

const char *gen_cpu_cvt(gen_ctx *g, const json_t *from, const json_t *to)
{
	return cpu_cvt(g, from, to);
}

static void swz_letters(const json_t *sw, char *out)
{
	size_t i;
	json_t *v;

	json_array_foreach(sw, i, v)
		out[i] = comp[json_integer_value(v) & 3];
	out[json_array_size(sw)] = 0;
}

/* CPU: reading swizzle .LETTERS of vector V; writing it through a
 * pointer (returns the value written). */
static const char *cpu_swz(gen_ctx *g, const json_t *vty, const char *letters,
	int write)
{
	char fname[96];
	strbuf *h = &g->help[GEN_CPU];
	const char *V = tname(GEN_CPU, vty);
	int n = (int)strlen(letters), k;
	const char *R = gen_arith_name(GEN_CPU, gen_scalar(vty), n);

	snprintf(fname, sizeof fname, "brg_%s_%s_%s", write ? "wswz" : "swz",
		V, letters);
	if (!gen_need(g, GEN_CPU, fname))
		return gen_kept(g, fname);
	if (write) {
		sb_printf(h, "BRG_FN %s %s(%s *p, %s v) {", R, fname, V,
			R);
		for (k = 0; k < n; k++)
			sb_printf(h, " p->%c = v.%c;", letters[k], comp[k]);
		sb_puts(h, " return v; }\n");
	} else {
		sb_printf(h, "BRG_FN %s %s(%s a) { %s r;", R, fname, V,
			R);
		for (k = 0; k < n; k++)
			sb_printf(h, " r.%c = a.%c;", comp[k], letters[k]);
		sb_puts(h, " return r; }\n");
	}
	return gen_kept(g, fname);
}

/* ---- conversions ------------------------------------------------------ */

static int same_arith(const json_t *a, const json_t *b)
{
	const char *sa = gen_scalar(a), *sb = gen_scalar(b);
	return sa && sb && strcmp(sa, sb) == 0 && ty_ncomp(a) == ty_ncomp(b);
}

void gen_kconv(gen_fn *f, strbuf *b, const json_t *e, const json_t *to)
{
	const json_t *from = ety(e);
	int nf = ty_ncomp(from), nt = ty_ncomp(to);

	/* bool is an int in the generated code; a conversion to it is a
	   test against 0 (C99's _Bool: 0.5 is true) */
	if (nf && nt == 1 && ty_streq(ty_scalar(to), "bool") &&
			!(nf == 1 && ty_streq(ty_scalar(from), "bool"))) {
		sb_puts(b, "((");
		gen_kexpr(f, b, e);
		sb_puts(b, nf > 1 ? ").x != 0)" : ") != 0)");
		return;
	}
	if (!nf || !nt || same_arith(from, to)) {
		gen_kexpr(f, b, e);
		return;
	}
	if (nt == 1) {
		/* a vector where a scalar is wanted: its x component */
		sb_printf(b, "(%s)(", tname(f->t, to));
		gen_kexpr(f, b, e);
		sb_puts(b, nf > 1 ? ").x" : ")");
		return;
	}
	if (f->t == GEN_CPU) {
		sb_printf(b, "%s(", cpu_cvt(f->g, from, to));
		gen_kexpr(f, b, e);
		sb_putc(b, ')');
		return;
	}
	/* OpenCL */
	if (nf == 1) {
		sb_printf(b, "(%s)((%s)(", tname(f->t, to),
			gen_arith_name(GEN_CL, gen_scalar(to), 1));
		gen_kexpr(f, b, e);
		sb_puts(b, "))");
	} else if (nf == nt) {
		sb_printf(b, "convert_%s(", tname(f->t, to));
		gen_kexpr(f, b, e);
		sb_putc(b, ')');
	} else if (nf < nt) {
		int k;
		sb_printf(b, "(%s)(convert_%s(", tname(f->t, to),
			gen_arith_name(GEN_CL, gen_scalar(to), nf));
		gen_kexpr(f, b, e);
		sb_putc(b, ')');
		for (k = nf; k < nt; k++)
			sb_puts(b, ", 0");
		sb_putc(b, ')');
	} else {
		sb_printf(b, "convert_%s((", tname(f->t, to));
		gen_kexpr(f, b, e);
		sb_printf(b, ").%.*s)", nt, nt == 3 ? "xyz" : "xyzw");
	}
}

/* ---- expressions ------------------------------------------------------ */

static const json_t *strip(const json_t *e)
{
	while (ast_is(e, "paren"))
		e = ast_get(e, "e");
	return e;
}

static int is_rel(const char *op)
{
	return ty_streq(op, "<") || ty_streq(op, ">") ||
		ty_streq(op, "<=") || ty_streq(op, ">=") ||
		ty_streq(op, "==") || ty_streq(op, "!=") ||
		ty_streq(op, "&&") || ty_streq(op, "||");
}

static const char *opname(const char *op)
{
	static const char *const tab[][2] = {
		{"+", "add"}, {"-", "sub"}, {"*", "mul"}, {"/", "div"},
		{"%", "mod"}, {"&", "and"}, {"|", "or"}, {"^", "xor"},
		{"<<", "shl"}, {">>", "shr"}, {"<", "lt"}, {">", "gt"},
		{"<=", "le"}, {">=", "ge"}, {"==", "eq"}, {"!=", "ne"},
		{"&&", "land"}, {"||", "lor"},
	};
	size_t i;
	for (i = 0; i < sizeof tab / sizeof tab[0]; i++)
		if (strcmp(tab[i][0], op) == 0)
			return tab[i][1];
	return "op";
}

/* Whether OP in scalar type S is an integer division or remainder, which
 * idiv_helper computes. */
static int idiv_op(const char *op, const char *s)
{
	return s && (ty_streq(op, "/") || ty_streq(op, "%")) &&
		!ty_scalar_is_float(s);
}

/* Integer division and remainder as brrun's interpreter defines them,
 * where C traps (a CPU's idiv) and OpenCL leaves the value open: x / 0 is
 * 0, x % 0 is x, INT_MIN / -1 wraps to INT_MIN and INT_MIN % -1 is 0.
 * brg_div_S / brg_mod_S for the promoted scalar S (int, uint, long,
 * ulong); NULL where idiv_op says no. */
static const char *idiv_helper(gen_fn *f, const char *op, const char *s)
{
	char fname[64];
	strbuf *h = &f->g->help[f->t];
	int mod = ty_streq(op, "%"), sgn;
	const char *T;

	if (!idiv_op(op, s))
		return NULL;
	if (!ty_streq(s, "uint") && !ty_streq(s, "long") &&
			!ty_streq(s, "ulong"))
		s = "int";	/* C promotes the smaller ones */
	sgn = s[0] != 'u';
	T = gen_arith_name(f->t, s, 1);
	snprintf(fname, sizeof fname, "brg_%s_%s", mod ? "mod" : "div", s);
	if (!gen_need(f->g, f->t, fname))
		return gen_kept(f->g, fname);
	if (mod)
		sb_printf(h, "%s%s %s(%s a, %s b) { return b == 0 ? a : %s"
			"a %% b; }\n", fnq(f->t), T, fname, T, T, sgn ?
			"b == -1 ? 0 : " : "");
	else if (sgn)
		sb_printf(h, "%s%s %s(%s a, %s b) { return b == 0 ? 0 : b == -1 "
			"? (%s)(0 - (%s)a) : a / b; }\n", fnq(f->t), T, fname, T,
			T, T, gen_arith_name(f->t, s[0] == 'l' ? "ulong" :
			"uint", 1));
	else
		sb_printf(h, "%s%s %s(%s a, %s b) { return b == 0 ? 0 : a / b; "
			"}\n", fnq(f->t), T, fname, T, T);
	return gen_kept(f->g, fname);
}

/* brg_v<div>_T(T a, T b): helper DH on each component of vector type
 * VTY. */
static const char *vdiv_helper(gen_fn *f, const json_t *vty, const char *dh)
{
	char fname[96];
	strbuf *h = &f->g->help[f->t];
	const char *V = tname(f->t, vty);
	const char *S = gen_arith_name(f->t, gen_scalar(vty), 1);
	int n = ty_ncomp(vty), k;

	snprintf(fname, sizeof fname, "brg_v%s_%s", dh + 4, V);
	if (!gen_need(f->g, f->t, fname))
		return gen_kept(f->g, fname);
	sb_printf(h, "%s%s %s(%s a, %s b) { %s r;", fnq(f->t), V, fname, V, V,
		V);
	for (k = 0; k < n; k++)
		sb_printf(h, " r.%c = (%s)%s(a.%c, b.%c);", comp[k], S, dh,
			comp[k], comp[k]);
	sb_puts(h, " return r; }\n");
	return gen_kept(f->g, fname);
}

/* OpenCL C: whether OP ("+", "-" or "*", binary, or "-" negating) on
 * vector type VTY is written one component at a time (vec_op). LLVM 15's
 * Reassociate (PoCL 3.1, Debian 12) takes a negation that InstCombine
 * narrowed to the lanes a swizzle reads, "sub <poison, 0, 0, poison>,
 * a", for the negation of all of a: c - a - a.zyzy gave the lanes the
 * swizzle drops wrong (fuzz/FINDINGS.md, F23). Floats are not
 * reassociated without fast math, and a vector that no integer add,
 * subtract, multiply or negate reaches is never negated there. */
static int cl_ivec_op(gen_fn *f, const char *op, const json_t *vty)
{
	const char *s = gen_scalar(vty);

	return f->t == GEN_CL && ty_ncomp(vty) > 1 && s &&
		!ty_scalar_is_float(s) && (ty_streq(op, "+") ||
		ty_streq(op, "-") || ty_streq(op, "*"));
}

/* An integer literal above 0: a divisor that needs no helper. */
static int plain_divisor(const json_t *r)
{
	r = strip(r);
	return ast_is(r, "int") && json_is_integer(ast_get(r, "value")) &&
		json_integer_value(ast_get(r, "value")) > 0;
}

/* X, an operand of a binary operator computed in scalar type C: as
 * written, for C's own conversions, but a vector (brcheck -a: char2 +
 * uchar is a uchar) by its x component in C. */
static void scalar_operand(gen_fn *f, strbuf *b, const json_t *x,
	const json_t *c)
{
	if (ty_ncomp(ety(x)) > 1)
		gen_kconv(f, b, x, c);
	else
		gen_kexpr(f, b, x);
}

/* A binary operation OP on L and R computed in type C, result type RTY. */
static void binop(gen_fn *f, strbuf *b, const char *op, const json_t *l,
	const json_t *r, const json_t *rty)
{
	/* computed in the checker's type of the result (spec 6.3.3, with -a
	 * a narrower result drops components); comparisons in the common
	 * type of their operands */
	json_t *own = !is_rel(op) && gen_scalar(rty) ? NULL :
		common_type(ety(l), ety(r));
	const json_t *c = own ? own : rty;
	int vec = ty_ncomp(c) > 1;

	const char *dh = plain_divisor(r) ? NULL : idiv_helper(f, op,
		gen_scalar(c));
	int ivec = !dh && !is_rel(op) && cl_ivec_op(f, op, c);
	int sm = f->t == GEN_CPU && is_shift(op) ?
		shift_mask(gen_scalar(ety(l)), 1) : 0;
	if (!vec && dh) {
		sb_printf(b, "%s(", dh);
		scalar_operand(f, b, l, c);
		sb_puts(b, ", ");
		scalar_operand(f, b, r, c);
		sb_putc(b, ')');
	} else if (!vec && sm) {
		scalar_operand(f, b, l, c);
		sb_printf(b, " %s ((", op);
		scalar_operand(f, b, r, c);
		sb_printf(b, ") & %d)", sm);
	} else if (!vec) {
		scalar_operand(f, b, l, c);
		sb_printf(b, " %s ", op);
		scalar_operand(f, b, r, c);
	} else if (dh || ivec) {
		/* a vector: component by component */
		sb_printf(b, "%s(", dh ? vdiv_helper(f, c, dh) : vec_op(f->g,
			f->t, opname(op), op, 'b', c, c));
		gen_kconv(f, b, l, c);
		sb_puts(b, ", ");
		gen_kconv(f, b, r, c);
		sb_putc(b, ')');
	} else if (is_rel(op) && ty_ncomp(rty) <= 1) {
		/* a vector comparison where a scalar is wanted: the x
		 * components (spec 2, relational operators) */
		sb_puts(b, "((");
		gen_kconv(f, b, l, c);
		sb_printf(b, ").x %s (", op);
		gen_kconv(f, b, r, c);
		sb_puts(b, ").x)");
	} else if (f->t == GEN_CL) {
		if (is_rel(op)) {
			/* OpenCL gives -1 for true; Brook gives 1 */
			sb_printf(b, "convert_%s(-(", tname(f->t, rty));
			gen_kconv(f, b, l, c);
			sb_printf(b, " %s ", op);
			gen_kconv(f, b, r, c);
			sb_puts(b, "))");
		} else {
			gen_kconv(f, b, l, c);
			sb_printf(b, " %s ", op);
			gen_kconv(f, b, r, c);
		}
	} else {
		const char *op2 = op;
		if (ty_streq(op, "&&"))
			op2 = "&&";
		sb_printf(b, "%s(", vec_op(f->g, GEN_CPU, opname(op), op2,
			is_rel(op) ? 'r' : 'b', c, is_rel(op) ? rty : c));
		gen_kconv(f, b, l, c);
		sb_puts(b, ", ");
		gen_kconv(f, b, r, c);
		sb_putc(b, ')');
	}
	json_decref(own);
}

/* The parameter a name refers to, if it is one of F's parameters. */
static const json_t *param_of(gen_fn *f, const json_t *e)
{
	const json_t *d = gen_decl(f->g, strip(e));
	return d && ast_is(d, "param") ? d : NULL;
}

/* index chains: a[i][j] -> base a, indices i, j (slowest first) */
static const json_t *index_base(const json_t *e, const json_t **idx, int *n)
{
	const json_t *chain[8];
	int k = 0, i;

	e = strip(e);
	while (ast_is(e, "index") && k < 8) {
		chain[k++] = ast_get(e, "i");
		e = strip(ast_get(e, "a"));
	}
	for (i = 0; i < k; i++)
		idx[i] = chain[k - 1 - i];
	*n = k;
	return e;
}

/* An index of unsigned type S (uint, ulong): one that BRG_L may not hold
 * (2^31 and up with -DBRG_I32), clamped or saturated as such. */
static int unsigned_index(const char *s)
{
	return s && (ty_streq(s, "uint") || ty_streq(s, "ulong"));
}

static void idx_scalar(gen_fn *f, strbuf *b, const json_t *i)
{
	const char *s = gen_scalar(ety(i));

	if (s && ty_scalar_is_float(s)) {
		sb_printf(b, "brg_fi%s((float)(", i32_sfx(f->g, f->t));
		gen_kexpr(f, b, i);
		sb_puts(b, "))");
	} else if (unsigned_index(s)) {
		sb_printf(b, "brg_us%s((BRG_UL)(", i32_sfx(f->g, f->t));
		gen_kexpr(f, b, i);
		sb_puts(b, "))");
	} else {
		sb_printf(b, "(%s)(", long_name(f->g, f->t));
		gen_kexpr(f, b, i);
		sb_putc(b, ')');
	}
}

/* A vector index V of a gather or scatter: components x, y, z, w are the
 * coordinates (reading 3: v.x is the column). */
static const char *vidx_helper(gen_ctx *g, gen_target t, const json_t *vty,
	int scatter)
{
	char fname[96];
	strbuf *h = &g->help[t];
	const char *V = tname(t, vty);
	int n = ty_ncomp(vty), k, flt = ty_scalar_is_float(gen_scalar(vty));

	snprintf(fname, sizeof fname, "brg_%sv%s_%s", scatter ? "s" : "g",
		i32_sfx(g, t), V);
	if (!gen_need(g, t, fname))
		return gen_kept(g, fname);
	sb_printf(h, "%s%s %s(const %s *v, %s i) { return brg_%sidx%s(v",
		fnq(t), long_name(g, t), fname, view_name(g, t), V,
		scatter ? "s" : "g", i32_sfx(g, t));
	for (k = 0; k < 4; k++) {
		if (k >= n)
			sb_puts(h, ", 0");
		else if (flt)
			sb_printf(h, ", brg_fi%s((float)i.%c)", i32_sfx(g, t),
				comp[k]);
		else
			sb_printf(h, ", (%s)i.%c", long_name(g, t), comp[k]);
	}
	sb_puts(h, "); }\n");
	return gen_kept(g, fname);
}

/* --checked: the index of the site (brt.h, brt_site) of access node AT
 * of array NAME, of KIND (enum brt_site_kind), the same for both
 * targets. */
static int site_index(gen_fn *f, const json_t *at, const char *name,
	int kind)
{
	gen_ctx *g = f->g;
	const char *file = "?";
	int line = 0, col = 0;
	size_t i;
	json_t *s;

	/* one index node may be read and written: o[i] passed to an out
	   parameter is copied in and written back (sub_call) */
	json_array_foreach(g->sites, i, s)
		if (json_integer_value(json_object_get(s, "node")) ==
				(json_int_t)(intptr_t)at &&
				ast_int(s, "kind") == kind)
			return (int)i;
	ast_at(g->doc, at, &file, &line, &col);
	json_array_append_new(g->sites, json_pack("{s:s, s:i, s:s, s:s, s:i, "
		"s:I}", "file", file, "line", line, "kernel", ast_str(f->fn,
		"name"), "array", name, "kind", kind, "node",
		(json_int_t)(intptr_t)at));
	return (int)json_array_size(g->sites) - 1;
}

/* static const brt_site brg_sites[]: the accesses that --checked
 * instruments, for the runtime's reports (nothing when there are none). */
void gen_sites_table(gen_ctx *g, strbuf *b)
{
	size_t i;
	json_t *s;

	if (!json_array_size(g->sites))
		return;
	sb_puts(b, "static const brt_site brg_sites[] = {\n");
	json_array_foreach(g->sites, i, s) {
		const char *c;
		sb_puts(b, "\t{\"");
		for (c = ast_str(s, "file"); *c; c++) {
			if (*c == '"' || *c == '\\')
				sb_putc(b, '\\');
			sb_putc(b, *c);
		}
		sb_printf(b, "\", %lld, \"%s\", \"%s\", %lld},\n",
			ast_int(s, "line"), ast_str(s, "kernel"),
			ast_str(s, "array"), ast_int(s, "kind"));
	}
	sb_puts(b, "};\n\n");
}

/* ---- --checked: shared elements read before their group wrote them --- */

static const json_t *callee(gen_fn *f, const json_t *e);
static int writes_arg(const json_t *p);

/* How a statement uses the element of a 1-D shared array that an index
 * node names (gen_fn.smode): read; written by = inside an expression,
 * marked written when its index is computed; read and written (op=, ++,
 * --, an out argument), tested, then marked; written by an expression
 * statement's =, marked after the statement, once its right side's reads
 * (of the element too) have run, as the interpreter orders them. */
enum { SM_READ, SM_WRITE, SM_RMW, SM_LATE };

/* The index node of the element of a 1-D shared array of scalars or
 * vectors that lvalue E names (through parentheses and swizzles), or
 * NULL. */
static const json_t *shared_elem(gen_fn *f, const json_t *e)
{
	const json_t *base, *d, *ty;

	e = strip(e);
	while (ast_is(e, "member"))
		e = strip(ast_get(e, "e"));
	if (!ast_is(e, "index"))
		return NULL;
	base = strip(ast_get(e, "a"));
	if (!ast_is(base, "id") || !(d = gen_decl(f->g, base)) ||
			!ast_is(d, "var") || !gen_has_qual(d, "shared"))
		return NULL;
	ty = gen_resolve(f->g, ety(base));
	if (!ty_streq(ty_kind(ty), "array") ||
			!json_is_object(ast_get(ty, "size")))
		return NULL;
	return ty_is_arith(gen_resolve(f->g, ast_get(ty, "of"))) ? e : NULL;
}

static void smode_put(json_t *m, const json_t *e, int mode, int keep)
{
	char k[32];

	snprintf(k, sizeof k, "%p", (const void *)e);
	if (!keep || !json_object_get(m, k))
		json_object_set_new(m, k, json_integer(mode));
}

/* The components of a vector that swizzle E selects, as bits 1 << c; 0
 * where E is no swizzle. A swizzle of a swizzle is one by now (gen.c,
 * swizzle_fold). */
static int swizzle_mask(const json_t *e)
{
	const json_t *sw = ast_arr(strip(e), "swizzle");
	size_t i;
	int mask = 0;

	for (i = 0; i < json_array_size(sw) && i < 4; i++)
		mask |= 1 << (json_integer_value(json_array_get(sw, i)) & 3);
	return mask;
}

static void smode_walk(gen_fn *f, json_t *m, const json_t *n)
{
	const json_t *el, *v, *x;
	const char *key;
	size_t i;

	if (json_is_array(n)) {
		json_array_foreach(n, i, v)
			smode_walk(f, m, v);
		return;
	}
	if (!json_is_object(n))
		return;
	/* the components its swizzle names (one: gen.c, swizzle_fold) */
	if (ast_is(n, "member") && (el = shared_elem(f, n))) {
		char k[40];
		snprintf(k, sizeof k, "%p.c", (const void *)el);
		if (!json_object_get(m, k))
			json_object_set_new(m, k, json_integer(
				swizzle_mask(n)));
	}
	x = strip(ast_get(n, "e"));
	if (ast_is(n, "expr") && ast_is(x, "assign") &&
			ty_streq(ast_str(x, "op"), "=") &&
			(el = shared_elem(f, ast_get(x, "l"))))
		smode_put(m, el, SM_LATE, 0);
	if (ast_is(n, "assign") && (el = shared_elem(f, ast_get(n, "l"))))
		smode_put(m, el, ty_streq(ast_str(n, "op"), "=") ? SM_WRITE :
			SM_RMW, 1);
	if (((ast_is(n, "unop") && (ty_streq(ast_str(n, "op"), "++") ||
			ty_streq(ast_str(n, "op"), "--"))) ||
			ast_is(n, "postfix")) && (el = shared_elem(f, x)))
		smode_put(m, el, SM_RMW, 0);
	if (ast_is(n, "call") && callee(f, n)) {
		json_t *params = ast_arr(ast_get(callee(f, n), "type"),
			"params"), *p;
		json_array_foreach(params, i, p)
			if (writes_arg(p) && (el = shared_elem(f,
					json_array_get(ast_arr(n, "args"), i))))
				smode_put(m, el, SM_RMW, 0);
	}
	json_object_foreach((json_t *)n, key, v)
		if (strcmp(key, "ty") && strcmp(key, "type"))
			smode_walk(f, m, v);
}

/* How the statements use the shared element index node E names (SM_*),
 * or -1 where it is none that --checked follows. */
static int shared_mode(gen_fn *f, const json_t *e)
{
	char k[32];

	if (!f->group || shared_elem(f, e) != e)
		return -1;
	if (!f->smode) {
		f->smode = json_object();
		smode_walk(f, f->smode, ast_get(f->fn, "body"));
	}
	snprintf(k, sizeof k, "%p", (const void *)e);
	return (int)json_integer_value(json_object_get(f->smode, k));
}

/* The components that the access of shared element E (an index node
 * shared_mode follows) reads or writes, as bits 1 << c, and in *NC the
 * number of its element's: a flag each (brg_sf_NAME[i * NC + c]). */
static int shared_comps(gen_fn *f, const json_t *e, int *nc)
{
	char k[40];
	const json_t *ty = gen_resolve(f->g, ety(strip(ast_get(e, "a"))));
	int mask;

	*nc = ty_ncomp(gen_resolve(f->g, ast_get(ty, "of")));
	if (*nc < 1 || *nc > 4)
		*nc = 1;
	snprintf(k, sizeof k, "%p.c", (const void *)e);
	mask = (int)json_integer_value(json_object_get(f->smode, k));
	return mask ? mask : (1 << *nc) - 1;
}

/* The flags of the components MASK of element I, NC flags an element, in
 * array PRE FL: "PREFL[I * NC + c]" each, SEP between them. */
static void shared_flag_list(strbuf *b, const char *pre, const char *fl,
	const char *i, int nc, int mask, const char *sep)
{
	int c, first = 1;

	for (c = 0; c < nc; c++) {
		if (!(mask & (1 << c)))
			continue;
		sb_printf(b, "%s%s%s[", first ? "" : sep, pre, fl);
		if (nc == 1)
			sb_puts(b, i);
		else
			sb_printf(b, "%s * %d + %d", i, nc, c);
		sb_puts(b, "]");
		first = 0;
	}
}

/* An expression statement whose = writes a shared element that --checked
 * marks after it (SM_LATE): the element's index node, else NULL. */
static const json_t *late_write(gen_fn *f, const json_t *s)
{
	const json_t *x = strip(ast_get(s, "e")), *el;

	if (!f->g->o || !f->g->o->checked || !ast_is(s, "expr") ||
			!ast_is(x, "assign") || !(el = shared_elem(f,
			ast_get(x, "l"))) || shared_mode(f, el) != SM_LATE)
		return NULL;
	return el;
}

/* --checked: index E->i of a C array or a shared array, E an index node
 * (the access of one dimension: t[i][j] has two), printed as a call of a
 * helper of its own (brg_aidx_N) that records an index outside the
 * dimension (brt.h, BRT_SITE_ARRAY) and clamps it into it, as the CPU
 * backend's interpreter does. An array whose extent is not known (a
 * parameter's float t[]) is printed as it is written. */
static void checked_aidx(gen_fn *f, strbuf *b, const json_t *e)
{
	gen_ctx *g = f->g;
	gen_target t = f->t;
	const json_t *a = strip(ast_get(e, "a")), *base = a, *ty, *d;
	const char *L = long_name(g, t), *name = "?";
	long long n, ext[4] = {0, 0, 0, 0};
	int dim = 1, rank = 0, kind = BRT_SITE_ARRAY, site, mode;
	char fname[64];

	ty = gen_resolve(g, ety(a));
	n = ty_streq(ty_kind(ty), "array") && json_is_object(ast_get(ty,
		"size")) ? ast_int(ast_get(ty, "size"), "value") : 0;
	if (n <= 0) {
		idx_scalar(f, b, ast_get(e, "i"));
		return;
	}
	while (ast_is(base, "index")) {
		dim++;
		base = strip(ast_get(base, "a"));
	}
	if (ast_is(base, "id") || ast_is(base, "member"))
		name = ast_str(base, "name");
	d = ast_is(base, "id") ? gen_decl(g, base) : NULL;
	if (d && ast_is(d, "var") && gen_has_qual(d, "shared"))
		kind = BRT_SITE_SHARED;
	for (ty = gen_resolve(g, ety(base)); ty_streq(ty_kind(ty), "array");
			ty = gen_resolve(g, ast_get(ty, "of"))) {
		const json_t *sz = ast_get(ty, "size");
		if (rank < 4)
			ext[rank] = json_is_object(sz) ? ast_int(sz, "value")
				: 0;
		rank++;
	}
	site = site_index(f, ast_get(e, "i"), name, kind);
	mode = kind == BRT_SITE_SHARED ? shared_mode(f, e) : -1;
	snprintf(fname, sizeof fname, "brg_aidx%s_%d", i32_sfx(g, t), site);
	if (gen_need(g, t, fname)) {
		strbuf *h = &g->help[t];
		sb_printf(h, "%s%s %s(BRG_REC *r, ", fnq(t), L, fname);
		if (mode >= 0)
			sb_puts(h, t == GEN_CL ? "__local uchar *fl, " :
				"unsigned char *fl, ");
		sb_printf(h, "%s i)\n{\n"
			"\tif (i < 0 || i >= %lld) {\n"
			"\t\tbrg_record%s(r, %d, i, %d, %d, 0, %lld, %lld, "
			"%lld, %lld);\n"
			"\t\ti = i < 0 ? 0 : %lld;\n\t}\n", L, n, i32_sfx(g, t),
			site, dim, rank, ext[0], ext[1], ext[2], ext[3], n - 1);
		/* a read of a component no work-item of the group wrote
		   (brt.h, BRT_SITE_UNSET): a flag a component */
		int nc, mask = mode >= 0 ? shared_comps(f, e, &nc) : 0;
		if ((mode == SM_READ || mode == SM_RMW) && nc == 1)
			sb_printf(h, "\tif (!fl[i])\n\t\tbrg_record%s(r, %d, i, "
				"0, 0, 0, %lld, 0, 0, 0);\n", i32_sfx(g, t),
				site_index(f, e, name, BRT_SITE_UNSET), n);
		else if (mode == SM_READ || mode == SM_RMW) {
			/* the components read that are unwritten, a bit
			   each (brt.h) */
			sb_puts(h, "\tint u = 0");
			for (int c = 0; c < nc; c++)
				if (mask & (1 << c))
					sb_printf(h, " | (fl[i * %d + %d] ? 0 : %d)",
						nc, c, 1 << c);
			sb_printf(h, ";\n\tif (u)\n\t\tbrg_record%s(r, %d, i, "
				"u, 0, 0, %lld, %d, 0, 0);\n", i32_sfx(g, t),
				site_index(f, e, name, BRT_SITE_UNSET), n, nc);
		}
		if (mode == SM_WRITE || mode == SM_RMW) {
			sb_puts(h, "\t");
			shared_flag_list(h, "", "fl", "i", nc, mask, " = ");
			sb_puts(h, " = 1;\n");
		} else if (mode == SM_LATE)	/* marked by the statement */
			sb_puts(h, "\t(void)fl;\n");
		sb_puts(h, "\treturn i;\n}\n");
	}
	if (mode == SM_LATE)
		sb_puts(b, "(brg_si = ");
	sb_printf(b, "%s(brg_cx.rec, ", gen_kept(g, fname));
	if (mode >= 0)
		sb_printf(b, "brg_sf_%s, ", name);
	idx_scalar(f, b, ast_get(e, "i"));
	sb_puts(b, mode == SM_LATE ? "))" : ")");
}

/* --checked: an index function for one access, which records coordinates
 * outside the array in the launch's brt_records (site N of the program)
 * for the runtime to report. */
static const char *checked_site(gen_fn *f, const json_t *at,
	const json_t *p, int scatter)
{
	char fname[64];
	gen_ctx *g = f->g;
	gen_target t = f->t;
	const char *L = long_name(g, t);
	int n = site_index(f, at, ast_str(p, "name"), scatter ?
		BRT_SITE_SCATTER : BRT_SITE_GATHER);

	snprintf(fname, sizeof fname, "brg_%sidx%s_%d", scatter ? "s" : "g",
		i32_sfx(g, t), n);
	if (!gen_need(g, t, fname))
		return gen_kept(g, fname);
	sb_printf(&g->help[t], "%s%s %s(BRG_REC *r, const %s *v, %s x, "
		"%s y, %s z, %s w)\n{\n"
		"\tif (x < 0 || x >= v->dims[0] || y < 0 || y >= v->dims[1] ||\n"
		"\t    z < 0 || z >= v->dims[2] || w < 0 || w >= v->dims[3])\n"
		"\t\tbrg_report%s(r, %d, v, x, y, z, w);\n"
		"\treturn brg_%sidx%s(v, x, y, z, w);\n}\n", fnq(t), L, fname,
		view_name(g, t), L, L, L, L, i32_sfx(g, t), n,
		scatter ? "s" : "g", i32_sfx(g, t));
	return gen_kept(g, fname);
}

/* A gather's element offset for just the coordinates it has, each
 * clamped on its own: base + sum clamp(c) * pitch (no loop over four
 * dimensions, no saturation tests beyond the clamp). */
static const char *gather_vhelper(gen_ctx *g, gen_target t, const json_t *vty)
{
	char fname[96];
	strbuf *h = &g->help[t];
	const char *V = tname(t, vty);
	int n = ty_ncomp(vty), k, flt = ty_scalar_is_float(gen_scalar(vty));

	snprintf(fname, sizeof fname, "brg_gat%s_%s", i32_sfx(g, t), V);
	if (!gen_need(g, t, fname))
		return gen_kept(g, fname);
	sb_printf(h, "%s%s %s(const %s *v, %s i) { return v->base", fnq(t),
		long_name(g, t), fname, view_name(g, t), V);
	for (k = 0; k < n && k < 4; k++) {
		sb_printf(h, " + brg_c%s%s(%si.%c, v->dims[%d])", flt ? "f" :
			"i", i32_sfx(g, t), flt ? "(float)" : "", comp[k], k);
		pitch_term(g, t, h, "v", k);
	}
	sb_puts(h, "; }\n");
	return gen_kept(g, fname);
}

/* ---- counted loops: gathers by the counter without the clamp ---------- */

/* A gather index outside its array reads the nearest element (issue 10;
 * brg_gidx). In "for (j = A; j < B; j++)" whose body writes neither j
 * nor a name of B, every iteration has A <= j < B, so a gather index
 * j + c along an axis of extent D is inside when A + c >= 0 and
 * B + c <= D: the loop is printed twice, the copy without those clamps
 * taken under that test (the compiler can then walk the gather as a
 * pointer). Only innermost loops, so that a body is printed at most
 * twice. */

static int is_int1(const json_t *e)
{
	const char *s = gen_scalar(ety(e));

	return s && ty_streq(s, "int") && ty_ncomp(ety(e)) == 1;
}

/* Whether gather index I is the counter CTR (its decl) plus a constant *C. */
static int ctr_off(gen_fn *f, const json_t *ctr, const json_t *i,
	long long *c)
{
	const json_t *l, *r;
	const char *op;

	i = strip(i);
	*c = 0;
	if (!ctr || !is_int1(i))
		return 0;
	if (ast_is(i, "id"))
		return gen_decl(f->g, i) == ctr;
	if (!ast_is(i, "binop"))
		return 0;
	op = ast_str(i, "op");
	l = strip(ast_get(i, "l"));
	r = strip(ast_get(i, "r"));
	if (ty_streq(op, "+") && ast_is(l, "int")) {
		const json_t *t = l;
		l = r;
		r = t;
	} else if (!ty_streq(op, "+") && !ty_streq(op, "-")) {
		return 0;
	}
	if (!ast_is(l, "id") || gen_decl(f->g, l) != ctr ||
			!ast_is(r, "int") || !is_int1(r) ||
			ast_int(r, "value") > (1 << 24))
		return 0;
	*c = ast_int(r, "value");
	if (ty_streq(op, "-"))
		*c = -*c;
	return 1;
}

/* An expression of constants and names through + - *, casts and
 * swizzles, without side effects (a bound, evaluated once more before
 * the loop); its names into DS. */
static int pure_expr(gen_fn *f, const json_t *e, const json_t **ds, int *nd)
{
	const char *op;

	e = strip(e);
	if (ast_is(e, "int") || ast_is(e, "float"))
		return 1;
	if (ast_is(e, "id")) {
		if (*nd >= 8 || !gen_decl(f->g, e))
			return 0;
		ds[(*nd)++] = gen_decl(f->g, e);
		return 1;
	}
	if (ast_is(e, "cast") || (ast_is(e, "member") &&
			json_is_array(ast_get(e, "swizzle"))))
		return pure_expr(f, ast_get(e, "e"), ds, nd);
	if (!ast_is(e, "binop"))
		return 0;
	op = ast_str(e, "op");
	return (ty_streq(op, "+") || ty_streq(op, "-") ||
		ty_streq(op, "*")) && pure_expr(f, ast_get(e, "l"), ds, nd)
		&& pure_expr(f, ast_get(e, "r"), ds, nd);
}

/* The name under an assignment target (v, v.x, v[i]), if any. */
const json_t *gen_target_decl(gen_ctx *g, const json_t *e)
{
	e = strip(e);
	while (ast_is(e, "member") || ast_is(e, "index"))
		e = strip(ast_get(e, ast_is(e, "member") ? "e" : "a"));
	return ast_is(e, "id") ? gen_decl(g, e) : NULL;
}

static const json_t *target_decl(gen_fn *f, const json_t *e)
{
	return gen_target_decl(f->g, e);
}

static int is_decl_of(const json_t *d, const json_t *const *ds, int nd)
{
	int k;

	for (k = 0; d && k < nd; k++)
		if (ds[k] == d)
			return 1;
	return 0;
}

/* Whether N may write one of the names DS: assigns or steps it, or
 * passes it to a function (an out parameter); with LOOPS, or holds a
 * loop. */
int gen_writes(gen_ctx *g, const json_t *n, const json_t *const *ds,
	int nd, int loops)
{
	const char *key;
	json_t *v;
	size_t i;

	if (json_is_array(n)) {
		json_array_foreach(n, i, v)
			if (gen_writes(g, v, ds, nd, loops))
				return 1;
		return 0;
	}
	if (!json_is_object(n))
		return 0;
	if (loops && (ast_is(n, "for") || ast_is(n, "while") ||
			ast_is(n, "do")))
		return 1;
	if (ast_is(n, "assign") && is_decl_of(gen_target_decl(g, ast_get(n,
			"l")), ds, nd))
		return 1;
	if ((ast_is(n, "unop") || ast_is(n, "postfix")) &&
			(ty_streq(ast_str(n, "op"), "++") ||
			ty_streq(ast_str(n, "op"), "--")) &&
			is_decl_of(gen_target_decl(g, ast_get(n, "e")), ds, nd))
		return 1;
	if (ast_is(n, "call"))
		ast_array_foreach(ast_get(n, "args"), i, v)
			if (is_decl_of(gen_target_decl(g, v), ds, nd))
				return 1;
	json_object_foreach((json_t *)n, key, v)
		if (!ty_streq(key, "ty") && gen_writes(g, v, ds, nd, loops))
			return 1;
	return 0;
}

static int writes(gen_fn *f, const json_t *n, const json_t **ds, int nd,
	int loops)
{
	return gen_writes(f->g, n, ds, nd, loops);
}

/* Appends to COND the tests under which the gathers in N indexed by the
 * counter CTR stay inside their arrays, for bounds LO and HI (printed)
 * and an inclusive (<=) or exclusive bound. A constant LO is tested
 * here: LOC points to it (NULL when LO is not one), *NEVER set when the
 * copy could never run. */
static void fast_conds(gen_fn *f, const json_t *n, const json_t *ctr,
	const char *lo, const long long *loc, const char *hi, int incl,
	strbuf *cond, int *never)
{
	const char *key, *L = f->t == GEN_CL ? "long" : "long long";
	json_t *v;
	size_t i;

	if (json_is_array(n)) {
		json_array_foreach(n, i, v)
			fast_conds(f, v, ctr, lo, loc, hi, incl, cond,
				never);
		return;
	}
	if (!json_is_object(n))
		return;
	if (ast_is(n, "index")) {
		const json_t *idx[8], *p;
		int m, cnt;
		p = param_of(f, index_base(n, idx, &cnt));
		if (p && ty_streq(gen_role(p), "gather")) {
			for (m = 0; m < cnt; m++) {
				long long c;
				strbuf t = {0};
				fast_conds(f, idx[m], ctr, lo, loc, hi, incl,
					cond, never);
				if (cnt - 1 - m >= 4 || !ctr_off(f, ctr, idx[m],
						&c))
					continue;
				if (loc && *loc + c < 0)
					*never = 1;
				else if (!loc)
					sb_printf(&t, "(%s)(%s) %c %lld >= 0 && ",
						L, lo, c < 0 ? '-' : '+',
						c < 0 ? -c : c);
				sb_printf(&t, "(%s)(%s) %c %lld %s %s_v.dims[%d]",
					L, hi, c < 0 ? '-' : '+', c < 0 ? -c : c,
					incl ? "<" : "<=", ast_str(p, "name"),
					cnt - 1 - m);
				if (!cond->s || !strstr(cond->s, t.s))
					sb_printf(cond, "%s%s", cond->len ?
						" && " : "", t.s);
				sb_free(&t);
			}
			return;
		}
	}
	json_object_foreach((json_t *)n, key, v)
		if (!ty_streq(key, "ty"))
			fast_conds(f, v, ctr, lo, loc, hi, incl, cond,
				never);
}

/* For loop S as a counted loop whose body gathers by its counter: the
 * counter's decl, with the test of its unclamped copy in COND; else
 * NULL. */
static const json_t *counted_loop(gen_fn *f, const json_t *s, strbuf *cond)
{
	const json_t *init = ast_get(s, "init"), *c = strip(ast_get(s, "cond"));
	const json_t *st = strip(ast_get(s, "step")), *ctr, *lo, *x;
	const json_t *ds[9];
	strbuf los = {0}, his = {0};
	int nd = 0, incl, never = 0;
	long long loc;

	if (f->group || (f->g->o && f->g->o->checked) ||
			!ast_is(c, "binop") || !is_int1(ast_get(c, "l")))
		return NULL;
	x = strip(ast_get(c, "l"));
	ctr = ast_is(x, "id") ? gen_decl(f->g, x) : NULL;
	if (ast_is(init, "decl") && json_array_size(ast_arr(init, "vars")) == 1)
		lo = ast_is(json_array_get(ast_arr(init, "vars"), 0), "var") &&
			json_array_get(ast_arr(init, "vars"), 0) == ctr ?
			ast_get(ctr, "init") : NULL;
	else if (ast_is(strip(init), "assign") &&
			ty_streq(ast_str(strip(init), "op"), "=") &&
			target_decl(f, ast_get(strip(init), "l")) == ctr &&
			ast_is(strip(ast_get(strip(init), "l")), "id"))
		lo = ast_get(strip(init), "r");
	else
		lo = NULL;
	if (!ctr || !lo || (!ty_streq(ast_str(c, "op"), "<") &&
			!ty_streq(ast_str(c, "op"), "<=")))
		return NULL;
	incl = ty_streq(ast_str(c, "op"), "<=");
	/* the step: j++, ++j or j += 1 */
	if (!(((ast_is(st, "unop") || ast_is(st, "postfix")) &&
			ty_streq(ast_str(st, "op"), "++") &&
			ast_is(strip(ast_get(st, "e")), "id") &&
			gen_decl(f->g, strip(ast_get(st, "e"))) == ctr) ||
			(ast_is(st, "assign") && ty_streq(ast_str(st, "op"),
			"+=") && ast_is(strip(ast_get(st, "l")), "id") &&
			gen_decl(f->g, strip(ast_get(st, "l"))) == ctr &&
			ast_is(strip(ast_get(st, "r")), "int") &&
			ast_int(strip(ast_get(st, "r")), "value") == 1)))
		return NULL;
	if (!is_int1(lo) || !is_int1(ast_get(c, "r")) ||
			!pure_expr(f, lo, ds, &nd) || !pure_expr(f, ast_get(c,
			"r"), ds, &nd) || is_decl_of(ctr, ds, nd))
		return NULL;
	ds[nd++] = ctr;
	if (writes(f, ast_get(s, "body"), ds, nd, 1))
		return NULL;
	gen_kexpr(f, &los, lo);
	gen_kexpr(f, &his, ast_get(c, "r"));
	loc = ast_int(strip(lo), "value");
	fast_conds(f, ast_get(s, "body"), ctr, los.s, ast_is(strip(lo), "int")
		? &loc : NULL, his.s, incl, cond, &never);
	sb_free(&los);
	sb_free(&his);
	return cond->len && !never ? ctr : NULL;
}

/* ---- float indices kept as integers ------------------------------------ */

/* The guide's kernels (simple_matmult, optimized_matmult) gather through a
 * float4 stepped by constants in a loop ("index += step"): every gather
 * converts floats to integers, the slowest instruction there. A local
 * float V whose initializer has integer components and which is only
 * ever changed by statements V += C, C constant with integer components
 * of the same sign per component, holds integers, and while |V| <= 2^24
 * the same as an integer copy of it stepped alike; past 2^24 V only
 * grows away from 0 (rounded sums of integers stay integers, and
 * monotone), as the copy does (capped at 2^30, so it cannot wrap), and
 * a gather clamps both to the same end of an axis of extent D <= 2^24
 * (issue 10). So the innermost loop that holds such gathers is printed
 * twice, the copy that gathers through the integers (brg_sh_NAME) taken
 * when those extents are at most 2^24 and the moving components within
 * +-2^24 on entry. A component C leaves unchanged is converted as the
 * gather converts it, so it needs no test. On the CPU the copy is a
 * struct of four of the instance's index type, capped by brg_lmin and
 * brg_lmax (gen_cpu.c). */
#define SH_EXACT 16777216	/* 2^24 */
/* the 32-bit variants' promise on gathers (brt.h), BRG_D24's bound */
typedef char sh_exact_is_gather32_max[SH_EXACT == BRT_GATHER32_MAX ? 1 : -1];
#define SH_CAP 1073741824	/* 2^30 */

/* The components of constant E (integers up to 2^24 in magnitude) into
 * V[*N]; names must be never written, with such an initializer. */
static int const_vals(gen_fn *f, const json_t *e, long long *v, int *n,
	int depth)
{
	const json_t *d, *a;
	size_t i;

	e = strip(e);
	*n = 0;
	if (depth > 8)
		return 0;
	if (ast_is(e, "int") || ast_is(e, "float")) {
		double x = ast_is(e, "int") ? (double)ast_int(e, "value") :
			json_number_value(ast_get(e, "value"));
		if (x != (double)(long long)x || x > SH_EXACT || x < -SH_EXACT)
			return 0;
		v[(*n)++] = (long long)x;
		return 1;
	}
	if (ast_is(e, "unop") && ty_streq(ast_str(e, "op"), "-")) {
		int k;
		if (!const_vals(f, ast_get(e, "e"), v, n, depth + 1))
			return 0;
		for (k = 0; k < *n; k++)
			v[k] = -v[k];
		return 1;
	}
	if (ast_is(e, "ctor")) {
		ast_array_foreach(ast_arr(e, "args"), i, a) {
			long long w[4];
			int m, k;
			if (!const_vals(f, a, w, &m, depth + 1) || *n + m > 4)
				return 0;
			for (k = 0; k < m; k++)
				v[(*n)++] = w[k];
		}
		return *n > 0;
	}
	if (ast_is(e, "member") && json_is_array(ast_get(e, "swizzle"))) {
		long long w[4];
		int m;
		if (!const_vals(f, ast_get(e, "e"), w, &m, depth + 1))
			return 0;
		ast_array_foreach(ast_get(e, "swizzle"), i, a) {
			json_int_t c = json_integer_value(a);
			if (c < 0 || c >= m || *n >= 4)
				return 0;
			v[(*n)++] = w[c];
		}
		return 1;
	}
	d = ast_is(e, "id") ? gen_decl(f->g, e) : NULL;
	if (!ast_is(d, "var") || !ast_get(d, "init") || writes(f, ast_get(
			f->fn, "body"), &d, 1, 0))
		return 0;
	return const_vals(f, ast_get(d, "init"), v, n, depth + 1);
}

/* Whether every component of E is an integer: constants, indexof,
 * constructors, swizzles, sums and products of such, names never
 * written whose initializer is one. */
static int integral(gen_fn *f, const json_t *e, int depth)
{
	const json_t *d, *a;
	long long v[4];
	size_t i;
	int n;

	e = strip(e);
	if (depth > 8)
		return 0;
	if (ast_is(e, "indexof") || const_vals(f, e, v, &n, depth))
		return 1;
	if (ast_is(e, "ctor")) {
		ast_array_foreach(ast_arr(e, "args"), i, a)
			if (!integral(f, a, depth + 1))
				return 0;
		return 1;
	}
	if (ast_is(e, "member") && json_is_array(ast_get(e, "swizzle")))
		return integral(f, ast_get(e, "e"), depth + 1);
	/* rounded sums and products of integers are integers */
	if (ast_is(e, "unop") && ty_streq(ast_str(e, "op"), "-"))
		return integral(f, ast_get(e, "e"), depth + 1);
	if (ast_is(e, "binop") && strchr("+-*", ast_str(e, "op")[0]) &&
			ast_str(e, "op")[1] == '\0')
		return integral(f, ast_get(e, "l"), depth + 1) &&
			integral(f, ast_get(e, "r"), depth + 1);
	d = ast_is(e, "id") ? gen_decl(f->g, e) : NULL;
	return ast_is(d, "var") && ast_get(d, "init") && !writes(f,
		ast_get(f->fn, "body"), &d, 1, 0) &&
		integral(f, ast_get(d, "init"), depth + 1);
}

/* The statement-level "V += C" of expression statement S, if it is one. */
static const json_t *sh_update(gen_fn *f, const json_t *s, const json_t *v)
{
	const json_t *e = ast_is(s, "expr") ? strip(ast_get(s, "e")) : NULL;

	return ast_is(e, "assign") && ty_streq(ast_str(e, "op"), "+=") &&
		ast_is(strip(ast_get(e, "l")), "id") &&
		gen_decl(f->g, strip(ast_get(e, "l"))) == v ? e : NULL;
}

/* Whether every change of V in N is a statement V += C as above; with
 * SIGN, of one sign per component, into SIGN (0 where none moves it). */
static int sh_steps(gen_fn *f, const json_t *n, const json_t *v, int *sign)
{
	const json_t *u = sh_update(f, n, v);
	const char *key;
	json_t *x;
	size_t i;

	if (u) {
		long long c[4];
		int m, k, nv = ty_ncomp(ast_get(v, "type"));
		if (!const_vals(f, ast_get(u, "r"), c, &m, 0) || m != nv)
			return 0;
		for (k = 0; sign && k < m; k++) {
			int sg = c[k] > 0 ? 1 : c[k] < 0 ? -1 : 0;
			if (sg && sign[k] && sg != sign[k])
				return 0;
			if (sg)
				sign[k] = sg;
		}
		return 1;
	}
	if (json_is_array(n)) {
		json_array_foreach(n, i, x)
			if (!sh_steps(f, x, v, sign))
				return 0;
		return 1;
	}
	if (!json_is_object(n))
		return 1;
	if (writes(f, n, &v, 1, 0) && !ast_is(n, "block") &&
			!ast_is(n, "if") && !ast_is(n, "for") &&
			!ast_is(n, "while") && !ast_is(n, "do") &&
			!ast_is(n, "switch") && !ast_is(n, "case") &&
			!ast_is(n, "default") && !ast_is(n, "func"))
		return 0;
	json_object_foreach((json_t *)n, key, x)
		if (!ty_streq(key, "ty") && !sh_steps(f, x, v, sign))
			return 0;
	return 1;
}

/* The components of V that gather index E takes (E is V or a swizzle of
 * it): their number, into C. */
static int sh_comps(gen_fn *f, const json_t *e, const json_t *v, int *c)
{
	const json_t *a;
	size_t i;
	int n = 0;

	e = strip(e);
	if (ast_is(e, "id") && v && gen_decl(f->g, e) == v) {
		for (n = 0; n < ty_ncomp(ety(e)) && n < 4; n++)
			c[n] = n;
		return n;
	}
	if (!ast_is(e, "member") || !json_is_array(ast_get(e, "swizzle")) ||
			!ast_is(strip(ast_get(e, "e")), "id") || !v ||
			gen_decl(f->g, strip(ast_get(e, "e"))) != v)
		return 0;
	ast_array_foreach(ast_get(e, "swizzle"), i, a)
		if (n < 4)
			c[n++] = (int)json_integer_value(a);
	return n;
}

/* The float local that the first gather in N indexes by, and its id. */
static const json_t *sh_candidate(gen_fn *f, const json_t *n,
	const json_t **id)
{
	const char *key;
	json_t *x;
	size_t i;

	if (json_is_array(n)) {
		json_array_foreach(n, i, x) {
			const json_t *v = sh_candidate(f, x, id);
			if (v)
				return v;
		}
		return NULL;
	}
	if (!json_is_object(n))
		return NULL;
	if (ast_is(n, "index")) {
		const json_t *idx[8], *p, *e;
		int cnt, m;
		p = param_of(f, index_base(n, idx, &cnt));
		for (m = 0; p && ty_streq(gen_role(p), "gather") && m < cnt;
				m++) {
			const char *s = gen_scalar(ety(idx[m]));
			e = strip(idx[m]);
			if (ast_is(e, "member"))
				e = strip(ast_get(e, "e"));
			if (s && ty_scalar_is_float(s) && ast_is(e, "id") &&
					ast_is(gen_decl(f->g, e), "var")) {
				*id = e;
				return gen_decl(f->g, e);
			}
		}
	}
	json_object_foreach((json_t *)n, key, x)
		if (!ty_streq(key, "ty")) {
			const json_t *v = sh_candidate(f, x, id);
			if (v)
				return v;
		}
	return NULL;
}

/* Appends to COND the tests for the gathers in N through V: the extent
 * of each axis a moving component indexes. */
static void sh_conds(gen_fn *f, const json_t *n, const json_t *v,
	const int *sign, strbuf *cond)
{
	const char *key;
	json_t *x;
	size_t i;

	if (json_is_array(n)) {
		json_array_foreach(n, i, x)
			sh_conds(f, x, v, sign, cond);
		return;
	}
	if (!json_is_object(n))
		return;
	if (ast_is(n, "index")) {
		const json_t *idx[8], *p;
		int cnt, m, c[4], nc, k;
		p = param_of(f, index_base(n, idx, &cnt));
		for (m = 0; p && ty_streq(gen_role(p), "gather") && m < cnt;
				m++) {
			/* a[v.zw]: axis k takes c[k]; a[v.y][v.x]: axis
			   cnt - 1 - m takes c[0] */
			nc = sh_comps(f, idx[m], v, c);
			for (k = 0; k < nc; k++) {
				int ax = cnt == 1 ? k : cnt - 1 - m;
				strbuf t = {0};
				if (ax >= 4 || !sign[c[k]])
					continue;
				/* the 32-bit variants run only where every
				   gather's extents are at most 2^24 (brt.h):
				   there the test is 1, and the float path
				   the test guards goes */
				if (f->t == GEN_CPU && f->g->i32)
					continue;
				sb_printf(&t, f->t == GEN_CL ? "BRG_D24(%s_v.dims"
					"[%d])" : "%s_v.dims[%d] <= %d",
					ast_str(p, "name"), ax, SH_EXACT);
				if (!cond->s || !strstr(cond->s, t.s))
					sb_printf(cond, " && %s", t.s);
				sb_free(&t);
			}
		}
	}
	json_object_foreach((json_t *)n, key, x)
		if (!ty_streq(key, "ty"))
			sh_conds(f, x, v, sign, cond);
}

/* Innermost loop S gathering through a float local kept as integers:
 * that local's decl, with the test of the integer copy in COND and its
 * initialization in INIT; else NULL. */
static const json_t *shadow_loop(gen_fn *f, const json_t *s, strbuf *cond,
	strbuf *init)
{
	static const char *const sfx[5] = {".x", ".y", ".z", ".w", ""};
	const json_t *id = NULL, *v;
	int sign[4] = {0, 0, 0, 0}, k, nv;
	strbuf name = {0};

	if (f->group || (f->g->o && f->g->o->checked) ||
			writes(f, ast_get(s, "body"), NULL, 0, 1))
		return NULL;
	v = sh_candidate(f, s, &id);
	nv = v ? ty_ncomp(ast_get(v, "type")) : 0;
	if (!v || nv < 1 || nv > 4 || !ast_get(v, "init") ||
			!ty_streq(gen_scalar(ast_get(v, "type")), "float") ||
			!integral(f, ast_get(v, "init"), 0) ||
			!sh_steps(f, ast_get(f->fn, "body"), v, NULL) ||
			!sh_steps(f, s, v, sign))
		return NULL;
	for (k = 0; k < 4 && !sign[k]; k++)
		;
	if (k == 4)
		return NULL;	/* not stepped here: converted once anyway */
	gen_kexpr(f, &name, id);
	sb_puts(cond, "1");
	for (k = 0; k < nv; k++)
		if (sign[k])
			sb_printf(cond, " && %s%s >= -%d.0f && %s%s <= %d.0f",
				name.s, sfx[nv > 1 ? k : 4], SH_EXACT, name.s,
				sfx[nv > 1 ? k : 4], SH_EXACT);
	sh_conds(f, s, v, sign, cond);
	memmove(cond->s, cond->s + 5, cond->len - 4);	/* "1 && " */
	cond->len -= 5;
	/* a struct of four scalars on both targets, not OpenCL's BRG_L4:
	 * PoCL's loop over the work-items runs a loop that steps a vector's
	 * components far slower (this machine, the guide's simple_matmult
	 * over 512 x 512: 306-340 ms with BRG_L4, 129-137 with scalars, the
	 * hand-written kernel 131-144); truncations (|V| <= 2^24 here) */
	sb_printf(init, "struct { %s x, y, z, w; } brg_sh_%s = { ",
		long_name(f->g, f->t), ast_str(v, "name"));
	for (k = 0; k < 4; k++) {
		if (k >= nv)
			sb_puts(init, ", 0");
		else
			sb_printf(init, "%s%s(%s%s)", k ? ", " : "", f->t ==
				GEN_CL ? "BRG_CVT" : "(BRG_L)", name.s,
				sfx[nv > 1 ? k : 4]);
	}
	sb_puts(init, " };\n");
	sb_free(&name);
	return v;
}

/* After the statement V += C in the integer copy: the same steps on
 * brg_sh_V, capped (shadow_loop); in the counted copy (sh_counted)
 * uncapped, SEP before the first. */
static void sh_step(gen_fn *f, strbuf *b, const json_t *u, const char *sep)
{
	const char *v = ast_str(f->shadow, "name");
	long long c[4];
	int m, k;

	if (!const_vals(f, ast_get(u, "r"), c, &m, 0))
		return;
	for (k = 0; k < m; k++) {
		if (!c[k])
			continue;
		if (f->sh_fast)
			sb_printf(b, "%sbrg_sh_%s.%c += %lld", sep, v,
				comp[k], c[k]);
		else
			sb_printf(b, "%sbrg_sh_%s.%c = %s%s(brg_sh_%s.%c + "
				"(BRG_L)%lld, (BRG_L)%s%d)", sep, v, comp[k],
				f->t == GEN_CL ? "" : "brg_l", c[k] > 0 ?
				"min" : "max", v, comp[k], c[k], c[k] > 0 ?
				"" : "-", SH_CAP);
		sep = ", ";
	}
}

/* ---- the guide's counter: the integer copy without clamps ------------- */

/* The guide's loops count down a float (simple_matmult, 1.3.1):
 * "float i0 = E; while (i0 > 0) { ...; i0 = i0 - 1.0f; }". When i0 is
 * read only by that test and changed only by that statement (or i0 -= 1,
 * i0--, --i0) at the top of a body without break, continue or return,
 * the loop runs T = ceil(E) times for 0 < E <= 2^24 (every difference is
 * exact there down to the last, which is <= 0 either way) and 0 times for
 * E <= 0 or NaN, and leaves i0 = E - T (rounded once, as the last
 * difference is). If the body also steps the integer copy's float V by
 * one statement V += C after its gathers through V, a gather coordinate
 * runs from its start S to S + C (T - 1); when every such range lies
 * inside its array, a third copy of the loop counts T on an integer and
 * gathers without clamps and without the 2^30 cap; after it i0 and V
 * take their final values (V's moving components S + C T, exact while
 * within 2^24, tested). V's float steps are left out of that copy when
 * nothing else in the loop reads V. Reads outside an array still take
 * the other copies and their clamps (issue 10). */

static int is_lit(const json_t *e, double v)
{
	e = strip(e);
	if (ast_is(e, "int"))
		return (double)ast_int(e, "value") == v;
	return ast_is(e, "float") && json_number_value(ast_get(e, "value")) ==
		v;
}

static int is_id_of(gen_fn *f, const json_t *e, const json_t *d)
{
	e = strip(e);
	return ast_is(e, "id") && gen_decl(f->g, e) == d;
}

/* The number of names of D in N. */
static int refs(gen_fn *f, const json_t *n, const json_t *d)
{
	const char *key;
	json_t *v;
	size_t i;
	int r = 0;

	if (json_is_array(n))
		json_array_foreach(n, i, v)
			r += refs(f, v, d);
	if (!json_is_object(n))
		return r;
	if (ast_is(n, "id"))
		return gen_decl(f->g, n) == d;
	json_object_foreach((json_t *)n, key, v)
		if (!ty_streq(key, "ty"))
			r += refs(f, v, d);
	return r;
}

/* Whether statement S is "D = D - 1", "D -= 1", "D--" or "--D". */
static int ctr_dec(gen_fn *f, const json_t *s, const json_t *d)
{
	const json_t *e = ast_is(s, "expr") ? strip(ast_get(s, "e")) : NULL;
	const json_t *r = strip(ast_get(e, "r"));
	const char *op = ast_str(e, "op");

	if (ast_is(e, "postfix") || ast_is(e, "unop"))
		return ty_streq(op, "--") && is_id_of(f, ast_get(e, "e"), d);
	if (!ast_is(e, "assign") || !is_id_of(f, ast_get(e, "l"), d))
		return 0;
	if (ty_streq(op, "-="))
		return is_lit(r, 1.0);
	return ty_streq(op, "=") && ast_is(r, "binop") &&
		ty_streq(ast_str(r, "op"), "-") &&
		is_id_of(f, ast_get(r, "l"), d) && is_lit(ast_get(r, "r"), 1.0);
}

/* While loop S counted down by a float local as above: the counter's id
 * in the test, its decrement into *DEC; else NULL. */
static const json_t *float_counter(gen_fn *f, const json_t *s,
	const json_t **dec)
{
	static const char *const exits[] = {"break", "continue", "return",
		NULL};
	const json_t *c = strip(ast_get(s, "cond")), *body = ast_get(s, "body");
	const json_t *x = strip(ast_get(c, "l")), *d, *ty;
	json_t *it;
	size_t i;

	*dec = NULL;
	if (!ast_is(s, "while") || !ast_is(c, "binop") ||
			!ty_streq(ast_str(c, "op"), ">") ||
			!is_lit(ast_get(c, "r"), 0.0) || !ast_is(body, "block") ||
			!ast_is(x, "id"))
		return NULL;
	d = gen_decl(f->g, x);
	ty = ast_is(d, "var") ? gen_resolve(f->g, ast_get(d, "type")) : NULL;
	if (!ty || !gen_scalar(ty) || !ty_streq(gen_scalar(ty), "float") ||
			ty_ncomp(ty) != 1)
		return NULL;
	ast_array_foreach(ast_arr(body, "items"), i, it)
		if (ctr_dec(f, it, d)) {
			if (*dec)
				return NULL;
			*dec = it;
		}
	if (!*dec || refs(f, body, d) != refs(f, *dec, d) ||
			gen_uses_any(body, exits))
		return NULL;
	return x;
}

/* Whether index IDX[M] of a gather with N indices is read through the
 * integer copy of V, as gather_offset prints it. */
static int sh_via(gen_fn *f, const json_t **idx, int n, int m,
	const json_t *v)
{
	int c[4];

	if (n == 1 && sh_comps(f, idx[0], v, c) > 1)
		return 1;
	if (n == 1 && ty_ncomp(ety(idx[0])) > 1)
		return 0;
	return n - 1 - m < 4 && sh_comps(f, idx[m], v, c) == 1;
}

/* What N does with V besides its steps V += C: 1 when it reads V other
 * than through the integer copy's gathers; with GATHERS, 1 when it
 * gathers through that copy. */
static int sh_uses(gen_fn *f, const json_t *n, const json_t *v, int gathers)
{
	const char *key;
	json_t *x;
	size_t i;

	if (json_is_array(n)) {
		json_array_foreach(n, i, x)
			if (sh_uses(f, x, v, gathers))
				return 1;
		return 0;
	}
	if (!json_is_object(n) || sh_update(f, n, v))
		return 0;
	if (ast_is(n, "index")) {
		const json_t *idx[8], *p;
		int cnt, m;
		p = param_of(f, index_base(n, idx, &cnt));
		for (m = 0; p && ty_streq(gen_role(p), "gather") && m < cnt;
				m++) {
			if (!sh_via(f, idx, cnt, m, v))
				continue;
			if (gathers)
				return 1;
			idx[m] = NULL;
		}
		if (p && ty_streq(gen_role(p), "gather")) {
			for (m = 0; m < cnt; m++)
				if (idx[m] && sh_uses(f, idx[m], v, gathers))
					return 1;
			return 0;
		}
	}
	if (ast_is(n, "id"))
		return !gathers && gen_decl(f->g, n) == v;
	json_object_foreach((json_t *)n, key, x)
		if (!ty_streq(key, "ty") && sh_uses(f, x, v, gathers))
			return 1;
	return 0;
}

/* The number of statements V += C in N. */
static int sh_nsteps(gen_fn *f, const json_t *n, const json_t *v)
{
	const char *key;
	json_t *x;
	size_t i;
	int r = 0;

	if (json_is_array(n))
		json_array_foreach(n, i, x)
			r += sh_nsteps(f, x, v);
	if (!json_is_object(n))
		return r;
	if (sh_update(f, n, v))
		return 1;
	json_object_foreach((json_t *)n, key, x)
		if (!ty_streq(key, "ty"))
			r += sh_nsteps(f, x, v);
	return r;
}

/* Appends to COND the range tests of the gathers in N through V stepped
 * by C per trip over brg_trip trips: each coordinate inside its axis. */
static void sh_range_conds(gen_fn *f, const json_t *n, const json_t *v,
	const long long *c, strbuf *cond)
{
	const char *key, *L = f->t == GEN_CL ? "long" : "long long";
	const char *vn = ast_str(v, "name");
	json_t *x;
	size_t i;

	if (json_is_array(n)) {
		json_array_foreach(n, i, x)
			sh_range_conds(f, x, v, c, cond);
		return;
	}
	if (!json_is_object(n))
		return;
	if (ast_is(n, "index")) {
		const json_t *idx[8], *p;
		int cnt, m, cs[4], nc, k;
		p = param_of(f, index_base(n, idx, &cnt));
		for (m = 0; p && ty_streq(gen_role(p), "gather") && m < cnt;
				m++) {
			if (!sh_via(f, idx, cnt, m, v))
				continue;
			nc = sh_comps(f, idx[m], v, cs);
			for (k = 0; k < nc; k++) {
				int ax = cnt == 1 ? k : cnt - 1 - m;
				long long s = c[cs[k]];
				strbuf t[2] = {{0}, {0}}, first = {0}, last = {0};
				int e;
				if (ax >= 4)
					continue;
				/* the coordinates of the first and last trips */
				sb_printf(&first, "brg_sh_%s.%c", vn, comp[cs[k]]);
				sb_printf(&last, "(%s)brg_sh_%s.%c + (%s)%lld * "
					"(brg_trip - 1)", L, vn, comp[cs[k]], L, s);
				sb_printf(&t[0], "%s >= 0", s < 0 ? last.s :
					first.s);
				sb_printf(&t[1], "%s < %s_v.dims[%d]", s > 0 ?
					last.s : first.s, ast_str(p, "name"), ax);
				for (e = 0; e < 2; e++) {
					if (!cond->s || !strstr(cond->s, t[e].s))
						sb_printf(cond, " && %s", t[e].s);
					sb_free(&t[e]);
				}
				sb_free(&first);
				sb_free(&last);
			}
		}
	}
	json_object_foreach((json_t *)n, key, x)
		if (!ty_streq(key, "ty"))
			sh_range_conds(f, x, v, c, cond);
}
/* The helper giving T of a counter at the loop's entry (-1 past 2^24,
 * where the loop is not counted). */
static const char *trips_helper(gen_ctx *g, gen_target t)
{
	char fname[32];
	const char *L = long_name(g, t);

	snprintf(fname, sizeof fname, "brg_trips%s", i32_sfx(g, t));
	if (gen_need(g, t, fname))
		sb_printf(&g->help[t], "/* the trips of \"while (f > 0) { ...; "
			"f -= 1; }\": ceil(f), 0 for f <= 0 or NaN, -1 past "
			"2^24 */\n%s%s %s(float f)\n{\n\t%s n;\n"
			"\tif (!(f > 0.0f))\n\t\treturn 0;\n"
			"\tif (!(f <= %d.0f))\n\t\treturn -1;\n"
			"\tn = (%s)f;\n\treturn (float)n < f ? n + 1 : n;\n}\n",
			fnq(t), L, fname, L, SH_EXACT, L);
	return gen_kept(g, fname);
}

/* Shadowed while loop S (shadow_loop, V its float) counted by a float as
 * above: the test of its counted copy in COND, the statements that set
 * i0 and V after it in POST, the counter's decrement into *DEC; 0 when
 * not such a loop. *KEEPF when the copy keeps V's float steps. */
static int sh_counted(gen_fn *f, const json_t *s, const json_t *v,
	strbuf *cond, strbuf *post, const json_t **dec, int *keepf)
{
	static const char *const sfx[5] = {".x", ".y", ".z", ".w", ""};
	const char *L = f->t == GEN_CL ? "long" : "long long";
	const json_t *ctr = float_counter(f, s, dec), *u = NULL, *body;
	long long c[4];
	json_t *it;
	size_t i;
	int m, k, after = 0, nv = ty_ncomp(ast_get(v, "type"));
	strbuf name = {0}, ends = {0};

	if (!ctr)
		return 0;
	body = ast_get(s, "body");
	ast_array_foreach(ast_arr(body, "items"), i, it) {
		if (sh_update(f, it, v)) {
			if (u)
				return 0;
			u = it;
		} else if (u && sh_uses(f, it, v, 1)) {
			after = 1;	/* a gather after the step */
		}
	}
	/* the one step of V at the top of the body, after its gathers */
	if (!u || after || sh_nsteps(f, body, v) != 1 || !const_vals(f,
			ast_get(strip(ast_get(u, "e")), "r"), c, &m, 0) ||
			m != nv)
		return 0;
	*keepf = sh_uses(f, body, v, 0);
	sb_puts(cond, "brg_trip >= 0");
	gen_kexpr(f, &name, ctr);
	sb_printf(post, "%s = %s - (float)brg_trip;", name.s, name.s);
	sb_free(&name);
	gen_kexpr(f, &name, ast_get(strip(ast_get(u, "e")), "l"));
	for (k = 0; k < nv; k++) {
		if (!c[k])
			continue;
		/* the integers stay within 2^24 (exact as floats, no
		   overflow), which also bounds a component no gather reads */
		sb_printf(&ends, " && (%s)brg_sh_%s.%c + (%s)%lld * brg_trip %s "
			"%s%d", L, ast_str(v, "name"), comp[k], L, c[k], c[k] > 0 ?
			"<=" : ">=", c[k] > 0 ? "" : "-", SH_EXACT);
		if (!*keepf)
			sb_printf(post, " %s%s = (float)brg_sh_%s.%c;", name.s,
				sfx[nv > 1 ? k : 4], ast_str(v, "name"),
				comp[k]);
	}
	sb_puts(cond, ends.len ? ends.s : "");
	sb_free(&ends);
	sb_free(&name);
	sh_range_conds(f, body, v, c, &ends);
	if (ends.len)	/* " && ..." */
		sb_printf(cond, " && (brg_trip == 0 || (%s))", ends.s + 4);
	sb_free(&ends);
	return 1;
}

/* " + " component C of the integer copy as the coordinate on axis K of
 * gather NAME: clamped, or as it is in the counted copy (sh_counted). */
static void sh_coord(gen_fn *f, strbuf *b, int c, const char *name, int k)
{
	if (f->sh_fast)
		sb_printf(b, " + brg_sh_%s.%c", ast_str(f->shadow, "name"),
			comp[c]);
	else
		sb_printf(b, " + brg_ci%s(brg_sh_%s.%c, %s_v.dims[%d])",
			i32_sfx(f->g, f->t), ast_str(f->shadow, "name"),
			comp[c], name, k);
}

/* --- coordinates that a gathered value decides ------------------------ */
/* KEY: gdep's key of a declaration's id, ID (a declaration's "id", or an
 * id node's "ref", which names it). */
static void gdep_key(char key[32], const json_t *id)
{
	snprintf(key, 32, "%lld", (long long)json_integer_value(id));
}

/* Whether node N is a gather, or names a local that CTX's (a gen_fn)
 * gdep holds. */
static int gdep_node(const json_t *n, const void *ctx)
{
	gen_fn *f = (gen_fn *)ctx;

	if (ast_is(n, "index")) {
		const json_t *idx[8];
		int cnt;
		const json_t *p = param_of(f, index_base(n, idx, &cnt));
		return p && ty_streq(gen_role(p), "gather");
	}
	if (ast_is(n, "id")) {
		char key[32];
		gdep_key(key, ast_get(n, "ref"));
		return json_object_get(f->gdep, key) != NULL;
	}
	return 0;
}

/* Whether expression E reads a gather, or a local that F->gdep names. */
static int gdep_expr(gen_fn *f, const json_t *e)
{
	return ast_find(e, gdep_node, f) != NULL;
}

/* A pass of gathered_dep over a function's body. */
typedef struct gdep_pass {
	gen_fn *f;
	int more;		/* it marked a local */
} gdep_pass;

/* ast_find's predicate for a pass (CTX): marks in f->gdep the local that
 * node N, an initializer or an assignment, gives a value gdep_expr
 * finds. It never holds, so the pass sees every node. */
static int gdep_mark(const json_t *n, const void *ctx)
{
	gdep_pass *p = (gdep_pass *)ctx;
	const json_t *to = NULL, *from = NULL;
	char key[32];

	if (ast_is(n, "var")) {
		to = n;
		from = ast_get(n, "init");
	} else if (ast_is(n, "assign")) {
		to = target_decl(p->f, ast_get(n, "l"));
		from = ast_get(n, "r");
	}
	if (!to || !from)
		return 0;
	gdep_key(key, ast_get(to, "id"));
	if (!json_object_get(p->f->gdep, key) && gdep_expr(p->f, from)) {
		json_object_set_new(p->f->gdep, key, json_true());
		p->more = 1;
	}
	return 0;
}

/* Whether coordinate E of a gather depends on a value a gather of F's
 * function read: through its own terms or through locals assigned from
 * one, in a loop too (data, not control: a coordinate that an if chose
 * counts as not). A search's next step is such a coordinate, and waits
 * for the last step's read; the row of a matrix product is not. Only a
 * choice of form (brg_cfd against brg_cf), never of value. */
static int gathered_dep(gen_fn *f, const json_t *e)
{
	if (!f->gdep) {
		gdep_pass p = { f, 1 };
		f->gdep = json_object();
		while (p.more) {
			p.more = 0;
			ast_find(ast_get(f->fn, "body"), gdep_mark, &p);
		}
	}
	return gdep_expr(f, e);
}

/* The element offset of gather P[idx..] in its buffer, "(P_v.base + ...)",
 * or with NOBASE from the view's first element where it can, the terms
 * without parentheses (for BRG_GE): 1 when it left the base out. */
static int gather_offset(gen_fn *f, strbuf *b, const json_t *p,
	const json_t **idx, int n, int nobase)
{
	const char *name = ast_str(p, "name");
	int k, c[4], nc;
	strbuf t = {0};		/* the terms, each " + ..." */

	if (n == 1 && (nc = sh_comps(f, idx[0], f->shadow, c)) > 1) {
		/* the integer copy (shadow_loop) */
		for (k = 0; k < nc && k < 4; k++) {
			sh_coord(f, &t, c[k], name, k);
			pitch_term(f->g, f->t, &t, name, k);
		}
	} else if (n == 1 && ty_ncomp(ety(idx[0])) > 1) {
		sb_printf(b, "%s(&%s_v, ", gather_vhelper(f->g, f->t,
			ety(idx[0])), name);
		gen_kexpr(f, b, idx[0]);
		sb_putc(b, ')');
		return 0;
	} else for (k = 0; k < n && k < 4; k++) {
		const json_t *i = idx[n - 1 - k];
		const char *s = gen_scalar(ety(i));
		int flt = s && ty_scalar_is_float(s);
		long long co;
		long ac;
		if (sh_comps(f, i, f->shadow, c) == 1) {
			sh_coord(f, &t, c[0], name, k);
		} else if (ctr_off(f, f->fast_ctr, i, &co)) {
			/* inside: the counted loop's test (counted_loop) */
			sb_printf(&t, " + (%s)(", long_name(f->g, f->t));
			gen_kexpr(f, &t, i);
			sb_putc(&t, ')');
		} else if (f->unclamped && gen_aff_value(f->g->aff, i, &ac)) {
			/* a row interior: inside the array (gen_affine.c) */
			sb_printf(&t, " + (brg_X + %ld)", ac);
		} else if (gen_group_inside(f, i)) {
			/* a group's phase that tested it (gen_group.c) */
			sb_printf(&t, " + (%s)(", long_name(f->g, f->t));
			gen_kexpr(f, &t, i);
			sb_putc(&t, ')');
		} else {
			int uns = unsigned_index(s);
			int dep = flt && f->t == GEN_CL && gathered_dep(f, i);
			sb_printf(&t, " + brg_c%s%s((%s)(", dep ? "fd" : flt ?
				"f" : uns ? "u" : "i", i32_sfx(f->g, f->t), flt ?
				"float" : uns ? "BRG_UL" : long_name(f->g, f->t));
			gen_kexpr(f, &t, i);
			sb_printf(&t, "), %s_v.dims[%d])", name, k);
		}
		pitch_term(f->g, f->t, &t, name, k);
	}
	nobase = nobase && t.len > 3;
	if (nobase)
		sb_puts(b, t.s + 3);
	else
		sb_printf(b, "(%s_v.base%s)", name, t.len ? t.s : "");
	sb_free(&t);
	return nobase;
}

/* The element offset of a gather or scatter access P[idx..]; NOBASE as
 * gather_offset's, and its value. */
static int access_index(gen_fn *f, strbuf *b, const json_t *p,
	const json_t **idx, int n, int scatter, int nobase)
{
	const char *name = ast_str(p, "name");
	char site[64] = "";
	int k;

	if (f->g->o && f->g->o->checked && !f->copy_in)
		snprintf(site, sizeof site, "%s", checked_site(f, idx[0], p,
			scatter));
	if (!site[0] && !scatter)
		return gather_offset(f, b, p, idx, n, nobase);
	if (n == 1 && ty_ncomp(ety(idx[0])) > 1) {
		const json_t *vty = ety(idx[0]);
		int flt = ty_scalar_is_float(gen_scalar(vty));
		if (!site[0]) {
			sb_printf(b, "%s(&%s_v, ", vidx_helper(f->g, f->t,
				vty, scatter), name);
			gen_kexpr(f, b, idx[0]);
			sb_putc(b, ')');
			return 0;
		}
		/* checked: the components through the site's function */
		sb_printf(b, "brg_vsite_%s_%s(brg_cx.rec, &%s_v, ", site,
			tname(f->t, vty), name);
		gen_kexpr(f, b, idx[0]);
		sb_putc(b, ')');
		sb_printf(&f->g->help[f->t], "%s%s brg_vsite_%s_%s(BRG_REC "
			"*r, const %s *v, %s i) { return %s(r, v", fnq(f->t),
			long_name(f->g, f->t), site, tname(f->t, vty),
			view_name(f->g, f->t), tname(f->t, vty), site);
		for (k = 0; k < 4; k++) {
			if (k >= ty_ncomp(vty))
				sb_puts(&f->g->help[f->t], ", 0");
			else if (flt)
				sb_printf(&f->g->help[f->t], ", brg_fi%s((float)"
					"i.%c)", i32_sfx(f->g, f->t), comp[k]);
			else
				sb_printf(&f->g->help[f->t], ", (%s)i.%c",
					long_name(f->g, f->t), comp[k]);
		}
		sb_puts(&f->g->help[f->t], "); }\n");
		return 0;
	}
	if (site[0])
		sb_printf(b, "%s(brg_cx.rec, &%s_v", site, name);
	else
		sb_printf(b, "brg_%sidx%s(&%s_v", scatter ? "s" : "g",
			i32_sfx(f->g, f->t), name);
	for (k = 0; k < 4; k++) {
		sb_puts(b, ", ");
		if (k < n)
			idx_scalar(f, b, idx[n - 1 - k]);
		else
			sb_putc(b, '0');
	}
	sb_putc(b, ')');
	return 0;
}

/* Reads element IDX (an expression already printed) of buffer PTR holding
 * elements of type TY. OpenCL reads 3-vectors with vload3 from the packed
 * layout and structs field by field. */
void gen_load(gen_ctx *g, gen_target t, strbuf *b, const json_t *ty,
	const char *ptr, const char *idx);
void gen_load(gen_ctx *g, gen_target t, strbuf *b, const json_t *ty,
	const char *ptr, const char *idx)
{
	ty = gen_resolve(g, ty);
	if (t == GEN_CL && ty_ncomp(ty) == 3)
		sb_printf(b, "vload3(%s, %s)", idx, ptr);
	else if (t == GEN_CL && !gen_scalar(ty))
		sb_printf(b, "brg_ld_%s(%s, %s)", ast_str(ty, "tag"), ptr, idx);
	else
		sb_printf(b, "%s[%s]", ptr, idx);
}

void gen_store(gen_ctx *g, gen_target t, strbuf *b, const json_t *ty,
	const char *ptr, const char *idx, const char *val);
void gen_store(gen_ctx *g, gen_target t, strbuf *b, const json_t *ty,
	const char *ptr, const char *idx, const char *val)
{
	ty = gen_resolve(g, ty);
	if (t == GEN_CL && ty_ncomp(ty) == 3)
		sb_printf(b, "vstore3(%s, %s, %s)", val, idx, ptr);
	else if (t == GEN_CL && !gen_scalar(ty))
		sb_printf(b, "brg_st_%s(%s, %s, %s)", ast_str(ty, "tag"), ptr,
			idx, val);
	else
		sb_printf(b, "%s[%s] = %s", ptr, idx, val);
}

static void gather_read(gen_fn *f, strbuf *b, const json_t *p,
	const json_t **idx, int n)
{
	strbuf ix = {0};
	const char *name = ast_str(p, "name");
	const json_t *el = gen_resolve(f->g, gen_elem(f->g, ast_get(p,
		"type")));
	/* OpenCL's "P[i]" (gen_load; not its 3-vectors and structs, which
	   count in scalars and bytes) through BRG_GE */
	int ge = f->t == GEN_CL && ty_ncomp(el) != 3 && gen_scalar(el);

	if (access_index(f, &ix, p, idx, n, 0, ge))
		sb_printf(b, "BRG_GE(%s, %s_v.base, %s)", name, name, ix.s);
	else
		gen_load(f->g, f->t, b, el, name, ix.s);
	sb_free(&ix);
}

/* out T s[] ... s[i] = v: an index outside the array drops the write.
 * PRE, when not NULL, is printed first inside the statement (a value
 * computed before the index). */
static void scatter_open(gen_fn *f, strbuf *b, const json_t *p,
	const json_t **idx, int n, const char *pre)
{
	strbuf ix = {0};

	access_index(f, &ix, p, idx, n, 1, 0);
	/* one statement, so that "if (c) b[i] = x; else ..." stays one;
	   --checked tags the element with its writer (brt.h, write owners) */
	sb_printf(b, "do { %s%s brg_k = %s; if (brg_k >= 0", pre ? pre : "",
		long_name(f->g, f->t), ix.s);
	if (f->g->o && f->g->o->checked)
		sb_printf(b, " && brg_wrote%s(brg_cx, brg_k, %d)",
			i32_sfx(f->g, f->t), site_index(f, idx[0],
			ast_str(p, "name"), BRT_SITE_SCATTER));
	sb_puts(b, ") ");
	sb_free(&ix);
}

/* ... and the write dropped, recorded for the stream's error log (brt.h,
 * brt_records). */
static void scatter_close(gen_fn *f, strbuf *b, const json_t *p)
{
	sb_printf(b, " else brg_drop%s(brg_cx.rec, &%s_v); } while (0)",
		i32_sfx(f->g, f->t), ast_str(p, "name"));
}

static void scatter_write(gen_fn *f, strbuf *b, const json_t *p,
	const json_t **idx, int n, const json_t *val)
{
	strbuf v = {0}, pre = {0};
	const json_t *el = gen_elem(f->g, ast_get(p, "type"));
	int first = f->g->o && f->g->o->checked;

	gen_kconv(f, &v, val, el);
	if (first) {
		/* the value even where the write is dropped, as the program
		   reads: its gathers are checked (brrun's interpreter too) */
		gen_type(f->g, f->t, &pre, el, "brg_sv");
		sb_printf(&pre, " = %s; ", v.s);
	}
	scatter_open(f, b, p, idx, n, pre.s);
	gen_store(f->g, f->t, b, el, ast_str(p, "name"), "brg_k",
		first ? "brg_sv" : v.s);
	sb_putc(b, ';');
	scatter_close(f, b, p);
	sb_free(&v);
	sb_free(&pre);
}

static void print_name(gen_fn *f, strbuf *b, const json_t *e)
{
	const json_t *d = gen_decl(f->g, e);
	const char *name = ast_str(e, "name");

	if (d && f->names) {
		char k[32];
		json_t *m;
		util_lltoa(k, ast_int(d, "id"));
		m = json_object_get(f->names, k);
		if (json_is_string(m)) {
			sb_puts(b, json_string_value(m));
			return;
		}
	}
	sb_puts(b, name);
}

static void print_swizzle(gen_fn *f, strbuf *b, const json_t *e)
{
	const json_t *base = ast_get(e, "e");
	const json_t *sw = ast_get(e, "swizzle");
	char letters[8];

	swz_letters(sw, letters);
	if (f->t == GEN_CPU && strlen(letters) > 1) {
		sb_printf(b, "%s(", cpu_swz(f->g, ety(base), letters, 0));
		gen_kexpr(f, b, base);
		sb_putc(b, ')');
		return;
	}
	gen_kexpr(f, b, base);
	sb_printf(b, ".%s", letters);
}

/* ---- shared arrays kept by components (gen_group.c, gen_soa_plan) ---- */

/* The shared array by components that full index chain E indexes, its
 * indices into IDX (slowest first) and their number into N; else NULL. */
static const json_t *soa_chain(gen_fn *f, const json_t *e,
	const json_t **idx, int *n)
{
	const json_t *base, *d;

	e = strip(e);
	if (!f->soa || !ast_is(e, "index"))
		return NULL;
	base = index_base(e, idx, n);
	d = ast_is(base, "id") ? gen_decl(f->g, base) : NULL;
	return gen_soa_is(f->soa, d) && gen_rank(f->g, ast_get(d, "type")) ==
		*n ? d : NULL;
}

/* Component C of the element of D at IDX[0..N). */
static void soa_comp(gen_fn *f, strbuf *b, const json_t *d,
	const json_t **idx, int n, int c)
{
	int k;

	sb_printf(b, "brg_soa_%s_%c", ast_str(d, "name"), comp[c & 3]);
	for (k = 0; k < n; k++) {
		sb_putc(b, '[');
		idx_scalar(f, b, idx[k]);
		sb_putc(b, ']');
	}
}

/* E, an element of a shared array by components or a swizzle of one:
 * its component, or the vector of its components. */
static int soa_expr(gen_fn *f, strbuf *b, const json_t *e)
{
	const json_t *idx[8], *d, *el, *sw = NULL;
	int n, m, c;

	if (ast_is(e, "member") && json_is_array(ast_get(e, "swizzle"))) {
		sw = ast_get(e, "swizzle");
		d = soa_chain(f, ast_get(e, "e"), idx, &n);
	} else {
		d = ast_is(e, "index") ? soa_chain(f, e, idx, &n) : NULL;
	}
	if (!d)
		return 0;
	el = gen_elem(f->g, ast_get(d, "type"));
	m = sw ? (int)json_array_size(sw) : ty_ncomp(el);
	if (sw && m == 1) {
		soa_comp(f, b, d, idx, n, (int)json_integer_value(
			json_array_get(sw, 0)));
		return 1;
	}
	sb_printf(b, "%s_(", gen_arith_name(f->t, gen_scalar(el), m));
	for (c = 0; c < m; c++) {
		if (c)
			sb_puts(b, ", ");
		soa_comp(f, b, d, idx, n, sw ? (int)json_integer_value(
			json_array_get(sw, (size_t)c)) : c);
	}
	sb_putc(b, ')');
	return 1;
}

/* Statement expression E, when it is a plain assignment of a whole
 * element of a shared array by components: the value once, then its
 * components. */
static int soa_store(gen_fn *f, strbuf *b, const json_t *e)
{
	const json_t *idx[8], *d, *el;
	int n, c;

	e = strip(e);
	if (!f->soa || !ast_is(e, "assign") || !ty_streq(ast_str(e, "op"),
			"=") || !(d = soa_chain(f, ast_get(e, "l"), idx, &n)))
		return 0;
	el = gen_elem(f->g, ast_get(d, "type"));
	sb_puts(b, "do { ");
	gen_type(f->g, f->t, b, el, "brg_sv");
	sb_puts(b, " = ");
	gen_kconv(f, b, ast_get(e, "r"), el);
	sb_puts(b, "; ");
	for (c = 0; c < ty_ncomp(el); c++) {
		soa_comp(f, b, d, idx, n, c);
		sb_printf(b, " = brg_sv.%c; ", comp[c]);
	}
	sb_puts(b, "} while (0)");
	return 1;
}

static const json_t *callee(gen_fn *f, const json_t *e)
{
	return gen_decl(f->g, strip(ast_get(e, "fn")));
}

static const char *call_name(const json_t *e)
{
	const char *b = ast_str(e, "builtin");
	return b[0] ? b : ast_str(strip(ast_get(e, "fn")), "name");
}

static void builtin_call(gen_fn *f, strbuf *b, const json_t *e)
{
	const char *name = call_name(e);
	const ty_builtin *bi = ty_builtin_find(name);
	json_t *args = ast_arr(e, "args");
	const json_t *T = ety(e);
	json_t *own = NULL;
	size_t i;
	json_t *a;

	if (ty_streq(name, "instance")) {
		sb_puts(b, "brg_cx.inst");
		return;
	}
	if (!f->group && (ty_streq(name, "instanceInGroup") ||
			ty_streq(name, "syncGroup"))) {
		/* brcheck refuses them in other kernels; a subkernel has
		   neither its caller's group nor its phases */
		gen_error(f->g, e, "E-gen-group-sub", "%s() in a subkernel: "
			"call it in the group kernel's own body", name);
		return;
	}
	if (ty_streq(name, "instanceInGroup")) {
		sb_puts(b, "brg_ing");
		return;
	}
	if (ty_streq(name, "syncGroup")) {
		if (f->t == GEN_CL)
			sb_puts(b, "barrier(CLK_LOCAL_MEM_FENCE | "
				"CLK_GLOBAL_MEM_FENCE)");
		else
			sb_puts(b, "(void)0");
		return;
	}
	if (!bi) {
		gen_error(f->g, e, "E-gen-builtin",
			"built-in function '%s' is not supported in kernels",
			name);
		return;
	}
	if (bi->sig == TY_B_DOT || bi->sig == TY_B_LENGTH ||
			bi->sig == TY_B_PRED) {
		/* the type brcheck converts the arguments to */
		own = json_incref((json_t *)ast_args_type(args));
		/* dot, length, distance, isnan, isinf and isfinite of
		   integers, which brcheck -a allows, work on the floats
		   they convert to (W-builtin-float), as brcheck types
		   them: OpenCL C has no sqrt or isnan of an int */
		if (gen_scalar(own) &&
				!ty_scalar_is_float(gen_scalar(own))) {
			json_t *fl = mkty("float", ty_ncomp(own));
			json_decref(own);
			own = fl;
		}
		T = own;
	}
	if (!gen_scalar(T)) {
		gen_error(f->g, e, "E-gen-builtin",
			"no type for built-in function '%s'", name);
		json_decref(own);
		return;
	}
	sb_printf(b, "%s(", builtin_helper(f->g, f->t, name, gen_scalar(T),
		ty_ncomp(T), (int)json_array_size(args)));
	json_array_foreach(args, i, a) {
		if (i)
			sb_puts(b, ", ");
		gen_kconv(f, b, a, T);
	}
	sb_putc(b, ')');
	json_decref(own);
}

/* The scatter parameter whose element (or a field or components of it) L
 * names, or NULL. */
static const json_t *scatter_root(gen_fn *f, const json_t *l)
{
	const json_t *x = strip(l), *idx[8], *p;
	int n;

	while (ast_is(x, "member"))
		x = strip(ast_get(x, "e"));
	if (!ast_is(x, "index"))
		return NULL;
	p = param_of(f, index_base(x, idx, &n));
	return p && ty_streq(gen_role(p), "scatter") ? p : NULL;
}

/* E-gen-scatter-place: E, a write to a scatter array's element, is not
 * an expression statement of its own (brcheck's E-scatter-place): its
 * test of the index is a statement. */
static int scatter_misplaced(gen_fn *f, const json_t *e)
{
	if (strip(e) == f->discard)
		return 0;
	gen_error(f->g, e, "E-gen-scatter-place", "a write to a scatter "
		"array must be an expression statement of its own");
	return 1;
}

static void assign(gen_fn *f, strbuf *b, const json_t *e);
static void sub_call_args(gen_fn *f, strbuf *b, const json_t *e);

static int effect_node(const json_t *n, const void *ctx)
{
	const char *op = ast_str(n, "op");

	(void)ctx;
	if (ast_is(n, "assign") || ast_is(n, "postfix"))
		return 1;
	if (ast_is(n, "unop"))
		return ty_streq(op, "++") || ty_streq(op, "--");
	return ast_is(n, "call") && !ast_str(n, "builtin")[0];
}

/* Whether E has a side effect (an assignment, ++ or --, a subkernel's
 * call): printed twice, it would run twice. */
static int has_effect(const json_t *e)
{
	return ast_find(e, effect_node, NULL) != NULL;
}

/* Prints L OP R (R consumed), an assignment brgen makes, at E's place, as
 * an expression statement of its own: sub_call's write back of a copy,
 * and x++ taken as x += 1. */
static void made_assign(gen_fn *f, strbuf *b, const json_t *e,
	const char *op, const json_t *l, json_t *r)
{
	const json_t *saved = f->discard;
	json_t *ne = json_pack("{s:s, s:O*, s:s, s:O, s:o, s:O}", "k",
		"assign", "at", ast_get(e, "at"), "op", op, "l", l, "r", r, "ty",
		ety(l));

	f->discard = ne;
	assign(f, b, ne);
	f->discard = saved;
	json_decref(ne);
}

/* Whether parameter P of a subkernel writes its argument A. */
static int writes_arg(const json_t *p)
{
	const char *role = gen_role(p);
	return ty_streq(role, "out") || ty_streq(role, "reduce");
}

/* Whether A, an out argument in OpenCL C, lies in local memory: an
 * element of a shared array, or a group kernel's variable that a CPU
 * device keeps there (BRG_LV, gen_entry.c). A subkernel's out parameter
 * is a private pointer. */
static int local_arg(gen_fn *f, const json_t *a)
{
	const json_t *d;
	char k[32];
	json_t *m;

	if (f->t != GEN_CL || !f->group || !(d = target_decl(f, a)))
		return 0;
	if (gen_has_qual(d, "shared"))
		return 1;
	util_lltoa(k, ast_int(d, "id"));
	m = json_object_get(f->names, k);
	return json_is_string(m) && !strncmp(json_string_value(m), "BRG_LV(",
		7);
}

/* Whether the out argument A of parameter P goes through a copy. */
static int copied_arg(gen_fn *f, const json_t *p, const json_t *a)
{
	return writes_arg(p) && (scatter_root(f, a) || local_arg(f, a));
}

/* The copies brg_wN of call E's out arguments that copied_arg picks:
 * declared and read in (BACK 0), or written back (BACK 1). */
static void copies(gen_fn *f, strbuf *b, const json_t *e, int back)
{
	json_t *params = ast_arr(ast_get(callee(f, e), "type"), "params");
	json_t *args = ast_arr(e, "args"), *p;
	const json_t *a;
	size_t i;
	char nm[32];

	json_array_foreach(params, i, p) {
		a = json_array_get(args, i);
		if (!copied_arg(f, p, a))
			continue;
		snprintf(nm, sizeof nm, "brg_w%zu", i);
		/* (the index of a shared array's element has none:
		   brcheck's E-shared-offset) */
		if (has_effect(a) && !back) {
			gen_error(f->g, a, "E-gen-effect-target", "an out "
				"argument in a scatter array whose index has a "
				"side effect: brgen reads it in and writes it back, "
				"testing the index each time; compute the index "
				"first");
			continue;
		}
		if (!back) {
			gen_type(f->g, f->t, b, ety(a), nm);
			sb_puts(b, " = ");
			/* --checked reports the write back, as for o[i] += v,
			   not this read */
			f->copy_in = 1;
			gen_kexpr(f, b, a);
			f->copy_in = 0;
			sb_puts(b, "; ");
			continue;
		}
		made_assign(f, b, a, "=", a, json_pack("{s:s, s:s, s:O}", "k",
			"id", "name", nm, "ty", ety(a)));
		sb_puts(b, "; ");
	}
}

/* A call of another kernel or reduce function (spec 4.3: subkernels are
 * expanded inline; here a function call the compilers inline). An out
 * argument that is a scatter array's element goes through a copy,
 * brg_wN, written back where its index is inside the array, and one in
 * local memory (local_arg) through a copy written back: the call is then
 * a statement (brcheck's E-scatter-place, E-group-sub-out). */
static void sub_call(gen_fn *f, strbuf *b, const json_t *e)
{
	const json_t *fn = callee(f, e);
	json_t *params = ast_arr(ast_get(fn, "type"), "params");
	json_t *args = ast_arr(e, "args"), *p;
	const json_t *a;
	size_t i;
	int ncopies = 0, scatters = 0;

	json_array_foreach(params, i, p) {
		a = json_array_get(args, i);
		ncopies += copied_arg(f, p, a);
		scatters += writes_arg(p) && scatter_root(f, a);
	}
	if (!ncopies) {
		sub_call_args(f, b, e);
		return;
	}
	if (scatters && scatter_misplaced(f, e))
		return;
	if (strip(e) != f->discard) {
		gen_error(f->g, e, "E-gen-sub-out", "an out argument in local "
			"memory: call the subkernel as an expression statement of "
			"its own");
		return;
	}
	sb_puts(b, "do { ");
	copies(f, b, e, 0);
	sub_call_args(f, b, e);
	sb_puts(b, "; ");
	copies(f, b, e, 1);
	sb_puts(b, "} while (0)");
}

/* The call of sub_call, its arguments in place, or brg_wN where sub_call
 * made a copy. */
static void sub_call_args(gen_fn *f, strbuf *b, const json_t *e)
{
	const json_t *fn = callee(f, e);
	json_t *params = ast_arr(ast_get(fn, "type"), "params");
	json_t *args = ast_arr(e, "args"), *p;
	json_t *idx = json_object_get(f->g->idxof, ast_str(fn, "name"));
	size_t i;
	int first = 1;

	sb_printf(b, "%s__body%s(", ast_str(fn, "name"), i32_sfx(f->g, f->t));
	json_array_foreach(params, i, p) {
		const json_t *a = json_array_get(args, i);
		const char *role = gen_role(p);
		const json_t *ap = param_of(f, a);
		if (!first)
			sb_puts(b, ", ");
		first = 0;
		if (copied_arg(f, p, a)) {
			sb_printf(b, "&brg_w%zu", i);
		} else if (writes_arg(p)) {
			sb_puts(b, "&(");
			gen_kexpr(f, b, a);
			sb_putc(b, ')');
		} else if (ty_streq(role, "gather") ||
				ty_streq(role, "scatter")) {
			if (!ap || (!ty_streq(gen_role(ap), "gather") &&
					!ty_streq(gen_role(ap), "scatter"))) {
				gen_error(f->g, a, "E-gen-subkernel-array",
					"an array argument of a subkernel must "
					"be an array parameter");
				continue;
			}
			sb_printf(b, "%s, %s_v", ast_str(ap, "name"),
				ast_str(ap, "name"));
		} else {
			gen_kconv(f, b, a, ty_streq(role, "in") ?
				gen_elem(f->g, ast_get(p, "type")) :
				gen_resolve(f->g, ast_get(p, "type")));
		}
	}
	json_array_foreach(params, i, p) {
		const json_t *a = json_array_get(args, i);
		const json_t *ap = param_of(f, a);
		json_t *mine = json_object_get(f->g->idxof,
			ast_str(f->fn, "name"));
		if (!json_object_get(idx, ast_str(p, "name")))
			continue;
		if (!first)
			sb_puts(b, ", ");
		first = 0;
		if (ap && json_object_get(mine, ast_str(ap, "name")) &&
				!f->group)
			sb_printf(b, "%s__idx", ast_str(ap, "name"));
		else
			sb_puts(b, "brg_posf(brg_cx)");
	}
	sb_printf(b, "%sbrg_cx)", first ? "" : ", ");
}

static void call(gen_fn *f, strbuf *b, const json_t *e)
{
	const char *k = ast_str(e, "callee");
	const json_t *fn = callee(f, e);

	if (ty_streq(k, "builtin") || (!fn && ty_builtin_find(
			call_name(e))) || ty_streq(call_name(e), "instance") ||
			ty_streq(call_name(e), "instanceInGroup") ||
			ty_streq(call_name(e), "syncGroup")) {
		builtin_call(f, b, e);
		return;
	}
	if (fn && ast_is(fn, "func") && ast_get(fn, "body") &&
			!json_is_null(ast_get(fn, "body"))) {
		sub_call(f, b, e);
		return;
	}
	gen_error(f->g, e, "E-gen-call",
		"kernel code can call only kernels and built-in functions");
}

static void ctor(gen_fn *f, strbuf *b, const json_t *e)
{
	const json_t *ty = ety(e) ? ety(e) : ast_get(e, "type");
	const char *s = gen_scalar(ty);
	json_t *st;
	size_t i;
	json_t *a;

	if (!s) {
		gen_error(f->g, e, "E-gen-ctor", "not a vector constructor");
		return;
	}
	st = mkty(s, 1);
	if (f->t == GEN_CL)
		sb_printf(b, "(%s)(", tname(f->t, ty));
	else
		sb_printf(b, "%s_(", tname(f->t, ty));
	ast_array_foreach(ast_arr(e, "args"), i, a) {
		if (i)
			sb_puts(b, ", ");
		if (ty_ncomp(ety(a)) > 1 && f->t == GEN_CL)
			gen_kconv(f, b, a, mkty(s, ty_ncomp(ety(a))));
		else
			gen_kconv(f, b, a, st);
	}
	sb_putc(b, ')');
	json_decref(st);
}

static void indexof_expr(gen_fn *f, strbuf *b, const json_t *e)
{
	const json_t *p = param_of(f, ast_get(e, "e"));
	json_t *mine = json_object_get(f->g->idxof, ast_str(f->fn, "name"));

	if (p && json_object_get(mine, ast_str(p, "name")) && !f->group)
		sb_printf(b, "%s__idx", ast_str(p, "name"));
	else
		sb_puts(b, "brg_posf(brg_cx)");
}

static int is_swizzle(const json_t *e)
{
	e = strip(e);
	return ast_is(e, "member") && json_array_size(ast_get(e, "swizzle")) >
		1;
}

static void assign(gen_fn *f, strbuf *b, const json_t *e);

/* out T o[] ... o[i].a = v, a field or components of an element, and
 * o[i] op= v: as in scatter_write, an index outside the array drops the
 * write. The assignment is printed again on the element: o[k] itself,
 * or on OpenCL, where a struct or a 3-vector element is no lvalue
 * (brg_ld_TAG, vload3), a copy written back whole. */
static int scatter_member(gen_fn *f, strbuf *b, const json_t *e)
{
	const json_t *l = strip(ast_get(e, "l")), *x = l, *y, *idx[8], *p;
	const json_t *el;
	json_t *top = NULL, *cur = NULL, *c, *ne, *id;
	strbuf elem = {0}, pre = {0};
	const char *name;
	int n, copy;

	while (ast_is(x, "member"))
		x = strip(ast_get(x, "e"));
	if (!ast_is(x, "index") || (x == l && ty_streq(ast_str(e, "op"), "=")))
		return 0;
	p = param_of(f, index_base(x, idx, &n));
	if (!p || !ty_streq(gen_role(p), "scatter"))
		return 0;
	if (scatter_misplaced(f, e))
		return 1;
	name = ast_str(p, "name");
	el = gen_elem(f->g, ast_get(p, "type"));
	copy = f->t == GEN_CL && (!gen_scalar(el) || ty_ncomp(el) == 3);
	ne = json_copy((json_t *)e);
	if (f->g->o && f->g->o->checked && ast_get(ast_get(e, "r"), "ty")) {
		/* the value first, as in scatter_write */
		const json_t *rty = ast_get(ast_get(e, "r"), "ty");
		gen_type(f->g, f->t, &pre, rty, "brg_sv");
		sb_puts(&pre, " = ");
		gen_kexpr(f, &pre, ast_get(e, "r"));
		sb_puts(&pre, "; ");
		json_object_set_new(ne, "r", json_pack("{s:s, s:s, s:O}", "k",
			"id", "name", "brg_sv", "ty", rty));
	}
	scatter_open(f, b, p, idx, n, pre.s);
	sb_puts(b, "{ ");
	if (copy) {
		gen_type(f->g, f->t, b, el, "brg_e");
		sb_puts(b, " = ");
		gen_load(f->g, f->t, b, el, name, "brg_k");
		sb_puts(b, "; ");
		sb_puts(&elem, "brg_e");
	} else {
		sb_printf(&elem, "%s[brg_k]", name);
	}
	for (y = l; ast_is(y, "member"); y = strip(ast_get(y, "e"))) {
		c = json_copy((json_t *)y);
		if (cur)
			json_object_set_new(cur, "e", c);
		else
			top = c;
		cur = c;
	}
	id = json_pack("{s:s, s:s, s:O}", "k", "id", "name", elem.s, "ty",
		ast_get(x, "ty"));
	if (cur)
		json_object_set_new(cur, "e", id);
	else
		top = id;
	json_object_set_new(ne, "l", top);
	assign(f, b, ne);
	sb_puts(b, "; ");
	if (copy) {
		gen_store(f->g, f->t, b, el, name, "brg_k", "brg_e");
		sb_puts(b, "; ");
	}
	sb_putc(b, '}');
	scatter_close(f, b, p);
	json_decref(ne);
	sb_free(&elem);
	sb_free(&pre);
	return 1;
}

/* L op= R (BOP the op), statement E, whose forms below print L twice
 * (L = L op R through a helper) where L has a side effect (t[i++] /= k):
 * through a pointer to L, or to the vector whose components L selects,
 * taken once, as C evaluates L once. */
static void once_assign(gen_fn *f, strbuf *b, const json_t *e,
	const json_t *l, const json_t *r, const char *bop)
{
	const json_t *sl = strip(l);
	int sw = ast_is(sl, "member") && json_is_array(ast_get(sl,
		"swizzle"));
	const json_t *x = sw ? strip(ast_get(sl, "e")) : sl;
	const json_t *lt = ety(l);
	json_t *ref, *tgt;

	if (strip(e) != f->discard) {
		gen_error(f->g, e, "E-gen-effect-target", "the target of '%s' "
			"has a side effect, and brgen takes its address to "
			"evaluate it once: make the assignment a statement of "
			"its own, or compute the index first", ast_str(e, "op"));
		return;
	}
	sb_puts(b, "do { ");
	if (f->t == GEN_CL && local_arg(f, x))
		sb_puts(b, "__local ");
	gen_type(f->g, f->t, b, ety(x), "*brg_lp");
	sb_puts(b, " = &(");
	gen_kexpr(f, b, x);
	sb_puts(b, "); ");
	ref = json_pack("{s:s, s:s, s:O}", "k", "id", "name", "(*brg_lp)",
		"ty", ety(x));
	tgt = !sw ? json_incref(ref) : json_pack("{s:s, s:O, s:O, s:O}",
		"k", "member", "e", ref, "swizzle", ast_get(sl, "swizzle"),
		"ty", lt);
	if (f->t == GEN_CPU && is_swizzle(sl)) { /* a CPU vector's components */
		char letters[8];
		swz_letters(ast_get(sl, "swizzle"), letters);
		sb_printf(b, "%s(brg_lp, ", cpu_swz(f->g, ety(x), letters, 1));
		binop(f, b, bop, tgt, r, lt);
		sb_putc(b, ')');
	} else {
		gen_kexpr(f, b, tgt);
		sb_puts(b, " = ");
		binop(f, b, bop, tgt, r, lt);
	}
	sb_puts(b, "; } while (0)");
	json_decref(tgt);
	json_decref(ref);
}

static void assign(gen_fn *f, strbuf *b, const json_t *e)
{
	const char *op = ast_str(e, "op");
	const json_t *l = strip(ast_get(e, "l")), *r = ast_get(e, "r");
	const json_t *lt = ety(l);
	const json_t *idx[8];
	int n;
	const json_t *base = index_base(l, idx, &n);
	const json_t *p = n ? param_of(f, base) : NULL;
	char bop[4];

	snprintf(bop, sizeof bop, "%.*s", (int)strlen(op) - 1, op);
	if (scatter_member(f, b, e))
		return;
	if (p && ty_streq(gen_role(p), "scatter")) {
		if (!scatter_misplaced(f, e))
			scatter_write(f, b, p, idx, n, r);
		return;
	}
	if (f->t == GEN_CPU && is_swizzle(l) && !ty_streq(op, "=") &&
			has_effect(ast_get(l, "e"))) {
		once_assign(f, b, e, l, r, bop);
		return;
	}
	if (f->t == GEN_CPU && is_swizzle(l)) {
		char letters[8];
		const json_t *vb = ast_get(l, "e");
		swz_letters(ast_get(l, "swizzle"), letters);
		sb_printf(b, "%s(&(", cpu_swz(f->g, ety(vb), letters, 1));
		gen_kexpr(f, b, vb);
		sb_puts(b, "), ");
		if (ty_streq(op, "="))
			gen_kconv(f, b, r, lt);
		else
			binop(f, b, bop, l, r, lt);
		sb_putc(b, ')');
		return;
	}
	if ((f->t == GEN_CPU && ty_ncomp(lt) > 1 && !ty_streq(op, "=")) ||
			(!plain_divisor(r) && idiv_op(bop, gen_scalar(lt))) ||
			cl_ivec_op(f, bop, lt)) {
		/* x /= y and x %= y of integers through the helpers too, and
		 * x += y of integer vectors in OpenCL C (cl_ivec_op) */
		if (has_effect(l)) {
			once_assign(f, b, e, l, r, bop);
			return;
		}
		gen_kexpr(f, b, l);
		sb_puts(b, " = ");
		binop(f, b, bop, l, r, lt);
		return;
	}
	int sm = f->t == GEN_CPU && is_shift(bop) ?
		shift_mask(gen_scalar(lt), 1) : 0;
	gen_kexpr(f, b, l);
	sb_printf(b, " %s ", op);
	if (sm) {
		sb_puts(b, "((");
		scalar_operand(f, b, r, lt);
		sb_printf(b, ") & %d)", sm);
	} else if (is_shift(bop) && ty_ncomp(lt) == 1) {
		scalar_operand(f, b, r, lt);
	} else if (is_shift(bop) || !ty_ncomp(lt)) {
		gen_kexpr(f, b, r);
	} else {
		gen_kconv(f, b, r, lt);
	}
}

/* CPU: the helpers of x +- 1 on vector type VTY (OP '+' or '-'): *ADD
 * (brg_add_T or brg_sub_T) and *ONE (the splat of a number into T). */
static void cpu_step(gen_ctx *g, const json_t *vty, char op,
	const char **add, const char **one)
{
	json_t *s = mkty(gen_scalar(vty), 1);

	*add = vec_op(g, GEN_CPU, op == '+' ? "add" : "sub", op == '+' ?
		"+" : "-", 'b', vty, vty);
	*one = cpu_cvt(g, s, vty);
	json_decref(s);
}

/* brg_{pre,post}{inc,dec}_T(T *p): *p +- 1, giving the value after (pre)
 * or before (post). */
static const char *incdec_helper(gen_fn *f, const json_t *vty,
	const char *op, int postfix)
{
	char fname[96];
	strbuf *h = &f->g->help[f->t];
	const char *V = tname(f->t, vty);

	snprintf(fname, sizeof fname, "brg_%s%s_%s", postfix ? "post" :
		"pre", op[0] == '+' ? "inc" : "dec", V);
	/* the helpers it calls first, before its own offset is taken
	   (gen_need; gen.c, piece_sound) */
	const char *add = NULL, *splat = NULL;
	if (f->t == GEN_CPU)
		cpu_step(f->g, vty, op[0], &add, &splat);
	if (!gen_need(f->g, f->t, fname))
		return gen_kept(f->g, fname);
	if (f->t == GEN_CL) {
		sb_printf(h, "%s %s(%s *p) { %s o = *p; *p = o %c (%s)(1); "
			"return %s; }\n", V, fname, V, V, op[0], V,
			postfix ? "o" : "*p");
	} else {
		sb_printf(h, "BRG_FN %s %s(%s *p) { %s o = *p; *p = %s(o, "
			"%s(1)); return %s; }\n", V, fname, V, V, add, splat,
			postfix ? "o" : "*p");
	}
	return gen_kept(f->g, fname);
}

/* x++ or x-- (OP) of expression statement E as x += 1 or x -= 1: for a
 * scatter array's element, whose index is tested, and for a swizzle of
 * several components, whose address OpenCL C does not take. */
static void incdec_assign(gen_fn *f, strbuf *b, const json_t *e,
	const json_t *x, const char *op)
{
	made_assign(f, b, e, op[0] == '+' ? "+=" : "-=", x, json_pack(
		"{s:s, s:s, s:i, s:{s:s}}", "k", "int", "text", "1", "value", 1,
		"ty", "t", "int"));
}

static void unop(gen_fn *f, strbuf *b, const json_t *e, int postfix)
{
	const char *op = ast_str(e, "op");
	const json_t *x = ast_get(e, "e"), *ty = ety(e);

	if (ty_ncomp(ety(x)) > 1 && (ty_streq(op, "&") ||
			ty_streq(op, "*"))) {
		gen_error(f->g, e, "E-gen-pointer", "pointers in kernel code");
		return;
	}
	int incdec = ty_streq(op, "++") || ty_streq(op, "--");
	const char *sc = gen_scalar(ety(x));
	int fvec = sc && ty_scalar_is_float(sc);
	int swz = ty_ncomp(ety(x)) > 1 && is_swizzle(x);
	if (incdec && e == f->discard && (swz || scatter_root(f, x))) {
		incdec_assign(f, b, e, x, op);
		return;
	}
	if (incdec && scatter_root(f, x)) {
		scatter_misplaced(f, e);
		return;
	}
	if (incdec && swz) {
		gen_error(f->g, e, "E-gen-incdec-swizzle", "'%s' on a swizzle "
			"of several components; write the swizzle %c= 1", op,
			op[0]);
		return;
	}
	/* OpenCL C's integer vector negation goes to vec_op below */
	int cl_neg = ty_streq(op, "-") && cl_ivec_op(f, op, ety(x));
	if (ty_ncomp(ety(x)) <= 1 || (f->t == GEN_CL && !ty_streq(op, "!") &&
			!(incdec && fvec) && !cl_neg)) {
		/* - -x is not --x: an operand that is itself a prefix
		   operator or a number goes in parentheses */
		const json_t *sx = strip(x);
		int paren = !postfix && (ast_is(sx, "unop") ||
			ast_is(sx, "int") || ast_is(sx, "float"));
		if (!postfix)
			sb_puts(b, op);
		if (paren)
			sb_putc(b, '(');
		gen_kexpr(f, b, x);
		if (paren)
			sb_putc(b, ')');
		if (postfix)
			sb_puts(b, op);
		return;
	}
	if (ty_streq(op, "!")) {
		if (f->t == GEN_CL) {
			sb_printf(b, "convert_%s(-(!", tname(f->t, ty));
			gen_kexpr(f, b, x);
			sb_puts(b, "))");
		} else {
			sb_printf(b, "%s(", vec_op(f->g, GEN_CPU, "lnot", "!",
				'n', ety(x), ty));
			gen_kexpr(f, b, x);
			sb_putc(b, ')');
		}
		return;
	}
	if (incdec && e == f->discard && !(f->t == GEN_CPU &&
			has_effect(x))) {
		/* for its effect alone: x = x + 1, no address taken (a
		 * group kernel's variable may live in local memory); on the
		 * CPU an x with a side effect through the helper below,
		 * which takes its address once */
		gen_kexpr(f, b, x);
		if (f->t == GEN_CL) {
			sb_printf(b, " %c= (%s)(1)", op[0], tname(f->t,
				ety(x)));
		} else {
			const char *add, *one;
			cpu_step(f->g, ety(x), op[0], &add, &one);
			sb_printf(b, " = %s(", add);
			gen_kexpr(f, b, x);
			sb_printf(b, ", %s(1))", one);
		}
		return;
	}
	if (incdec) {
		/* CPU vectors, and OpenCL's vectors of floats, which OpenCL
		 * C does not increment: a helper that updates the vector
		 * through its address and gives the value before or after */
		sb_printf(b, "%s(&(", incdec_helper(f, ety(x), op, postfix));
		gen_kexpr(f, b, x);
		sb_puts(b, "))");
		return;
	}
	sb_printf(b, "%s(", vec_op(f->g, f->t, ty_streq(op, "-") ? "neg" :
		ty_streq(op, "~") ? "bnot" : "pos", ty_streq(op, "+") ?
		"" : op, 'u', ety(x), ety(x)));
	gen_kexpr(f, b, x);
	sb_putc(b, ')');
}

/* A condition: a vector uses its x component (reading 2, with -a). */
static void cond_expr(gen_fn *f, strbuf *b, const json_t *c)
{
	if (ty_ncomp(ety(c)) > 1) {
		sb_putc(b, '(');
		gen_kexpr(f, b, c);
		sb_puts(b, ").x");
	} else {
		gen_kexpr(f, b, c);
	}
}

/* In a row interior (gen_affine.c): x + c as an integer from brg_X, a
 * conditional with a guard as its branch there. */
static int interior_expr(gen_fn *f, strbuf *b, const json_t *e)
{
	long c;
	int br;

	if (gen_aff_value(f->g->aff, e, &c)) {
		sb_printf(b, "((%s)(brg_X + %ld))", ty_streq(gen_scalar(ety(e)),
			"float") ? "float" : "int", c);
		return 1;
	}
	if (gen_aff_yvalue(f->g->aff, e, &c)) {
		sb_printf(b, "((%s)(brg_Y + %ld))", ty_streq(gen_scalar(ety(e)),
			"float") ? "float" : "int", c);
		return 1;
	}
	br = gen_aff_branch(f->g->aff, e);
	if (br < 0)
		return 0;
	sb_putc(b, '(');
	gen_kconv(f, b, ast_get(e, br ? "t" : "f"), ety(e));
	sb_putc(b, ')');
	return 1;
}

void gen_kexpr(gen_fn *f, strbuf *b, const json_t *e)
{
	const char *k = ast_kind(e);

	if (f->g->aff && interior_expr(f, b, e))
		return;
	if (f->soa && soa_expr(f, b, e))
		return;
	if (f->tloop && gen_group_expr(f, b, e))
		return;
	if (ty_streq(k, "id")) {
		print_name(f, b, e);
	} else if (ty_streq(k, "int") || ty_streq(k, "float") ||
			ty_streq(k, "char")) {
		const char *text = ast_str(e, "text");
		if (ty_streq(k, "float") && !strpbrk(text, "fF"))
			f->g->uses_double = 1;
		sb_puts(b, text);
	} else if (ty_streq(k, "string")) {
		gen_error(f->g, e, "E-gen-string",
			"String constant in kernel not allowed");
	} else if (ty_streq(k, "binop")) {
		binop(f, b, ast_str(e, "op"), ast_get(e, "l"), ast_get(e, "r"),
			ety(e));
	} else if (ty_streq(k, "assign")) {
		assign(f, b, e);
	} else if (ty_streq(k, "unop")) {
		unop(f, b, e, 0);
	} else if (ty_streq(k, "postfix")) {
		unop(f, b, e, 1);
	} else if (ty_streq(k, "cond")) {
		/* OpenCL C takes no floating-point condition of ?: (an if's
		   it takes): c != 0, as C reads it, NaN true */
		const char *cs = gen_scalar(ety(ast_get(e, "c")));
		int fc = f->t == GEN_CL && cs && ty_scalar_is_float(cs);
		if (fc)
			sb_putc(b, '(');
		cond_expr(f, b, ast_get(e, "c"));
		if (fc)
			sb_puts(b, ") != 0");
		sb_puts(b, " ? ");
		gen_kconv(f, b, ast_get(e, "t"), ety(e));
		sb_puts(b, " : ");
		gen_kconv(f, b, ast_get(e, "f"), ety(e));
	} else if (ty_streq(k, "comma")) {
		gen_kexpr(f, b, ast_get(e, "l"));
		sb_puts(b, ", ");
		gen_kexpr(f, b, ast_get(e, "r"));
	} else if (ty_streq(k, "call")) {
		call(f, b, e);
	} else if (ty_streq(k, "ctor")) {
		ctor(f, b, e);
	} else if (ty_streq(k, "index")) {
		const json_t *idx[8];
		int n;
		const json_t *base = index_base(e, idx, &n);
		const json_t *p = param_of(f, base);
		if (p && (ty_streq(gen_role(p), "gather") ||
				ty_streq(gen_role(p), "scatter"))) {
			f->unclamped = f->g->aff && gen_aff_gather(f->g->aff,
				e);
			gather_read(f, b, p, idx, n);
			f->unclamped = 0;
		} else {
			gen_kexpr(f, b, ast_get(e, "a"));
			sb_putc(b, '[');
			if (f->g->o && f->g->o->checked)
				checked_aidx(f, b, e);
			else
				idx_scalar(f, b, ast_get(e, "i"));
			sb_putc(b, ']');
		}
	} else if (ty_streq(k, "member")) {
		if (json_is_array(ast_get(e, "swizzle"))) {
			print_swizzle(f, b, e);
		} else {
			gen_kexpr(f, b, ast_get(e, "e"));
			sb_printf(b, ".%s", ast_str(e, "name"));
		}
	} else if (ty_streq(k, "cast")) {
		const json_t *to = ety(e) ? ety(e) : ast_get(e, "type");
		if (ty_ncomp(to) > 1 || ty_ncomp(ety(ast_get(e, "e"))) > 1 ||
				ty_streq(ty_scalar(to), "bool")) {
			gen_kconv(f, b, ast_get(e, "e"), to);
		} else {
			sb_putc(b, '(');
			gen_type(f->g, f->t, b, ast_get(e, "type"), NULL);
			sb_puts(b, ")");
			gen_kexpr(f, b, ast_get(e, "e"));
		}
	} else if (ty_streq(k, "indexof")) {
		indexof_expr(f, b, e);
	} else if (ty_streq(k, "paren")) {
		sb_putc(b, '(');
		gen_kexpr(f, b, ast_get(e, "e"));
		sb_putc(b, ')');
	} else {
		gen_error(f->g, e, "E-gen-expr",
			"'%s' expressions are not supported in kernels", k);
	}
}

/* ---- statements ------------------------------------------------------- */

static void init_list(gen_fn *f, strbuf *b, const json_t *init)
{
	size_t i;
	json_t *it;

	if (!ast_is(init, "initlist")) {
		gen_kexpr(f, b, init);
		return;
	}
	sb_puts(b, "{");
	ast_array_foreach(ast_arr(init, "items"), i, it) {
		sb_puts(b, i ? ", " : " ");
		init_list(f, b, ast_get(it, "value"));
	}
	sb_puts(b, " }");
}

/* " = " and the zero of TY, for a local declared without an initializer:
 * it starts at 0 on every backend (brook(7), KERNELS), as an out
 * stream's element does, and not at what the register or the stack
 * held. */
void gen_zero_init(gen_ctx *g, gen_target t, strbuf *b, const json_t *ty)
{
	const json_t *el = ty;
	while (ty_is_array(el))
		el = gen_resolve(g, ast_get(el, "of"));
	if (el == ty && gen_scalar(ty) && ty_ncomp(ty) == 1)
		sb_puts(b, " = 0");
	else if (t == GEN_CL && gen_scalar(el) && ty_ncomp(el) > 1)
		/* an OpenCL vector, or an array of them (the first element
		   given, the rest zero as in any initializer) */
		sb_printf(b, el == ty ? " = (%s)(0)" : " = { (%s)(0) }",
			gen_arith_name(t, gen_scalar(el), ty_ncomp(el)));
	else
		sb_puts(b, " = {0}");
}

/* Statements that set LV, of type TY, to gen_zero_init's zero: a hoisted
 * local of a split group kernel declared without an initializer, which
 * starts at 0 where its declaration stands (OpenCL C has no memset, and
 * an array no assignment). LEVEL numbers the loops over array axes. */
static void zero_assign(gen_fn *f, strbuf *b, const char *lv,
	const json_t *ty, int level)
{
	ty = gen_resolve(f->g, ty);
	gen_indent(b, f->depth + level);
	if (ty_is_array(ty)) {
		const json_t *sz = ast_get(ty, "size");
		strbuf e = {0};
		sb_printf(b, "for (int brg_z%d = 0; brg_z%d < %lld; brg_z%d++)\n",
			level, level, json_is_object(sz) ? ast_int(sz, "value")
			: 0, level);
		sb_printf(&e, "%s[brg_z%d]", lv, level);
		zero_assign(f, b, e.s, ast_get(ty, "of"), level + 1);
		sb_free(&e);
	} else if (gen_scalar(ty) && ty_ncomp(ty) == 1) {
		sb_printf(b, "%s = 0;\n", lv);
	} else if (gen_scalar(ty)) {
		sb_printf(b, f->t == GEN_CL ? "%s = (%s)(0);\n"
			: "%s = (%s){0};\n", lv, gen_arith_name(f->t,
			gen_scalar(ty), ty_ncomp(ty)));
	} else {
		sb_puts(b, "{\n");
		gen_indent(b, f->depth + level + 1);
		gen_type(f->g, f->t, b, ty, "brg_zero");
		sb_puts(b, " = {0};\n");
		gen_indent(b, f->depth + level + 1);
		sb_printf(b, "%s = brg_zero;\n", lv);
		gen_indent(b, f->depth + level);
		sb_puts(b, "}\n");
	}
}

/* A local declaration; in a split group kernel a hoisted variable only
 * gets its initial value here (HOISTED). */
static void local_decl(gen_fn *f, strbuf *b, const json_t *d, int hoisted)
{
	size_t i;
	json_t *v;

	ast_array_foreach(ast_arr(d, "vars"), i, v) {
		const json_t *init = ast_get(v, "init");
		const json_t *ty = gen_resolve(f->g, ast_get(v, "type"));
		int shared = gen_has_qual(v, "shared");
		int has_init = init && !json_is_null(init);
		if (shared)
			continue;	/* declared at kernel scope */
		if (hoisted) {
			json_t *id;
			/* a uniform loop's: declared, with its 0, in the
			   loop's thread loop (gen_group.c) */
			if (!has_init && gen_gplan_local(f->gplan, v))
				continue;
			id = json_pack("{s:s,s:I}", "k", "id", "ref",
				(json_int_t)ast_int(v, "id"));
			json_object_set(id, "name", ast_get(v, "name"));
			if (!has_init) {
				strbuf lv = {0};
				print_name(f, &lv, id);
				zero_assign(f, b, lv.s, ty, 0);
				sb_free(&lv);
			} else {
				gen_indent(b, f->depth);
				print_name(f, b, id);
				sb_puts(b, " = ");
				gen_kconv(f, b, init, ty);
				sb_puts(b, ";\n");
			}
			json_decref(id);
			continue;
		}
		gen_indent(b, f->depth);
		gen_type(f->g, f->t, b, ty, ast_str(v, "name"));
		if (has_init) {
			sb_puts(b, " = ");
			if (ast_is(init, "initlist"))
				init_list(f, b, init);
			else
				gen_kconv(f, b, init, ty);
		} else {
			gen_zero_init(f->g, f->t, b, ty);
		}
		sb_puts(b, ";\n");
	}
}

static void sub_stmt(gen_fn *f, strbuf *b, const json_t *s)
{
	if (ast_is(s, "block")) {
		gen_kstmt(f, b, s);
	} else {
		f->depth++;
		gen_kstmt(f, b, s);
		f->depth--;
	}
}

static void line_directive(gen_fn *f, strbuf *b, const json_t *s)
{
	const char *file;
	int line, col;

	if (f->t == GEN_CPU && f->g->o && f->g->o->line_directives &&
			ast_at(f->g->doc, s, &file, &line, &col) == 0) {
		sb_printf(b, "#line %d \"", line);
		gen_c_chars(b, file);
		sb_puts(b, "\"\n");
	}
}

/* Loop S (for: with INIT, NULL when printed before) once. */
static void loop_once(gen_fn *f, strbuf *b, const json_t *s,
	const json_t *init)
{
	if (ast_is(s, "while")) {
		sb_puts(b, "while (");
		cond_expr(f, b, ast_get(s, "cond"));
		sb_puts(b, ")\n");
		sub_stmt(f, b, ast_get(s, "body"));
		return;
	}
	if (ast_is(s, "do")) {
		sb_puts(b, "do\n");
		sub_stmt(f, b, ast_get(s, "body"));
		gen_indent(b, f->depth);
		sb_puts(b, "while (");
		cond_expr(f, b, ast_get(s, "cond"));
		sb_puts(b, ");\n");
		return;
	}
	sb_puts(b, "for (");
	if (init && !json_is_null(init))
		gen_kexpr(f, b, init);
	sb_puts(b, "; ");
	if (ast_get(s, "cond") && !json_is_null(ast_get(s, "cond")))
		cond_expr(f, b, ast_get(s, "cond"));
	sb_puts(b, "; ");
	if (ast_get(s, "step") && !json_is_null(ast_get(s, "step"))) {
		f->discard = strip(ast_get(s, "step"));
		gen_kexpr(f, b, ast_get(s, "step"));
		f->discard = NULL;
	}
	sb_puts(b, ")\n");
	sub_stmt(f, b, ast_get(s, "body"));
}

/* The counted copy of shadowed loop S (sh_counted), under the test
 * FCOND, and the shadowed copy in its else. */
static void print_counted(gen_fn *f, strbuf *b, const json_t *s,
	const json_t *dec, int keepf, const char *fcond, const char *post)
{
	const char *L = long_name(f->g, f->t);

	sb_printf(b, "const %s brg_trip = %s(", L, trips_helper(f->g, f->t));
	gen_kexpr(f, b, strip(ast_get(strip(ast_get(s, "cond")), "l")));
	sb_puts(b, ");\n");
	gen_indent(b, f->depth);
	sb_printf(b, "if (%s) {\n", fcond);
	f->depth++;
	gen_indent(b, f->depth);
	sb_printf(b, "for (%s brg_k = 0; brg_k < brg_trip; brg_k++)\n", L);
	f->skip = dec;
	f->sh_fast = 1;
	f->sh_keepf = keepf;
	sub_stmt(f, b, ast_get(s, "body"));
	f->skip = NULL;
	f->sh_fast = 0;
	gen_indent(b, f->depth);
	sb_printf(b, "%s\n", post);
	f->depth--;
	gen_indent(b, f->depth);
	sb_puts(b, "} else {\n");
	f->depth++;
	gen_indent(b, f->depth);
	loop_once(f, b, s, NULL);
	f->depth--;
	gen_indent(b, f->depth);
	sb_puts(b, "}\n");
}

/* Loop S; twice under a test when a copy of it can gather without
 * clamps (counted_loop) or through integers (shadow_loop), the latter
 * three times when the loop is also counted (sh_counted). */
static void print_loop(gen_fn *f, strbuf *b, const json_t *s,
	const json_t *init)
{
	strbuf cond = {0}, pre = {0}, fcond = {0}, post = {0};
	const json_t *ctr = ast_is(s, "for") ? counted_loop(f, s, &cond) : NULL;
	const json_t *sh = ctr ? NULL : shadow_loop(f, s, &cond, &pre);
	const json_t *dec = NULL;
	int keepf = 0;
	int counted = sh && sh_counted(f, s, sh, &fcond, &post, &dec, &keepf);

	if (ctr || sh) {
		sb_printf(b, "if (%s) {\n", cond.s);
		f->depth++;
		if (sh) {
			gen_indent(b, f->depth);
			sb_puts(b, pre.s);
		}
		gen_indent(b, f->depth);
		f->fast_ctr = ctr;
		f->shadow = sh;
		if (counted)
			print_counted(f, b, s, dec, keepf, fcond.s, post.s);
		else
			loop_once(f, b, s, init);
		f->fast_ctr = NULL;
		f->shadow = NULL;
		f->depth--;
		gen_indent(b, f->depth);
		sb_puts(b, "} else {\n");
		f->depth++;
		gen_indent(b, f->depth);
	}
	loop_once(f, b, s, init);
	if (ctr || sh) {
		f->depth--;
		gen_indent(b, f->depth);
		sb_puts(b, "}\n");
	}
	sb_free(&cond);
	sb_free(&pre);
	sb_free(&fcond);
	sb_free(&post);
}

static void kstmt(gen_fn *f, strbuf *b, const json_t *s);

/* A statement; a loop or switch counts for the break and continue inside
 * it (f->jump_nest). */
void gen_kstmt(gen_fn *f, strbuf *b, const json_t *s)
{
	const char *k = ast_kind(s);
	int nest = ty_streq(k, "for") || ty_streq(k, "while") ||
		ty_streq(k, "do") || ty_streq(k, "switch");

	f->jump_nest += nest;
	kstmt(f, b, s);
	f->jump_nest -= nest;
}

static void kstmt(gen_fn *f, strbuf *b, const json_t *s)
{
	const char *k = ast_kind(s);
	size_t i;
	json_t *it;

	if (s == f->skip)
		return;	/* the float counter in the counted copy */
	if (!ast_is(s, "block") && !ast_is(s, "decl"))
		line_directive(f, b, s);
	if (ty_streq(k, "block")) {
		gen_indent(b, f->depth);
		sb_puts(b, "{\n");
		f->depth++;
		ast_array_foreach(ast_arr(s, "items"), i, it)
			gen_kstmt(f, b, it);
		f->depth--;
		gen_indent(b, f->depth);
		sb_puts(b, "}\n");
		return;
	}
	if (ty_streq(k, "decl")) {
		local_decl(f, b, s, 0);
		return;
	}
	if (ty_streq(k, "directive"))
		return;	/* a #pragma in a kernel: brcheck's W-kernel-pragma */
	if (late_write(f, s)) {
		/* --checked: the element is marked written after the
		   statement (shared_mode) */
		gen_indent(b, f->depth);
		sb_printf(b, "{\n");
		gen_indent(b, f->depth + 1);
		sb_printf(b, "%s brg_si;\n", long_name(f->g, f->t));
		f->depth++;
		gen_indent(b, f->depth);
		f->discard = strip(ast_get(s, "e"));
		gen_kexpr(f, b, ast_get(s, "e"));
		f->discard = NULL;
		sb_puts(b, ";\n");
		gen_indent(b, f->depth);
		const json_t *el = late_write(f, s);
		int nc, mask = shared_comps(f, el, &nc);
		shared_flag_list(b, "brg_sf_", ast_str(strip(ast_get(el, "a")),
			"name"), "brg_si", nc, mask, " = ");
		sb_puts(b, " = 1;\n");
		f->depth--;
		gen_indent(b, f->depth);
		sb_puts(b, "}\n");
		return;
	}
	gen_indent(b, f->depth);
	if (ty_streq(k, "expr")) {
		const json_t *u = f->shadow ? sh_update(f, s, f->shadow) : NULL;
		if (u && f->sh_fast && !f->sh_keepf) {
			sh_step(f, b, u, "");	/* the integers alone */
		} else if (u || !soa_store(f, b, ast_get(s, "e"))) {
			f->discard = strip(ast_get(s, "e"));
			gen_kexpr(f, b, ast_get(s, "e"));
			f->discard = NULL;
			if (u)
				sh_step(f, b, u, ", ");
		}
		sb_puts(b, ";\n");
	} else if (ty_streq(k, "empty")) {
		sb_puts(b, ";\n");
	} else if (ty_streq(k, "if")) {
		sb_puts(b, "if (");
		cond_expr(f, b, ast_get(s, "cond"));
		sb_puts(b, ")\n");
		sub_stmt(f, b, ast_get(s, "then"));
		if (ast_get(s, "else") && !json_is_null(ast_get(s, "else"))) {
			gen_indent(b, f->depth);
			sb_puts(b, "else\n");
			sub_stmt(f, b, ast_get(s, "else"));
		}
	} else if (ty_streq(k, "while") || ty_streq(k, "do")) {
		print_loop(f, b, s, NULL);
	} else if (ty_streq(k, "for")) {
		const json_t *init = ast_get(s, "init");
		if (ast_is(init, "decl")) {
			/* for (T i = 0; ...): its own block */
			sb_puts(b, "{\n");
			f->depth++;
			local_decl(f, b, init, 0);
			gen_indent(b, f->depth);
			init = NULL;
		}
		print_loop(f, b, s, init);
		if (ast_is(ast_get(s, "init"), "decl")) {
			f->depth--;
			gen_indent(b, f->depth);
			sb_puts(b, "}\n");
		}
	} else if ((ty_streq(k, "break") || ty_streq(k, "continue")) &&
			f->sync_loop && !f->jump_nest) {
		/* the loop with syncGroup() that the group's threads run
		 * together (sync_loop): the thread ends its phase, and the
		 * loop breaks or continues after it */
		sb_printf(b, "{ brg_%s%d = 1; goto brg_ph%d; }\n", k[0] == 'b' ?
			"brk" : "cnt", f->sync_loop - 1, f->phase);
		f->phase_ret = 1;
	} else if (ty_streq(k, "break")) {
		sb_puts(b, "break;\n");
	} else if (ty_streq(k, "continue")) {
		sb_puts(b, "continue;\n");
	} else if (ty_streq(k, "return")) {
		const json_t *e = ast_get(s, "e");
		if (f->group) {
			/* a thread that returns skips the rest of its phases
			 * but the group's barriers still complete (brt.h:
			 * every work-item reaches every barrier) */
			sb_printf(b, "{ %s = 1; goto brg_ph%d; }\n",
				f->ret_flag, f->phase);
			f->phase_ret = 1;
			return;
		}
		if (e && !json_is_null(e)) {
			sb_puts(b, "return ");
			gen_kconv(f, b, e, gen_resolve(f->g, ast_get(ast_get(
				f->fn, "type"), "ret")));
			sb_puts(b, ";\n");
		} else {
			sb_puts(b, "return;\n");
		}
	} else if (ty_streq(k, "switch")) {
		sb_puts(b, "switch (");
		gen_kexpr(f, b, ast_get(s, "cond"));
		sb_puts(b, ")\n");
		sub_stmt(f, b, ast_get(s, "body"));
	} else if (ty_streq(k, "case")) {
		sb_puts(b, "case ");
		gen_kexpr(f, b, ast_get(s, "e"));
		sb_puts(b, ":\n");
		sub_stmt(f, b, ast_get(s, "stmt"));
	} else if (ty_streq(k, "default")) {
		sb_puts(b, "default:\n");
		sub_stmt(f, b, ast_get(s, "stmt"));
	} else {
		gen_error(f->g, s, "E-gen-stmt",
			"'%s' statements are not supported in kernels", k);
	}
}

/* ---- uses ------------------------------------------------------------- */

static int is_one_of(const char *s, const char *const *what)
{
	for (; *what; what++)
		if (strcmp(s, *what) == 0)
			return 1;
	return 0;
}

/* A call of one of WHAT (by its built-in or function name), or a node of
 * one of those kinds. */
static int is_use(const json_t *n, const void *what)
{
	const char *k = ast_kind(n);

	if (ty_streq(k, "call")) {
		const json_t *fn = strip(ast_get(n, "fn"));
		const char *name = ast_str(n, "builtin");
		if (is_one_of(name[0] ? name : ast_str(fn, "name"), what))
			return 1;
	}
	return is_one_of(k, what);
}

const json_t *gen_find_any(const json_t *n, const char *const *what)
{
	return ast_find(n, is_use, what);
}

int gen_uses_any(const json_t *n, const char *const *what)
{
	return gen_find_any(n, what) != NULL;
}

int gen_uses(const json_t *n, const char *what)
{
	const char *const one[] = {what, NULL};
	return gen_uses_any(n, one);
}

/* ---- body functions --------------------------------------------------- */

static void set_name(json_t *names, const json_t *decl, const char *fmt,
	const char *name)
{
	char k[32], v[256];

	util_lltoa(k, ast_int(decl, "id"));
	snprintf(v, sizeof v, fmt, name, name);
	json_object_set_new(names, k, json_string(v));
}

void gen_body_params(gen_ctx *g, gen_target t, strbuf *b, const json_t *fn)
{
	json_t *params = ast_arr(ast_get(fn, "type"), "params"), *p;
	json_t *idx = json_object_get(g->idxof, ast_str(fn, "name"));
	size_t i;
	int first = 1;

	json_array_foreach(params, i, p) {
		const char *role = gen_role(p), *name = ast_str(p, "name");
		const json_t *el = gen_elem(g, ast_get(p, "type"));
		if (!first)
			sb_puts(b, ", ");
		first = 0;
		if (ty_streq(role, "out") || ty_streq(role, "reduce")) {
			char nm[160];
			snprintf(nm, sizeof nm, "*%s", name);
			gen_type(g, t, b, el, nm);
		} else if (ty_streq(role, "gather") ||
				ty_streq(role, "scatter")) {
			const json_t *s = el;
			int three = ty_ncomp(el) == 3, st = !gen_scalar(el);
			if (t == GEN_CL)
				sb_printf(b, "__global %s", ty_streq(role,
					"gather") ? "const " : "");
			else if (ty_streq(role, "gather"))
				sb_puts(b, "const ");
			if (t == GEN_CL && three)
				sb_printf(b, "%s *%s", gen_arith_name(t,
					gen_scalar(s), 1), name);
			else if (t == GEN_CL && st)
				sb_printf(b, "uchar *%s", name);
			else {
				char nm[160];
				snprintf(nm, sizeof nm, "*%s", name);
				gen_type(g, t, b, el, nm);
			}
			sb_printf(b, ", const %s %s_v", view_name(g, t), name);
		} else {
			sb_puts(b, "const ");
			gen_type(g, t, b, ty_streq(role, "in") ? el :
				gen_resolve(g, ast_get(p, "type")), name);
		}
	}
	json_array_foreach(params, i, p) {
		if (!json_object_get(idx, ast_str(p, "name")))
			continue;
		if (!first)
			sb_puts(b, ", ");
		first = 0;
		sb_printf(b, "const float4 %s__idx", ast_str(p, "name"));
	}
	sb_printf(b, "%sconst brg_ctx brg_cx", first ? "" : ", ");
}

/* The names map of a function: out and reduce parameters through their
 * pointers. */
json_t *gen_param_names(gen_ctx *g, const json_t *fn);
json_t *gen_param_names(gen_ctx *g, const json_t *fn)
{
	json_t *names = json_object(), *p;
	size_t i;

	(void)g;
	ast_array_foreach(ast_arr(ast_get(fn, "type"), "params"), i, p) {
		const char *role = gen_role(p);
		if (ty_streq(role, "out") || ty_streq(role, "reduce"))
			set_name(names, p, "(*%s)", ast_str(p, "name"));
	}
	return names;
}

/* "(void)name;" for each parameter of a body-like function of FN */
static void unused_params(strbuf *b, const json_t *fn)
{
	json_t *p;
	size_t i;

	ast_array_foreach(ast_arr(ast_get(fn, "type"), "params"), i, p) {
		sb_printf(b, "\t(void)%s;\n", ast_str(p, "name"));
		if (ty_streq(gen_role(p), "gather") ||
				ty_streq(gen_role(p), "scatter"))
			sb_printf(b, "\t(void)%s_v;\n", ast_str(p, "name"));
	}
	sb_puts(b, "\t(void)brg_cx;\n");
}

/* K__guard32 (gen_affine.c): whether every guard of the row interior
 * holds at a point; the locals the scan follows first. G->i32 is set on
 * the CPU; OpenCL's is K__guard. */
void gen_guard_function(gen_ctx *g, gen_target t, strbuf *b,
	const json_t *fn, const gen_aff *a)
{
	gen_fn f;
	size_t i, j, n;
	json_t *it, *v;
	const gen_aff_guard *gd = gen_aff_guards(a, &n);

	memset(&f, 0, sizeof f);
	f.g = g;
	f.t = t;
	f.fn = fn;
	f.names = gen_param_names(g, fn);
	f.depth = 1;
	sb_printf(b, "%s%sint %s__guard%s(", fnq(t), gen_nolv(g, t, fn) ?
		"BRG_NOLV " : "", ast_str(fn, "name"), i32_sfx(g, t));
	gen_body_params(g, t, b, fn);
	/* x as brg_X, as K__bodyin has it: no float round trip. Its
	   conditionals then read their interior branches, which is what
	   the point's values are when every guard holds (the conjunction
	   below), and the result does not matter when one does not */
	sb_puts(b, t == GEN_CL ? ", const int brg_X, const int brg_Y)\n{\n"
		: ", const int32_t brg_X, const int32_t brg_Y)\n{\n");
	unused_params(b, fn);
	g->aff = a;
	ast_array_foreach(ast_arr(ast_get(fn, "body"), "items"), i, it) {
		int all = ast_is(it, "decl");
		ast_array_foreach(ast_arr(it, "vars"), j, v)
			all &= gen_aff_local(a, v);
		if (all)
			local_decl(&f, b, it, 0);
	}
	sb_puts(b, "\treturn 1");
	for (i = 0; i < n; i++) {
		strbuf ix = {0};
		if (!gd[i].param) {
			sb_puts(b, gd[i].arg ? "\n\t\t&& (" : "\n\t\t&& !(");
			cond_expr(&f, b, gd[i].e);
			sb_putc(b, ')');
			continue;
		}
		idx_scalar(&f, &ix, gd[i].e);
		sb_printf(b, "\n\t\t&& %s >= 0 && %s < %s_v.dims[%d]", ix.s,
			ix.s, gd[i].param, gd[i].arg);
		sb_free(&ix);
	}
	sb_puts(b, ";\n}\n\n");
	g->aff = NULL;
	json_decref(f.names);
	json_decref(f.gdep);
}

/* The end of a subkernel returning RET whose last statement is not a
 * return: control that gets there (brcheck's W-missing-return) returns 0
 * on every backend, as brrun's interpreter does, where C and OpenCL C
 * leave the value undefined (and their compilers warn). */
static void zero_return(gen_fn *f, strbuf *b, const json_t *ret)
{
	sb_puts(b, "\t{\n\t\t");
	gen_zero_decl(f->g, f->t, b, ret, "brg_zr");
	sb_puts(b, "\t\treturn brg_zr;\n\t}\n");
}

void gen_zero_decl(gen_ctx *g, gen_target t, strbuf *b, const json_t *ty,
	const char *name)
{
	gen_type(g, t, b, ty, name);
	gen_zero_init(g, t, b, ty);
	sb_puts(b, ";\n");
}

void gen_body_function(gen_ctx *g, gen_target t, strbuf *b, const json_t *fn)
{
	gen_fn f;
	size_t i;
	const json_t *ret = gen_resolve(g, ast_get(ast_get(fn, "type"), "ret"));

	memset(&f, 0, sizeof f);
	f.g = g;
	f.t = t;
	f.fn = fn;
	f.names = gen_param_names(g, fn);
	sb_puts(b, fnq(t));
	if (gen_nolv(g, t, fn))
		sb_puts(b, "BRG_NOLV ");
	if (ret)
		gen_type(g, t, b, ret, NULL);
	else
		sb_puts(b, "void");
	/* K__bodyin32: a row interior (gen_affine.c), x as brg_X */
	sb_printf(b, " %s__body%s%s(", ast_str(fn, "name"), g->aff ? "in" : "",
		i32_sfx(g, t));
	gen_body_params(g, t, b, fn);
	sb_puts(b, !g->aff ? ")\n{\n" : t == GEN_CL ?
		", const int brg_X, const int brg_Y)\n{\n"
		: ", const int32_t brg_X, const int32_t brg_Y)\n{\n");
	unused_params(b, fn);
	f.depth = 1;
	{
		json_t *it, *items = ast_arr(ast_get(fn, "body"), "items");
		ast_array_foreach(items, i, it)
			gen_kstmt(&f, b, it);
		if (ret && !ty_is_void(ret) && !ast_is(json_array_get(items,
				json_array_size(items) - 1), "return"))
			zero_return(&f, b, ret);
	}
	sb_puts(b, "}\n\n");
	json_decref(f.names);
	json_decref(f.gdep);
}

/* ---- group kernels: phases between top-level syncGroup() calls --------- */

int gen_is_sync_stmt(const json_t *s)
{
	const json_t *e = strip(ast_get(s, "e"));
	return ast_is(s, "expr") && ast_is(e, "call") &&
		(ty_streq(ast_str(e, "builtin"), "syncGroup") ||
		ty_streq(ast_str(strip(ast_get(e, "fn")), "name"),
		"syncGroup"));
}

/* A for or while loop with syncGroup() in its body: its condition must be
 * the same for the whole group (guide 1.17.7); its body splits into
 * phases like the kernel's. */
int gen_is_sync_loop(const json_t *s)
{
	return (ast_is(s, "for") || ast_is(s, "while")) &&
		gen_uses(ast_get(s, "body"), "syncGroup");
}

/* Whether statement S breaks (1) or continues (2) the loop it is in the
 * body of, outside any loop or switch of its own. */
static int loop_jumps(const json_t *s)
{
	const char *k = ast_kind(s);
	size_t i;
	json_t *it;
	int r = 0;

	if (ty_streq(k, "break"))
		return 1;
	if (ty_streq(k, "continue"))
		return 2;
	if (ty_streq(k, "block"))
		ast_array_foreach(ast_arr(s, "items"), i, it)
			r |= loop_jumps(it);
	else if (ty_streq(k, "if"))
		r = loop_jumps(ast_get(s, "then")) | loop_jumps(ast_get(s,
			"else"));
	return r;
}

static void sync_loop(gen_fn *f, strbuf *b, const json_t *s,
	const char *open, const char *close, const char *barrier)
{
	const json_t *body = ast_get(s, "body");
	const json_t *init = ast_is(s, "for") ? ast_get(s, "init") : NULL;
	const json_t *cond = ast_get(s, "cond");
	const json_t *step = ast_is(s, "for") ? ast_get(s, "step") : NULL;
	json_t *blk = ast_is(body, "block") ? json_incref((json_t *)body) :
		json_pack("{s:s,s:[O]}", "k", "block", "items", body);
	int lvl = f->depth, jumps, id;
	int outer_loop = f->sync_loop, outer_nest = f->jump_nest;

	if (json_is_null(init))
		init = NULL;
	if (json_is_null(cond))
		cond = NULL;
	if (json_is_null(step))
		step = NULL;
	if (ast_is(init, "decl")) {
		gen_error(f->g, s, "E-gen-sync-loop",
			"a loop with syncGroup() declares its variable before "
			"the loop");
		json_decref(blk);
		return;
	}
	if (f->t == GEN_CL) {
		/* every thread runs the loop and its barriers; only active
		 * threads run the phases */
		gen_indent(b, f->depth);
		if (ast_is(s, "for")) {
			sb_puts(b, "for (");
			if (init)
				gen_kexpr(f, b, init);
			sb_puts(b, "; ");
			if (cond)
				cond_expr(f, b, cond);
			sb_puts(b, "; ");
			if (step)
				gen_kexpr(f, b, step);
			sb_puts(b, ") {\n");
		} else {
			sb_puts(b, "while (");
			cond_expr(f, b, cond);
			sb_puts(b, ") {\n");
		}
		f->depth++;
		gen_group_split(f, b, blk, open, close, barrier);
		f->depth--;
		gen_indent(b, f->depth);
		sb_puts(b, "}\n");
		json_decref(blk);
		return;
	}
	/* CPU: the group's threads take each step together; every active
	 * thread evaluates the condition (its side effects are its own),
	 * which the group takes the same (guide 1.17.7) */
	jumps = loop_jumps(blk);
	id = ++f->nphase;
	if (jumps) {
		gen_indent(b, f->depth);
		sb_printf(b, "int brg_brk%d = 0, brg_cnt%d = 0;\n", id, id);
	}
	if (init) {
		gen_indent(b, f->depth);
		sb_puts(b, open);
		f->depth++;
		gen_indent(b, f->depth);
		gen_kexpr(f, b, init);
		sb_puts(b, ";\n");
		f->depth--;
		gen_indent(b, f->depth);
		sb_puts(b, close);
	}
	gen_indent(b, f->depth);
	sb_printf(b, "for (;;) {\n");
	f->depth++;
	gen_indent(b, f->depth);
	sb_printf(b, "int brg_go%d = %d;\n", lvl, cond ? 0 : 1);
	if (cond) {
		gen_indent(b, f->depth);
		sb_puts(b, open);
		f->depth++;
		gen_indent(b, f->depth);
		sb_printf(b, "brg_go%d |= (", lvl);
		cond_expr(f, b, cond);
		sb_puts(b, ") != 0;\n");
		f->depth--;
		gen_indent(b, f->depth);
		sb_puts(b, close);
	}
	gen_indent(b, f->depth);
	sb_printf(b, "if (!brg_go%d)\n", lvl);
	gen_indent(b, f->depth + 1);
	sb_puts(b, "break;\n");
	f->sync_loop = jumps ? id + 1 : 0;
	f->jump_nest = 0;
	gen_group_split(f, b, blk, open, close, barrier);
	f->sync_loop = outer_loop;
	f->jump_nest = outer_nest;
	if (jumps) {
		gen_indent(b, f->depth - 1);
		sb_printf(b, "brg_step%d:\n", id);
		gen_indent(b, f->depth);
		sb_printf(b, "brg_cnt%d = 0;\n", id);
	}
	if (step) {
		gen_indent(b, f->depth);
		sb_puts(b, open);
		f->depth++;
		gen_indent(b, f->depth);
		gen_kexpr(f, b, step);
		sb_puts(b, ";\n");
		f->depth--;
		gen_indent(b, f->depth);
		sb_puts(b, close);
	}
	f->depth--;
	gen_indent(b, f->depth);
	sb_puts(b, "}\n");
	if (jumps) {
		gen_indent(b, f->depth);
		sb_printf(b, "brg_end%d: ;\n", id);
	}
	json_decref(blk);
}

/* Prints the body of a GroupSize kernel as phases: each phase runs for
 * every active thread (OPEN ... CLOSE around it), BARRIER between them. A
 * syncGroup() nested in a statement is refused: both backends run the
 * threads of a group phase by phase (guide 1.17.7 allows it only where
 * the whole group takes the same path; brgen asks for it at top level). */
/* Ends the open phase: its label (the target of return) and CLOSE. */
static void phase_close(gen_fn *f, strbuf *b, const char *close)
{
	if (f->phase_ret) {
		gen_indent(b, f->depth);
		sb_printf(b, "brg_ph%d: ;\n", f->phase);
	}
	f->depth--;
	gen_indent(b, f->depth);
	sb_puts(b, close);
	if (f->sync_loop) {
		/* the loop's break or continue, once every thread has run
		   the phase (sync_loop) */
		int n = f->sync_loop - 1;
		gen_indent(b, f->depth);
		sb_printf(b, "if (brg_brk%d)\n", n);
		gen_indent(b, f->depth + 1);
		sb_printf(b, "goto brg_end%d;\n", n);
		gen_indent(b, f->depth);
		sb_printf(b, "if (brg_cnt%d)\n", n);
		gen_indent(b, f->depth + 1);
		sb_printf(b, "goto brg_step%d;\n", n);
	}
}

void gen_phase_stmt(gen_fn *f, strbuf *b, const json_t *s)
{
	if (ast_is(s, "decl"))
		local_decl(f, b, s, 1);
	else
		gen_kstmt(f, b, s);
}

/* Where the phase that starts at ITEMS[I] ends: a syncGroup(), a loop
 * with one, or a uniform loop (gen_group.c). */
static size_t phase_end(gen_fn *f, const json_t *items, size_t i)
{
	size_t n = json_array_size(items);
	const json_t *it;

	for (; i < n; i++) {
		it = json_array_get(items, i);
		if (gen_is_sync_stmt(it) || gen_is_sync_loop(it) ||
				gen_gplan_loop(f->gplan, it) ||
				(!ast_is(it, "decl") &&
				gen_uses(it, "syncGroup")))
			break;
	}
	return i;
}

void gen_group_split(gen_fn *f, strbuf *b, const json_t *body,
	const char *open, const char *close, const char *barrier)
{
	const json_t *items = ast_arr(body, "items");
	size_t i, n = json_array_size(items);
	json_t *it;
	int inphase = 0;

	for (i = 0; i < n; i++) {
		it = json_array_get(items, i);
		if (gen_is_sync_stmt(it)) {
			if (inphase) {
				phase_close(f, b, close);
				inphase = 0;
			}
			gen_indent(b, f->depth);
			sb_puts(b, barrier);
			continue;
		}
		if (gen_is_sync_loop(it)) {
			if (inphase) {
				phase_close(f, b, close);
				inphase = 0;
			}
			sync_loop(f, b, it, open, close, barrier);
			continue;
		}
		if (gen_gplan_loop(f->gplan, it)) {
			/* a uniform loop: its own thread loops (gen_group.c) */
			if (inphase) {
				phase_close(f, b, close);
				inphase = 0;
			}
			gen_group_loop(f, b, it);
			continue;
		}
		const char *const sync[] = {"syncGroup", NULL};
		const json_t *call = ast_is(it, "decl") ? NULL :
			gen_find_any(it, sync);
		if (call) {
			gen_error(f->g, call, "E-gen-sync-nested",
				"syncGroup() must be a statement of the "
				"kernel's outermost block or of a for or while "
				"loop there");
			continue;
		}
		if (!inphase) {
			size_t e = phase_end(f, items, i);
			if (gen_group_segment(f, b, items, i, e)) {
				/* its thread loop split (gen_group.c) */
				i = e - 1;
				continue;
			}
			gen_indent(b, f->depth);
			sb_puts(b, open);
			f->depth++;
			f->phase = ++f->nphase;
			f->phase_ret = 0;
			inphase = 1;
		}
		gen_phase_stmt(f, b, it);
	}
	if (inphase)
		phase_close(f, b, close);
}

/* The helpers kernel bodies call to address gathers and scatters, over
 * BRG_L and brt_view: the CPU prelude has them twice, the second time
 * renamed for the 32-bit instance (gen_cpu.c). */
const char gen_index_helpers[] =
"/* gather: clamped to the array (an index outside reads the nearest\n"
"   element, never outside the buffer) */\n"
"BRG_FN BRG_L brg_gidx(const brt_view *v, BRG_L x, BRG_L y, BRG_L z, BRG_L w)\n"
"{\n"
"	BRG_L c[4], o = v->base;\n"
"	int k;\n"
"	c[0] = x; c[1] = y; c[2] = z; c[3] = w;\n"
"	for (k = 0; k < 4; k++) {\n"
"		BRG_L e = c[k] < 0 ? 0 : c[k] >= v->dims[k] ? v->dims[k] - 1 : c[k];\n"
"		o += e * v->pitch[k];\n"
"	}\n"
"	return o;\n"
"}\n"
"/* scatter: -1 (the write is dropped) for an index outside the array */\n"
"BRG_FN BRG_L brg_sidx(const brt_view *v, BRG_L x, BRG_L y, BRG_L z, BRG_L w)\n"
"{\n"
"	BRG_L c[4], o = v->base;\n"
"	int k;\n"
"	c[0] = x; c[1] = y; c[2] = z; c[3] = w;\n"
"	for (k = 0; k < 4; k++) {\n"
"		if (c[k] < 0 || c[k] >= v->dims[k])\n"
"			return -1;\n"
"		o += c[k] * v->pitch[k];\n"
"	}\n"
"	return o;\n"
"}\n"
"#if defined(BRG_SSE) && defined(__GNUC__) && !defined(BRG_CF_END)\n"
"#define BRG_CF_END 1\n"
"/* brg_cf's end for an index out of range, out of line: inlined, gcc\n"
"   made the load's address a choice of two pointers, one jump and one\n"
"   lea more a step of a search (bsearch on 2 cores: 62-64 -> 56-59 ms;\n"
"   bench/RESULTS.md, 2026-11-29); an empty asm in its place cost\n"
"   matmult_opt 30% */\n"
"static __attribute__((unused, cold, noinline)) long long\n"
"brg_cf_end(float f, long long n)\n"
"{\n"
"	return !(f > 0.0f) ? 0 : n - 1;\n"
"}\n"
"#endif\n"
"/* a gather coordinate clamped to [0, n): of a float, its floor */\n"
"BRG_FN BRG_L brg_cf(float f, BRG_L n)\n"
"{\n"
"#if defined(BRG_SSE)\n"
"	/* x86-64's conversion gives the lowest integer for NaN and for a\n"
"	   value out of its range, as C does not promise: one unsigned\n"
"	   compare then tests both ends (a search's loop: 20 -> 16\n"
"	   instructions) */\n"
"	BRG_L i = sizeof(BRG_L) == 4\n"
"		? (BRG_L)_mm_cvttss_si32(_mm_set_ss(f))\n"
"		: (BRG_L)_mm_cvttss_si64(_mm_set_ss(f));\n"
"#if defined(BRG_CF_END)\n"
"	if (__builtin_expect((uint64_t)(int64_t)i >= (uint64_t)(int64_t)n, 0))\n"
"		i = (BRG_L)brg_cf_end(f, n);\n"
"	return i;	/* toward 0: 0 for (-1, 0), the floor else */\n"
"#else\n"
"	if ((uint64_t)(int64_t)i < (uint64_t)(int64_t)n)\n"
"		return i;\n"
"	return !(f > 0.0f) ? 0 : n - 1;\n"
"#endif\n"
"#else\n"
"	/* OpenCL too: convert_int_sat_rtz is one instruction on a GPU,\n"
"	   but PoCL's long version of it kept a search's body from being\n"
"	   inlined, a call for each element (bsearch: 0.75 -> 0.93 of the\n"
"	   hand-written kernel, bench/RESULTS.md, 16:30) */\n"
"	float nf = (float)n;	/* first, so that a loop computes it once */\n"
"#if defined(BRG_CPU) && defined(__clang__) && !defined(BRG_NO_CPU_GATHER)\n"
"	/* a CPU device: a test the processor predicts, where the selects\n"
"	   made a search's every step wait for them (with gathers from the\n"
"	   view's own pointer, PoCL's bsearch 84-88 ms against 100-107 for\n"
"	   the GPU's forms on 2 cores:\n"
"	   bench/probe/clgather.sh, bench/RESULTS.md, 2026-11-29) */\n"
"	if (__builtin_expect(f >= 0.0f && f < nf, 1))\n"
"		return (BRG_L)f;\n"
"	return !(f > 0.0f) ? 0 : n - 1;\n"
"#else\n"
"	return !(f > 0.0f) ? 0 : f >= nf ? n - 1 : (BRG_L)f;\n"
"#endif\n"
"#endif\n"
"}\n"
"/* brg_cf of a coordinate that a gathered value decides (a search's next\n"
"   step: gathered_dep in gen_kcode.c), where each step waits for the\n"
"   last. On an x86-64 CPU device, x86's conversion and one unsigned\n"
"   compare, as the C above: fewer instructions a step than brg_cf's\n"
"   two float compares, but a call LLVM cannot widen, so not for the\n"
"   coordinates of a loop over work-items it may vectorize (PoCL on 2\n"
"   cores: bsearch 77-81 -> 65-69 ms, matmult_simple 68-71 -> 73-79\n"
"   with it everywhere; bench/RESULTS.md, 2026-11-29) */\n"
"BRG_FN BRG_L brg_cfd(float f, BRG_L n)\n"
"{\n"
"#if !defined(BRG_SSE) && defined(BRG_CPU) && defined(__clang__) \\\n"
"	&& defined(__x86_64__) && !defined(BRG_NO_CPU_GATHER)\n"
"	BRG_L i = sizeof(BRG_L) == 4\n"
"		? (BRG_L)__builtin_ia32_cvttss2si((float4)(f, 0.0f, 0.0f, 0.0f))\n"
"		: (BRG_L)__builtin_ia32_cvttss2si64((float4)(f, 0.0f, 0.0f,\n"
"			0.0f));\n"
"	if (__builtin_expect((ulong)(long)i < (ulong)(long)n, 1))\n"
"		return i;	/* toward 0: 0 for (-1, 0), the floor else */\n"
"	return !(f > 0.0f) ? 0 : n - 1;\n"
"#else\n"
"	return brg_cf(f, n);\n"
"#endif\n"
"}\n"
"BRG_FN BRG_L brg_ci(BRG_L i, BRG_L n)\n"
"{\n"
"	BRG_L c = i > 0 ? i : 0;	/* max, then min: vectorizable */\n"
"	return c < n - 1 ? c : n - 1;\n"
"}\n"
"/* an unsigned index, which BRG_L may not hold (2^31 and up with\n"
"   -DBRG_I32): past the end reads the last element */\n"
"BRG_FN BRG_L brg_cu(BRG_UL u, BRG_L n)\n"
"{\n"
"	return u < (BRG_UL)n ? (BRG_L)u : n - 1;\n"
"}\n"
"/* an unsigned index saturated to the range of BRG_L */\n"
"BRG_FN BRG_L brg_us(BRG_UL u)\n"
"{\n"
"	return u < (BRG_UL)BRG_LMAX ? (BRG_L)u : BRG_LMAX;\n"
"}\n"
"/* a float index: its floor, saturated to the range of BRG_L (NaN: 0),\n"
"   so that an index outside is reported as computed */\n"
"BRG_FN BRG_L brg_fi(float f)\n"
"{\n"
"	if (f != f)\n"
"		return 0;\n"
"	if (f <= -(float)BRG_LMAX)\n"
"		return -BRG_LMAX;\n"
"	if (f >= (float)BRG_LMAX)\n"
"		return BRG_LMAX;\n"
"	{\n"
"		BRG_L t = (BRG_L)f;	/* toward 0: one down below 0 */\n"
"		return t - ((float)t > f);\n"
"	}\n"
"}\n"
;

/* The helpers kernel bodies call for dropped writes and --checked
 * reports (brt.h, brt_records); BRG_REC and brg_ctx defined before. */
const char gen_record_helpers[] =
"BRG_FN void brg_drop(BRG_REC *rec, const brt_view *v)\n"
"{\n"
"	if (rec)\n"
"		BRG_OR(&rec->dropped, (int)(1u << (v->map < 31 ? v->map : 31)));\n"
"}\n"
"/* brgen --checked: instance C wrote the scatter array's element at\n"
"   offset K, at site SITE. Its first owner word after the records\n"
"   (brt.h, write owners) holds 0 (no write), the writer's tag, or -1\n"
"   (two writers or more), and the second the bits of the writing\n"
"   sites: the same in the end whatever order the writes ran in. The\n"
"   tag mixes the instance's position, one to one on a 1-D domain. */\n"
"BRG_FN BRG_UI brg_mix(BRG_UI h)\n"
"{\n"
"	h ^= h >> 16; h *= 0x7feb352dU; h ^= h >> 15; h *= 0x846ca68bU;\n"
"	return h ^ (h >> 16);\n"
"}\n"
"BRG_FN int brg_wrote(brg_ctx c, BRG_L k, int site)\n"
"{\n"
"	BRG_WC *w;\n"
"	int t, old;\n"
"	if (!c.rec)\n"
"		return 1;\n"
"	w = (BRG_WC *)(c.rec + 1) + BRT_OWNER_WORDS * k;\n"
"	BRG_OR(w + 1, (int)(1u << (site & 31)));\n"
"	t = (int)brg_mix(brg_mix(brg_mix(brg_mix((BRG_UI)c.inst.x) +\n"
"		(BRG_UI)c.inst.y) + (BRG_UI)c.inst.z) + (BRG_UI)c.inst.w);\n"
"	if (t == 0 || t == -1)\n"
"		t = 1;\n"
"	old = BRG_CAS(w, 0, t);\n"
"	if (old != 0 && old != t)\n"
"		BRG_XCHG(w, -1);\n"
"	return 1;\n"
"}\n"
"/* brgen --checked: an access of site SITE outside its array: the\n"
"   coordinates X..W and the extents D0..D3 of a gather or scatter, or\n"
"   of a C array's index (brt.h, BRT_SITE_ARRAY) the index, its dimension,\n"
"   the rank, 0 and the first extents. */\n"
"BRG_FN void brg_record(BRG_REC *rec, int site, BRG_L x, BRG_L y, BRG_L z,\n"
"	BRG_L w, BRG_L d0, BRG_L d1, BRG_L d2, BRG_L d3)\n"
"{\n"
"	int n;\n"
"	if (!rec)\n"
"		return;\n"
"	n = BRG_INC(&rec->count);\n"
"	if (n < 0 || n >= BRT_NRECORDS)\n"
"		return;\n"
"	rec->rec[n].site = site;\n"
"	rec->rec[n].idx[0] = x; rec->rec[n].idx[1] = y;\n"
"	rec->rec[n].idx[2] = z; rec->rec[n].idx[3] = w;\n"
"	rec->rec[n].dims[0] = d0; rec->rec[n].dims[1] = d1;\n"
"	rec->rec[n].dims[2] = d2; rec->rec[n].dims[3] = d3;\n"
"}\n"
"BRG_FN void brg_report(BRG_REC *rec, int site, const brt_view *v,\n"
"	BRG_L x, BRG_L y, BRG_L z, BRG_L w)\n"
"{\n"
"	brg_record(rec, site, x, y, z, w, v->dims[0], v->dims[1], v->dims[2],\n"
"		v->dims[3]);\n"
"}\n"
;

/* ---- the common prelude: index arithmetic (brt.h, view addressing) ---- */

void gen_prelude_common(gen_target t, strbuf *b)
{
	if (t == GEN_CL)
		sb_printf(b, "#define BRG_FN\n"
			"#define BRT_NRECORDS %d\n"
			"#define BRT_OWNER_WORDS %d\n"
			"typedef struct brt_record {\n\tint site, pad;\n"
			"\tlong idx[4];\n\tlong dims[4];\n} brt_record;\n"
			"typedef struct brt_records {\n\tint count, dropped;\n"
			"\tbrt_record rec[BRT_NRECORDS];\n} brt_records;\n"
			"#define BRG_REC __global brt_records\n"
			"#define BRG_WC __global int\n"
			"#define BRG_UI uint\n"
			"#define BRG_CAS(p, e, v) atomic_cmpxchg(p, e, v)\n"
			"#define BRG_XCHG(p, v) atomic_xchg(p, v)\n"
			"#define BRG_INC(p) atomic_inc(p)\n"
			"#define BRG_OR(p, v) atomic_or(p, v)\n"
			"#define BRG_UL ulong\n"
			"/* gather P's element I (from the view's first element)\n"
			"   of base B: on a CPU device from the pointer P + B,\n"
			"   which a loop computes once (with brg_cf's test:\n"
			"   bench/probe/clgather.sh, bench/RESULTS.md,\n"
			"   2026-11-29); not in the CPU code, where a test build\n"
			"   made gcc's matmult_tiled 6%% slower */\n"
			"#if defined(BRG_CPU) && !defined(BRG_NO_CPU_GATHER)\n"
			"#define BRG_GE(p, b, i) (p + (b))[i]\n"
			"#else\n"
			"#define BRG_GE(p, b, i) p[(b) + i]\n"
			"#endif\n", BRT_NRECORDS, BRT_OWNER_WORDS);
	else
		sb_puts(b, "#define BRG_FN static inline __attribute__((unused))\n"
			"#define BRG_L int64_t\n"
			"#define BRG_UL uint64_t\n"
			"#define BRG_LMAX INT64_C(9000000000000000000)\n"
			"#define BRG_REC brt_records\n"
			"#define BRG_WC int32_t\n"
			"#define BRG_UI uint32_t\n"
			"#if defined(__GNUC__) || defined(__clang__)\n"
			"#define BRG_INC(p) __atomic_fetch_add(p, 1, __ATOMIC_RELAXED)\n"
			"#define BRG_OR(p, v) __atomic_fetch_or(p, v, __ATOMIC_RELAXED)\n"
			"#define BRG_XCHG(p, v) __atomic_exchange_n(p, v, __ATOMIC_RELAXED)\n"
			"static inline __attribute__((unused)) int32_t brg_cas(int32_t *p,\n"
			"\tint32_t e, int32_t v)\n{\n"
			"\t__atomic_compare_exchange_n(p, &e, v, 0, __ATOMIC_RELAXED,\n"
			"\t\t__ATOMIC_RELAXED);\n\treturn e;\n}\n"
			"#define BRG_CAS(p, e, v) brg_cas(p, e, v)\n"
			"#else\n"
			"#define BRG_INC(p) ((*(p))++)\n"
			"#define BRG_OR(p, v) (*(p) |= (v))\n"
			"#define BRG_XCHG(p, v) (*(p) = (v))\n"
			"#define BRG_CAS(p, e, v) (*(p) == (e) ? (*(p) = (v), (e)) : *(p))\n"
			"#endif\n"
			"/* a kernel with a loop (gen_nolv): gcc's loop "
			"vectorizer would run its\n   float accumulations as "
			"in-order reductions across the loop's steps,\n   "
			"one lane at a time (bench/br/matmult_opt.br: twice as "
			"slow) */\n"
			"#if defined(__GNUC__) && !defined(__clang__)\n"
			"#define BRG_NOLV __attribute__((optimize("
			"\"no-tree-loop-vectorize\")))\n"
			"#else\n#define BRG_NOLV\n#endif\n"
			"#if defined(__x86_64__) && defined(__SSE__) && "
			"!defined(BRG_NO_SSE)\n"
			"#include <xmmintrin.h>\n"
			"#define BRG_SSE 1\n"
			"#endif\n");
	sb_puts(b,
"/* coordinates C of linear index I over extents D, x fastest */\n"
"BRG_FN void brg_coords(BRG_L i, const BRG_L *d, BRG_L *c)\n"
"{\n"
"	if (i < 2147483647 && d[0] < 2147483647 && d[1] < 2147483647 &&\n"
"	    d[2] < 2147483647) {\n"
"		/* 32-bit division where it is exact: much faster on GPUs;\n"
"		   the last axis above 1 takes the quotient as it is (I is\n"
"		   below the product of D), so rank R costs R - 1 divisions */\n"
"		unsigned int j = (unsigned int)i, d0 = (unsigned int)d[0];\n"
"		unsigned int d1 = (unsigned int)d[1], d2 = (unsigned int)d[2];\n"
"		c[1] = c[2] = c[3] = 0;\n"
"		if (d1 == 1 && d2 == 1 && d[3] == 1) {\n"
"			c[0] = j;\n"
"			return;\n"
"		}\n"
"		c[0] = j % d0; j /= d0;\n"
"		if (d2 == 1 && d[3] == 1) {\n"
"			c[1] = j;\n"
"			return;\n"
"		}\n"
"		c[1] = j % d1; j /= d1;\n"
"		c[2] = j % d2; c[3] = j / d2;\n"
"		return;\n"
"	}\n"
"	c[0] = i % d[0]; i /= d[0];\n"
"	c[1] = i % d[1]; i /= d[1];\n"
"	c[2] = i % d[2]; c[3] = i / d[2];\n"
"}\n"
"/* the element of a stream argument at domain point I (brt.h, views) */\n"
"BRG_FN BRG_L brg_idx(const brt_view *v, BRG_L i, const BRG_L *d)\n"
"{\n"
"	BRG_L c[4], o;\n"
"	int k;\n"
"	if (v->map == 0)\n"
"		return v->base + i;\n"
"	brg_coords(i, d, c);\n"
"	o = v->base;\n"
"	for (k = 0; k < 4; k++)\n"
"		o += (v->map == 2 ? c[k] * v->dims[k] / d[k] : c[k]) * v->pitch[k];\n"
"	return o;\n"
"}\n"
"/* an argument's own coordinates at domain point I */\n"
"BRG_FN void brg_own(const brt_view *v, BRG_L i, const BRG_L *d, BRG_L *e)\n"
"{\n"
"	int k;\n"
"	brg_coords(i, d, e);\n"
"	if (v->map >= 2)\n"
"		for (k = 0; k < 4; k++)\n"
"			e[k] = e[k] * v->dims[k] / d[k];\n"
"}\n"
	);
	sb_puts(b, gen_index_helpers);
	sb_puts(b,
"/* an element of A by its linear (row-major) offset: clamped for a\n"
"   gather, -1 outside for a scatter (BrookGPU streamGatherOp and\n"
"   streamScatterOp) */\n"
"BRG_FN BRG_L brg_lin(const brt_view *v, BRG_L off, int scatter)\n"
"{\n"
"	BRG_L n = v->dims[0] * v->dims[1] * v->dims[2] * v->dims[3], c[4];\n"
"	if (off < 0 || off >= n) {\n"
"		if (scatter)\n"
"			return -1;\n"
"		off = off < 0 ? 0 : n - 1;\n"
"	}\n"
"	brg_coords(off, v->dims, c);\n"
"	return v->base + c[0] * v->pitch[0] + c[1] * v->pitch[1] +\n"
"		c[2] * v->pitch[2] + c[3] * v->pitch[3];\n"
"}\n"
"/* out-of-range accesses (brt.h, brt_records): REC is NULL in code\n"
"   that does not record */\n"
"typedef struct brg_ctx { int4 inst; BRG_REC *rec; } brg_ctx;\n"
	);
	sb_puts(b, gen_record_helpers);
	sb_puts(b,
"BRG_FN brg_ctx brg_withrec(brg_ctx c, BRG_REC *rec)\n"
"{\n"
"	c.rec = rec;\n"
"	return c;\n"
"}\n"
"BRG_FN brg_ctx brg_mkctx(BRG_L i, const BRG_L *d, const BRG_L *o)\n"
"{\n"
"	brg_ctx r;\n"
"	BRG_L c[4];\n"
"	r.rec = 0;\n"
"	brg_coords(i, d, c);\n"
"	r.inst.x = (int)(c[0] + o[0]);\n"
"	r.inst.y = (int)(c[1] + o[1]);\n"
"	r.inst.z = (int)(c[2] + o[2]);\n"
"	r.inst.w = (int)(c[3] + o[3]);\n"
"	return r;\n"
"}\n"
"BRG_FN float4 brg_posf(brg_ctx c)\n"
"{\n"
"	float4 r;\n"
"	r.x = (float)c.inst.x; r.y = (float)c.inst.y;\n"
"	r.z = (float)c.inst.z; r.w = (float)c.inst.w;\n"
"	return r;\n"
"}\n"
"/* the packed paths' position of a point (gen_entry.c) */\n"
"BRG_FN brg_ctx brg_ctx4(BRG_L x, BRG_L y, BRG_L z, BRG_L w)\n"
"{\n"
"	brg_ctx r;\n"
"	r.rec = 0;\n"
"	r.inst.x = (int)x; r.inst.y = (int)y;\n"
"	r.inst.z = (int)z; r.inst.w = (int)w;\n"
"	return r;\n"
"}\n"
"BRG_FN float4 brg_pos4(BRG_L x, BRG_L y, BRG_L z, BRG_L w)\n"
"{\n"
"	float4 r;\n"
"	r.x = (float)x; r.y = (float)y;\n"
"	r.z = (float)z; r.w = (float)w;\n"
"	return r;\n"
"}\n"
"/* indexof(s): the coordinates of s's element, as floats (spec 5) */\n"
"BRG_FN float4 brg_idxof(const brt_view *v, BRG_L i, const BRG_L *d, const BRG_L *o)\n"
"{\n"
"	BRG_L e[4];\n"
"	float4 r;\n"
"	brg_own(v, i, d, e);\n"
"	if (v->map < 2) {\n"
"		e[0] += o[0]; e[1] += o[1]; e[2] += o[2]; e[3] += o[3];\n"
"	}\n"
"	r.x = (float)e[0]; r.y = (float)e[1];\n"
"	r.z = (float)e[2]; r.w = (float)e[3];\n"
"	return r;\n"
"}\n"
"/* iterator streams: component j is lo[j] + step[j] * e[rank == 1 ? 0 : j]\n"
"   (brt.h, BRT_MAP_ITER) */\n"
"BRG_FN float brg_iter1(const brt_view *v, BRG_L i, const BRG_L *d, int j)\n"
"{\n"
"	BRG_L e[4];\n"
"	brg_own(v, i, d, e);\n"
"	return v->lo[j] + v->step[j] * (float)e[v->rank == 1 ? 0 : j];\n"
"}\n");
}
