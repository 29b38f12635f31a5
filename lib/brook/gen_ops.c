/* gen_ops.c - BrookGPU's stream operators streamGatherOp and
 * streamScatterOp (BrookGPU page, "GatherOp" and "ScatterOp"): each use
 * in host code becomes a generated kernel, brg_op_N, in both backends.
 *   streamGatherOp(t, index, array, STREAM_GATHER_FETCH or f):
 *     t[i] = array[index[i]], index a linear (row-major) offset, clamped,
 *     or f(array[index[i]]) with a kernel f(T a<>, out U b<>)
 *   streamScatterOp(s, index, array, STREAM_SCATTER_ASSIGN | f):
 *     array[index[i]] = s[i], or f(s[i], array[index[i]]) with a reduce
 *     function f; an offset outside the array drops the write. With f
 *     several elements sent to one place all combine there: on OpenCL
 *     an element of 32 or 64 bits in a compare-and-swap loop, in any
 *     order (cas_body); others, and all on the CPU backend, one after
 *     another, in order (serial_body). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brook/ast.h"
#include "brook/astprint.h"
#include "brook/gen_int.h"
#include "brook/type.h"

void gen_load(gen_ctx *g, gen_target t, strbuf *b, const json_t *ty,
	const char *ptr, const char *idx);
void gen_store(gen_ctx *g, gen_target t, strbuf *b, const json_t *ty,
	const char *ptr, const char *idx, const char *val);
void gen_storage(gen_ctx *g, gen_target t, strbuf *b, const json_t *el);
void gen_cpu_type_expr(gen_ctx *g, strbuf *b, const json_t *el);

static const json_t *strip(const json_t *e)
{
	while (ast_is(e, "paren"))
		e = ast_get(e, "e");
	return e;
}

static const json_t *arg_elem(gen_ctx *g, const json_t *call, size_t i)
{
	return gen_elem(g, ast_get(json_array_get(ast_arr(call, "args"), i),
		"ty"));
}

/* The element type of a parameter P of a kernel (stream or value). */
static const json_t *param_elem(gen_ctx *g, const json_t *p)
{
	const json_t *t = ast_get(p, "type");
	return ty_is_stream(t) ? gen_elem(g, t) : t;
}

/* Whether F, the operation of a stream operator, fits it: gather's a map
 * kernel (IN, OUT) from the array's elements to t's; scatter's a reduce
 * function of the array's elements. What brcheck(1) refuses as
 * E-stream-op-fn and E-stream-op-type. */
static int op_fn_fits(gen_ctx *g, const gen_op *op)
{
	const json_t *ps = ast_arr(ast_get(op->fn, "type"), "params");
	const json_t *p0 = json_array_get(ps, 0), *p1 = json_array_get(ps, 1);

	if (json_array_size(ps) != 2 || !ty_streq(gen_role(p0), "in"))
		return 0;
	if (op->scatter)
		return ty_streq(ast_str(op->fn, "class"), "reduce") &&
			ty_streq(gen_role(p1), "reduce") &&
			ty_equal(gen_resolve(g, param_elem(g, p1)), op->elem);
	return ty_streq(ast_str(op->fn, "class"), "map") &&
		ty_streq(gen_role(p1), "out") &&
		ty_equal(gen_resolve(g, param_elem(g, p0)), op->elem) &&
		ty_equal(gen_resolve(g, param_elem(g, p1)), op->out);
}

/* CALL, a call in the body of a function that is not a kernel: a stream
 * operator becomes the next generated kernel. */
