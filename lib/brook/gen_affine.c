/* gen_affine.c - row interiors of the CPU's packed path. A map kernel
 * whose gathers are indexed by the point's x coordinate plus a constant
 * (a stencil's g[y][x - 1]) gets two more functions in its 32-bit
 * instance: K__bodyin32, the body for the points of a row where none of
 * those gathers needs its clamp, reading them as contiguous loads that cc
 * vectorizes; and K__guard32, which tells whether a point is one of them
 * (gen_kcode.c prints both, gen_entry.c the row loop).
 *
 * The scan gives each int or float scalar expression of the body an
 * abstract value: the point's x plus a constant (AFF; x is indexof's .x
 * of a stream, the same for all streams on the packed path), a constant,
 * a value the same along a row (INV: value parameters, the other
 * coordinates, gathers at such indices; Y when it is the point's y plus a
 * constant, printed from the integer brg_Y in K__bodyin and K__guard),
 * or unknown (TOP). A local counts
 * when it is declared at the top of the body with an initializer and
 * never assigned. A conditional whose condition compares an AFF value
 * with an INV one (<, <=, >, >=) takes one branch in the interior (the
 * AFF one, else the true one), and that comparison is a guard; so is
 * 0 <= x + c < dims for each gather coordinate x + c. Each guard holds on
 * a half-line or an interval of x, so all of them hold on an interval,
 * whose ends the row loop finds from the ends of the row. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brook/ast.h"
#include "brook/gen_int.h"
#include "brook/type.h"

enum { A_TOP, A_INV, A_CONST, A_AFF, A_Y };

typedef struct aval {
	int k;
	long c;		/* A_CONST: the value; A_AFF: x + c; A_Y: y + c */
} aval;

/* |c| of x + c stays below 2^20, so that x + c is exact in a float while
 * x is below 2^23 (gen_entry.c tests it per launch) */
#define AFF_CMAX (1L << 20)

struct gen_aff {
	gen_ctx *g;
	const json_t *fn;
	json_t *assigned;	/* "id" of locals written after their
				   declaration */
	json_t *locals;		/* "id" -> [k, c, ...] per component, of the
				   locals the scan follows */
	json_t *nodes;		/* "%p" of an AFF scalar -> c; "?%p" of a
				   conditional with a guard -> its branch;
				   "[%p" of a gather read without clamps */
	gen_aff_guard *guards;
	size_t nguards;
	int ngathers;		/* gathers with an AFF coordinate */
};

/* PRE and E as "%s%p" writes them (glibc: "0x" and lowercase hex, or
 * "(nil)"), without printf's cost where they fit in N bytes. */
static void key_of(char *k, size_t n, const char *pre, const json_t *e)
{
	static const char hex[] = "0123456789abcdef";
	size_t lp = strlen(pre);
	uintptr_t u = (uintptr_t)e;
	char tmp[2 * sizeof u], *p = tmp + sizeof tmp;

	if (!e || lp + 3 + sizeof tmp > n) {
		snprintf(k, n, "%s%p", pre, (const void *)e);
		return;
	}
	do
		*--p = hex[u & 15];
	while (u >>= 4);
	memcpy(k, pre, lp);
	k[lp] = '0';
	k[lp + 1] = 'x';
	memcpy(k + lp + 2, p, (size_t)(tmp + sizeof tmp - p));
	k[lp + 2 + (size_t)(tmp + sizeof tmp - p)] = '\0';
}

static const json_t *strip(const json_t *e)
{
	while (ast_is(e, "paren"))
		e = ast_get(e, "e");
	return e;
}

/* int and float, the types whose values may be x + c */
static int aff_type(const json_t *ty)
{
	const char *s = gen_scalar(ty);
	return s && (ty_streq(s, "int") || ty_streq(s, "float"));
}

static void set_all(aval *v, int n, int k)
{
	int i;
	for (i = 0; i < n; i++) {
		v[i].k = k;
		v[i].c = 0;
	}
}

static int all_inv(const aval *v, int n)
{
	int i;
	for (i = 0; i < n; i++)
		if (v[i].k != A_INV && v[i].k != A_CONST && v[i].k != A_Y)
			return 0;
	return n > 0;
}

static aval mk(int k, long c)
{
	aval r;
	r.k = k;
	r.c = c;
	if (k == A_AFF && (c > AFF_CMAX || c < -AFF_CMAX))
		r.k = A_TOP;
	if (k == A_Y && (c > AFF_CMAX || c < -AFF_CMAX))
		r.k = A_INV;
	return r;
}

