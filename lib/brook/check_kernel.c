/* check_kernel.c - functions and kernels: classification of each kernel
 * as map, reduce, scatter or group (spec 4.1, guide 1.17), the rules on
 * parameters and attributes, and the checks after the pass (recursion,
 * group intrinsics). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "brook/ast.h"
#include "brook/check_int.h"
#include "brook/type.h"
#include "brook/util.h"

const char *const chk_role_names[] = {
	NULL, "in", "out", "gather", "scatter", "value", "reduce"
};

const char *const chk_class_names[] = {
	NULL, "map", "reduce", "scatter", "group"
};

/* ---- kernels: classification (pre-pass) --------------------------------- */

/* The qualifiers of parameter P and of its type (chk_quals). */
static unsigned param_quals(json_t *p)
{
	return chk_quals(ast_get(p, "quals")) |
		chk_quals(ast_get(ast_get(p, "type"), "quals"));
}

static chk_role param_role(json_t *p)
{
	json_t *t = ast_get(p, "type");
	unsigned q = param_quals(p);
	/* vout (refused, chk_vout) is an output, so the body checks as one */
	int out = (q & (CHK_Q_OUT | CHK_Q_VOUT)) != 0;
	if (q & CHK_Q_REDUCE)
		return ROLE_REDUCE;
	if (ty_is_stream(t))
		return out ? ROLE_OUT : ROLE_IN;
	if (ty_is_array(t))
		return out ? ROLE_SCATTER : ROLE_GATHER;
	return out ? ROLE_OUT : ROLE_VALUE;
}

/* Product of the GroupSize attribute's constant values; 0 if none. */
static long long group_size(json_t *f)
{
	size_t i, j;
	json_t *a, *v;
	json_array_foreach(ast_get(f, "attrs"), i, a) {
		if (!ty_streq(ast_str(a, "name"), "GroupSize"))
			continue;
		long long n = 1, x;
		json_array_foreach(ast_get(a, "args"), j, v)
			if (chk_int_literal(v, &x) && x > 0)
				n *= x;
		return json_array_size(ast_get(a, "args")) ? n : 0;
	}
	return 0;
}

/* Sets "role" on each parameter and "class" on the function (ast.h);
 * spec 4.1.2 (footnote 3: a reduce parameter makes a reduction), guide
 * 1.17 (GroupSize), 4.2 (scatter). */
void chk_classify(chk_ctx *c, chk_fn *fn, json_t *f)
{
	json_t *params = ast_arr(ast_get(f, "type"), "params");
	size_t i;
	json_t *p;
	int streams = 0, reduce = 0, scatter = 0;
	if (!fn->kernel)
		return;
	json_array_foreach(params, i, p) {
		chk_role r = param_role(p);
		streams += r == ROLE_IN || r == ROLE_OUT;
		reduce += r == ROLE_REDUCE;
		scatter += r == ROLE_SCATTER;
		json_object_set_new_nocheck(p, "role",
			json_string_nocheck(chk_role_names[r]));
	}
	/* spec 4.1.2: reduce void max_reduce(double a, reduce double b): with
	 * no stream, the first other parameter is the input */
	if (!streams && ast_bool(f, "reduce"))
		json_array_foreach(params, i, p)
			if (chk_role_of(p) == ROLE_VALUE) {
				json_object_set_new_nocheck(p, "role",
					json_string_nocheck(chk_role_names[ROLE_IN]));
				break;
			}
	long long gs = group_size(f);
	chk_class cls = reduce || ast_bool(f, "reduce") ? CLASS_REDUCE :
		gs ? CLASS_GROUP : scatter ? CLASS_SCATTER : CLASS_MAP;
	json_object_set_new_nocheck(f, "class",
		json_string_nocheck(chk_class_names[cls]));
	if (f == fn->def || !fn->def) {
		fn->cls = cls;
		fn->groupsize = gs;
	}
	(void)c;
}

/* ---- kernels: the rules on a definition --------------------------------- */