void gen_ops_site(gen_ctx *g, const json_t *n)
{
	const char *name = ast_str(strip(ast_get(n, "fn")), "name");
	int sc = ty_streq(name, "streamScatterOp");
	gen_op *op;

	if (!sc && !ty_streq(name, "streamGatherOp"))
		return;
	if (g->nops == g->capops) {
		int cap = g->capops ? 2 * g->capops : 8;
		gen_op *ops = realloc(g->ops, (size_t)cap * sizeof *ops);
		if (!ops) {
			gen_error(g, n, "E-gen-stream-op", "out of memory");
			return;
		}
		g->ops = ops;
		g->capops = cap;
	}
	op = &g->ops[g->nops++];
	const json_t *f = strip(json_array_get(ast_arr(n, "args"), 3));
	const char *plain = sc ? "STREAM_SCATTER_ASSIGN" :
		"STREAM_GATHER_FETCH";
	/* STREAM_SCATTER_ASSIGN | f: the reduce function f */
	if (sc && ast_is(f, "binop") && ty_streq(ast_str(f, "op"), "|")) {
		const json_t *l = strip(ast_get(f, "l"));
		const json_t *r = strip(ast_get(f, "r"));
		f = ty_streq(ast_str(l, "name"), plain) ? r :
			ty_streq(ast_str(r, "name"), plain) ? l : f;
	}
	const json_t *fd = ast_is(f, "id") ? gen_decl(g, f) : NULL;
	op->call = n;
	op->scatter = sc;
	op->elem = arg_elem(g, n, sc ? 0 : 2);
	op->out = arg_elem(g, n, 0);
	op->index = arg_elem(g, n, 1);
	op->fn = fd && gen_is_kernel(fd) ? fd : NULL;
	if (json_array_size(ast_arr(n, "args")) != 4 ||
			!gen_scalar(op->index) || ty_ncomp(op->index) != 1) {
		gen_error(g, n, "E-gen-stream-op", "%s(stream, index, "
			"array, op) takes a stream of scalar indices "
			"(linear offsets) as its second argument", name);
		g->nops--;
	} else if (op->fn ? !op_fn_fits(g, op) :
			!ast_is(f, "id") || strcmp(ast_str(f, "name"), plain)) {
		gen_error(g, n, "E-gen-stream-op", "%s: the operation "
			"must be %s", name, sc ? "STREAM_SCATTER_ASSIGN, "
			"a reduce function f of the array's elements or "
			"STREAM_SCATTER_ASSIGN | f" : "STREAM_GATHER_FETCH or "
			"a kernel f(T a<>, out U b<>) of the array's elements "
			"T and t's U");
		g->nops--;
	} else if (!op->fn && !ty_equal(op->elem, op->out)) {
		gen_error(g, n, "E-gen-stream-op", "%s: the stream and the "
			"array hold different types", name);
		g->nops--;
	}
}

int gen_ops_find(gen_ctx *g, const json_t *call)
{
	int i;

	for (i = 0; i < g->nops; i++)
		if (g->ops[i].call == call)
			return i;
	return -1;
}

static void index_expr(gen_ctx *g, gen_target t, strbuf *b, const gen_op *op)
{
	(void)g;
	if (ty_scalar_is_float(gen_scalar(op->index)))
		sb_puts(b, "brg_fi((float)x)");
	else
		sb_printf(b, "(%s)x", t == GEN_CL ? "BRG_L" : "int64_t");
}

/* Gather's kernel f on the element V fetched: its result R. f's position
 * (instance(), and indexof() of either parameter) is the point's in t. */
static void gather_fn(gen_ctx *g, gen_target t, strbuf *b, const gen_op *op,
	const char *ind)
{
	const char *fname = ast_str(op->fn, "name");
	const json_t *idx = json_object_get(g->idxof, fname), *p;
	size_t i;

	gen_type(g, t, b, op->out, "r");
	sb_printf(b, ";\n%s{\n%s\tconst BRG_L brg_o0[4] = {0, 0, 0, 0};\n"
		"%s\tconst brg_ctx brg_cx = brg_mkctx(brg_i, brg_d, brg_o0);\n"
		"%s\t%s__body(v, &r", ind, ind, ind, ind, fname);
	ast_array_foreach(ast_arr(ast_get(op->fn, "type"), "params"), i, p)
		if (json_object_get(idx, ast_str(p, "name")))
			sb_puts(b, ", brg_posf(brg_cx)");
	sb_printf(b, ", brg_cx);\n%s}\n%s", ind, ind);
}