/* ---- locals written after their declaration ---------------------------- */

static void mark_written(gen_aff *a, const json_t *lv)
{
	const json_t *d;
	char k[32];

	lv = strip(lv);
	while (ast_is(lv, "member") || ast_is(lv, "index"))
		lv = strip(ast_get(lv, ast_is(lv, "member") ? "e" : "a"));
	d = gen_decl(a->g, lv);
	if (!d)
		return;
	util_lltoa(k, ast_int(d, "id"));
	json_object_set_new(a->assigned, k, json_true());
}

static void scan_writes(gen_aff *a, const json_t *n)
{
	if (json_is_object(n)) {
		const char *key, *op = ast_str(n, "op");
		json_t *v;
		if (ast_is(n, "assign") || ast_is(n, "postfix") ||
				(ast_is(n, "unop") && (ty_streq(op, "++") ||
				ty_streq(op, "--") || ty_streq(op, "&"))))
			mark_written(a, ast_get(n, ast_is(n, "assign") ? "l" :
				"e"));
		json_object_foreach((json_t *)n, key, v)
			if (!ty_streq(key, "ty") && !ty_streq(key, "type"))
				scan_writes(a, v);
	} else if (json_is_array(n)) {
		size_t i;
		json_t *v;
		json_array_foreach(n, i, v)
			scan_writes(a, v);
	}
}

/* ---- abstract values --------------------------------------------------- */

static int eval(gen_aff *a, const json_t *e, aval *v);

static void visit(gen_aff *a, const json_t *n);

/* every child of N, for their gathers and conditionals */
static void visit_children(gen_aff *a, const json_t *n)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)n, key, v)
		if (ast_walks(key) && !ty_streq(key, "type"))
			visit(a, v);
}

static int is_expr(const json_t *n)
{
	static const char *const kinds[] = {
		"id", "int", "float", "char", "string", "binop", "assign",
		"unop", "postfix", "cond", "comma", "call", "ctor", "index",
		"member", "cast", "indexof", "paren",
	};
	size_t i;
	for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (ast_is(n, kinds[i]))
			return 1;
	return 0;
}

static void visit(gen_aff *a, const json_t *n)
{
	if (json_is_object(n)) {
		aval v[4];
		if (is_expr(n))
			eval(a, n, v);
		else
			visit_children(a, n);
	} else if (json_is_array(n)) {
		size_t i;
		json_t *it;
		json_array_foreach(n, i, it)
			visit(a, it);
	}
}

static int eval_id(gen_aff *a, const json_t *e, aval *v, int n)
{
	const json_t *d = gen_decl(a->g, e);
	char k[32];
	json_t *vals;
	int i;

	set_all(v, n, A_TOP);
	if (!d)
		return n;
	if (ast_is(d, "param")) {
		if (ty_streq(gen_role(d), "value"))
			set_all(v, n, A_INV);
		return n;
	}
	util_lltoa(k, ast_int(d, "id"));
	vals = json_object_get(a->locals, k);
	for (i = 0; i < n && (size_t)(2 * i + 1) < json_array_size(vals); i++)
		v[i] = mk((int)json_integer_value(json_array_get(vals, 2 * i)),
			(long)json_integer_value(json_array_get(vals,
			2 * i + 1)));
	return n;
}

static int eval_literal(const json_t *e, aval *v)
{
	const char *text = ast_str(e, "text");
	const char *s = gen_scalar(ast_get(e, "ty"));
	char *end;

	v[0] = mk(A_INV, 0);
	if (s && ty_streq(s, "int")) {
		long x = strtol(text, &end, 0);
		if (*end == '\0' && x <= AFF_CMAX && x >= -AFF_CMAX)
			v[0] = mk(A_CONST, x);
	} else if (s && ty_streq(s, "float")) {
		double x = strtod(text, &end);
		if ((*end == '\0' || ((*end == 'f' || *end == 'F') &&
				end[1] == '\0')) && x == (double)(long)x &&
				x <= AFF_CMAX && x >= -AFF_CMAX)
			v[0] = mk(A_CONST, (long)x);
	}
	return 1;
}