/* guide 1.17.1: Attribute[GroupSize(x, y, z)]. */
static void attributes(chk_ctx *c, json_t *f, int kernel)
{
	size_t i, j;
	json_t *a, *v;
	int seen = 0;
	json_array_foreach(ast_get(f, "attrs"), i, a) {
		json_t *args = ast_get(a, "args");
		json_array_foreach(args, j, v)
			chk_expr(c, v);
		if (!kernel || !ty_streq(ast_str(a, "name"), "GroupSize")) {
			chk_err(c, a, "E-attr-unknown", "Unsupported kernel Attribute: %s",
				ast_str(a, "name"));
			continue;
		}
		if (seen++) {
			chk_err(c, a, "E-groupsize-dup", "More than one GroupSize "
				"specified: only one GroupSize allowed");
			continue;
		}
		size_t n = json_array_size(args);
		if (n == 0)
			chk_err(c, a, "E-groupsize-empty", "GroupSize must have values");
		else if (n > 4)
			chk_err(c, a, "E-groupsize-arity",
				"More than 4 components not allowed in GroupSize");
		long long prod = 1, x;
		json_array_foreach(args, j, v) {
			if (!chk_int_literal(v, &x) || x <= 0) {
				chk_err(c, v, "E-groupsize-value", "GroupSize values must be "
					"positive integer constants");
				continue;
			}
			prod *= x;
			if (j > 0 && x != 1 && c->o->portable)
				chk_warn(c, 1, v, "W-portable-groupsize", "dimension %zu of "
					"GroupSize must be 1", j + 1);
		}
		if (c->o->portable && prod > 1024)
			chk_warn(c, 1, a, "W-portable-groupsize", "Group size must be <= "
				"1024");
	}
}

/* spec 6.3.7, 6.3.11: gather and scatter array sizes. */
static void array_param(chk_ctx *c, json_t *p, json_t *t, chk_role r,
	int *ncbuf)
{
	int rank = 0, known = 0, bad_size = 0;
	long long n;
	for (json_t *a = t; ty_is_array(a); a = ast_get(a, "of")) {
		json_t *sz = ast_get(a, "size");
		rank++;
		if (!sz || json_is_null(sz))
			continue;
		known++;
		const char *what = r == ROLE_SCATTER ? "Scatter" : "Gather";
		if (chk_int_literal(sz, &n)) {
			if (n <= 0) {
				chk_err(c, sz, r == ROLE_SCATTER ? "E-scatter-size" :
					"E-gather-size", "%s Array size must be non-zero "
					"positive int value if specified", what);
				bad_size = 1;
			}
		} else if (!ty_scalar_is_integer(ty_scalar(ast_get(sz, "ty")))) {
			chk_err(c, sz, r == ROLE_SCATTER ? "E-scatter-size" :
				"E-gather-size", "%s Array size must be constant int type "
				"if specified", what);
			bad_size = 1;
		} else {
			chk_err(c, sz, r == ROLE_SCATTER ? "E-scatter-size" :
				"E-gather-size", "%s Array size expression must be simple "
				"constant int if specified", what);
			bad_size = 1;
		}
	}
	if (r == ROLE_SCATTER) {
		if (known && !bad_size)
			chk_warn(c, 1, p, "W-scatter-size", "Specifying scatter array "
				"sizes have no meaning presently. Do not specify sizes");
		if (c->o->portable && ty_is_struct(ty_base(t)))
			chk_warn(c, 1, p, "W-portable-scatter", "Scatter stream not "
				"supported for struct");
		return;
	}
	if (known && known < rank) {
		const char *msg = "Incomplete array size specification: Specify all "
			"array sizes for cached gather array (e.g. a[5][5]) or no "
			"array sizes for Streams (e.g. a[][])";
		if (c->o->c)
			chk_warn(c, 1, p, "W-gather-incomplete", "%s", msg);
		else
			chk_err(c, p, "E-gather-incomplete", "%s", msg);
	}
	if (known == rank && !bad_size && !c->o->c) {
		(*ncbuf)++;
		if (c->o->portable && chk_array_count(t) > 4096)
			chk_warn(c, 1, p, "W-portable-cbuf", "Total number of elements of a "
				"constant buffer must be <= 4096");
	}
}