/* IND, then the declaration of x, the index of the point BRG_I. */
static void index_load(gen_ctx *g, gen_target t, strbuf *b, const gen_op *op,
	const char *ind)
{
	sb_printf(b, "%sconst ", ind);
	gen_type(g, t, b, op->index, "x");
	sb_puts(b, " = ");
	gen_load(g, t, b, op->index, "index",
		"brg_idx(&index_v, brg_i, brg_d)");
	sb_puts(b, ";\n");
}

/* The work of one domain point BRG_I: the same text on both targets. */
static void op_point(gen_ctx *g, gen_target t, strbuf *b, const gen_op *op,
	const char *ind)
{
	strbuf ix = {0};

	index_load(g, t, b, op, ind);
	sb_puts(b, ind);
	gen_type(g, t, b, op->elem, "v");
	sb_puts(b, ";\n");
	sb_printf(&ix, "brg_lin(&array_v, ");
	index_expr(g, t, &ix, op);
	sb_printf(&ix, ", %d)", op->scatter);
	if (!op->scatter) {
		sb_printf(b, "%sv = ", ind);
		gen_load(g, t, b, op->elem, "array", ix.s);
		sb_printf(b, ";\n%s", ind);
		if (op->fn) {
			gather_fn(g, t, b, op, ind);
			gen_store(g, t, b, op->out, "t",
				"brg_idx(&t_v, brg_i, brg_d)", "r");
		} else {
			gen_store(g, t, b, op->elem, "t",
				"brg_idx(&t_v, brg_i, brg_d)", "v");
		}
		sb_puts(b, ";\n");
		sb_free(&ix);
		return;
	}
	sb_printf(b, "%s{\n%s\t%s brg_k = %s;\n%s\tv = ", ind, ind,
		t == GEN_CL ? "BRG_L" : "int64_t", ix.s, ind);
	gen_load(g, t, b, op->elem, "s", "brg_idx(&s_v, brg_i, brg_d)");
	sb_printf(b, ";\n%s\tif (brg_k >= 0) {\n", ind);
	if (op->fn) {
		sb_printf(b, "%s\t\t", ind);
		gen_type(g, t, b, op->elem, "cur");
		sb_puts(b, " = ");
		gen_load(g, t, b, op->elem, "array", "brg_k");
		sb_printf(b, ";\n%s\t\t%s__body(v, &cur, brg_noctx());\n"
			"%s\t\tv = cur;\n", ind, ast_str(op->fn, "name"), ind);
	}
	sb_printf(b, "%s\t\t", ind);
	gen_store(g, t, b, op->elem, "array", "brg_k", "v");
	sb_printf(b, ";\n%s\t}\n%s}\n", ind, ind);
	sb_free(&ix);
}

/* The bits of OP's element where OpenCL C can combine it in one
 * compare-and-swap: 32 (int, uint, float), 64 (their 2-vectors, double),
 * else 0. */
static int cas_bits(gen_ctx *g, const gen_op *op)
{
	const json_t *el = gen_resolve(g, op->elem);
	const char *s = gen_scalar(el);
	int n = ty_ncomp(el);

	if (!s || !(ty_streq(s, "float") || ty_streq(s, "int") ||
			ty_streq(s, "uint") || ty_streq(s, "double")))
		return 0;
	n *= ty_scalar_bits(s);
	return n == 32 || n == 64 ? n : 0;
}

/* OpenCL C of a scatter with a reduce function whose element has a
 * compare-and-swap (cas_bits): the words cas_body and cas_loop fill in. */
typedef struct cas_words {
	const char *u;		/* uint or ulong: the element's bits */
	const char *T;		/* the element's type */
	const char *fn;		/* the reduce function */
	const char *cas;	/* atomic_cmpxchg or atom_cmpxchg */
} cas_words;

