/* check_call.c - calls (spec 4.3, 6.3.9): kernels from host code and
 * from kernels, the built-in functions of spec 5, instance() and the
 * group intrinsics (spec 6.3.6), stream operators and methods. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "brook/ast.h"
#include "brook/check_int.h"
#include "brook/type.h"
#include "brook/util.h"

/* ---- calls (spec 4.3, 6.3.9) -------------------------------------------- */

static void callee(json_t *e, const char *kind)
{
	json_object_set_new_nocheck(e, "callee", json_string_nocheck(kind));
}

/* The arguments of call E; PARAMS: a subkernel's parameters, whose out
 * and reduce arguments are written, not read (chk_target_expr). */
static json_t *args_of(chk_ctx *c, json_t *e, json_t *params)
{
	json_t *args = ast_arr(e, "args");
	size_t i;
	json_t *a;
	if (!args) {
		chk_bad(c, e, "\"call\" node without \"args\"");
		return NULL;
	}
	json_array_foreach(args, i, a) {
		chk_role r = chk_role_of(json_array_get(params, i));
		if (r == ROLE_OUT || r == ROLE_REDUCE)
			chk_target_expr(c, a);
		else
			chk_expr(c, a);
	}
	return args;
}

static int arg_count(chk_ctx *c, json_t *e, json_t *args, size_t want)
{
	if (!args || json_array_size(args) == want)
		return 1;
	chk_err(c, e, "E-arg-count", "incorrect number of parameters expect %zu "
		"actual %zu", want, json_array_size(args));
	return 0;
}

/* Product of the constant sizes of a gather array; 0 when one is missing. */
long long chk_array_count(json_t *t)
{
	long long n = 1, v;
	for (; ty_is_array(t); t = ast_get(t, "of")) {
		if (!chk_int_literal(ast_get(t, "size"), &v))
			return 0;
		n *= v;
	}
	return n;
}

static long long stream_count(json_t *t)
{
	long long n = 1, v;
	size_t i;
	json_t *d;
	json_array_foreach(ast_get(t, "dims"), i, d)
		if (!chk_int_literal(d, &v))
			return 0;
		else
			n *= v;
	return n;
}

static int is_iter_stream(chk_ctx *c, json_t *a)
{
	chk_sym *s = chk_root_sym(c, a);
	return s && s->kind == SYM_VAR && chk_has_qual(ast_get(s->node, "quals"),
		"iter");
}

/* The "role" a parameter was given by chk_classify(). */
chk_role chk_role_of(const json_t *p)
{
	const char *r = ast_str(p, "role");
	for (int i = 1; i <= ROLE_REDUCE; i++)
		if (ty_streq(r, chk_role_names[i]))
			return (chk_role)i;
	return ROLE_NONE;
}

/* An argument of a kernel call from host code, to parameter P of ROLE. */
static void host_arg(chk_ctx *c, json_t *a, json_t *p, chk_role role, int n)
{
	json_t *at = ast_get(a, "ty");
	json_t *pt = chk_resolve(c, ast_get(p, "type"));
	if (ty_is_unknown(at))
		goto out;
	if (role == ROLE_VALUE) {
		if (ty_is_stream(at) || ty_is_array(at))
			chk_err(c, a, "E-arg-not-value", "Illegal to use array type at "
				"argument %d: Expected value", n);
		else if ((ty_is_struct(at) && !ty_equal(at, pt)) ||
				(ty_ncomp(at) > 1 && ty_ncomp(at) !=
				ty_ncomp(pt)) || (ty_ncomp(pt) > 1 &&
				ty_ncomp(at) < 1))
			/* a number converts to any vector (each component),
			   a vector to one of as many components */
			chk_arg_type_err(c, a, n, at, pt);
		goto out;
	}
	if (role == ROLE_REDUCE && !ty_is_stream(at)) {
		if (!chk_is_lvalue(a))
			chk_err(c, a, "E-arg-lvalue", "Argument %d must be lvalue type", n);
		json_t *pe = ty_is_stream(pt) ? ast_get(pt, "of") : pt;
		if (!ty_equal(at, pe))
			chk_arg_type_err(c, a, n, at, pe);
		goto out;
	}
	if (!ty_is_stream(at)) {
		chk_err(c, a, "E-arg-not-stream", "Illegal to use array type at "
			"argument %d: Expected stream type/variable", n);
		goto out;
	}
	json_t *ae = chk_resolve(c, ast_get(at, "of"));
	json_t *pe = role == ROLE_GATHER || role == ROLE_SCATTER ?
		json_incref((json_t *)ty_base(pt)) : ty_is_stream(pt) ?
		chk_resolve(c, ast_get(pt, "of")) : json_incref(pt);
	json_t *pe_r = chk_resolve(c, pe);
	if (!ty_equal(ae, pe_r)) {
		chk_arg_type_err(c, a, n, at, pt);
	} else {
		int pr = ty_rank(pt), ar = ty_rank(at);
		/* a 1D stream parameter takes any shape; a gather array
		   addresses the stream in its own rank */
		if ((pr > 1 || role == ROLE_GATHER) && ar != pr)
			chk_err(c, a, "E-arg-dims", "Mismatched dimensions of formal and "
				"actual arguments for argument %d", n);
		else if (role == ROLE_GATHER && chk_array_count(pt) &&
			stream_count(at) && chk_array_count(pt) != stream_count(at))
			chk_err(c, a, "E-arg-gather-count", "Mismatched element count "
				"of gather array for argument %d", n);
	}
	if ((role == ROLE_OUT || role == ROLE_SCATTER) && is_iter_stream(c, a))
		chk_err(c, a, "E-arg-iter-out", "an iterator stream cannot be passed "
			"as an output (argument %d)", n);
	json_decref(ae);
	json_decref(pe);
	json_decref(pe_r);
out:
	json_decref(pt);
}

