/* gen_group.c - uniform loops of a GroupSize kernel on the CPU backend.
 *
 * The CPU runs a group's threads phase by phase between syncGroup()
 * calls (gen_kcode.c, gen_group_split), each phase a loop over the
 * threads. A for loop at the top of a phase whose bounds are the same for
 * every thread (a "uniform" loop: its start, condition and step read only
 * constants, value parameters and its own variable, and its body does not
 * write that variable) runs here with the thread loop inside it: each
 * step of the loop runs for every thread before the next step. That is
 * the order of a GPU, where the threads of a group run side by side; in
 * the phase's own order each thread runs the whole loop before the next
 * thread starts. Both orders give the same result when the threads do not
 * see each other's writes within the phase, which is what brgen checks
 * (spec 1.17.2-1.17.7: the threads of a group share memory, and only
 * syncGroup() orders their accesses to it; guide 1.17.7: a loop around a
 * barrier has the same trip count for the whole group):
 *   - the loop's body writes only the thread's own variables (no shared
 *     array, no gather, scatter or output parameter, no call of a kernel
 *     function), and leaves it only at its end (no return, break,
 *     continue);
 *   - in the phase that holds it, no array that is written (a shared
 *     array, a scatter or output parameter) is also read, and all such
 *     writes are in one of the pieces the loops cut the phase into: the
 *     pieces run one after the other for the whole group, each in thread
 *     order, so that only the order of a thread's reads against another
 *     thread's writes changes, and there are none;
 *   - not under --checked, whose records keep the order of the accesses.
 *
 * In such a loop gcc vectorizes the body across threads, as a GPU runs
 * it. To let it:
 *   - a variable that the loop's body sets before reading it, and that
 *     nothing outside the loop reads, is a variable of the thread's
 *     iteration (C's scalar, not the per-thread array of the phases);
 *   - a variable set once, where it is declared at the top of the kernel,
 *     to an expression of instanceInGroup().x, constants, value
 *     parameters and variables set once before it (each thread's copy),
 *     is printed as that expression;
 *   - in a one-dimensional group, instanceInGroup().x / C and % C, for
 *     the smallest such C that divides the group size, come from a thread
 *     loop split in two, t = t1 * C + t0: t1 and t0 (and for a multiple
 *     of C, their quotient and remainder), so that indices such as
 *     s[(tid / 16) * 8 + k] or s[k * 32 + tid % 16] are the same for C
 *     threads or step by one, which gcc loads as vectors;
 *   - when every thread of the group is active (no edge of the domain,
 *     no thread returned), the thread loop tests no mask.
 * A phase (or a piece of one between uniform loops) that divides the
 * thread id by a constant gets the same split thread loop, in the same
 * order, and may read its gathers without clamps, and the variables of
 * their coordinates as the group's value where every thread holds the
 * same (gen_group_segment).
 * The OpenCL code of group kernels does not change. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brook/ast.h"
#include "brook/gen_int.h"
#include "brook/type.h"

#define UL_MAX 64	/* uniform loops per kernel that the plan keeps */

struct gen_gplan {
	gen_ctx *g;
	const json_t *fn;
	long n, gs0;		/* threads per group, the group's x size
				   (0 when the group has more than one
				   dimension: no split) */
	const json_t *loops[UL_MAX];	/* the loops printed here */
	int nloops;
	json_t *locals;		/* "id" -> true: variables of an iteration */
	json_t *remat;		/* "id" -> the var node of a variable
				   printed as its initializer */
	json_t *once;		/* "id" -> true: the kernel's top-level
				   int variables set where declared and
				   never written again */
	json_t *rematv;		/* "id" -> true: those of remat whose
				   initializer reads some of once */
	json_t *vars;		/* "id" -> true: the variables of the
				   phases (per thread) */
	int nprinted;		/* for the names of loop variables */
};

static const json_t *strip(const json_t *e)
{
	while (ast_is(e, "paren"))
		e = ast_get(e, "e");
	return e;
}

static void id_key(char *k, const json_t *d)
{
	util_lltoa(k, ast_int(d, "id"));
}

static int in_set(const json_t *set, const json_t *d)
{
	char k[32];

	if (!d)
		return 0;
	id_key(k, d);
	return json_object_get(set, k) != NULL;
}

/* A local variable of the kernel that is not shared: the thread's own. */
static int is_private(const json_t *d)
{
	return ast_is(d, "var") && !gen_has_qual(d, "shared");
}

/* A parameter passed by value (the same for every thread). */
static int is_value_param(const json_t *d)
{
	return ast_is(d, "param") && ty_streq(gen_role(d), "value");
}

static int is_step_op(const json_t *n)
{
	return (ast_is(n, "unop") || ast_is(n, "postfix")) &&
		(ty_streq(ast_str(n, "op"), "++") ||
		ty_streq(ast_str(n, "op"), "--"));
}

/* The number of names under N that refer to declaration D. */
static int refs(gen_ctx *g, const json_t *n, const json_t *d)
{
	const char *key;
	json_t *v;
	size_t i;
	int c = 0;

	if (json_is_array(n)) {
		json_array_foreach(n, i, v)
			c += refs(g, v, d);
		return c;
	}
	if (!json_is_object(n))
		return 0;
	if (ast_is(n, "id") && gen_decl(g, n) == d)
		return 1;
	json_object_foreach((json_t *)n, key, v)
		if (ast_walks(key))
			c += refs(g, v, d);
	return c;
}

/* ---- what a piece of code writes and reads ------------------------------ */

/* Whether N writes something other than the thread's own variables, or
 * writes declaration D (when not NULL), or calls a function that could. */
static int writes_other(gen_ctx *g, const json_t *n, const json_t *d)
{
	const char *key;
	json_t *v;
	size_t i;

	if (json_is_array(n)) {
		json_array_foreach(n, i, v)
			if (writes_other(g, v, d))
				return 1;
		return 0;
	}
	if (!json_is_object(n))
		return 0;
	if (ast_is(n, "assign") || is_step_op(n)) {
		const json_t *t = gen_target_decl(g, ast_get(n,
			ast_is(n, "assign") ? "l" : "e"));
		if (!is_private(t) || (d && t == d))
			return 1;
	}
	if (ast_is(n, "call") && !ty_streq(ast_str(n, "callee"), "builtin"))
		return 1;
	json_object_foreach((json_t *)n, key, v)
		if (!ty_streq(key, "ty") && writes_other(g, v, d))
			return 1;
	return 0;
}

/* The arrays other than the thread's own that N writes (into W) and
 * reads (into R), by declaration id. */