/* x + c plus or minus a constant, constants folded */
static aval add(aval l, aval r, int minus)
{
	if (l.k == A_CONST && r.k == A_CONST)
		return mk(A_CONST, minus ? l.c - r.c : l.c + r.c);
	if (l.k == A_AFF && r.k == A_CONST)
		return mk(A_AFF, minus ? l.c - r.c : l.c + r.c);
	if (!minus && l.k == A_CONST && r.k == A_AFF)
		return mk(A_AFF, l.c + r.c);
	if (l.k == A_Y && r.k == A_CONST)
		return mk(A_Y, minus ? l.c - r.c : l.c + r.c);
	if (!minus && l.k == A_CONST && r.k == A_Y)
		return mk(A_Y, l.c + r.c);
	if (all_inv(&l, 1) && all_inv(&r, 1))
		return mk(A_INV, 0);
	return mk(A_TOP, 0);
}

static int is_order(const char *op)
{
	return ty_streq(op, "<") || ty_streq(op, ">") ||
		ty_streq(op, "<=") || ty_streq(op, ">=");
}

static void add_guard(gen_aff *a, const json_t *e, int arg,
	const char *param)
{
	gen_aff_guard *gd;

	a->guards = xrealloc(a->guards, (a->nguards + 1) * sizeof *a->guards);
	gd = &a->guards[a->nguards++];
	gd->e = e;
	gd->arg = arg;
	gd->param = param;
}

/* cond ? t : f: a guard when cond orders x + c against a row constant */
static int eval_cond(gen_aff *a, const json_t *e, aval *v, int n)
{
	const json_t *c = strip(ast_get(e, "c"));
	aval cv[4], l[4], r[4], t[4], f[4];
	int i, nt, nf, guard = 0, pick;
	char k[48];

	eval(a, c, cv);
	nt = eval(a, ast_get(e, "t"), t);
	nf = eval(a, ast_get(e, "f"), f);
	if (ast_is(c, "binop") && is_order(ast_str(c, "op")) && n == 1 &&
			nt == 1 && nf == 1 &&
			eval(a, ast_get(c, "l"), l) == 1 &&
			eval(a, ast_get(c, "r"), r) == 1)
		guard = (l[0].k == A_AFF && all_inv(r, 1)) ||
			(r[0].k == A_AFF && all_inv(l, 1));
	if (guard) {
		pick = !(f[0].k == A_AFF && t[0].k != A_AFF);
		key_of(k, sizeof k, "?", e);
		json_object_set_new(a->nodes, k, json_integer(pick));
		add_guard(a, c, pick, NULL);
		v[0] = pick ? t[0] : f[0];
		return 1;
	}
	set_all(v, n, A_TOP);
	if (nt == n && nf == n && all_inv(cv, 1))
		for (i = 0; i < n; i++)
			v[i] = t[i].k == f[i].k && t[i].c == f[i].c ? t[i] :
				all_inv(&t[i], 1) && all_inv(&f[i], 1) ?
				mk(A_INV, 0) : mk(A_TOP, 0);
	return n;
}

/* a gather read: INV at row-constant coordinates; coordinates x + c
 * make it one of the gathers the interior reads without clamps */
static int eval_index(gen_aff *a, const json_t *e, aval *v, int n)
{
	const json_t *idx[8], *base = strip(e), *p;
	aval iv[8][4];
	int k = 0, i, aff = 0, inv, top = 0;
	char key[48];

	while (ast_is(base, "index") && k < 8) {
		idx[k++] = ast_get(base, "i");
		base = strip(ast_get(base, "a"));
	}
	set_all(v, n, A_TOP);
	for (i = 0; i < k; i++) {
		int m = eval(a, idx[i], iv[i]);
		if (m != 1 || !aff_type(ast_get(idx[i], "ty")) ||
				iv[i][0].k == A_TOP)
			top = 1;
		else
			aff |= iv[i][0].k == A_AFF;
	}
	inv = !top && !aff;
	p = gen_decl(a->g, base);
	if (!p || !ast_is(p, "param") || !ty_streq(gen_role(p), "gather")
			|| top || k != gen_rank(a->g, gen_resolve(a->g,
			ast_get(p, "type"))) || k > 4)
		return n;
	if (inv) {
		set_all(v, n, A_INV);
		return n;
	}
	key_of(key, sizeof key, "[", e);
	json_object_set_new(a->nodes, key, json_true());
	a->ngathers++;
	/* idx[0], the last subscript, is coordinate 0 (x) */
	for (i = 0; i < k; i++)
		if (iv[i][0].k == A_AFF)
			add_guard(a, idx[i], i, ast_str(p, "name"));
	return n;
}

/* The abstract value of E, one per component (returns their number, 0
 * for what has none). */