static void kernel_params(chk_ctx *c, json_t *f)
{
	json_t *params = ast_arr(ast_get(f, "type"), "params");
	size_t i;
	json_t *p;
	int n[ROLE_REDUCE + 1] = {0}, ncbuf = 0;
	json_t *in = NULL, *red = NULL;
	json_array_foreach(params, i, p) {
		chk_role r = chk_role_of(p);
		json_t *raw = ast_get(p, "type");
		json_t *t = chk_resolve(c, raw);
		n[r]++;
		if (r == ROLE_IN && !in)
			in = p;
		if (r == ROLE_REDUCE && !red)
			red = p;
		if (param_quals(p) & CHK_Q_CONST)
			chk_err(c, p, "E-param-const", "Nothing special to use const "
				"qualifier for kernel parameters. It is a reserved usage");
		if ((chk_type_quals(raw) | chk_quals(ast_get(p, "quals"))) &
			(CHK_Q_VOLATILE | CHK_Q_RESTRICT))
			chk_err(c, p, "E-kernel-qualifier", "volatile or restrict "
				"qualifiers not allowed for kernel parameters");
		if (chk_type_has_ptr(ty_is_stream(t) ? ast_get(t, "of") : t))
			chk_err(c, p, "E-kernel-pointer",
				"pointers not allowed inside kernel");
		if (r == ROLE_OUT && !ty_is_stream(t))
			chk_err(c, p, "E-out-not-stream",
				"non-reduce output parameter must be stream type");
		if (!chk_stream_of_arrays(c, p, t) && ty_is_stream(t) &&
			!chk_stream_elem_ok(c, ast_get(t, "of"), 0)) {
			char *tn = TN(ast_get(t, "of"));
			chk_err(c, p, "E-stream-elem",
				"Stream element type not supported: %s", tn);
			free(tn);
		}
		chk_kernel_type(c, p, t);
		chk_stream_rank(c, p, t);
		if (r == ROLE_GATHER || r == ROLE_SCATTER)
			array_param(c, p, t, r, &ncbuf);
		json_decref(t);
	}
	/* spec 4.1.2, brookgpu: one input and one reduce output of the same
	 * type; a gather array is an input stream too (spec 7: "only one
	 * input stream"), and the combining step of a reduction has no
	 * element of it to read */
	if (n[ROLE_REDUCE] || ast_bool(f, "reduce")) {
		if (!n[ROLE_REDUCE])
			chk_err(c, f, "E-reduce-missing", "Specify reduce qualifier for "
				"kernel: a reduce function needs a reduce parameter");
		else if (n[ROLE_REDUCE] != 1 || n[ROLE_IN] != 1 || n[ROLE_OUT] ||
			n[ROLE_SCATTER] || n[ROLE_GATHER])
			chk_err(c, f, "E-reduce-params", "reduction kernel can only have "
				"one input stream and one reduction output scalar/stream");
		else {
			json_t *it = chk_resolve(c, ast_get(in, "type"));
			json_t *rt = chk_resolve(c, ast_get(red, "type"));
			json_t *ie = ty_is_stream(it) ? ast_get(it, "of") : it;
			json_t *re = ty_is_stream(rt) ? ast_get(rt, "of") : rt;
			if (!ty_equal(ie, re)) {
				char *a = TN(ie), *b = TN(re);
				chk_err(c, f, "E-reduce-type", "Both the input and the output "
					"stream of the reduction must be of the same type: "
					"%s and %s", a, b);
				free(a);
				free(b);
			}
			json_decref(it);
			json_decref(rt);
		}
	}
	if (n[ROLE_SCATTER] > 1)
		chk_err(c, f, "E-scatter-count", "Only one scatter output allowed");
	if (n[ROLE_SCATTER] && n[ROLE_OUT])
		chk_err(c, f, "E-scatter-mixed",
			"Both scatter output and stream output not allowed");
	if (group_size(f) && n[ROLE_OUT])
		chk_err(c, f, "E-groupsize-output", "Output must be a scatter type if "
			"you specify GroupSize attribute");
	if (c->o->portable) {
		if (n[ROLE_OUT] + n[ROLE_SCATTER] > 8)
			chk_warn(c, 1, f, "W-portable-outputs", "more than 8 outputs: the "
				"2008 hardware binds at most 8 outputs to a kernel");
		if (n[ROLE_IN] + n[ROLE_GATHER] > 128)
			chk_warn(c, 1, f, "W-portable-inputs", "more than 128 inputs: the "
				"2008 hardware binds at most 128 inputs to a kernel");
		if (ncbuf > 10)
			chk_warn(c, 1, f, "W-portable-cbuf", "Maximum number of constant "
				"buffers allowed is 10");
	}
}

/* Parameters in the function's scope, as the body sees them: a stream
 * parameter names one element. */