static void mem_access(gen_ctx *g, const json_t *n, json_t *w, json_t *r)
{
	const char *key;
	json_t *v;
	size_t i;

	if (json_is_array(n)) {
		json_array_foreach(n, i, v)
			mem_access(g, v, w, r);
		return;
	}
	if (!json_is_object(n))
		return;
	if (ast_is(n, "assign") || is_step_op(n)) {
		const json_t *l = ast_get(n, ast_is(n, "assign") ? "l" : "e");
		const json_t *t = gen_target_decl(g, l);
		char k[32];
		if (t && !is_private(t) && !is_value_param(t)) {
			id_key(k, t);
			json_object_set_new(w, k, json_true());
			if (!ast_is(n, "assign") ||
					!ty_streq(ast_str(n, "op"), "="))
				json_object_set_new(r, k, json_true());
		}
		/* the target's indices are read; its name is not */
		for (l = strip(l); ast_is(l, "member") || ast_is(l, "index");
				l = strip(ast_get(l, ast_is(l, "member") ?
				"e" : "a")))
			if (ast_is(l, "index"))
				mem_access(g, ast_get(l, "i"), w, r);
		if (ast_is(n, "assign"))
			mem_access(g, ast_get(n, "r"), w, r);
		return;
	}
	if (ast_is(n, "id")) {
		const json_t *d = gen_decl(g, n);
		char k[32];
		if (d && !is_private(d) && !is_value_param(d) &&
				!(ast_is(d, "param") &&
				ty_streq(gen_role(d), "in"))) {
			id_key(k, d);
			json_object_set_new(r, k, json_true());
		}
		return;
	}
	json_object_foreach((json_t *)n, key, v)
		if (!ty_streq(key, "ty"))
			mem_access(g, v, w, r);
}

/* Whether N writes declaration D (or passes it to a function, which may
 * take it as an out parameter). */
static int writes_decl(gen_ctx *g, const json_t *n, const json_t *d)
{
	return gen_writes(g, n, &d, 1, 0);
}

/* ---- uniform loops ------------------------------------------------------ */

/* Whether E reads only constants, value parameters and V, and writes
 * nothing. */
static int uniform(gen_ctx *g, const json_t *e, const json_t *v)
{
	const char *k;

	e = strip(e);
	k = ast_kind(e);
	if (ty_streq(k, "int") || ty_streq(k, "float") ||
			ty_streq(k, "char"))
		return 1;
	if (ty_streq(k, "id")) {
		const json_t *d = gen_decl(g, e);
		return d && (d == v || is_value_param(d));
	}
	if (ty_streq(k, "binop"))
		return uniform(g, ast_get(e, "l"), v) &&
			uniform(g, ast_get(e, "r"), v);
	if (ty_streq(k, "unop"))
		return !is_step_op(e) && uniform(g, ast_get(e, "e"), v);
	if (ty_streq(k, "cast") || (ty_streq(k, "member") &&
			json_is_array(ast_get(e, "swizzle"))))
		return uniform(g, ast_get(e, "e"), v);
	if (ty_streq(k, "cond"))
		return uniform(g, ast_get(e, "c"), v) &&
			uniform(g, ast_get(e, "t"), v) &&
			uniform(g, ast_get(e, "f"), v);
	return 0;
}

/* The variable of loop S when S is uniform (above), with its start in
 * *INIT; NULL otherwise. */
static const json_t *uloop_var(gen_ctx *g, const json_t *s,
	const json_t **init)
{
	const json_t *in = ast_get(s, "init"), *cond = ast_get(s, "cond");
	const json_t *step = ast_get(s, "step"), *body = ast_get(s, "body");
	const json_t *v;

	if (!ast_is(s, "for") || !json_is_object(cond) ||
			!json_is_object(step) || !json_is_object(in))
		return NULL;
	if (ast_is(in, "decl")) {
		if (json_array_size(ast_arr(in, "vars")) != 1)
			return NULL;
		v = json_array_get(ast_arr(in, "vars"), 0);
		*init = ast_get(v, "init");
	} else {
		in = strip(in);
		if (!ast_is(in, "assign") || strcmp(ast_str(in, "op"), "="))
			return NULL;
		v = gen_target_decl(g, ast_get(in, "l"));
		if (!ast_is(strip(ast_get(in, "l")), "id"))
			return NULL;
		*init = ast_get(in, "r");
	}
	if (!is_private(v) || !gen_scalar(gen_resolve(g, ast_get(v,
			"type"))) || ty_ncomp(gen_resolve(g, ast_get(v,
			"type"))) != 1 || !json_is_object(*init) ||
			!uniform(g, *init, NULL) || !uniform(g, cond, v) ||
			ty_ncomp(ast_get(cond, "ty")) > 1)
		return NULL;
	step = strip(step);
	if (is_step_op(step)) {
		if (!ast_is(strip(ast_get(step, "e")), "id") ||
				gen_decl(g, strip(ast_get(step, "e"))) != v)
			return NULL;
	} else if (!ast_is(step, "assign") || !ast_is(strip(ast_get(step,
			"l")), "id") || gen_decl(g, strip(ast_get(step,
			"l"))) != v || !uniform(g, ast_get(step, "r"), v)) {
		return NULL;
	}
	static const char *const exits[] = {"return", "break", "continue",
		"goto", "syncGroup", NULL};
	if (gen_uses_any(body, exits) || writes_other(g, body, v))
		return NULL;
	return v;
}

/* The statements of a loop's body. */
static const json_t *body_items(const json_t *body, json_t **tmp)
{
	*tmp = NULL;
	if (ast_is(body, "block"))
		return ast_arr(body, "items");
	*tmp = json_pack("[O]", body);
	return *tmp;
}

/* Whether private variable D is a variable of an iteration of loop S:
 * not given a value where declared, named only in the body of S, and set
 * there (V = e at the top of the body) before anything else names it. */
static int iter_local(gen_gplan *p, const json_t *s, const json_t *d)
{
	const json_t *init = ast_get(d, "init");
	json_t *tmp, *it;
	const json_t *items;
	size_t i;
	int n, ok = 0;

	if ((init && !json_is_null(init)) || ty_ncomp(gen_resolve(p->g,
			ast_get(d, "type"))) < 1)
		return 0;	/* an array or a struct is set in parts */
	n = refs(p->g, ast_get(s, "body"), d);
	if (n == 0 || n != refs(p->g, ast_get(p->fn, "body"), d))
		return 0;
	items = body_items(ast_get(s, "body"), &tmp);
	json_array_foreach(items, i, it) {
		const json_t *e = strip(ast_get(it, "e"));
		if (refs(p->g, it, d) == 0)
			continue;
		ok = ast_is(it, "expr") && ast_is(e, "assign") &&
			ty_streq(ast_str(e, "op"), "=") &&
			ast_is(strip(ast_get(e, "l")), "id") &&
			gen_decl(p->g, strip(ast_get(e, "l"))) == d &&
			refs(p->g, ast_get(e, "r"), d) == 0;
		break;
	}
	json_decref(tmp);
	return ok;
}

/* The body of loop S as a block (a new reference): a body that is one
 * statement, such as another loop, is a block of it, as sync_loop
 * (gen_kcode.c) prints it. */
static json_t *loop_block(const json_t *s)
{
	const json_t *body = ast_get(s, "body");

	if (ast_is(body, "block"))
		return json_incref((json_t *)body);
	return json_pack("{s:s, s:[O]}", "k", "block", "items", body);
}

/* gen_int.h; gen_entry.c declares these variables */
void gen_hoisted(const json_t *blk, json_t *out)
{
	size_t i, j;
	json_t *it, *v;

	ast_array_foreach(ast_arr(blk, "items"), i, it) {
		if (gen_is_sync_loop(it)) {
			json_t *blk = loop_block(it);
			gen_hoisted(blk, out);
			json_decref(blk);
			continue;
		}
		if (!ast_is(it, "decl"))
			continue;
		ast_array_foreach(ast_arr(it, "vars"), j, v)
			if (!gen_has_qual(v, "shared"))
				json_array_append(out, v);
	}
}