/* IND, then the loop that combines V into array[K] (K >= 0) until no
 * other work-item changed the element between the read and the swap. */
static void cas_loop(strbuf *b, const cas_words *w, const char *ind,
	const char *k, const char *v)
{
	sb_printf(b, "%s{\n"
		"%s\tvolatile __global %s *brg_p = (volatile __global %s *)"
		"(array + %s);\n"
		"%s\t%s brg_old = *brg_p, brg_was;\n"
		"%s\tdo {\n%s\t\t%s cur = as_%s(brg_old);\n"
		"%s\t\tbrg_was = brg_old;\n"
		"%s\t\t%s__body(%s, &cur, brg_noctx());\n"
		"%s\t\tbrg_old = %s(brg_p, brg_was, as_%s(cur));\n"
		"%s\t} while (brg_old != brg_was);\n%s}\n",
		ind, ind, w->u, w->u, k, ind, w->u, ind, ind, w->T, w->T, ind,
		ind, w->fn, v, ind, w->cas, w->u, ind, ind);
}

/* The point BRG_I's place brg_k (-1 outside the array) and element v. */
static void cas_fetch(gen_ctx *g, strbuf *b, const gen_op *op,
	const char *ind)
{
	strbuf ix = {0};

	index_load(g, GEN_CL, b, op, ind);
	sb_printf(&ix, "brg_lin(&array_v, ");
	index_expr(g, GEN_CL, &ix, op);
	sb_puts(&ix, ", 1)");
	sb_printf(b, "%sbrg_k = %s;\n%sv = ", ind, ix.s, ind);
	gen_load(g, GEN_CL, b, op->elem, "s", "brg_idx(&s_v, brg_i, brg_d)");
	sb_puts(b, ";\n");
	sb_free(&ix);
}

/* How many rounds of points a work-group takes (cas_body). */
#define CAS_ROUNDS 16

/* The body of a scatter with a reduce function on OpenCL whose element
 * combines in a compare-and-swap loop (cas_bits gives BITS), so that
 * points run in parallel and none is lost. They combine in any order,
 * which the reduce function allows: it is associative and commutative
 * (spec 4.1.2).
 *   On a CPU device (BRG_CPU), where few work-items run at once, each
 *   point swaps its element in (unless BRG_SCATTER_GROUPS, brt(3)).
 *   On a GPU, where thousands do, many points sent to one place (a
 *   histogram's few bins) would retry their swaps without end: there
 *   a work-group takes CAS_ROUNDS rounds of as many points as it has
 *   work-items; in a round the points of one place combine in the
 *   first work-item of that place, which combines the result into the
 *   group's table of up to one place a work-item (local memory), or
 *   into the array when the table is full; at the end each place of
 *   the table goes to the array in one loop. A group then swaps once a
 *   place for up to CAS_ROUNDS * 256 points. The groups past the
 *   domain's points / CAS_ROUNDS return at once. The local arrays hold
 *   256 work-items: libbrt launches such a kernel (its main entry, one
 *   dimension) in groups of at most 256 (kernel.c, geometry). */