/* An argument of subkernel call CALL in kernel code (spec 4.3). */
static void sub_arg(chk_ctx *c, json_t *call, json_t *a, json_t *p, int n)
{
	const char *r = ast_str(p, "role");
	json_t *at = ast_get(a, "ty");
	json_t *pt = chk_resolve(c, ast_get(p, "type"));
	if (ty_streq(r, "gather") || ty_streq(r, "scatter")) {
		chk_sym *s = chk_root_sym(c, a);
		if (s && (s->local_array || s->shared))
			chk_err(c, a, "E-arg-local-array", "Local array not allowed to "
				"pass as kernel parameter for argument %d", n);
		else if (!ty_is_array(at) && !ty_is_unknown(at))
			chk_err(c, a, "E-arg-not-gather",
				"Must be gather array type for argument %d", n);
		else if (ty_is_array(at) && !ty_equal(ty_base(at), ty_base(pt)))
			chk_arg_type_err(c, a, n, at, pt);
		else if (ty_is_array(at) && ty_rank(at) != ty_rank(pt))
			chk_err(c, a, "E-arg-dims", "Mismatched dimensions of formal and "
				"actual arguments for argument %d", n);
		json_decref(pt);
		return;
	}
	if (ty_is_array(at)) {
		chk_err(c, a, "E-arg-not-value",
			"Illegal to use array type at argument %d: Expected value", n);
		json_decref(pt);
		return;
	}
	json_t *want = ty_is_stream(pt) ? chk_resolve(c, ast_get(pt, "of")) :
		json_incref(pt);
	if (ty_streq(r, "out") || ty_streq(r, "reduce")) {
		json_t *m = chk_strip_paren(a);
		if (!chk_is_lvalue(a))
			chk_err(c, a, "E-arg-lvalue", "Argument %d must be lvalue type", n);
		else if (c->kern && ast_is(m, "member") &&
				json_array_size(ast_get(m, "swizzle")) > 0)
			/* OpenCL C takes no address of a vector's component */
			chk_err(c, a, "E-arg-swizzle", "Argument %d selects components "
				"of a vector: an out or reduce argument is a variable, "
				"an array element or a struct field; pass a local and "
				"assign it after the call", n);
		else
			chk_write_check(c, a, call, "=");
	}
	chk_convert(c, a, a, at, want, CONV_ARG, n);
	json_decref(want);
	json_decref(pt);
}

/* brookgpu, spec 4.1.3: a reduction onto a stream of the same rank needs
 * each input dimension to be a multiple of the output's. */
static void reduce_shape(chk_ctx *c, json_t *e, json_t *in, json_t *out)
{
	json_t *din = ast_get(in, "dims"), *dout = ast_get(out, "dims");
	if (!ty_is_stream(in) || !ty_is_stream(out) || !stream_count(in) ||
		!stream_count(out))
		return;
	size_t nin = json_array_size(din), nout = json_array_size(dout);
	long long a, b;
	if (nout > nin) {
		chk_err(c, e, "E-reduce-shape", "a reduction cannot produce a stream "
			"of higher rank (%zu) than its input (%zu)", nout, nin);
		return;
	}
	if (nout != nin)
		return;
	for (size_t i = 0; i < nin; i++) {
		chk_int_literal(json_array_get(din, i), &a);
		chk_int_literal(json_array_get(dout, i), &b);
		if (b > a || (b > 0 && a % b != 0)) {
			chk_err(c, e, "E-reduce-shape", "Input dimensions should be "
				"integral multiple of output dimensions: %lld and %lld "
				"in dimension %zu", a, b, i + 1);
			return;
		}
	}
}

/* The stream variable that A names, or that A is a .domain() view of. */
static chk_sym *view_root(chk_ctx *c, json_t *a)
{
	json_t *f;
	while (ast_is(a = chk_strip_paren(a), "call") &&
		ast_is(f = chk_strip_paren(ast_get(a, "fn")), "member") &&
		ty_streq(ast_str(f, "name"), "domain"))
		a = ast_get(f, "e");
	if (!ast_is(a, "id") || !ty_is_stream(ast_get(a, "ty")))
		return NULL;
	return chk_lookup(&c->names, ast_str(a, "name"));
}

/* Outputs A and B of one call of kernel K: one stream bound whole to
 * both is an error (each element written twice, the last write wins);
 * views of it may be disjoint, and warn. */
static void write_write(chk_ctx *c, json_t *a, json_t *b, const char *k)
{
	chk_sym *s = view_root(c, a);
	if (!s || s != view_root(c, b))
		return;
	if (ast_is(chk_strip_paren(a), "id") && ast_is(chk_strip_paren(b), "id"))
		chk_err(c, b, "E-write-write", "stream \"%s\" is bound to two "
			"outputs of \"%s\": each element would be written twice",
			s->name, k);
	else
		chk_warn(c, 1, b, "W-write-write", "views of stream \"%s\" are "
			"bound to two outputs of \"%s\": where they overlap, the "
			"last write wins", s->name, k);
}

/* spec 4.2: a stream is bound read-only or write-only, never both (the
 * runtime allows it with BRT_PERMIT_READ_WRITE_ALIASING: a warning). */