/* Decides the loops of the phase made of ITEMS[LO..HI). */
static void plan_phase(gen_gplan *p, const json_t *items, size_t lo,
	size_t hi, const json_t *vars)
{
	const json_t *cand[UL_MAX];
	size_t i, j, nc = 0;
	json_t *w = json_object(), *r = json_object(), *seg_w;
	const char *key;
	json_t *v;
	int wsegs = 0, segw = 0, ok = 1;

	for (i = lo; i < hi; i++) {
		const json_t *it = json_array_get(items, i), *init;
		seg_w = json_object();
		mem_access(p->g, it, seg_w, r);
		if (nc < UL_MAX && p->nloops + (int)nc < UL_MAX &&
				uloop_var(p->g, it, &init)) {
			/* it writes nothing but its thread's variables */
			cand[nc++] = it;
			wsegs += segw;
			segw = 0;
		} else if (json_object_size(seg_w)) {
			segw = 1;
		}
		json_object_update(w, seg_w);
		json_decref(seg_w);
	}
	wsegs += segw;
	json_object_foreach(w, key, v)
		if (json_object_get(r, key))
			ok = 0;
	if (wsegs > 1)
		ok = 0;
	for (i = 0; ok && i < nc; i++) {
		p->loops[p->nloops++] = cand[i];
		json_array_foreach(vars, j, v) {
			char k[32];
			if (!iter_local(p, cand[i], v))
				continue;
			id_key(k, v);
			json_object_set_new(p->locals, k, json_true());
		}
	}
	json_decref(w);
	json_decref(r);
}

/* Walks BLK as gen_group_split does: phases between syncGroup() calls
 * and loops with syncGroup(). */
static void plan_block(gen_gplan *p, const json_t *blk, const json_t *vars)
{
	const json_t *items = ast_arr(blk, "items");
	size_t i, lo = 0, n = json_array_size(items);

	for (i = 0; i <= n; i++) {
		const json_t *it = i < n ? json_array_get(items, i) : NULL;
		if (it && !gen_is_sync_stmt(it) && !gen_is_sync_loop(it))
			continue;
		plan_phase(p, items, lo, i, vars);
		lo = i + 1;
		if (it && gen_is_sync_loop(it)) {
			json_t *blk = loop_block(it);
			plan_block(p, blk, vars);
			json_decref(blk);
		}
	}
}

/* ---- variables printed as their value ----------------------------------- */

/* instanceInGroup().x, directly or through a variable set to it. */
static int is_thread_x(const gen_gplan *p, const json_t *e)
{
	const json_t *c;

	e = strip(e);
	if (ast_is(e, "id")) {
		const json_t *d = gen_decl(p->g, e);
		return in_set(p->remat, d) &&
			is_thread_x(p, ast_get(d, "init"));
	}
	if (!ast_is(e, "member") || !ty_streq(ast_str(e, "name"), "x"))
		return 0;
	c = strip(ast_get(e, "e"));
	return ast_is(c, "call") && ty_streq(ast_str(c, "builtin"),
		"instanceInGroup");
}

/* Whether E is an int expression of instanceInGroup().x, constants, value
 * parameters and variables already in P->remat, and when ONCE, also of
 * variables in P->once (each thread's copy, read where E is printed: it
 * holds the value it had where E's variable was declared). */
static int thread_expr(const gen_gplan *p, const json_t *e, int once)
{
	const char *k;

	e = strip(e);
	if (!gen_scalar(ast_get(e, "ty")) ||
			!ty_streq(gen_scalar(ast_get(e, "ty")), "int"))
		return 0;
	k = ast_kind(e);
	if (ty_streq(k, "int"))
		return 1;
	if (ty_streq(k, "id")) {
		const json_t *d = gen_decl(p->g, e);
		/* without ONCE, not through a variable of rematv */
		return is_value_param(d) || (in_set(p->remat, d) && (once ||
			!in_set(p->rematv, d))) || (once && in_set(p->once, d));
	}
	if (ty_streq(k, "member"))
		return is_thread_x(p, e);
	if (ty_streq(k, "binop")) {
		const char *op = ast_str(e, "op");
		return (ty_streq(op, "+") || ty_streq(op, "-") ||
			ty_streq(op, "*") || ty_streq(op, "/") ||
			ty_streq(op, "%")) &&
			thread_expr(p, ast_get(e, "l"), once) &&
			thread_expr(p, ast_get(e, "r"), once);
	}
	return 0;
}

/* The kernel's top-level int variables set where declared to a thread
 * expression and never written again; those set so to an expression of
 * earlier such variables too (bc = x0 + tid % 32, x0 the corner of a
 * group's tile: in a phase whose thread loop is split, x0 + brg_t0 steps
 * by one from thread to thread). */
static void plan_remat(gen_gplan *p)
{
	const json_t *body = ast_get(p->fn, "body");
	size_t i, j;
	json_t *it, *v;

	ast_array_foreach(ast_arr(body, "items"), i, it) {
		if (!ast_is(it, "decl"))
			continue;
		ast_array_foreach(ast_arr(it, "vars"), j, v) {
			const json_t *init = ast_get(v, "init");
			const json_t *ty = gen_resolve(p->g, ast_get(v,
				"type"));
			char k[32];
			if (!is_private(v) || !init || json_is_null(init) ||
					!gen_scalar(ty) ||
					!ty_streq(gen_scalar(ty), "int") ||
					writes_decl(p->g, body, v))
				continue;
			id_key(k, v);
			/* thread_expr without ONCE accepts less than with */
			if (thread_expr(p, init, 1)) {
				json_object_set_new(p->remat, k,
					json_incref(v));
				if (!thread_expr(p, init, 0))
					json_object_set_new(p->rematv, k,
						json_true());
			}
			json_object_set_new(p->once, k, json_true());
		}
	}
}

/* ---- the plan ----------------------------------------------------------- */

gen_gplan *gen_gplan_new(gen_ctx *g, const json_t *fn, long n, long gs0)
{
	gen_gplan *p = calloc(1, sizeof *p);
	json_t *vars;

	if (!p)
		return NULL;
	p->g = g;
	p->fn = fn;
	p->n = n;
	p->gs0 = gs0;
	p->locals = json_object();
	p->remat = json_object();
	p->once = json_object();
	p->rematv = json_object();
	vars = json_array();
	gen_hoisted(ast_get(fn, "body"), vars);
	p->vars = json_object();
	{
		size_t i;
		json_t *v;
		json_array_foreach(vars, i, v) {
			char k[32];
			id_key(k, v);
			json_object_set_new(p->vars, k, json_true());
		}
	}
	plan_remat(p);
	plan_block(p, ast_get(fn, "body"), vars);
	json_decref(vars);
	return p;
}

void gen_gplan_free(gen_gplan *p)
{
	if (!p)
		return;
	json_decref(p->locals);
	json_decref(p->remat);
	json_decref(p->once);
	json_decref(p->rematv);
	json_decref(p->vars);
	free(p);
}

int gen_gplan_local(const gen_gplan *p, const json_t *var)
{
	return p && in_set(p->locals, var);
}

int gen_gplan_loop(const gen_gplan *p, const json_t *s)
{
	int i;

	for (i = 0; p && i < p->nloops; i++)
		if (p->loops[i] == s)
			return 1;
	return 0;
}

/* ---- printing ----------------------------------------------------------- */

/* The divisors C of instanceInGroup().x / C and % C under N (through
 * the variables printed as their value): the smallest that divides the
 * group's x size, else 0. */