static void cas_body(gen_ctx *g, strbuf *b, const gen_op *op, int bits)
{
	const json_t *el = gen_resolve(g, op->elem);
	cas_words w;

	w.u = bits == 32 ? "uint" : "ulong";
	w.T = gen_arith_name(GEN_CL, gen_scalar(el), ty_ncomp(el));
	w.fn = ast_str(op->fn, "name");
	w.cas = bits == 32 ? "atomic_cmpxchg" : "atom_cmpxchg";
	sb_printf(b, "\tBRG_L brg_k = -1;\n\t%s v = (%s)(0);\n"
		"#if defined(BRG_CPU) && !defined(BRG_SCATTER_GROUPS)\n"
		"\tconst BRG_L brg_i = get_global_id(0);\n"
		"\tif (brg_i >= brg_all)\n\t\treturn;\n", w.T, w.T);
	cas_fetch(g, b, op, "\t");
	sb_puts(b, "\tif (brg_k >= 0)\n");
	cas_loop(b, &w, "\t", "brg_k", "v");
	sb_printf(b, "#else\n"
		"\t__local BRG_L brg_key[256], brg_tk[256];\n"
		"\t__local %s brg_val[256], brg_tv[256];\n"
		"\t__local volatile int brg_tn;\n"
		"\tconst int brg_l = (int)get_local_id(0);\n"
		"\tconst int brg_n = (int)get_local_size(0);\n"
		"\tconst BRG_L brg_g = (BRG_L)get_group_id(0);\n"
		"\tint brg_r, brg_j, brg_t;\n"
		"\tif ((long)brg_g * brg_n * %d >= (long)brg_all)\n"
		"\t\treturn;\n"
		"\tif (brg_l == 0)\n\t\tbrg_tn = 0;\n"
		"\tbrg_tk[brg_l] = -1;\n"
		"\tfor (brg_r = 0; brg_r < %d; brg_r++) {\n"
		"\t\tconst BRG_L brg_i = (brg_g * %d + brg_r) * brg_n + "
		"brg_l;\n"
		"\t\tbrg_k = -1;\n\t\tif (brg_i < brg_all) {\n",
		w.T, CAS_ROUNDS, CAS_ROUNDS, CAS_ROUNDS);
	cas_fetch(g, b, op, "\t\t\t");
	sb_printf(b, "\t\t}\n"
		"\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n"
		"\t\tbrg_key[brg_l] = brg_k;\n\t\tbrg_val[brg_l] = v;\n"
		"\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n"
		"\t\tif (brg_k < 0)\n\t\t\tcontinue;\n"
		"\t\t/* the first work-item of the place combines its points */\n"
		"\t\tfor (brg_j = 0; brg_key[brg_j] != brg_k; brg_j++)\n"
		"\t\t\t;\n\t\tif (brg_j < brg_l)\n\t\t\tcontinue;\n"
		"\t\tfor (brg_j = brg_l + 1; brg_j < brg_n; brg_j++)\n"
		"\t\t\tif (brg_key[brg_j] == brg_k)\n"
		"\t\t\t\t%s__body(brg_val[brg_j], &v, brg_noctx());\n"
		"\t\t/* into the group's table, or the array when it is full */\n"
		"\t\tbrg_j = brg_tn < brg_n ? brg_tn : brg_n;\n"
		"\t\tfor (brg_t = 0; brg_t < brg_j && brg_tk[brg_t] != brg_k; "
		"brg_t++)\n\t\t\t;\n"
		"\t\tif (brg_t < brg_j) {\n"
		"\t\t\t%s cur = brg_tv[brg_t];\n"
		"\t\t\t%s__body(v, &cur, brg_noctx());\n"
		"\t\t\tbrg_tv[brg_t] = cur;\n"
		"\t\t} else if ((brg_t = atomic_inc(&brg_tn)) < brg_n) {\n"
		"\t\t\tbrg_tv[brg_t] = v;\n\t\t\tbrg_tk[brg_t] = brg_k;\n"
		"\t\t} else\n", w.fn, w.T, w.fn);
	cas_loop(b, &w, "\t\t", "brg_k", "v");
	sb_puts(b, "\t}\n\tbarrier(CLK_LOCAL_MEM_FENCE);\n"
		"\tif (brg_l < brg_tn && brg_tk[brg_l] >= 0)\n");
	cas_loop(b, &w, "\t", "brg_tk[brg_l]", "brg_tv[brg_l]");
	sb_puts(b, "#endif\n");
}

/* Parameters, in argument order: gather (IN index, GATHER array, OUT t);
 * scatter (IN s, IN index, SCATTER array). */