static void read_write(chk_ctx *c, json_t *args, json_t *params,
	const char *name)
{
	size_t n = json_array_size(args), i, j;
	chk_sym **root = xcalloc(n + 1, sizeof *root);
	chk_role *role = xcalloc(n + 1, sizeof *role);
	json_t *a;
	/* each argument's stream and role once: calls are many */
	json_array_foreach(args, i, a) {
		role[i] = chk_role_of(json_array_get(params, i));
		root[i] = ty_is_stream(ast_get(a, "ty")) ? chk_root_sym(c, a) : NULL;
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; role[i] == ROLE_OUT && j < n; j++)
			if (role[j] == ROLE_OUT)
				write_write(c, json_array_get(args, i),
					json_array_get(args, j), name);
	for (i = 0; i < n; i++) {
		if (!root[i] || (role[i] != ROLE_OUT && role[i] != ROLE_SCATTER &&
			role[i] != ROLE_REDUCE))
			continue;
		for (j = 0; j < n; j++)
			if (j != i && root[j] == root[i] &&
				(role[j] == ROLE_IN || role[j] == ROLE_GATHER)) {
				chk_warn(c, 1, json_array_get(args, i), "W-read-write",
					"stream \"%s\" is bound both as input and as output "
					"of \"%s\": read-write binding is not permitted",
					root[i]->name, name);
				break;
			}
	}
	free(root);
	free(role);
}

/* The arguments of a call of a host function (parameters PARAMS): a
 * stream only for a stream parameter, of its element type and rank, as
 * for a kernel's input. */
static void host_fn_args(chk_ctx *c, json_t *args, json_t *params,
	const char *name)
{
	size_t i;
	json_t *a;
	json_array_foreach(args, i, a) {
		json_t *p = json_array_get(params, i);
		json_t *pt = chk_resolve(c, ast_get(p, "type"));
		if (p && ty_is_stream(pt))
			host_arg(c, a, p, ROLE_IN, (int)i + 1);
		else if (ty_is_stream(ast_get(a, "ty")))
			chk_err(c, a, "E-arg-stream", "argument %d of \"%s\" is a "
				"stream, but not its parameter: a stream is passed "
				"only to a stream parameter", (int)i + 1, name);
		json_decref(pt);
	}
}

/* A call of NAME, which the file does not declare (a function of a
 * header brpp passed through, which the C compiler knows): it takes no
 * stream, and a stream among ARGS is most often a kernel's name
 * mistyped. */
static void undeclared_fn_args(chk_ctx *c, json_t *args, const char *name)
{
	size_t i;
	json_t *a;
	json_array_foreach(args, i, a)
		if (ty_is_stream(ast_get(a, "ty"))) {
			chk_near n;
			chk_near_init(&n, name);
			chk_near_funcs(&n, c);
			chk_err(c, a, "E-arg-stream", "argument %d of \"%s\" is "
				"a stream, but \"%s\" is no kernel or function of this "
				"file: a stream is passed only to a kernel or a "
				"stream parameter%s",
				(int)i + 1, name, name, chk_near_suffix(&n));
			return;
		}
}

static long long line_of(const json_t *n)
{
	return (long long)json_integer_value(json_array_get(ast_get(n, "at"),
		1));
}

/* Kernel code calls FN before its definition (spec 7: a prototype is not
 * enough there); where the file defines it further down, say where. */
static void no_definition(chk_ctx *c, json_t *e, chk_fn *fn)
{
	if (fn->def)
		chk_err(c, e, "E-callee-no-definition", "definition must be "
			"available before invoking \"%s\" (it is defined at line "
			"%lld)", fn->name, line_of(fn->def));
	else
		chk_err(c, e, "E-callee-no-definition", "definition must be "
			"available before invoking \"%s\"", fn->name);
}

/* A call of NAME, not in scope, where the file declares a function of
 * that name further down. Host code: C declares a function before its
 * call (C99 6.5.1, 6.5.2.2), so say where and that a prototype above the
 * call will do; kernel code needs the definition. Returns whether it
 * reported. */
static int called_before_decl(chk_ctx *c, json_t *e, const char *name)
{
	chk_fn *fn = chk_fn_find(c, name);
	if (!fn)
		return 0;
	if (c->kern)
		no_definition(c, e, fn);
	else
		chk_err(c, e, "E-callee-later", "\"%s\" is called before its "
			"declaration at line %lld: declare %s above the call (a "
			"prototype will do)", name, line_of(fn->first),
			fn->kernel ? "the kernel" : "the function");
	return 1;
}