static long split_of(const gen_gplan *p, const json_t *n, long best)
{
	const char *key;
	json_t *v;
	size_t i;

	if (json_is_array(n)) {
		json_array_foreach(n, i, v)
			best = split_of(p, v, best);
		return best;
	}
	if (!json_is_object(n))
		return best;
	if (ast_is(n, "id")) {
		const json_t *d = gen_decl(p->g, n);
		return in_set(p->remat, d) ? split_of(p, ast_get(d, "init"),
			best) : best;
	}
	if (ast_is(n, "binop") && (ty_streq(ast_str(n, "op"), "/") ||
			ty_streq(ast_str(n, "op"), "%")) &&
			is_thread_x(p, ast_get(n, "l")) &&
			ast_is(strip(ast_get(n, "r")), "int")) {
		long c = (long)ast_int(strip(ast_get(n, "r")), "value");
		if (c > 1 && c < p->gs0 && p->gs0 % c == 0 &&
				(best == 0 || c < best))
			best = c;
	}
	json_object_foreach((json_t *)n, key, v)
		if (!ty_streq(key, "ty"))
			best = split_of(p, v, best);
	return best;
}

/* Whether N has no side effect (no assignment, step or call of a kernel
 * function). */
static int pure(const json_t *n)
{
	const char *key;
	json_t *v;
	size_t i;

	if (json_is_array(n)) {
		json_array_foreach(n, i, v)
			if (!pure(v))
				return 0;
		return 1;
	}
	if (!json_is_object(n))
		return 1;
	if (ast_is(n, "assign") || is_step_op(n) || (ast_is(n, "call") &&
			!ty_streq(ast_str(n, "callee"), "builtin")))
		return 0;
	json_object_foreach((json_t *)n, key, v)
		if (!ty_streq(key, "ty") && !pure(v))
			return 0;
	return 1;
}

/* V = S[i], V a variable and S a shared array of vectors: read component
 * by component, as gcc vectorizes no copy of a whole struct element. */
static int shared_vec(gen_fn *f, strbuf *b, const json_t *e)
{
	const json_t *l = strip(ast_get(e, "l")), *r = strip(ast_get(e, "r"));
	const json_t *a = strip(ast_get(r, "a")), *d;
	const json_t *lt = ast_get(l, "ty"), *rt = ast_get(r, "ty");
	int n = ty_ncomp(rt), c;

	d = ast_is(a, "id") ? gen_decl(f->g, a) : NULL;
	if (!ast_is(e, "assign") || !ty_streq(ast_str(e, "op"), "=") ||
			!ast_is(l, "id") || !ast_is(r, "index") || n < 2 ||
			ty_ncomp(lt) != n || !gen_scalar(lt) ||
			strcmp(gen_scalar(lt), gen_scalar(rt)) != 0 ||
			!ast_is(d, "var") || !gen_has_qual(d, "shared") ||
			gen_soa_is(f->soa, d) || !pure(ast_get(r, "i")))
		return 0;
	gen_kexpr(f, b, l);
	sb_printf(b, " = %s_(", gen_arith_name(f->t, gen_scalar(rt), n));
	for (c = 0; c < n; c++) {
		if (c)
			sb_puts(b, ", ");
		gen_kexpr(f, b, r);
		sb_printf(b, ".%c", "xyzw"[c]);
	}
	sb_putc(b, ')');
	return 1;
}

int gen_group_expr(gen_fn *f, strbuf *b, const json_t *e)
{
	const gen_gplan *p = f->gplan;
	const json_t *d;
	long c, t = f->tsplit;
	const char *op;

	if (!p || !f->tloop)
		return 0;
	if (shared_vec(f, b, e))
		return 1;
	/* one of rematv only in a phase's split loop, where its copy may
	   not be set yet when the guards read it; in a uniform loop's steps
	   its array's element costs less than its initializer */
	d = ast_is(e, "id") ? gen_decl(p->g, e) : NULL;
	if (in_set(p->remat, d) && (f->tseg || !in_set(p->rematv, d))) {
		sb_putc(b, '(');
		gen_kconv(f, b, ast_get(d, "init"), gen_resolve(p->g,
			ast_get(d, "type")));
		sb_putc(b, ')');
		return 1;
	}
	if (!t || !ast_is(e, "binop") || !is_thread_x(p, ast_get(e, "l")) ||
			!ast_is(strip(ast_get(e, "r")), "int"))
		return 0;
	op = ast_str(e, "op");
	c = (long)ast_int(strip(ast_get(e, "r")), "value");
	if (c <= 0 || (c % t != 0 && t % c != 0))
		return 0;
	/* t = brg_t1 * T + brg_t0, 0 <= brg_t0 < T */
	if (ty_streq(op, "/")) {
		if (c == t)
			sb_puts(b, "brg_t1");
		else if (c % t == 0)
			sb_printf(b, "(brg_t1 / %ld)", c / t);
		else
			sb_printf(b, "(brg_t1 * %ld + brg_t0 / %ld)", t / c,
				c);
	} else if (ty_streq(op, "%")) {
		if (c == t)
			sb_puts(b, "brg_t0");
		else if (c % t == 0)
			sb_printf(b, "(brg_t1 %% %ld * %ld + brg_t0)", c / t,
				t);
		else
			sb_printf(b, "(brg_t0 %% %ld)", c);
	} else {
		return 0;
	}
	return 1;
}

/* Prints the name of declaration D as F prints it. */
static const char *name_of(gen_fn *f, const json_t *d)
{
	char k[32];
	const json_t *m;

	id_key(k, d);
	m = json_object_get(f->names, k);
	return json_is_string(m) ? json_string_value(m) : ast_str(d, "name");
}

/* The lines of the thread's prologue (gen_entry.c) that BODY uses: an
 * unused brg_cx left in the loop keeps gcc from vectorizing it. */
static void prolog(const gen_fn *f, strbuf *b, const char *body)
{
	static const char *const names[] = { "brg_cx", "brg_ing" };
	const char *l, *e;
	size_t k;

	for (l = f->tprolog; *l; l = e) {
		char line[512];
		int keep = 1;
		e = strchr(l, '\n');
		e = e ? e + 1 : l + strlen(l);
		snprintf(line, sizeof line, "%.*s", (int)(e - l), l);
		for (k = 0; k < sizeof names / sizeof names[0]; k++)
			if (strstr(line, names[k]) && !strstr(body, names[k]))
				keep = 0;
		if (keep)
			sb_puts(b, line);
	}
}

/* The thread loop around the body of loop S, split by T (0: not split),
 * the mask tested when MASKED. */
static void thread_loop(gen_fn *f, strbuf *b, long t, int masked,
	const char *body)
{
	const gen_gplan *p = f->gplan;

	gen_indent(b, f->depth);
	if (t) {
		sb_printf(b, "for (brg_t1 = 0; brg_t1 < %ld; brg_t1++)\n",
			p->n / t);
		gen_indent(b, f->depth);
		sb_printf(b, "for (brg_t0 = 0; brg_t0 < %ld; brg_t0++) {\n",
			t);
		gen_indent(b, f->depth + 1);
		sb_printf(b, "brg_t = brg_t1 * %ld + brg_t0;\n", t);
		if (masked) {
			gen_indent(b, f->depth + 1);
			sb_printf(b, "if (!(%s))\n", f->tmask);
			gen_indent(b, f->depth + 2);
			sb_puts(b, "continue;\n");
		}
	} else if (masked) {
		sb_printf(b, "for (brg_t = 0; brg_t < %ld; brg_t++) if (%s) "
			"{\n", p->n, f->tmask);
	} else {
		sb_printf(b, "for (brg_t = 0; brg_t < %ld; brg_t++) {\n",
			p->n);
	}
	prolog(f, b, body);
	sb_puts(b, body);
	gen_indent(b, f->depth);
	sb_puts(b, "}\n");
}