static int eval(gen_aff *a, const json_t *e, aval *v)
{
	const json_t *ty = ast_get(e, "ty");
	int n = ty_ncomp(gen_resolve(a->g, ty)), i;
	aval l[4], r[4];
	const char *op = ast_str(e, "op");

	if (n < 1 || n > 4)
		n = 1;
	set_all(v, n, A_TOP);
	if (ast_is(e, "paren")) {
		n = eval(a, ast_get(e, "e"), v);
	} else if (ast_is(e, "int") || ast_is(e, "float")) {
		n = eval_literal(e, v);
	} else if (ast_is(e, "char")) {
		v[0] = mk(A_INV, 0);
	} else if (ast_is(e, "id")) {
		eval_id(a, e, v, n);
	} else if (ast_is(e, "indexof")) {
		const json_t *p = gen_decl(a->g, ast_get(e, "e"));
		if (p && ast_is(p, "param") && (ty_streq(gen_role(p), "in")
				|| ty_streq(gen_role(p), "out"))) {
			set_all(v, n, A_INV);
			v[0] = mk(A_AFF, 0);
			if (n > 1)
				v[1] = mk(A_Y, 0);
		}
	} else if (ast_is(e, "member")) {
		aval s[4];
		int m = eval(a, ast_get(e, "e"), s);
		const json_t *sw = ast_get(e, "swizzle");
		if (json_is_array(sw)) {
			for (i = 0; i < n && (size_t)i < json_array_size(sw); i++) {
				long c = (long)json_integer_value(json_array_get(
					sw, (size_t)i));
				v[i] = c >= 0 && c < m ? s[c] : mk(A_TOP, 0);
			}
		} else if (all_inv(s, m)) {
			set_all(v, n, A_INV);
		}
	} else if (ast_is(e, "cast")) {
		aval s[4];
		int m = eval(a, ast_get(e, "e"), s);
		if (m == 1 && n == 1 && aff_type(ty) && aff_type(ast_get(
				ast_get(e, "e"), "ty")))
			v[0] = s[0];
		else if (all_inv(s, m))
			set_all(v, n, A_INV);
	} else if (ast_is(e, "binop")) {
		int nl = eval(a, ast_get(e, "l"), l);
		int nr = eval(a, ast_get(e, "r"), r);
		int pm = ty_streq(op, "+") || ty_streq(op, "-");
		if (pm && n == 1 && nl == 1 && nr == 1)
			v[0] = add(l[0], r[0], op[0] == '-');
		else if (ty_streq(op, "*") && n == 1 && nl == 1 && nr == 1
				&& l[0].k == A_CONST && r[0].k == A_CONST &&
				l[0].c * r[0].c <= AFF_CMAX && l[0].c * r[0].c
				>= -AFF_CMAX)
			v[0] = mk(A_CONST, l[0].c * r[0].c);
		else if (all_inv(l, nl) && all_inv(r, nr))
			set_all(v, n, A_INV);
	} else if (ast_is(e, "unop") && (ty_streq(op, "-") ||
			ty_streq(op, "+") || ty_streq(op, "!") ||
			ty_streq(op, "~"))) {
		int m = eval(a, ast_get(e, "e"), l);
		if (m == 1 && n == 1 && l[0].k == A_CONST && op[0] == '-')
			v[0] = mk(A_CONST, -l[0].c);
		else if (m == 1 && n == 1 && op[0] == '+')
			v[0] = l[0];
		else if (all_inv(l, m))
			set_all(v, n, A_INV);
	} else if (ast_is(e, "cond")) {
		n = eval_cond(a, e, v, n);
	} else if (ast_is(e, "index")) {
		n = eval_index(a, e, v, n);
	} else if (ast_is(e, "ctor")) {
		json_t *args = ast_arr(e, "args"), *x;
		size_t j;
		int ok = (int)json_array_size(args) == n;
		json_array_foreach(args, j, x) {
			aval s[4];
			int m = eval(a, x, s);
			if (ok && m == 1 && j < 4)
				v[j] = s[0];
			else
				ok = 0;
		}
		if (!ok)
			set_all(v, n, A_TOP);
	} else {
		visit_children(a, e);	/* calls, assignments, commas */
	}
	for (i = 0; i < n; i++)
		if (v[i].k == A_AFF && !aff_type(ty))
			v[i] = mk(A_TOP, 0);
		else if (v[i].k == A_Y && !aff_type(ty))
			v[i] = mk(A_INV, 0);
	if (n == 1 && (v[0].k == A_AFF || v[0].k == A_Y)) {
		char k[48];
		key_of(k, sizeof k, v[0].k == A_Y ? "y" : "", e);
		json_object_set_new(a->nodes, k, json_integer(v[0].c));
	}
	return n;
}