static json_t *user_call(chk_ctx *c, json_t *e, json_t *f, chk_sym *s)
{
	const char *name = ast_str(f, "name");
	chk_fn *cf = chk_fn_find(c, name);
	json_t *fnode = cf && cf->def ? cf->def : s->node;
	json_t *params = ast_arr(ast_get(fnode, "type"), "params");
	json_t *args = args_of(c, e, c->kern && cf && cf->kernel ? params :
		NULL);
	c->callee = 1;
	chk_id_expr(c, f);
	c->callee = 0;
	json_t *ft = ast_get(s->type, "ret") ? s->type : NULL;
	json_t *ret = ft ? chk_resolve(c, ast_get(ft, "ret")) :
		json_incref(chk_T(c, "unknown"));
	chk_set_ty(e, ret);
	if (!cf || !cf->kernel) {
		callee(e, "host");
		if (c->kern)
			chk_err(c, e, "E-kernel-calls-host",
				"kernel can't call a non-kernel: \"%s\"", name);
		else if (args)
			host_fn_args(c, args, ast_arr(ft, "params"), name);
		return ret;
	}
	if (c->kern) {
		callee(e, "sub");
		cf->sub = 1;
		if (!cf->defined)
			no_definition(c, e, cf);
		if (cf->cls == CLASS_SCATTER) {
			chk_err(c, e, "E-call-scatter",
				"Illegal to call scatter kernel from any kernel");
			return ret;
		}
		/* spec 7.1; DESIGN.md reading 7 allows it */
		if (cf->cls == CLASS_REDUCE && c->o->portable)
			chk_warn(c, 1, e, "W-portable-reduce-call",
				"callee can't call a reduction kernel: \"%s\"", name);
		if (c->fn)
			chk_edge_add(c, c->fn, cf, e);
	} else {
		callee(e, cf->cls == CLASS_REDUCE ? "reduce" : "kernel");
		/* spec 6.3.9: a function definition must exist */
		if (!cf->def)
			chk_err(c, e, "E-kernel-no-definition", "A function definition "
				"must exist for kernel \"%s\" in this file", name);
		if (!ty_is_void(ret) && !ty_is_unknown(ret))
			chk_err(c, e, "E-kernel-return-host", "a top-level kernel must "
				"have a return type of void to be called from host "
				"code: \"%s\"", name);
	}
	if (!args || !arg_count(c, e, args, json_array_size(params)))
		return ret;
	size_t i;
	json_t *a, *in = NULL, *red = NULL;
	json_array_foreach(args, i, a) {
		json_t *p = json_array_get(params, i);
		if (c->kern) {
			sub_arg(c, e, a, p, (int)i + 1);
			continue;
		}
		chk_role r = chk_role_of(p);
		host_arg(c, a, p, r, (int)i + 1);
		if (r == ROLE_IN && cf->cls == CLASS_REDUCE &&
			is_iter_stream(c, a))
			chk_err(c, a, "E-arg-iter-reduce", "a reduction cannot "
				"read an iterator stream (argument %d): copy it "
				"into a stream with a kernel first", (int)i + 1);
		if (r == ROLE_IN && !in)
			in = ast_get(a, "ty");
		if (r == ROLE_REDUCE)
			red = ast_get(a, "ty");
	}
	if (!c->kern && cf->cls == CLASS_REDUCE)
		reduce_shape(c, e, in, red);
	if (!c->kern)
		read_write(c, args, params, name);
	return ret;
}

/* spec 6.3.6: instance() and instanceInGroup() are int4, syncGroup() void;
 * none in reductions; the last two only in kernels with a GroupSize. */
static json_t *intrinsic_call(chk_ctx *c, json_t *e, json_t *f,
	const char *name)
{
	static const struct {
		const char *name, *id_host, *id_reduce, *type;
	} tab[] = {
		{"instance", "E-instance-host", "E-reduce-instance", "int4"},
		{"instanceInGroup", "E-iig-host", "E-reduce-iig", "int4"},
		{"syncGroup", "E-sync-host", "E-reduce-sync", "void"},
	};
	size_t k = 0;
	while (strcmp(tab[k].name, name) != 0)
		k++;
	json_t *args = args_of(c, e, NULL);
	chk_unknown(c, f);
	callee(e, "builtin");
	json_object_set_new_nocheck(e, "builtin", json_string_nocheck(name));
	arg_count(c, e, args, 0);
	if (!c->kern)
		chk_err(c, e, tab[k].id_host, "%s() operator has no meaning inside "
			"non-kernel functions", name);
	else if (c->fn && c->fn->cls == CLASS_REDUCE)
		chk_err(c, e, tab[k].id_reduce, "Illegal to use %s() function in "
			"reduction kernel", name);
	else if (k > 0 && c->fn && !c->fn->groupsize && !c->fn->group_use) {
		c->fn->group_use = e;
		c->fn->group_what = tab[k].name;
	}
	return chk_set_ty_b(e, chk_T(c, tab[k].type));
}