/* A per-thread vector variable D that a uniform loop's body names is a
 * C variable of the step, copied in from the thread's element (IN) and
 * out to it, component by component: gcc vectorizes neither a copy of a
 * whole struct element nor helpers that take one. COPIES maps D's id to
 * the name of the thread's element. */
static void vec_copy(gen_fn *f, strbuf *b, const json_t *d, json_t *copies,
	int in)
{
	const json_t *ty = gen_resolve(f->g, ast_get(d, "type"));
	int n = ty_ncomp(ty), c;
	char k[32], name[160];
	const char *elem;

	if (n < 2)
		return;
	id_key(k, d);
	snprintf(name, sizeof name, "brg_p_%s", ast_str(d, "name"));
	if (in) {
		json_object_set_new(copies, k, json_string(name_of(f, d)));
		gen_indent(b, f->depth);
		gen_type(f->g, f->t, b, ty, name);
		sb_puts(b, ";\n");
	}
	elem = json_string_value(json_object_get(copies, k));
	for (c = 0; c < n; c++) {
		gen_indent(b, f->depth);
		if (in)
			sb_printf(b, "%s.%c = %s.%c;\n", name, "xyzw"[c], elem,
				"xyzw"[c]);
		else
			sb_printf(b, "%s.%c = %s.%c;\n", elem, "xyzw"[c], name,
				"xyzw"[c]);
	}
	if (in)
		json_object_set_new(f->names, k, json_string(name));
}

/* The for statement of uniform loop S, its variable V printed as UNAME,
 * of type VTY: "for (init; cond; step) {". */
static void loop_head(gen_fn *f, strbuf *b, const json_t *s,
	const json_t *init, const json_t *vty, const char *uname)
{
	sb_printf(b, "for (%s = ", uname);
	gen_kconv(f, b, init, vty);
	sb_puts(b, "; ");
	gen_kexpr(f, b, ast_get(s, "cond"));
	sb_puts(b, "; ");
	gen_kexpr(f, b, ast_get(s, "step"));
	sb_puts(b, ") {\n");
}

/* A uniform loop whose body carries more than CARRY_MAX values of its
 * thread from one step to the next (variables it writes that are not
 * variables of a step) runs inside the thread loop instead, each thread
 * running it whole, with those values in C variables of the thread:
 * there they stay in registers, where with the threads inside each step
 * would load and store all of them for every thread. bench/br/
 * matmult_reg.br carries sixteen float4 accumulators, 64 values: 0.76 of
 * plain C with the threads inside, 1.39 so (2 threads, AMD EPYC). Either
 * order is the order of some GPU's schedule (the conditions above). */
#define CARRY_MAX 16

int gen_group_loop(gen_fn *f, strbuf *b, const json_t *s)
{
	gen_gplan *p = f->gplan;
	gen_ctx *g = f->g;
	const json_t *init, *v, *items, *it;
	const json_t *vty;
	json_t *tmp, *saved, *vars, *copies;
	strbuf body = { 0 };
	char uname[32], k[32];
	int id, back, d = f->depth, whole;
	long t, carry = 0;
	size_t i;

	if (!gen_gplan_loop(p, s) || !(v = uloop_var(g, s, &init)))
		return 0;
	id = p->nprinted++;
	vty = gen_resolve(g, ast_get(v, "type"));
	snprintf(uname, sizeof uname, "brg_u%d", id);
	id_key(k, v);
	saved = json_incref(json_object_get(f->names, k));
	back = !ast_is(ast_get(s, "init"), "decl") && refs(g, ast_get(f->fn,
		"body"), v) > refs(g, s, v);
	t = split_of(p, ast_get(s, "body"), 0);

	/* the body, for one thread at one step */
	json_object_set_new(f->names, k, json_string(uname));
	f->depth = d + 4;
	vars = json_array();
	gen_hoisted(ast_get(f->fn, "body"), vars);
	copies = json_object();
	json_array_foreach(vars, i, it)
		if (it != v && refs(g, s, it) && !gen_gplan_local(p, it) &&
				!in_set(p->remat, it) && writes_decl(g, s, it))
			carry += ty_ncomp(gen_resolve(g, ast_get(it, "type")));
	whole = carry > CARRY_MAX;
	json_array_foreach(vars, i, it) {
		if (!refs(g, s, it) || it == v)
			continue;
		if (gen_gplan_local(p, it)) {
			const json_t *ty = gen_resolve(g, ast_get(it, "type"));
			gen_indent(&body, f->depth);
			gen_type(g, f->t, &body, ty, ast_str(it, "name"));
			gen_zero_init(g, f->t, &body, ty);
			sb_puts(&body, ";\n");
		} else if (!in_set(p->remat, it)) {
			vec_copy(f, &body, it, copies, 1);
		}
	}
	f->tloop = 1;
	f->tsplit = t;
	if (whole) {
		gen_indent(&body, f->depth);
		loop_head(f, &body, s, init, vty, uname);
		f->depth++;
	}
	items = body_items(ast_get(s, "body"), &tmp);
	json_array_foreach(items, i, it)
		gen_kstmt(f, &body, it);
	json_decref(tmp);
	if (whole) {
		f->depth--;
		gen_indent(&body, f->depth);
		sb_puts(&body, "}\n");
	}
	f->tloop = 0;
	f->tsplit = 0;
	json_array_foreach(vars, i, it)
		if (in_set(copies, it) && writes_decl(g, s, it))
			vec_copy(f, &body, it, copies, 0);
	json_object_update(f->names, copies);	/* the elements again */
	json_decref(vars);
	json_decref(copies);

	/* the loop, with the thread loop inside */
	f->depth = d;
	gen_indent(b, d);
	sb_puts(b, "{\n");
	gen_indent(b, d + 1);
	gen_type(g, f->t, b, vty, uname);
	sb_printf(b, ";\n");
	gen_indent(b, d + 1);
	sb_printf(b, "int brg_full%d = 1;\n", id);
	if (t) {
		gen_indent(b, d + 1);
		sb_puts(b, "int brg_t1, brg_t0;\n");
	}
	gen_indent(b, d + 1);
	sb_printf(b, "for (brg_t = 0; brg_t < %ld; brg_t++)\n", p->n);
	gen_indent(b, d + 2);
	sb_printf(b, "brg_full%d &= (%s) != 0;\n", id, f->tmask);
	gen_indent(b, d + 1);
	if (whole)
		sb_puts(b, "{\n");	/* the loop is in the body */
	else
		loop_head(f, b, s, init, vty, uname);
	gen_indent(b, d + 2);
	sb_printf(b, "if (brg_full%d) {\n", id);
	f->depth = d + 3;
	thread_loop(f, b, t, 0, body.s ? body.s : "");
	gen_indent(b, d + 2);
	sb_puts(b, "} else {\n");
	thread_loop(f, b, t, 1, body.s ? body.s : "");
	gen_indent(b, d + 2);
	sb_puts(b, "}\n");
	gen_indent(b, d + 1);
	sb_puts(b, "}\n");
	if (saved)
		json_object_set(f->names, k, saved);
	else
		json_object_del(f->names, k);
	if (back) {
		/* the variable is read after the loop: each thread's copy */
		gen_indent(b, d + 1);
		sb_printf(b, "for (brg_t = 0; brg_t < %ld; brg_t++) if (%s)\n",
			p->n, f->tmask);
		gen_indent(b, d + 2);
		sb_printf(b, "%s = %s;\n", name_of(f, v), uname);
	}
	gen_indent(b, d);
	sb_puts(b, "}\n");
	f->depth = d;
	json_decref(saved);
	sb_free(&body);
	return 1;
}