static void declare_params(chk_ctx *c, json_t *f, int kernel)
{
	json_t *params = ast_arr(ast_get(f, "type"), "params");
	size_t i;
	json_t *p;
	json_array_foreach(params, i, p) {
		const char *name = ast_str(p, "name");
		json_t *t = chk_decl_type(c, p, "type");
		unsigned q = param_quals(p);
		chk_give_id(c, p);
		c->in_params++;
		chk_walk_sizes(c, ast_get(p, "type"));
		c->in_params--;
		if (!kernel && (q & (CHK_Q_OUT | CHK_Q_REDUCE)))
			chk_err(c, p, q & CHK_Q_OUT ? "E-out-qualifier" :
				"E-reduce-qualifier", "%s qualifier allowed only for kernel "
				"parameters", q & CHK_Q_OUT ? "out" : "reduce");
		if (q & CHK_Q_VOUT)
			chk_vout(c, p);
		if (!kernel)
			chk_stream_of_arrays(c, p, t);
		if (!*name || json_is_null(ast_get(p, "name"))) {
			json_decref(t);
			continue;
		}
		if (chk_in_scope(c, &c->names, name))
			chk_err(c, p, "E-duplicate", "Variable name Duplicated: %s", name);
		chk_role r = chk_role_of(p);
		if (kernel && ty_is_stream(t)) {
			json_t *e = chk_resolve(c, ast_get(t, "of"));
			json_decref(t);
			t = e;
		}
		chk_generated_name(c, p, name);
		chk_sym *s = chk_declare(c, &c->names, name, SYM_PARAM, p, t);
		s->role = kernel ? r : ROLE_NONE;
		s->constq = (q & CHK_Q_CONST) != 0;
	}
}

/* The code brgen writes names a kernel's stream or array parameter P's
 * view, element, buffer and position P_v, P_e, P_p and P__idx, its own
 * variables brg_... and its macros BRG_...: a parameter or local of the
 * kernel so named would clash with them there (brgen.1, "Names"). */
void chk_generated_name(chk_ctx *c, const json_t *at, const char *name)
{
	static const char *const sfx[] = { "_v", "_e", "_p", "__idx" };
	json_t *params, *p;
	size_t i, k;

	if (!c->kern || !c->fnode || !name)
		return;
	if (strncmp(name, "brg_", 4) == 0 || strncmp(name, "BRG_", 4) == 0) {
		chk_err(c, at, "E-generated-name", "\"%s\": names beginning "
			"with %.4s are the generated code's", name, name);
		return;
	}
	params = ast_arr(ast_get(c->fnode, "type"), "params");
	json_array_foreach(params, i, p) {
		const char *pn = ast_str(p, "name");
		size_t n = strlen(pn);
		chk_role r = chk_role_of(p);
		if (!n || r == ROLE_VALUE || r == ROLE_NONE
		    || strncmp(name, pn, n) != 0)
			continue;
		for (k = 0; k < sizeof sfx / sizeof sfx[0]; k++)
			if (strcmp(name + n, sfx[k]) == 0)
				chk_err(c, at, "E-generated-name", "\"%s\" is "
					"the generated code's name for parameter %s's "
					"%s: rename it", name, pn, k == 0 ? "view" :
					k == 1 ? "element" : k == 2 ? "buffer" :
					"position");
	}
}