/* spec 5: the built-in functions of kernel code. */
static json_t *builtin_call(chk_ctx *c, json_t *e, json_t *f,
	const ty_builtin *b)
{
	json_t *args = args_of(c, e, NULL);
	chk_unknown(c, f);
	callee(e, "builtin");
	json_object_set_new_nocheck(e, "builtin",
		json_string_nocheck(b->name));
	if (!args || !arg_count(c, e, args, (size_t)b->nargs))
		return chk_unknown(c, e);
	size_t i;
	json_t *a;
	json_array_foreach(args, i, a) {
		json_t *at = ast_get(a, "ty");
		if (ty_is_unknown(at))
			return chk_unknown(c, e);
		if (!ty_is_arith(at)) {
			chk_err(c, e, "E-builtin-nomatch", "No matched built-in function "
				"found: %s()", b->name);
			return chk_unknown(c, e);
		}
	}
	/* T: the type of the first argument that is not a literal */
	json_t *t = (json_t *)ast_args_type(args);
	int floats = b->sig == TY_B_FLOAT1 || b->sig == TY_B_FLOAT2 ||
		b->sig == TY_B_FLOAT3 || b->sig == TY_B_DOT ||
		b->sig == TY_B_LENGTH || b->sig == TY_B_CROSS ||
		b->sig == TY_B_PRED;	/* isnan, isinf, isfinite: C99 7.12.3 */
	if (floats && ty_scalar_is_integer(ty_scalar(t))) {
		if (!c->o->a) {
			chk_err(c, e, "E-builtin-nomatch", "No matched built-in function "
				"found: %s() of %s", b->name, ty_scalar(t));
			return chk_unknown(c, e);
		}
		chk_warn(c, 1, e, "W-builtin-float",
			"all Parameters of \"%s\" are converted to float", b->name);
		t = chk_vec(c, "float", ty_ncomp(t));
	}
	json_array_foreach(args, i, a) {
		json_t *at = ast_get(a, "ty");
		/* clamp(v, lo, hi) and lerp(x, y, a) take scalar bounds */
		if (i > 0 && (b->sig == TY_B_NUM3 || b->sig == TY_B_FLOAT3) &&
			ty_is_scalar(at) && ty_is_vector(t))
			chk_convert(c, a, a, at, chk_vec(c, ty_scalar(t), 1), CONV_ARG,
				(int)i + 1);
		else
			chk_convert(c, a, a, at, t, CONV_ARG, (int)i + 1);
	}
	switch (b->sig) {
	case TY_B_PRED:
		return chk_set_ty_b(e, chk_vec(c, "int", ty_ncomp(t)));
	case TY_B_DOT:
	case TY_B_LENGTH:
		return chk_set_ty_b(e, chk_vec(c, ty_scalar(t), 1));
	case TY_B_CROSS:
		if (ty_ncomp(t) != 3 && ty_ncomp(t) != 4)
			chk_err(c, e, "E-builtin-nomatch", "No matched built-in function "
				"found: cross() needs float3 or float4");
		return chk_set_ty_b(e, t);
	default:
		return chk_set_ty_b(e, t);
	}
}

static const char *const stream_ops[] = {
	"streamRead", "streamWrite", "iter", "streamGatherOp",
	"streamScatterOp", "streamSwap", "streamPrint", NULL
};

static int is_stream_op(const char *name)
{
	for (int i = 0; stream_ops[i]; i++)
		if (strcmp(stream_ops[i], name) == 0)
			return 1;
	return 0;
}

/* A call streamSwap(...) with the variable named NAME among its
 * arguments. */
static int swaps_name(const json_t *n, const void *name)
{
	json_t *a;
	size_t i;

	if (!ast_is(n, "call") || !ty_streq(ast_str(chk_strip_paren(ast_get(n,
			"fn")), "name"), "streamSwap"))
		return 0;
	json_array_foreach(ast_arr(n, "args"), i, a)
		if (ty_streq(ast_str(chk_strip_paren(a), "name"), name))
			return 1;
	return 0;
}

/* Whether stream SX (an expression) may hold another size than its
 * declaration's: a variable that a streamSwap of the function being
 * checked names, before this statement or after it (a loop). */
static int stream_swapped(chk_ctx *c, json_t *sx)
{
	json_t *v = chk_strip_paren(sx);
	return ast_is(v, "id") && c->fnode && ast_find(ast_get(c->fnode,
		"body"), swaps_name, ast_str(v, "name")) != NULL;
}

/* The memory that streamRead or streamWrite (or a stream's read or write
 * method) copies a stream ST from or to, argument A: of the stream's
 * element type, or of its scalar for a vector stream (the guide reads a
 * float4 stream from a float array), unless cast to void *; and, for an
 * array of known size, at least as large as a stream of known size
 * (stream SX, unless a streamSwap may have given it another's). */
static void stream_memory(chk_ctx *c, json_t *a, json_t *sx, json_t *st,
	const char *op)
{
	json_t *at = chk_resolve(c, ast_get(a, "ty"));
	json_t *se = chk_resolve(c, ast_get(st, "of"));
	json_t *me = NULL;
	long long have = 0, need = stream_count(st);
	int per = 1;

	if (ty_is_unknown(at) || ty_is_unknown(se))
		goto out;
	json_t *arr = ty_is_array(at) ? at : ty_is_ptr(at) &&
		ty_is_array(ast_get(at, "to")) ? ast_get(at, "to") : NULL;
	if (arr) {	/* x, or &x */
		me = chk_resolve(c, (json_t *)ty_base(arr));
		have = chk_array_count(arr);
	} else if (ty_is_ptr(at)) {
		me = chk_resolve(c, ast_get(at, "to"));
	} else {
		char *an = TN(at);
		chk_err(c, a, "E-stream-op-arg", "%s: argument 2 must be an array "
			"or a pointer, not %s", op, an);
		free(an);
		goto out;
	}
	if (ty_is_void(me) || ty_is_unknown(me))
		goto out;
	if (!ty_equal(me, se)) {
		if (ty_is_vector(se) && ty_is_scalar(me) &&
				ty_streq(ty_scalar(me), ty_scalar(se))) {
			per = ty_ncomp(se);
		} else {
			char *mn = TN(me), *sn = TN(se);
			chk_err(c, a, "E-stream-op-type", "%s: a stream of %s and "
				"memory of %s (cast the pointer to void * to copy "
				"the bytes as they are)", op, sn, mn);
			free(mn);
			free(sn);
			goto out;
		}
	}
	if (have > 0 && need > 0 && have < need * per &&
			!stream_swapped(c, sx)) {
		char *mn = TN(me);
		chk_err(c, a, "E-stream-op-size", "%s: the array holds %lld "
			"elements of %s, the stream needs %lld", op, have, mn,
			need * per);
		free(mn);
	}
out:
	json_decref(me);
	json_decref(se);
	json_decref(at);
}

/* brookgpu: streamSwap(a, b) swaps two stream variables of one element
 * type. A host function's stream parameter is its caller's stream: swapped
 * with a local one, the local's block would release the caller's stream. */