/* ---- phases whose thread loop is split -------------------------------- */

/* A phase (or the part of one between uniform loops) that divides
 * instanceInGroup().x by a constant gets the split thread loop above
 * too, in the same thread order: the variables of the thread id are
 * printed as their values. When the whole group runs it, the gathers of
 * its statements (outside conditions and loops) whose coordinates the
 * threads can compute beforehand (from constants, value parameters, the
 * thread id and variables the phase does not write, through + - * and
 * / % by constants) are tested first for every thread; when all lie
 * inside their arrays, the phase reads them without clamps (spec 4.2:
 * a clamp changes nothing inside the array). */

#define GUARD_MAX 16

typedef struct guard {
	const json_t *e;	/* a coordinate */
	const char *param;	/* of this gather */
	int k;			/* its axis (0 = x) */
} guard;

/* Whether the phase ITEMS[LO..HI) writes declaration D or declares it
 * (a declaration there gives it its value). */
static int set_in_phase(const gen_gplan *p, const json_t *items, size_t lo,
	size_t hi, const json_t *d)
{
	size_t i, j;
	json_t *v;

	for (i = lo; i < hi; i++) {
		const json_t *it = json_array_get(items, i);
		if (writes_decl(p->g, it, d))
			return 1;
		ast_array_foreach(ast_arr(it, "vars"), j, v)
			if (v == d)
				return 1;
	}
	return 0;
}

/* Whether int expression E of the phase ITEMS[LO..HI) can be computed
 * before it (above). */
static int guardable(const gen_gplan *p, const json_t *items, size_t lo,
	size_t hi, const json_t *e)
{
	const char *k;

	e = strip(e);
	if (!gen_scalar(ast_get(e, "ty")) ||
			!ty_streq(gen_scalar(ast_get(e, "ty")), "int"))
		return 0;
	k = ast_kind(e);
	if (ty_streq(k, "int"))
		return 1;
	if (ty_streq(k, "member"))
		return is_thread_x(p, e);
	if (ty_streq(k, "id")) {
		const json_t *d = gen_decl(p->g, e);
		if ((is_value_param(d) || in_set(p->remat, d)) &&
				!in_set(p->rematv, d))
			return 1;
		if (!in_set(p->vars, d))
			return 0;
		/* one of rematv, never written, is printed as its
		   initializer, which may still be computed before the phase
		   that declares it */
		return !set_in_phase(p, items, lo, hi, d) ||
			(in_set(p->rematv, d) && guardable(p, items, lo, hi,
			ast_get(d, "init")));
	}
	if (ty_streq(k, "cast"))
		return guardable(p, items, lo, hi, ast_get(e, "e"));
	if (ty_streq(k, "binop")) {
		const char *op = ast_str(e, "op");
		const json_t *r = strip(ast_get(e, "r"));
		if (ty_streq(op, "/") || ty_streq(op, "%"))
			return ast_is(r, "int") && ast_int(r, "value") != 0 &&
				guardable(p, items, lo, hi, ast_get(e, "l"));
		return (ty_streq(op, "+") || ty_streq(op, "-") ||
			ty_streq(op, "*")) &&
			guardable(p, items, lo, hi, ast_get(e, "l")) &&
			guardable(p, items, lo, hi, r);
	}
	return 0;
}

/* The gathers under N that every thread of the phase reads (not under a
 * condition or in a loop) with coordinates it can compute beforehand,
 * into GS. */
static void guards(const gen_gplan *p, const json_t *items, size_t lo,
	size_t hi, const json_t *n, guard *gs, int *ng)
{
	const char *key;
	json_t *v;
	size_t i;

	if (json_is_array(n)) {
		json_array_foreach(n, i, v)
			guards(p, items, lo, hi, v, gs, ng);
		return;
	}
	if (!json_is_object(n) || ast_is(n, "for") || ast_is(n, "while") ||
			ast_is(n, "do") || ast_is(n, "switch"))
		return;
	if (ast_is(n, "if")) {
		guards(p, items, lo, hi, ast_get(n, "cond"), gs, ng);
		return;
	}
	if (ast_is(n, "cond")) {
		guards(p, items, lo, hi, ast_get(n, "c"), gs, ng);
		return;
	}
	if (ast_is(n, "binop") && (ty_streq(ast_str(n, "op"), "&&") ||
			ty_streq(ast_str(n, "op"), "||"))) {
		guards(p, items, lo, hi, ast_get(n, "l"), gs, ng);
		return;
	}
	if (ast_is(n, "index")) {
		const json_t *idx[4], *e = n, *d;
		int c = 0, k;
		while (ast_is(e, "index") && c < 4) {
			idx[c++] = ast_get(e, "i");
			e = strip(ast_get(e, "a"));
		}
		d = ast_is(e, "id") ? gen_decl(p->g, e) : NULL;
		if (d && ast_is(d, "param") && ty_streq(gen_role(d),
				"gather") && !ast_is(e, "index") &&
				gen_rank(p->g, ast_get(d, "type")) == c &&
				*ng + c <= GUARD_MAX) {
			for (k = 0; k < c; k++)
				if (!guardable(p, items, lo, hi, idx[k]))
					break;
			/* idx[0] is the last subscript: axis 0 (x) */
			for (k = k == c ? 0 : c; k < c; k++) {
				gs[*ng].e = idx[k];
				gs[*ng].param = ast_str(d, "name");
				gs[*ng].k = k;
				++*ng;
			}
		}
	}
	json_object_foreach((json_t *)n, key, v)
		if (!ty_streq(key, "ty"))
			guards(p, items, lo, hi, v, gs, ng);
}

int gen_group_inside(const gen_fn *f, const json_t *coord)
{
	char k[32];

	snprintf(k, sizeof k, "%p", (const void *)coord);
	return f->gin && json_object_get(f->gin, k) != NULL;
}

/* The variables of the thread that the guarded coordinate E reads
 * (through the variables printed as their value): ints the phase
 * ITEMS[LO..HI) neither declares nor writes, each kept once in US (up to
 * UNIF_MAX). Where they hold the same value in every thread, as a tile's
 * corner or a loop's counter around a barrier do, the phase reads them
 * as one value of the group: gcc then sees gathers that step by one from
 * thread to thread, where with each thread's copy it reads element by
 * element (bench/br/matmult_tiled.br's copy of a tile of B). */
#define UNIF_MAX 8

/* instance().x, .y, ...: a variable set to it differs in every thread */
static int point_coord(const json_t *e)
{
	const json_t *c;

	e = strip(e);
	if (!ast_is(e, "member"))
		return 0;
	c = strip(ast_get(e, "e"));
	return ast_is(c, "call") && ty_streq(ast_str(c, "builtin"),
		"instance");
}