static const char *const gather_args[] = {"index", "array", "t"};
static const char *const scatter_args[] = {"s", "index", "array"};

static const json_t *arg_type(const gen_op *op, int i)
{
	if (op->scatter)
		return i == 1 ? op->index : op->elem;
	return i == 0 ? op->index : i == 1 ? op->elem : op->out;
}

static int arg_const(const gen_op *op, int i)
{
	return op->scatter ? i < 2 : i < 2;
}

/* Whether OP is a scatter with a reduce function, where several elements
 * may go to one place and each must combine with what the others left
 * there: in one loop, point after point, on the CPU backend, and on
 * OpenCL where cas_bits finds no compare-and-swap for its element
 * (serial_body); else through cas_body. */
static int combines(const gen_op *op)
{
	return op->scatter && op->fn;
}

/* OpenCL: every point in order, in the first work-item. */
static void serial_body(gen_ctx *g, strbuf *b, const gen_op *op)
{
	sb_puts(b, "\tBRG_L brg_i;\n\tif (get_global_id(0) != 0)\n"
		"\t\treturn;\n\tfor (brg_i = 0; brg_i < brg_all; brg_i++) {\n");
	op_point(g, GEN_CL, b, op, "\t\t");
	sb_puts(b, "\t}\n");
}

void gen_ops_cl(gen_ctx *g, strbuf *b)
{
	int n, i, bits;

	for (n = 0; n < g->nops; n++) {
		const gen_op *op = &g->ops[n];
		const char *const *names = op->scatter ? scatter_args :
			gather_args;
		/* 64 bits where the device has the extension */
		bits = combines(op) ? cas_bits(g, op) : 0;
		if (bits == 64)
			sb_puts(b, "#ifdef cl_khr_int64_base_atomics\n#pragma "
				"OPENCL EXTENSION cl_khr_int64_base_atomics : "
				"enable\n#endif\n");
		sb_printf(b, "__kernel void brg_op_%d(", n);
		for (i = 0; i < 3; i++) {
			sb_printf(b, "%s__global %s", i ? ", " : "",
				arg_const(op, i) ? "const " : "");
			gen_storage(g, GEN_CL, b, arg_type(op, i));
			sb_printf(b, " *%s, const brt_view %s_v", names[i],
				names[i]);
		}
		sb_puts(b, ",\n\tconst BRG_L4 brg_dom, const BRG_L4 brg_off)\n{\n"
			"\tBRG_L brg_d[4];\n\tbrg_d[0] = brg_dom.x; brg_d[1] = "
			"brg_dom.y; brg_d[2] = brg_dom.z; brg_d[3] = brg_dom.w;\n"
			"\t(void)brg_off;\n\tconst BRG_L brg_all = brg_d[0] * "
			"brg_d[1] * brg_d[2] * brg_d[3];\n");
		if (bits == 64)
			sb_puts(b, "#ifdef cl_khr_int64_base_atomics\n");
		if (bits)
			cas_body(g, b, op, bits);
		if (bits == 64)
			sb_puts(b, "#else\n");
		if (combines(op) && bits != 32)
			serial_body(g, b, op);
		if (bits == 64)
			sb_puts(b, "#endif\n");
		if (!combines(op)) {
			sb_puts(b, "\tconst BRG_L brg_i = get_global_id(0);\n"
				"\tif (brg_i >= brg_all)\n\t\treturn;\n");
			op_point(g, GEN_CL, b, op, "\t");
		}
		sb_puts(b, "}\n\n");
	}
}

void gen_ops_protos(gen_ctx *g, strbuf *b)
{
	int n;

	for (n = 0; n < g->nops; n++)
		sb_printf(b, "static void brg_op_%d(brt_stream *, brt_stream *, "
			"brt_stream *);\n", n);
}