static void stream_swap(chk_ctx *c, json_t *args)
{
	json_t *a[2];
	chk_sym *s[2];
	for (int k = 0; k < 2; k++) {
		a[k] = json_array_get(args, (size_t)k);
		json_t *t = ast_get(a[k], "ty");
		if (ty_is_unknown(t))
			return;
		s[k] = chk_root_sym(c, a[k]);
		if (!ty_is_stream(t) || !s[k] ||
			!ast_is(chk_strip_paren(a[k]), "id")) {
			chk_err(c, a[k], "E-stream-op-arg", "streamSwap: argument %d "
				"must be a stream variable", k + 1);
			return;
		}
	}
	json_t *e0 = chk_resolve(c, ast_get(ast_get(a[0], "ty"), "of"));
	json_t *e1 = chk_resolve(c, ast_get(ast_get(a[1], "ty"), "of"));
	if (!ty_equal(e0, e1)) {
		char *n0 = TN(e0), *n1 = TN(e1);
		chk_err(c, a[1], "E-stream-swap-type", "streamSwap: a stream of %s "
			"and a stream of %s: the element types must be the same",
			n0, n1);
		free(n0);
		free(n1);
	} else if ((s[0]->kind == SYM_PARAM) != (s[1]->kind == SYM_PARAM)) {
		int p = s[0]->kind == SYM_PARAM ? 0 : 1;
		chk_err(c, a[1], "E-stream-swap-param", "streamSwap: \"%s\" is a "
			"parameter, the caller's stream, and \"%s\" is not: the end "
			"of %s's block would release the caller's stream",
			s[p]->name, s[!p]->name, s[!p]->name);
	}
	json_decref(e0);
	json_decref(e1);
}

/* The element type of A, argument N of stream operator NAME, which must
 * be a stream: a new reference, or NULL when it is not one (reported; a
 * name that only the C compiler knows is none). */
static json_t *op_elem(chk_ctx *c, json_t *a, int n, const char *name)
{
	json_t *t = chk_resolve(c, ast_get(a, "ty")), *el = NULL;
	if (ty_is_stream(t))
		el = chk_resolve(c, (json_t *)ty_elem(t));
	else
		chk_err(c, a, "E-stream-op-arg", "%s: argument %d must be a "
			"stream", name, n);
	json_decref(t);
	return el;
}

/* The element type of parameter P of a kernel: a new reference. */
static json_t *param_elem(chk_ctx *c, json_t *p)
{
	json_t *t = chk_resolve(c, ast_get(p, "type")), *el;
	if (!ty_is_stream(t))
		return t;
	el = chk_resolve(c, (json_t *)ty_elem(t));
	json_decref(t);
	return el;
}

/* E-stream-op-type: what A (of type AT, the operator's argument N) holds
 * is not WANT, which WHAT ("argument 3 holds", "kernel "f" takes", ...). */
static void op_type(chk_ctx *c, json_t *a, int n, json_t *at, json_t *want,
	const char *name, const char *what)
{
	if (!at || !want || ty_is_unknown(at) || ty_is_unknown(want) ||
			ty_equal(at, want))
		return;
	char *h = TN(at), *w = TN(want);
	chk_err(c, a, "E-stream-op-type", "%s: argument %d holds %s, but %s "
		"%s", name, n, h, what, w);
	free(h);
	free(w);
}

/* The operation of streamGatherOp (GATHER) or streamScatterOp, argument
 * OP: the kernel or reduce function it names, or NULL for the plain
 * operation (STREAM_GATHER_FETCH, STREAM_SCATTER_ASSIGN, which scatter
 * may also join to a reduce function with |). *BAD: neither. */
static chk_fn *op_fn(chk_ctx *c, json_t *op, int gather, int *bad)
{
	const char *plain = gather ? "STREAM_GATHER_FETCH" :
		"STREAM_SCATTER_ASSIGN";
	json_t *f = chk_strip_paren(op);
	*bad = 0;
	if (!gather && ast_is(f, "binop") && ty_streq(ast_str(f, "op"), "|")) {
		json_t *l = chk_strip_paren(ast_get(f, "l"));
		json_t *r = chk_strip_paren(ast_get(f, "r"));
		if (ast_is(l, "id") && ty_streq(ast_str(l, "name"), plain))
			f = r;
		else if (ast_is(r, "id") && ty_streq(ast_str(r, "name"), plain))
			f = l;
		else
			f = NULL;
		if (ast_is(f, "id") && ty_streq(ast_str(f, "name"), plain))
			f = NULL;
	} else if (ast_is(f, "id") && ty_streq(ast_str(f, "name"), plain)) {
		return NULL;
	}
	chk_fn *fn = ast_is(f, "id") ? chk_fn_find(c, ast_str(f, "name")) :
		NULL;
	json_t *ps = fn ? ast_arr(ast_get(fn->first, "type"), "params") : NULL;
	if (!fn || !fn->kernel || json_array_size(ps) != 2 ||
			fn->cls != (gather ? CLASS_MAP : CLASS_REDUCE) ||
			chk_role_of(json_array_get(ps, 0)) != ROLE_IN ||
			chk_role_of(json_array_get(ps, 1)) != (gather ? ROLE_OUT :
			ROLE_REDUCE)) {
		*bad = 1;
		return NULL;
	}
	return fn;
}

/* BrookGPU's streamGatherOp(t, index, array, op) and streamScatterOp(s,
 * index, array, op) (the BrookGPU page, "GatherOp", "ScatterOp"): three
 * streams, the index of scalar (linear) offsets, and an operation. */