static void unif_vars(const gen_gplan *p, const json_t *items, size_t lo,
	size_t hi, const json_t *e, const json_t **us, int *nu)
{
	const char *key;
	json_t *v;
	size_t i;
	int k;

	if (json_is_array(e)) {
		json_array_foreach(e, i, v)
			unif_vars(p, items, lo, hi, v, us, nu);
		return;
	}
	if (!json_is_object(e))
		return;
	if (ast_is(e, "id")) {
		const json_t *d = gen_decl(p->g, e);
		const json_t *ty;
		if (in_set(p->remat, d)) {
			unif_vars(p, items, lo, hi, ast_get(d, "init"), us,
				nu);
			return;
		}
		ty = d ? gen_resolve(p->g, ast_get(d, "type")) : NULL;
		if (!in_set(p->vars, d) || gen_gplan_local(p, d) ||
				!gen_scalar(ty) ||
				!ty_streq(gen_scalar(ty), "int") ||
				*nu >= UNIF_MAX || point_coord(ast_get(d,
				"init")))
			return;
		for (k = 0; k < *nu; k++)
			if (us[k] == d)
				return;
		if (!set_in_phase(p, items, lo, hi, d))
			us[(*nu)++] = d;
		return;
	}
	json_object_foreach((json_t *)e, key, v)
		if (!ty_streq(key, "ty"))
			unif_vars(p, items, lo, hi, v, us, nu);
}

/* The statements ITEMS[LO..HI) for one thread. */
static void phase_body(gen_fn *f, strbuf *b, const json_t *items, size_t lo,
	size_t hi)
{
	size_t i;

	for (i = lo; i < hi; i++)
		gen_phase_stmt(f, b, json_array_get(items, i));
}

/* Prints the tests of the guarded coordinates GS[0..NG) for one thread
 * into G, each once. */
static void guard_lines(gen_fn *f, strbuf *g, const guard *gs, int ng, int id,
	int depth)
{
	json_t *gin = f->gin, *seen = json_object();
	int i;

	f->gin = NULL;
	for (i = 0; i < ng; i++) {
		strbuf c = { 0 };
		sb_printf(&c, "brg_in%d &= (unsigned)(", id);
		gen_kexpr(f, &c, gs[i].e);
		sb_printf(&c, ") < (unsigned)(%s_v.dims[%d] < 2147483647 ? "
			"%s_v.dims[%d] : 2147483647);\n", gs[i].param, gs[i].k,
			gs[i].param, gs[i].k);
		if (!json_object_get(seen, c.s)) {
			json_object_set_new(seen, c.s, json_true());
			gen_indent(g, depth);
			sb_puts(g, c.s);
		}
		sb_free(&c);
	}
	json_decref(seen);
	f->gin = gin;
}

/* Names US[0..NU) brg_w_NAME, the group's value, keeping their names in
 * OLD; or (OLD given back) their names again. */
static void unif_names(gen_fn *f, const json_t **us, int nu, json_t **old,
	int on)
{
	int i;

	for (i = 0; i < nu; i++) {
		char k[32], nm[160];
		id_key(k, us[i]);
		if (on) {
			old[i] = json_incref(json_object_get(f->names, k));
			snprintf(nm, sizeof nm, "brg_w_%s", ast_str(us[i],
				"name"));
			json_object_set_new(f->names, k, json_string(nm));
		} else {
			json_object_set_new(f->names, k, old[i]);
		}
	}
}

/* "{" and the group's values of US[0..NU) */
static void unif_open(strbuf *b, const json_t **us, int nu, int depth)
{
	int i;

	sb_puts(b, "{\n");
	for (i = 0; i < nu; i++) {
		gen_indent(b, depth);
		sb_printf(b, "const int brg_w_%s = %s[0];\n", ast_str(us[i],
			"name"), ast_str(us[i], "name"));
	}
}

int gen_group_segment(gen_fn *f, strbuf *b, const json_t *items, size_t lo,
	size_t hi)
{
	gen_gplan *p = f->gplan;
	guard gs[GUARD_MAX];
	const json_t *us[UNIF_MAX];
	json_t *old[UNIF_MAX];
	strbuf fast = { 0 }, slow = { 0 }, fastu = { 0 }, g = { 0 }, gu = { 0 };
	long t = 0;
	int id, ng = 0, nu = 0, i, d = f->depth;
	size_t j;

	if (!p || (f->g->o && f->g->o->checked))
		return 0;
	for (j = lo; j < hi; j++) {
		const json_t *it = json_array_get(items, j);
		if (gen_uses(it, "return") || gen_uses(it, "syncGroup"))
			return 0;
		t = split_of(p, it, t);
	}
	if (!t)
		return 0;
	for (j = lo; j < hi; j++)
		guards(p, items, lo, hi, json_array_get(items, j), gs, &ng);
	for (i = 0; i < ng; i++)
		unif_vars(p, items, lo, hi, gs[i].e, us, &nu);
	/* only the per-thread arrays of gen_entry.c, NAME[brg_t] */
	for (i = j = 0; i < nu; i++) {
		char nm[160];
		snprintf(nm, sizeof nm, "%s[brg_t]", ast_str(us[i], "name"));
		if (strcmp(name_of(f, us[i]), nm) == 0)
			us[j++] = us[i];
	}
	nu = (int)j;
	id = p->nprinted++;

	/* the bodies: clamped; unclamped; unclamped with US the group's */
	f->tloop = 1;
	f->tseg = 1;
	f->tsplit = t;
	f->depth = d + 3;
	phase_body(f, &slow, items, lo, hi);
	if (ng) {
		f->gin = json_object();
		for (i = 0; i < ng; i++) {
			char k[32];
			snprintf(k, sizeof k, "%p", (const void *)gs[i].e);
			json_object_set_new(f->gin, k, json_true());
		}
		phase_body(f, &fast, items, lo, hi);
		guard_lines(f, &g, gs, ng, id, d + 4);
	}
	if (nu) {
		unif_names(f, us, nu, old, 1);
		phase_body(f, &fastu, items, lo, hi);
		guard_lines(f, &gu, gs, ng, id, d + 4);
		unif_names(f, us, nu, old, 0);
	}

	gen_indent(b, d);
	sb_puts(b, "{\n");
	gen_indent(b, d + 1);
	sb_printf(b, "int brg_full%d = 1, brg_in%d = 1", id, id);
	if (nu)
		sb_printf(b, ", brg_same%d = 1", id);
	sb_puts(b, ";\n");
	gen_indent(b, d + 1);
	sb_puts(b, "int brg_t1, brg_t0;\n");
	gen_indent(b, d + 1);
	sb_printf(b, "for (brg_t = 0; brg_t < %ld; brg_t++)\n", p->n);
	gen_indent(b, d + 2);
	sb_printf(b, "brg_full%d &= (%s) != 0;\n", id, f->tmask);
	f->depth = d + 2;
	if (nu) {
		/* the same value in every thread? */
		gen_indent(b, d + 1);
		sb_printf(b, "if (brg_full%d)\n", id);
		gen_indent(b, d + 2);
		sb_printf(b, "for (brg_t = 0; brg_t < %ld; brg_t++)\n", p->n);
		gen_indent(b, d + 3);
		sb_printf(b, "brg_same%d &= ", id);
		for (i = 0; i < nu; i++)
			sb_printf(b, "%s(%s == %s[0])", i ? " & " : "",
				name_of(f, us[i]), ast_str(us[i], "name"));
		sb_puts(b, ";\n");
	}
	if (ng) {
		/* every thread's coordinates of the gathers, inside? (in
		 * 32 bits, each test once: gcc vectorizes the loop) */
		gen_indent(b, d + 1);
		if (nu) {
			sb_printf(b, "if (brg_full%d && brg_same%d) ", id, id);
			unif_open(b, us, nu, d + 2);
			thread_loop(f, b, t, 0, gu.s);
			gen_indent(b, d + 1);
			sb_puts(b, "} else ");
		}
		sb_printf(b, "if (brg_full%d)\n", id);
		thread_loop(f, b, t, 0, g.s);
	}
	gen_indent(b, d + 1);
	if (nu) {
		sb_printf(b, "if (brg_full%d && brg_in%d && brg_same%d) ", id, id,
			id);
		unif_open(b, us, nu, d + 2);
		thread_loop(f, b, t, 0, fastu.s);
		gen_indent(b, d + 1);
		sb_puts(b, "} else ");
	}
	sb_printf(b, "if (brg_full%d && brg_in%d) {\n", id, id);
	thread_loop(f, b, t, 0, ng ? fast.s : slow.s);
	gen_indent(b, d + 1);
	sb_puts(b, "} else {\n");
	thread_loop(f, b, t, 1, slow.s);
	gen_indent(b, d + 1);
	sb_puts(b, "}\n");
	gen_indent(b, d);
	sb_puts(b, "}\n");
	json_decref(f->gin);
	f->gin = NULL;
	f->tloop = 0;
	f->tseg = 0;
	f->tsplit = 0;
	f->depth = d;
	sb_free(&fast);
	sb_free(&slow);
	sb_free(&fastu);
	sb_free(&g);
	sb_free(&gu);
	return 1;
}