/* brt_type initializer text of TY, as gen_cpu.c writes it. */
static void type_init(gen_ctx *g, strbuf *b, const json_t *ty)
{
	strbuf e = {0};

	gen_cpu_type_expr(g, &e, ty);
	/* "(brt_type){...}" -> "{...}" for a static initializer */
	sb_puts(b, e.s + strlen("(brt_type)"));
	sb_free(&e);
}

void gen_ops_cpu(gen_ctx *g, strbuf *b)
{
	int n, i;

	for (n = 0; n < g->nops; n++) {
		const gen_op *op = &g->ops[n];
		const char *const *names = op->scatter ? scatter_args :
			gather_args;
		static const char *const gk[] = {"BRT_ARG_IN", "BRT_ARG_GATHER",
			"BRT_ARG_OUT"};
		static const char *const sk[] = {"BRT_ARG_IN", "BRT_ARG_IN",
			"BRT_ARG_SCATTER"};
		const char *file = "";
		int line = 0, col = 0;
		sb_printf(b, "static void brg_op_%d__cpu(const brt_cpu_call *brg_c,"
			" int64_t brg_b, int64_t brg_e, int brg_first)\n{\n", n);
		for (i = 0; i < 3; i++) {
			sb_puts(b, "\t");
			if (arg_const(op, i))
				sb_puts(b, "const ");
			gen_type(g, GEN_CPU, b, arg_type(op, i), NULL);
			sb_printf(b, " *%s = (", names[i]);
			if (arg_const(op, i))
				sb_puts(b, "const ");
			gen_type(g, GEN_CPU, b, arg_type(op, i), NULL);
			sb_printf(b, " *)brg_c->data[%d];\n\tconst brt_view %s_v "
				"= brg_c->views[%d];\n", i, names[i], i);
		}
		sb_puts(b, "\tBRG_L brg_d[4];\n\tint64_t brg_i;\n\tint brg_k;\n"
			"\t(void)brg_first;\n\tfor (brg_k = 0; brg_k < 4; "
			"brg_k++)\n\t\tbrg_d[brg_k] = brg_c->dims[brg_k];\n");
		if (combines(op))
			sb_puts(b, "\t/* one thread, every point in order */\n"
				"\tif (brg_b != 0)\n\t\treturn;\n\tbrg_e = brg_d[0] * "
				"brg_d[1] * brg_d[2] * brg_d[3];\n");
		sb_puts(b, "\tfor (brg_i = brg_b; brg_i < brg_e; brg_i++) {\n");
		op_point(g, GEN_CPU, b, op, "\t\t");
		sb_puts(b, "\t}\n}\n");
		sb_printf(b, "static const brt_argdesc brg_op_%d__args[] = {\n", n);
		for (i = 0; i < 3; i++) {
			sb_printf(b, "\t{%s, ", op->scatter ? sk[i] : gk[i]);
			type_init(g, b, arg_type(op, i));
			sb_puts(b, ", 0, 0},\n");
		}
		ast_at(g->doc, op->call, &file, &line, &col);
		sb_printf(b, "};\nstatic const brt_kernel brg_op_%d__kernel = {\n"
			"\t.name = \"brg_op_%d\",\n\t.program = &brg_program,\n"
			"\t.kclass = %s,\n\t.nargs = 3,\n\t.args = brg_op_%d__args,"
			"\n\t.cpu = brg_op_%d__cpu,\n\t.group = {1, 1, 1},\n"
			"\t.src_line = %d,\n};\n", n, n, op->scatter ?
			"BRT_KERNEL_SCATTER" : "BRT_KERNEL_MAP", n, n, line);
		sb_printf(b, "static void brg_op_%d(brt_stream *a0, brt_stream "
			"*a1, brt_stream *a2)\n{\n\tbrt_arg brg_a[3];\n"
			"\tbrg_a[0].s = a0;\n\tbrg_a[1].s = a1;\n\tbrg_a[2].s = "
			"a2;\n\tbrt_run(&brg_op_%d__kernel, brg_a, NULL);\n}\n\n",
			n, n);
	}
}