static void gather_scatter_op(chk_ctx *c, json_t *args, const char *name)
{
	int gather = ty_streq(name, "streamGatherOp"), bad;
	json_t *a0 = json_array_get(args, 0), *a1 = json_array_get(args, 1);
	json_t *a2 = json_array_get(args, 2), *a3 = json_array_get(args, 3);
	json_t *data = op_elem(c, a0, 1, name);
	json_t *idx = op_elem(c, a1, 2, name);
	json_t *arr = op_elem(c, a2, 3, name);
	if (idx && !ty_is_unknown(idx) && (!ty_is_scalar(idx) ||
			ty_streq(ty_scalar(idx), "bool"))) {
		char *h = TN(idx);
		chk_err(c, a1, "E-stream-op-index", "%s: the index stream "
			"holds %s: it must hold scalar offsets (int or float)",
			name, h);
		free(h);
	}
	chk_fn *fn = op_fn(c, a3, gather, &bad);
	if (bad) {
		chk_err(c, a3, "E-stream-op-fn", "%s: the operation must be %s",
			name, gather ? "STREAM_GATHER_FETCH or a kernel "
			"f(T a<>, out U b<>)" : "STREAM_SCATTER_ASSIGN, a "
			"reduce function f or STREAM_SCATTER_ASSIGN | f");
	} else if (fn) {
		json_t *ps = ast_arr(ast_get(fn->first, "type"), "params");
		json_t *in = param_elem(c, json_array_get(ps, 0));
		json_t *out = param_elem(c, json_array_get(ps, 1));
		char takes[160], gives[160];
		snprintf(takes, sizeof takes, "%s \"%s\" takes", gather ?
			"kernel" : "reduce function", fn->name);
		snprintf(gives, sizeof gives, "kernel \"%s\" gives", fn->name);
		if (gather)
			op_type(c, a0, 1, data, out, name, gives);
		else
			op_type(c, a0, 1, data, arr, name, "argument 3 holds");
		op_type(c, a2, 3, arr, gather ? in : out, name, takes);
		json_decref(in);
		json_decref(out);
	} else {
		op_type(c, a0, 1, data, arr, name, "argument 3 holds");
	}
	json_decref(data);
	json_decref(idx);
	json_decref(arr);
}

/* spec 3.3: stream operators; brookgpu: iter(). */
static json_t *stream_op_call(chk_ctx *c, json_t *e, json_t *f,
	const char *name)
{
	json_t *args = args_of(c, e, NULL);
	chk_unknown(c, f);
	callee(e, "stream_op");
	if (c->kern) {
		chk_err(c, e, "E-kernel-stream-op", "Kernels cannot call stream "
			"operators: %s()", name);
		return chk_unknown(c, e);
	}
	if (!args)
		return chk_unknown(c, e);
	if (ty_streq(name, "iter")) {
		if (!arg_count(c, e, args, 2))
			return chk_unknown(c, e);
		return chk_set_ty_b(e, ast_get(json_array_get(args, 0), "ty"));
	}
	if (ty_streq(name, "streamRead") || ty_streq(name, "streamWrite")) {
		if (arg_count(c, e, args, 2)) {
			json_t *st = ast_get(json_array_get(args, 0), "ty");
			if (!ty_is_stream(st) && !ty_is_unknown(st))
				chk_err(c, e, "E-stream-op-arg",
					"%s: argument 1 must be a stream", name);
			else if (ty_is_stream(st))
				stream_memory(c, json_array_get(args, 1),
					json_array_get(args, 0), st, name);
		}
		return chk_set_ty_b(e, chk_T(c, "void"));
	}
	if (ty_streq(name, "streamSwap")) {
		if (arg_count(c, e, args, 2))
			stream_swap(c, args);
		return chk_set_ty_b(e, chk_T(c, "void"));
	}
	if (ty_streq(name, "streamGatherOp") ||
			ty_streq(name, "streamScatterOp")) {
		if (arg_count(c, e, args, 4))
			gather_scatter_op(c, args, name);
		return chk_set_ty_b(e, chk_T(c, "void"));
	}
	return chk_unknown(c, e);
}

/* guide 1.7.1: Stream::domain(start, end) takes as many coordinates as
 * the stream has dimensions (an int for 1D, an int2 for 2D, ...), or an
 * array of them; a <> parameter's rank is its argument's. */
static void domain_bounds(chk_ctx *c, json_t *args, json_t *st)
{
	int rank = ty_rank(st);
	size_t i;
	json_t *a;
	if (rank == 1 && json_is_null(json_array_get(ast_get(st, "dims"), 0)))
		return;
	json_array_foreach(args, i, a) {
		json_t *at = chk_resolve(c, ast_get(a, "ty"));
		long long n = ty_is_arith(at) ? ty_ncomp(at) : ty_is_array(at) ?
			chk_array_count(at) : 0;
		if (n > 0 && n != rank)
			chk_err(c, a, "E-stream-domain-rank", "domain: argument %zu has "
				"%lld coordinate%s, the stream %d dimension%s", i + 1, n,
				n > 1 ? "s" : "", rank, rank > 1 ? "s" : "");
		json_decref(at);
	}
}