/* ---- shared arrays of vectors, one array per component ---------------- */

/* On the CPU a shared array of vectors (shared float4 As[256]) is kept as
 * one array per component (float brg_soa_As_x[256], ...): the threads of
 * a thread loop that read As[k * 32 + tid].x read consecutive floats,
 * which gcc loads as one vector, where the array of structs needs a
 * shuffle per component. bench/br/matmult_tiled.br and matmult_reg.br
 * read their tiles so; at 1024 on 2 threads of an AMD EPYC (Zen 3), in
 * five alternating rounds, their medians went from 140 and 144 ms with
 * structs to 101 and 81 with components (plain C 141 and 125). An array
 * qualifies when each name of it is the base of a full index chain whose
 * indices have no side effect (each is printed once per component),
 * used as
 *   - a value: the whole element, or any swizzle of it;
 *   - the target of any assignment or step, through one component;
 *   - the target of a plain assignment that is a whole statement.
 * Any other use (an argument, a whole element stepped by +=, a swizzle of
 * several components as a target) keeps the array of structs. */

/* The shared array of vectors that full index chain E indexes, and its
 * indices' purity; else NULL. */
static const json_t *soa_base(gen_ctx *g, const json_t *e, int *pure_idx)
{
	const json_t *d, *el, *t;
	int n = 0, p = 1;

	e = strip(e);
	while (ast_is(e, "index")) {
		p = p && pure(ast_get(e, "i"));
		n++;
		e = strip(ast_get(e, "a"));
	}
	if (!n || !ast_is(e, "id"))
		return NULL;
	d = gen_decl(g, e);
	if (!ast_is(d, "var") || !gen_has_qual(d, "shared") ||
			gen_rank(g, ast_get(d, "type")) != n)
		return NULL;
	el = gen_elem(g, ast_get(d, "type"));
	if (!el || !ty_is_arith(el) || ty_ncomp(el) < 2 || !gen_scalar(el) ||
			ty_streq(gen_scalar(el), "bool"))
		return NULL;
	for (t = gen_resolve(g, ast_get(d, "type")); ty_streq(ty_kind(t),
			"array"); t = gen_resolve(g, ast_get(t, "of")))
		if (!json_is_object(ast_get(t, "size")) ||
				ast_int(ast_get(t, "size"), "value") <= 0)
			return NULL;
	*pure_idx = p;
	return d;
}

static void soa_count(json_t *ok, const json_t *d)
{
	char k[32];

	id_key(k, d);
	json_object_set_new(ok, k, json_integer(json_integer_value(
		json_object_get(ok, k)) + 1));
}

static void soa_walk(gen_ctx *g, const json_t *n, json_t *ok);

/* The indices of the index chain under target L (its names do not
 * count as uses). */
static void soa_target(gen_ctx *g, const json_t *l, json_t *ok)
{
	for (l = strip(l); ast_is(l, "member") || ast_is(l, "index");
			l = strip(ast_get(l, ast_is(l, "member") ? "e" : "a")))
		if (ast_is(l, "index"))
			soa_walk(g, ast_get(l, "i"), ok);
}

/* Counts in OK, per shared array, the names under N in uses that keep
 * the array by components. */
static void soa_walk(gen_ctx *g, const json_t *n, json_t *ok)
{
	const json_t *d, *l;
	const char *key;
	json_t *v;
	size_t i;
	int p = 0;

	if (json_is_array(n)) {
		json_array_foreach(n, i, v)
			soa_walk(g, v, ok);
		return;
	}
	if (!json_is_object(n))
		return;
	if (ast_is(n, "expr") && ast_is(l = strip(ast_get(n, "e")), "assign")
			&& ty_streq(ast_str(l, "op"), "=") &&
			(d = soa_base(g, ast_get(l, "l"), &p)) && p) {
		soa_count(ok, d);
		soa_target(g, ast_get(l, "l"), ok);
		soa_walk(g, ast_get(l, "r"), ok);
		return;
	}
	if (ast_is(n, "assign") || is_step_op(n)) {
		l = strip(ast_get(n, ast_is(n, "assign") ? "l" : "e"));
		if (ast_is(l, "member") && json_array_size(ast_get(l,
				"swizzle")) == 1 &&
				(d = soa_base(g, ast_get(l, "e"), &p)) && p)
			soa_count(ok, d);
		soa_target(g, l, ok);
		if (ast_is(n, "assign"))
			soa_walk(g, ast_get(n, "r"), ok);
		return;
	}
	if (ast_is(n, "member") && json_is_array(ast_get(n, "swizzle")) &&
			(d = soa_base(g, ast_get(n, "e"), &p))) {
		if (p)
			soa_count(ok, d);
		soa_target(g, ast_get(n, "e"), ok);
		return;
	}
	if (ast_is(n, "index") && (d = soa_base(g, n, &p))) {
		if (p)
			soa_count(ok, d);
		soa_target(g, n, ok);
		return;
	}
	json_object_foreach((json_t *)n, key, v)
		if (ast_walks(key))
			soa_walk(g, v, ok);
}

json_t *gen_soa_plan(gen_ctx *g, const json_t *fn)
{
	const json_t *body = ast_get(fn, "body");
	json_t *ok, *set = NULL, *v;

	if (g->o && g->o->checked)
		return NULL;
	ok = json_object();
	soa_walk(g, body, ok);
	gen_shared_foreach(body, s, v) {
		char k[32];
		json_t *c;
		id_key(k, v);
		c = json_object_get(ok, k);
		if (!c || json_integer_value(c) != refs(g, body, v))
			continue;
		if (!set)
			set = json_object();
		json_object_set_new(set, k, json_true());
	}
	json_decref(ok);
	return set;
}

int gen_soa_is(const json_t *set, const json_t *d)
{
	return set && in_set(set, d);
}