/* A function: prototype or definition, kernel or not. */
void chk_func_decl(chk_ctx *c, json_t *f)
{
	const char *name = ast_str(f, "name");
	chk_fn *fn = chk_fn_find(c, name);
	json_t *ft = ast_get(f, "type");
	if (!fn || !ty_streq(ty_kind(ft), "func") ||
		!ast_arr(ft, "params")) {
		chk_bad(c, f, "\"func\" node without a name or a \"func\" type");
		return;
	}
	chk_sym *prev = chk_in_scope(c, &c->names, name);
	if (prev && prev->kind != SYM_FUNC)
		chk_err(c, f, "E-function-name-clash", "Function names must be unique "
			"among all function and variable names: \"%s\"", name);
	json_t *body = ast_get(f, "body");
	if (prev && prev->kind == SYM_FUNC && prev->node != f && body &&
		!json_is_null(body)) {
		json_t *pb = ast_get(prev->node, "body");
		if (pb && !json_is_null(pb))
			chk_err(c, f, "E-function-redefined", "function \"%s\" is "
				"defined twice (first at line %lld)", name,
				(long long)json_integer_value(json_array_get(
				ast_get(prev->node, "at"), 1)));
		else	/* the definition after a prototype */
			prev->node = f;
	}
	if (!prev || prev->kind != SYM_FUNC)
		chk_declare(c, &c->names, name, SYM_FUNC, f, chk_decl_type(c, f, "type"));
	int kernel = ast_bool(f, "kernel") || ast_bool(f, "reduce");
	attributes(c, f, kernel);
	json_t *ret = chk_decl_type(c, ft, "ret");
	if (kernel && ty_is_stream(ret))
		chk_err(c, f, "E-kernel-return-stream", "a kernel cannot return a "
			"stream: subkernels can return any non-stream type");
	json_decref(ret);
	if (kernel && ast_bool(f, "noret"))
		chk_warn(c, 1, f, "W-kernel-noret",
			"unspecified kernel return type: void assumed");
	chk_push_scope(c);
	c->fnode = f;
	c->fn = fn;
	c->kern = kernel;
	c->saw_return = 0;
	if (json_is_object(body) && f == fn->def)
		fn->defined = 1;
	declare_params(c, f, kernel);
	if (kernel)
		kernel_params(c, f);
	if (json_is_object(body)) {
		c->cur = f;
		chk_block_items(c, body);
		if (!kernel)
			chk_jumps(c, body);
		json_t *r = chk_resolve(c, ast_get(ft, "ret"));
		if (kernel && !c->saw_return && !ty_is_void(r) &&
			!ty_is_unknown(r))
			chk_err(c, f, "E-missing-return", "Must return a value");
		json_decref(r);
	} else if (body && !json_is_null(body)) {
		chk_bad(c, f, "function body is not a block");
	}
	chk_pop_scope(c);
	c->fnode = NULL;
	c->fn = NULL;
	c->kern = 0;
}

/* ---- after the pass: recursion, group intrinsics, "sub" ----------------- */

static int edge_cmp(const void *a, const void *b)
{
	const chk_edge *x = a, *y = b;
	return x->from != y->from ? x->from - y->from : x->to - y->to;
}

/* spec 4.3, 4.4: recursion is not allowed. A depth-first walk of the call
 * graph (edges sorted by caller: FIRST[f] .. FIRST[f + 1]) with an explicit
 * stack; an edge back to a function still on the walk closes a cycle. */
static void recursion(chk_ctx *c)
{
	enum { WHITE, GRAY, BLACK };
	char *color = xcalloc(c->nfns + 1, 1);
	size_t *first = xcalloc(c->nfns + 2, sizeof *first);
	size_t *next = xcalloc(c->nfns + 1, sizeof *next);
	int *stack = xcalloc(c->nfns + 1, sizeof *stack);
	if (c->nedges)
		qsort(c->edges, c->nedges, sizeof *c->edges, edge_cmp);
	for (size_t i = 0; i < c->nedges; i++)
		first[c->edges[i].from + 1]++;
	for (size_t f = 0; f < c->nfns; f++)
		first[f + 1] += first[f];
	for (size_t root = 0; root < c->nfns; root++) {
		if (color[root] != WHITE)
			continue;
		size_t n = 0;
		stack[n++] = (int)root;
		color[root] = GRAY;
		next[root] = first[root];
		while (n) {
			int f = stack[n - 1];
			if (next[f] == first[f + 1]) {
				color[f] = BLACK;
				n--;
				continue;
			}
			chk_edge *e = &c->edges[next[f]++];
			if (color[e->to] == GRAY)
				chk_err(c, e->call, "E-kernel-recursion", "Recursion is not "
					"allowed: \"%s\" calls \"%s\", which leads back to "
					"it", c->fns[e->from].name, c->fns[e->to].name);
			else if (color[e->to] == WHITE) {
				color[e->to] = GRAY;
				next[e->to] = first[e->to];
				stack[n++] = e->to;
			}
		}
	}
	free(color);
	free(first);
	free(next);
	free(stack);
}

void chk_post_checks(chk_ctx *c)
{
	recursion(c);
	for (size_t i = 0; i < c->nfns; i++) {
		chk_fn *fn = &c->fns[i];
		if (fn->sub && fn->def)
			json_object_set_new_nocheck(fn->def, "sub", json_true());
		if (fn->group_use && !fn->sub)
			chk_err(c, fn->group_use, ty_streq(fn->group_what, "syncGroup") ?
				"E-sync-pixel" : "E-iig-pixel", "Illegal to use %s() for "
				"pixel shader kernel: specify a GroupSize attribute",
				fn->group_what);
	}
}