/* A declaration at the top of the body: its locals are followed when
 * every one of them has an initializer, is never written after and has a
 * value other than TOP (K__guard32 declares them all, or none). */
static void top_decl(gen_aff *a, const json_t *d)
{
	json_t *vars = ast_arr(d, "vars"), *var, *list = json_object();
	size_t i;
	int ok = 1;

	json_array_foreach(vars, i, var) {
		const json_t *init = ast_get(var, "init");
		char k[32];
		aval v[4];
		int n, j, any = 0;
		json_t *vals;
		util_lltoa(k, ast_int(var, "id"));
		if (!init || json_is_null(init) || ast_is(init, "initlist") ||
				gen_has_qual(var, "shared") ||
				json_object_get(a->assigned, k)) {
			visit(a, init);
			ok = 0;
			continue;
		}
		n = eval(a, init, v);
		vals = json_array();
		for (j = 0; j < n; j++) {
			any |= v[j].k != A_TOP;
			json_array_append_new(vals, json_integer(v[j].k));
			json_array_append_new(vals, json_integer(v[j].c));
		}
		ok &= any;
		json_object_set_new(list, k, vals);
	}
	if (ok)
		json_object_update(a->locals, list);
	json_decref(list);
}

gen_aff *gen_aff_scan(gen_ctx *g, const json_t *fn)
{
	gen_aff *a;
	size_t i;
	json_t *it;
	const json_t *ret = ast_get(ast_get(fn, "type"), "ret");

	/* map kernels without records (a scatter's drops, --checked) */
	if (!ty_streq(gen_kclass(fn), "map") || gen_is_group(fn) ||
			gen_records(g, fn) || (ret && !json_is_null(ret) &&
			!ty_streq(ty_kind(ret), "void")))
		return NULL;
	a = xcalloc(1, sizeof *a);
	a->g = g;
	a->fn = fn;
	a->assigned = json_object();
	a->locals = json_object();
	a->nodes = json_object();
	scan_writes(a, ast_get(fn, "body"));
	ast_array_foreach(ast_arr(ast_get(fn, "body"), "items"), i, it) {
		if (ast_is(it, "decl"))
			top_decl(a, it);
		else
			visit(a, it);
	}
	if (!a->ngathers) {
		gen_aff_free(a);
		return NULL;
	}
	return a;
}

const gen_aff *gen_aff_of(gen_ctx *g, const json_t *fn)
{
	gen_fninfo *fi = gen_fn_info(g, fn);

	if (!fi->aff_known) {
		fi->aff = gen_aff_scan(g, fn);
		fi->aff_known = 1;
	}
	return fi->aff;
}

void gen_aff_free(gen_aff *a)
{
	if (!a)
		return;
	json_decref(a->assigned);
	json_decref(a->locals);
	json_decref(a->nodes);
	free(a->guards);
	free(a);
}

/* The constant C recorded for node E under PRE ("" x + c, "y" y + c) */
static int node_const(const gen_aff *a, const char *pre, const json_t *e,
	long *c)
{
	char k[48];
	json_t *v;

	key_of(k, sizeof k, pre, e);
	v = json_object_get(a->nodes, k);
	if (!json_is_integer(v))
		return 0;
	*c = (long)json_integer_value(v);
	return 1;
}

int gen_aff_value(const gen_aff *a, const json_t *e, long *c)
{
	return node_const(a, "", e, c);
}

int gen_aff_yvalue(const gen_aff *a, const json_t *e, long *c)
{
	return node_const(a, "y", e, c);
}

int gen_aff_branch(const gen_aff *a, const json_t *e)
{
	char k[48];
	json_t *v;

	key_of(k, sizeof k, "?", e);
	v = json_object_get(a->nodes, k);
	return json_is_integer(v) ? (int)json_integer_value(v) : -1;
}

int gen_aff_gather(const gen_aff *a, const json_t *e)
{
	char k[48];

	key_of(k, sizeof k, "[", e);
	return json_object_get(a->nodes, k) != NULL;
}

int gen_aff_local(const gen_aff *a, const json_t *var)
{
	char k[32];

	util_lltoa(k, ast_int(var, "id"));
	return json_object_get(a->locals, k) != NULL;
}

const gen_aff_guard *gen_aff_guards(const gen_aff *a, size_t *n)
{
	*n = a->nguards;
	return a->guards;
}