/* guide 1.7: the flags of a stream's read or write method, a string. */
static void stream_flags(chk_ctx *c, json_t *a, const char *op)
{
	json_t *at = chk_resolve(c, ast_get(a, "ty"));
	json_t *to = ty_is_ptr(at) ? ast_get(at, "to") : ty_is_array(at) ?
		ast_get(at, "of") : NULL;
	if (!ty_is_unknown(at) && !(to && (ty_is_unknown(to) ||
		ty_is_void(to) || ty_streq(ty_scalar(to), "char")))) {
		char *an = TN(at);
		chk_err(c, a, "E-stream-flags", "%s: argument 2, the flags, must "
			"be a string such as \"async\", not %s", op, an);
		free(an);
	}
	json_decref(at);
}

/* guide 1.7: methods of a stream in host code. */
static json_t *method_call(chk_ctx *c, json_t *e, json_t *f, json_t *st)
{
	static const struct { const char *name, *type; } tab[] = {
		{"domain", NULL}, {"execDomain", NULL}, {"error", "int"},
		{"errorLog", "@string"}, {"isSync", "int"}, {"finish", "int"},
		{"read", "void"}, {"write", "void"}, {"assign", "void"},
	};
	const char *name = ast_str(f, "name");
	json_t *args = args_of(c, e, NULL);
	chk_unknown(c, f);
	callee(e, "method");
	if (ty_streq(name, "read") || ty_streq(name, "write")) {
		if (json_array_size(args) > 0)
			stream_memory(c, json_array_get(args, 0), ast_get(f,
				"e"), st, name);
		if (json_array_size(args) > 1)
			stream_flags(c, json_array_get(args, 1), name);
	}
	if (ty_streq(name, "domain"))
		domain_bounds(c, args, st);
	for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
		if (strcmp(tab[i].name, name) != 0)
			continue;
		if (tab[i].type)
			return chk_set_ty_b(e, chk_T(c, tab[i].type));
		json_t *t = json_copy(st);
		json_t *dims = json_array();
		for (int k = 0; k < ty_rank(st); k++)
			json_array_append_new(dims, json_null());
		json_object_set_new(t, "dims", dims);
		return chk_set_ty(e, t);
	}
	chk_err(c, e, "E-stream-method", "unknown stream method \"%s\"", name);
	return chk_unknown(c, e);
}

json_t *chk_call_expr(chk_ctx *c, json_t *e)
{
	json_t *fe = ast_get(e, "fn");
	json_t *f = chk_strip_paren(fe);
	if (ast_is(f, "member") && !c->kern) {
		json_t *bt = chk_expr(c, ast_get(f, "e"));
		if (ty_is_stream(bt)) {
			if (f != fe)
				chk_unknown(c, fe);
			return method_call(c, e, f, bt);
		}
	}
	if (ast_is(f, "id")) {
		const char *name = ast_str(f, "name");
		chk_sym *s = chk_lookup(&c->names, name);
		const ty_builtin *b;
		if (f != fe)
			chk_unknown(c, fe);
		if (s && s->kind == SYM_FUNC)
			return user_call(c, e, f, s);
		if (!s && (ty_streq(name, "instance") ||
			ty_streq(name, "instanceInGroup") ||
			ty_streq(name, "syncGroup")))
			return intrinsic_call(c, e, f, name);
		if (!s && is_stream_op(name))
			return stream_op_call(c, e, f, name);
		if (!s && c->kern && (b = ty_builtin_find(name)))
			return builtin_call(c, e, f, b);
		if (!s && c->kern) {
			args_of(c, e, NULL);
			chk_unknown(c, f);
			callee(e, "host");
			if (called_before_decl(c, e, name))
				return chk_unknown(c, e);
			chk_near n;
			chk_near_init(&n, name);
			chk_near_funcs(&n, c);
			for (b = ty_builtins(); b->name; b++)
				chk_near_try(&n, b->name);
			chk_err(c, e, "E-callee-unknown", "callee unknown: \"%s\"%s",
				name, chk_near_suffix(&n));
			return chk_unknown(c, e);
		}
	}
	json_t *ft = chk_expr(c, fe);
	json_t *args = args_of(c, e, NULL);
	callee(e, "host");
	if (c->kern) {
		if (ast_is(f, "id"))
			chk_err(c, e, "E-callee-not-function", "callee is not a function");
		else
			chk_err(c, e, "E-indirect-call", "indirect call not supported");
		return chk_unknown(c, e);
	}
	/* C99 6.5.2.2: the callee is a function or a pointer to one */
	json_t *to = chk_resolve(c, ty_is_ptr(ft) ? ast_get(ft, "to") : ft);
	json_t *ret = NULL;
	if (ty_streq(ty_kind(to), "func"))
		ret = chk_resolve(c, ast_get(to, "ret"));
	else if (!ty_is_unknown(to)) {
		char *tn = TN(ft);
		if (ast_is(f, "id"))
			chk_err(c, e, "E-callee-not-function", "callee is not a "
				"function: \"%s\" is %s", ast_str(f, "name"), tn);
		else
			chk_err(c, e, "E-callee-not-function", "callee is not a "
				"function: %s", tn);
		free(tn);
		args = NULL;
	}
	/* a function only the C compiler knows takes no stream */
	if (args && ast_is(f, "id") && !chk_lookup(&c->names, ast_str(f,
		"name"))) {
		if (!called_before_decl(c, e, ast_str(f, "name")))
			undeclared_fn_args(c, args, ast_str(f, "name"));
	}
	else if (args)
		host_fn_args(c, args, ast_arr(to, "params"), ast_is(f, "id") ?
			ast_str(f, "name") : "the callee");
	json_decref(to);
	return ret ? chk_set_ty(e, ret) : chk_unknown(c, e);
}
