/* gen_c.c - PREFIX.c and PREFIX.h: the .br's host code re-printed through
 * astprint with hooks that turn Brook's host constructs into libbrt calls
 * (stream declarations, streamRead/streamWrite, stream methods, kernel
 * calls and their execution domains), releasing every stream on every
 * path out of its block; the OpenCL program as a string; each kernel's CPU
 * code and C function (gen_cpu.c). */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "brook/ast.h"
#include "brook/astprint.h"
#include "brook/gen_int.h"
#include "brook/type.h"
#include "brt.h"

void gen_cpu_type_expr(gen_ctx *g, strbuf *b, const json_t *el);
void gen_kernel_protos(gen_ctx *g, strbuf *b, const json_t *fn);

typedef struct host_scope {
	const json_t *node;	/* the block, or the loop or switch */
	int kind;		/* 0 block, 1 loop, 2 switch */
	size_t first;		/* its first stream in host_ctx.streams */
} host_scope;

typedef struct host_ctx {
	gen_ctx *g;
	astprint_hooks h;
	host_scope scopes[256];
	size_t nscopes;
	size_t too_deep;	/* the blocks inside the 256th, not kept */
	const char *streams[1024];
	size_t nstreams;
	const json_t *func;	/* the host function being printed */
	const json_t *skip;	/* printed by astprint on our behalf */
	int temps;		/* the file uses brg_temp() */
	int views;		/* the statement printed made a .domain() view */
} host_ctx;

static const json_t *strip(const json_t *e)
{
	while (ast_is(e, "paren"))
		e = ast_get(e, "e");
	return e;
}

static int is_stream_ty(const json_t *ty)
{
	return ty_streq(ty_kind(ty), "stream");
}

/* ---- stream lifetimes --------------------------------------------------- */

static void push_scope(host_ctx *hc, const json_t *node, int kind)
{
	if (hc->nscopes >= sizeof hc->scopes / sizeof hc->scopes[0]) {
		/* once for the outermost block too deep, not again for
		   each block inside it */
		if (!hc->too_deep++)
			gen_error(hc->g, node, "E-gen-nesting", "blocks nested "
				"more than %zu deep",
				sizeof hc->scopes / sizeof hc->scopes[0]);
		return;
	}
	hc->scopes[hc->nscopes].node = node;
	hc->scopes[hc->nscopes].kind = kind;
	hc->scopes[hc->nscopes].first = hc->nstreams;
	hc->nscopes++;
}

static void pop_scope(host_ctx *hc)
{
	if (hc->too_deep) {
		hc->too_deep--;
		return;
	}
	if (!hc->nscopes)
		return;
	hc->nscopes--;
	hc->nstreams = hc->scopes[hc->nscopes].first;
}

/* Frees the streams [first, nstreams), the last declared first. */
static void free_streams(host_ctx *hc, strbuf *out, size_t first, int indent)
{
	size_t s;

	for (s = hc->nstreams; s > first; s--) {
		gen_indent(out, indent);
		sb_printf(out, "brt_stream_free(%s);\n", hc->streams[s - 1]);
	}
}

/* Frees the streams of scopes [from, nscopes), innermost first. */
static void free_from(host_ctx *hc, strbuf *out, size_t from, int indent)
{
	free_streams(hc, out, from < hc->nscopes ? hc->scopes[from].first :
		hc->nstreams, indent);
}

static int is_label(const json_t *n, const void *label)
{
	return ast_is(n, "label") && strcmp(ast_str(n, "name"), label) == 0;
}

static int contains_label(const json_t *n, const char *label)
{
	return ast_find(n, is_label, label) != NULL;
}

/* The streams that block N declares before its statement holding LABEL
 * (all of a loop's or a switch's, whose labels are in their bodies). */
static size_t streams_before(const json_t *n, const char *label)
{
	size_t i, j, count = 0;
	json_t *it, *v;

	if (!ast_is(n, "block"))
		return (size_t)-1 / 2;
	ast_array_foreach(ast_arr(n, "items"), i, it) {
		if (contains_label(it, label))
			break;
		if (ast_is(it, "decl"))
			ast_array_foreach(ast_arr(it, "vars"), j, v)
				if (is_stream_ty(ast_get(v, "type")))
					count++;
	}
	return count;
}

/* ---- small pieces ------------------------------------------------------- */

static void expr(host_ctx *hc, strbuf *out, const json_t *e)
{
	astprint_expr(out, e, &hc->h);
}

/* An unsigned[] of coordinates, x first, from a scalar, a vector, or an
 * array/pointer passed as is (guide 1.7.1 and 1.7.3, Stream::domain). */
static void coords(host_ctx *hc, strbuf *out, const json_t *e)
{
	const json_t *ty = ast_get(e, "ty");
	int n = ty_ncomp(ty), k;

	if (n == 0) {
		expr(hc, out, e);
		return;
	}
	if (n > 1) {
		/* the vector once: it may call a function */
		char fname[64];
		const char *V = gen_arith_name(GEN_CPU, gen_scalar(ty), n);
		snprintf(fname, sizeof fname, "brg_coords_%s", V);
		if (gen_need(hc->g, GEN_CPU, fname)) {
			strbuf *h = &hc->g->help[GEN_CPU];
			sb_printf(h, "BRG_FN const unsigned *%s(%s v, "
				"unsigned *c) {", fname, V);
			for (k = 0; k < n; k++)
				sb_printf(h, " c[%d] = (unsigned)v.%c;", k,
					"xyzw"[k]);
			sb_puts(h, " return c; }\n");
		}
		sb_printf(out, "%s(", fname);
		expr(hc, out, e);
		sb_printf(out, ", (unsigned[%d]){0})", n);
		return;
	}
	sb_puts(out, "(const unsigned[]){(unsigned)(");
	expr(hc, out, e);
	sb_puts(out, ")}");
}

/* Prints at the current position (the caller indents the first line). */
static void stream_decl(host_ctx *hc, strbuf *out, const json_t *v)
{
	const json_t *ty = ast_get(v, "type");
	const json_t *el = gen_elem(hc->g, ty);
	json_t *dims = ast_arr(ty, "dims");
	const json_t *init = ast_get(v, "init");
	size_t n = json_array_size(dims), k;
	const char *name = ast_str(v, "name");
	int iter = gen_has_qual(v, "iter");

	sb_printf(out, "brt_stream *%s = brt_stream_new%s(", name,
		iter ? "_iter" : "");
	gen_cpu_type_expr(hc->g, out, el);
	sb_printf(out, ", %zu, (const unsigned[]){", n);
	for (k = n; k > 0; k--) {
		const json_t *d = json_array_get(dims, k - 1);
		if (json_is_null(d) || !d) {
			gen_error(hc->g, v, "E-gen-stream-size",
				"a stream declared in host code needs every "
				"dimension");
			break;
		}
		sb_puts(out, k < n ? ", " : "");
		sb_puts(out, "brg_dim(");
		expr(hc, out, d);
		sb_putc(out, ')');
	}
	sb_putc(out, '}');
	if (iter) {
		const json_t *call = strip(init);
		json_t *args = ast_arr(call, "args");
		size_t i;
		if (!ast_is(call, "call") || json_array_size(args) != 2) {
			gen_error(hc->g, v, "E-gen-iter",
				"an iterator stream needs an initializer "
				"iter(start, end)");
		}
		for (i = 0; i < 2 && i < json_array_size(args); i++) {
			sb_puts(out, ", (const ");
			astprint_type(out, el, "");
			sb_puts(out, "[]){");
			expr(hc, out, json_array_get(args, i));
			sb_putc(out, '}');
		}
	} else if (init && !json_is_null(init)) {
		gen_error(hc->g, v, "E-gen-stream-init",
			"Stream can't have an initializer");
	}
	sb_puts(out, ");\n");
	if (hc->nscopes == 0) {
		gen_error(hc->g, v, "E-gen-global-stream",
			"streams must be local variables");
		return;
	}
	if (hc->nstreams < sizeof hc->streams / sizeof hc->streams[0])
		hc->streams[hc->nstreams++] = name;
}

/* A parameter of a prototype; a K&R definition's (proto false) with its
 * promoted type, as a prototype compatible with it must (C99 6.7.5.3p15). */
static void param_type(strbuf *out, const json_t *ft, const json_t *p)
{
	static const char *const narrow[] = {"bool", "char", "schar", "uchar",
		"short", "ushort"};
	const char *t = ty_kind(ast_get(p, "type"));
	const char *promoted = NULL;
	if (!ast_bool(ft, "proto")) {
		if (ty_streq(t, "float"))
			promoted = "double";
		for (size_t i = 0; i < sizeof narrow / sizeof narrow[0]; i++)
			if (strcmp(t, narrow[i]) == 0)
				promoted = "int";
	}
	json_t *ty = promoted ? ast_type(promoted)
		: json_incref(ast_get(p, "type"));
	astprint_type(out, ty, ast_str(p, "name"));
	json_decref(ty);
}

/* A function header with stream parameters as brt_stream pointers. */
static void func_header(host_ctx *hc, strbuf *out, const json_t *fn)
{
	const json_t *ft = ast_get(fn, "type");
	json_t *p;
	size_t i;
	strbuf decl = {0};

	(void)hc;
	if (ty_streq(ast_str(fn, "storage"), "static"))
		sb_puts(out, "static ");
	sb_printf(&decl, "%s(", ast_str(fn, "name"));
	ast_array_foreach(ast_arr(ft, "params"), i, p) {
		if (i)
			sb_puts(&decl, ", ");
		if (is_stream_ty(ast_get(p, "type")))
			sb_printf(&decl, "brt_stream *%s", ast_str(p, "name"));
		else
			param_type(&decl, ft, p);
	}
	if (!json_array_size(ast_arr(ft, "params")))
		sb_puts(&decl, ast_bool(ft, "proto") ? "void" : "");
	if (ast_bool(ft, "variadic"))
		sb_puts(&decl, ", ...");
	sb_putc(&decl, ')');
	astprint_type(out, ast_get(ft, "ret"), decl.s);
	sb_free(&decl);
}

static int has_stream_param(const json_t *fn)
{
	json_t *p;
	size_t i;

	ast_array_foreach(ast_arr(ast_get(fn, "type"), "params"), i, p)
		if (is_stream_ty(ast_get(p, "type")))
			return 1;
	return 0;
}

/* -l: a #line before a statement (whitespace may precede the #; the
 * statement goes on the next line, indented again). */
static void line_directive(host_ctx *hc, strbuf *out, const json_t *n,
	int indent)
{
	const char *file;
	int line, col;
	size_t i = out->len;

	if (!hc->g->o || !hc->g->o->line_directives ||
			ast_at(hc->g->doc, n, &file, &line, &col) != 0)
		return;
	while (i > 0 && (out->s[i - 1] == '\t' || out->s[i - 1] == ' '))
		i--;
	if (i > 0 && out->s[i - 1] != '\n')
		sb_putc(out, '\n');
	sb_printf(out, "#line %d \"", line);
	gen_c_chars(out, file);
	sb_puts(out, "\"\n");
	gen_indent(out, indent);
}

/* ---- hooks ---------------------------------------------------------------- */

static int hook_decl(void *ctx, strbuf *out, const json_t *d, int indent);

/* Whether declaration D declares a stream. */
static int decl_has_stream(const json_t *d)
{
	size_t i;
	json_t *v;

	ast_array_foreach(ast_arr(d, "vars"), i, v)
		if (is_stream_ty(ast_get(v, "type")))
			return 1;
	return 0;
}

static void print_block(host_ctx *hc, strbuf *out, const json_t *s, int indent)
{
	size_t i;
	json_t *it;
	const json_t *last = NULL;

	sb_puts(out, "{\n");
	push_scope(hc, s, 0);
	ast_array_foreach(ast_arr(s, "items"), i, it) {
		gen_indent(out, indent + 1);
		astprint_stmt(out, it, &hc->h, indent + 1);
		last = it;
	}
	/* the end of the block: a path out (unless it never gets here) */
	if (!ast_is(last, "return") && !ast_is(last, "goto") &&
			!ast_is(last, "break") && !ast_is(last, "continue"))
		free_from(hc, out, hc->nscopes - 1, indent + 1);
	pop_scope(hc);
	gen_indent(out, indent);
	sb_puts(out, "}\n");
}

static int hook_stmt(void *ctx, strbuf *out, const json_t *s, int indent)
{
	host_ctx *hc = ctx;
	const char *k = ast_kind(s);

	if (s == hc->skip)
		return 0;
	/* a declaration too: cc's messages about it then name its .br
	   line, however the statements before it were laid out (hook_decl
	   gives a stream declaration its own) */
	if (!ty_streq(k, "block") && !(ty_streq(k, "decl") &&
			decl_has_stream(s)))
		line_directive(hc, out, s, indent);
	if (ty_streq(k, "block")) {
		print_block(hc, out, s, indent);
		return 1;
	}
	if (ty_streq(k, "while") || ty_streq(k, "do") ||
			ty_streq(k, "for") || ty_streq(k, "switch")) {
		const json_t *old = hc->skip;
		push_scope(hc, s, ty_streq(k, "switch") ? 2 : 1);
		hc->skip = s;
		astprint_stmt(out, s, &hc->h, indent);
		hc->skip = old;
		pop_scope(hc);
		return 1;
	}
	if (ty_streq(k, "expr")) {
		/* the statement's .domain() views end with it (a kernel
		   call's, with the call) */
		hc->views = 0;
		expr(hc, out, ast_get(s, "e"));
		sb_puts(out, hc->views ? ", brg_temp_release();\n" : ";\n");
		hc->views = 0;
		return 1;
	}
	if (hc->nstreams == 0)
		return 0;
	if (ty_streq(k, "return")) {
		const json_t *e = ast_get(s, "e");
		const json_t *ret = ast_get(ast_get(hc->func, "type"), "ret");
		sb_puts(out, "{\n");
		if (e && !json_is_null(e)) {
			/* the value first: it may read a stream's state */
			gen_indent(out, indent + 1);
			astprint_type(out, ret, "brg_ret");
			sb_puts(out, " = ");
			expr(hc, out, e);
			sb_puts(out, ";\n");
		}
		free_from(hc, out, 0, indent + 1);
		gen_indent(out, indent + 1);
		sb_puts(out, e && !json_is_null(e) ? "return brg_ret;\n" :
			"return;\n");
		gen_indent(out, indent);
		sb_puts(out, "}\n");
		return 1;
	}
	if (ty_streq(k, "break") || ty_streq(k, "continue") ||
			ty_streq(k, "goto")) {
		size_t i = hc->nscopes;
		size_t first = 0;
		if (ty_streq(k, "goto")) {
			while (i > 0 && !contains_label(hc->scopes[i - 1].node,
					ast_str(s, "label")))
				i--;
			/* a jump back before streams of the label's block
			   ends them too, as it ends a C array's of variable
			   length (brcheck refuses one forward past them) */
			if (i > 0)
				first = hc->scopes[i - 1].first + streams_before(
					hc->scopes[i - 1].node,
					ast_str(s, "label"));
		} else {
			while (i > 0 && !(hc->scopes[i - 1].kind == 1 ||
					(hc->scopes[i - 1].kind == 2 &&
					k[0] == 'b')))
				i--;
		}
		sb_puts(out, "{\n");
		if (ty_streq(k, "goto") && i > 0 && first < hc->nstreams)
			free_streams(hc, out, first, indent + 1);
		else
			free_from(hc, out, i, indent + 1);
		gen_indent(out, indent + 1);
		if (ty_streq(k, "goto"))
			sb_printf(out, "goto %s;\n", ast_str(s, "label"));
		else
			sb_printf(out, "%s;\n", k);
		gen_indent(out, indent);
		sb_puts(out, "}\n");
		return 1;
	}
	return 0;
}

/* kernel(args): a scalar reduce target by address; the __other form when
 * the target is of the other kind than declared. */
static void kernel_args(host_ctx *hc, strbuf *out, const json_t *e,
	const json_t *fn)
{
	json_t *params = ast_arr(ast_get(fn, "type"), "params");
	json_t *args = ast_arr(e, "args"), *a;
	int other = 0;
	size_t i;

	json_array_foreach(params, i, a) {
		const json_t *arg = json_array_get(args, i);
		if (ty_streq(gen_role(a), "reduce") &&
				is_stream_ty(gen_resolve(hc->g, ast_get(a,
				"type"))) != is_stream_ty(ast_get(arg, "ty")))
			other = 1;
	}
	sb_printf(out, "%s%s(", ast_str(fn, "name"), other ? "__other" : "");
	json_array_foreach(args, i, a) {
		const json_t *p = json_array_get(params, i);
		const json_t *pt = gen_resolve(hc->g, ast_get(p, "type"));
		if (i)
			sb_puts(out, ", ");
		if (ty_streq(gen_role(p), "reduce") &&
				!is_stream_ty(ast_get(a, "ty"))) {
			sb_puts(out, "&(");
			expr(hc, out, a);
			sb_putc(out, ')');
		} else if (ty_streq(gen_role(p), "value") && ty_ncomp(pt) > 1 &&
				ty_ncomp(ast_get(a, "ty")) >= 1 &&
				!ty_equal(pt, ast_get(a, "ty"))) {
			/* a number for a vector (BrookGPU's k(a, 3.2f, ...)
			   for a float3), or a vector of other components:
			   brt.h's vectors are structs, which C converts not */
			sb_printf(out, "%s(", gen_cpu_cvt(hc->g, ast_get(a,
				"ty"), pt));
			expr(hc, out, a);
			sb_putc(out, ')');
		} else {
			expr(hc, out, a);
		}
	}
	sb_putc(out, ')');
}

/* A kernel call, its .domain() views (method_call) released after it:
 * the statement around it has none left to release. */
static void kernel_call(host_ctx *hc, strbuf *out, const json_t *e,
	const json_t *fn)
{
	strbuf call = {0};
	int outer = hc->views;

	hc->views = 0;
	kernel_args(hc, &call, e, fn);
	if (hc->views)
		sb_printf(out, "(%s, brg_temp_release())", call.s);
	else
		sb_puts(out, call.s);
	hc->views = outer;
	sb_free(&call);
}

static void method_call(host_ctx *hc, strbuf *out, const json_t *e)
{
	const json_t *m = strip(ast_get(e, "fn"));
	const json_t *obj = ast_get(m, "e");
	const char *name = ast_str(m, "name");
	json_t *args = ast_arr(e, "args");
	const json_t *od = gen_decl(hc->g, strip(obj));
	size_t n = json_array_size(args);

	if (od && gen_is_kernel(od)) {
		/* guide 1.8: kernel.domainOffset(o), kernel.domainSize(s) */
		const json_t *a = json_array_get(args, 0);
		int k, nc = ty_ncomp(ast_get(a, "ty"));
		sb_printf(out, "brg_domain_set(&%s__domain, %d, %d, ",
			ast_str(od, "name"), ty_streq(name, "domainSize"),
			nc ? nc : 1);
		coords(hc, out, a);
		sb_putc(out, ')');
		(void)k;
		return;
	}
	if (ty_streq(name, "read") || ty_streq(name, "write")) {
		sb_printf(out, "brt_stream_%s(", name);
		expr(hc, out, obj);
		sb_puts(out, ", ");
		expr(hc, out, json_array_get(args, 0));
		sb_puts(out, ", ");
		if (n > 1)
			expr(hc, out, json_array_get(args, 1));
		else
			sb_puts(out, "NULL");
		sb_putc(out, ')');
	} else if (ty_streq(name, "domain")) {
		/* a view lives to the end of its statement (or of the kernel
		   call it is an argument of): brg_temp_release() */
		hc->temps = hc->views = 1;
		sb_puts(out, "brg_temp(brt_stream_domain(");
		expr(hc, out, obj);
		sb_puts(out, ", ");
		coords(hc, out, json_array_get(args, 0));
		sb_puts(out, ", ");
		coords(hc, out, json_array_get(args, 1));
		sb_puts(out, "))");
	} else if (ty_streq(name, "assign")) {
		sb_puts(out, "brt_stream_assign(");
		expr(hc, out, obj);
		sb_puts(out, ", ");
		expr(hc, out, json_array_get(args, 0));
		sb_putc(out, ')');
	} else {
		/* error, errorLog, isSync, finish */
		sb_printf(out, "brt_stream_%s(", name);
		expr(hc, out, obj);
		sb_putc(out, ')');
	}
}

static int stream_op(host_ctx *hc, strbuf *out, const json_t *e,
	const char *name)
{
	json_t *args = ast_arr(e, "args");

	if (ty_streq(name, "streamRead") || ty_streq(name, "streamWrite")) {
		sb_printf(out, "brt_stream_%s(", name[6] == 'R' ? "read" :
			"write");
		expr(hc, out, json_array_get(args, 0));
		sb_puts(out, ", ");
		expr(hc, out, json_array_get(args, 1));
		sb_puts(out, ", NULL)");
		return 1;
	}
	if (ty_streq(name, "streamGatherOp") ||
			ty_streq(name, "streamScatterOp")) {
		int n = gen_ops_find(hc->g, e);
		int gather = name[6] == 'G';
		if (n < 0)
			return 0;
		sb_printf(out, "brg_op_%d(", n);
		expr(hc, out, json_array_get(args, gather ? 1 : 0));
		sb_puts(out, ", ");
		expr(hc, out, json_array_get(args, gather ? 2 : 1));
		sb_puts(out, ", ");
		expr(hc, out, json_array_get(args, gather ? 0 : 2));
		sb_putc(out, ')');
		return 1;
	}
	if (ty_streq(name, "streamSwap")) {
		sb_puts(out, "streamSwap(&(");
		expr(hc, out, json_array_get(args, 0));
		sb_puts(out, "), &(");
		expr(hc, out, json_array_get(args, 1));
		sb_puts(out, "))");
		return 1;
	}
	return 0;
}

/* A string or character literal whose text holds a trigraph (two
 * question marks and one of = ( / ) ' < ! > -): brpp replaces none
 * (brpp(1)), cc -std=c99 would; a backslash before the second question
 * mark keeps the characters as written. 1 when printed. */
static int trigraph_literal(strbuf *out, const json_t *e)
{
	const char *t = ast_str(e, "text");

	if ((!ast_is(e, "string") && !ast_is(e, "char")) || !strstr(t, "??"))
		return 0;
	for (; *t; t++) {
		sb_putc(out, *t);
		if (*t == '\\' && t[1])
			sb_putc(out, *++t);
		else if (*t == '?' && t[1] == '?' && t[2] &&
				strchr("=(/)'<!>-", t[2]))
			sb_putc(out, '\\');
	}
	return 1;
}

static int hook_expr(void *ctx, strbuf *out, const json_t *e)
{
	host_ctx *hc = ctx;
	const char *k = ast_kind(e);

	if (trigraph_literal(out, e))
		return 1;
	if (ty_streq(k, "call")) {
		const char *c = ast_str(e, "callee");
		const json_t *fnode = strip(ast_get(e, "fn"));
		const json_t *fn = gen_decl(hc->g, fnode);
		if (fn && gen_is_kernel(fn)) {
			kernel_call(hc, out, e, fn);
			return 1;
		}
		if (ty_streq(c, "method") || (ast_is(fnode, "member") &&
				!fn)) {
			method_call(hc, out, e);
			return 1;
		}
		if (ast_is(fnode, "id"))
			return stream_op(hc, out, e, ast_str(fnode, "name"));
		return 0;
	}
	if (ty_streq(k, "ctor")) {
		size_t i;
		json_t *a;
		astprint_type(out, ast_get(e, "type"), "");
		sb_puts(out, "_(");
		ast_array_foreach(ast_arr(e, "args"), i, a) {
			if (i)
				sb_puts(out, ", ");
			expr(hc, out, a);
		}
		sb_putc(out, ')');
		return 1;
	}
	if (ty_streq(k, "indexof")) {
		gen_error(hc->g, e, "E-gen-host-indexof",
			"Indexof()operator has no meaning inside Non-kernel "
			"functions");
		return 1;
	}
	return 0;
}

static int hook_decl(void *ctx, strbuf *out, const json_t *d, int indent)
{
	host_ctx *hc = ctx;
	size_t i;
	json_t *v;
	int streams = 0;

	if (d == hc->skip)
		return 0;
	if (ast_is(d, "func")) {
		const json_t *body = ast_get(d, "body");
		if (gen_is_kernel(d)) {
			if (!body || json_is_null(body))
				gen_kernel_protos(hc->g, out, d);
			else
				gen_cpu_kernel_at(hc->g, out, d);
			return 1;
		}
		hc->func = d;
		if (!has_stream_param(d))
			return 0;
		line_directive(hc, out, d, indent);
		func_header(hc, out, d);
		if (!body || json_is_null(body)) {
			sb_puts(out, ";\n");
			return 1;
		}
		sb_putc(out, '\n');
		push_scope(hc, d, 0);
		{
			/* stream parameters belong to the caller */
			astprint_stmt(out, body, &hc->h, indent);
		}
		pop_scope(hc);
		sb_putc(out, '\n');
		return 1;
	}
	if (!ast_is(d, "decl"))
		return 0;
	if (!decl_has_stream(d))
		return 0;
	line_directive(hc, out, d, indent);
	streams = 0;
	ast_array_foreach(ast_arr(d, "vars"), i, v)
		if (is_stream_ty(ast_get(v, "type"))) {
			if (streams++)
				gen_indent(out, indent);
			stream_decl(hc, out, v);
		}
	if ((size_t)streams < json_array_size(ast_arr(d, "vars"))) {
		json_t *copy = json_copy((json_t *)d), *rest = json_array();
		const json_t *old = hc->skip;
		ast_array_foreach(ast_arr(d, "vars"), i, v)
			if (!is_stream_ty(ast_get(v, "type")))
				json_array_append(rest, v);
		json_object_set_new(copy, "vars", rest);
		hc->skip = copy;
		gen_indent(out, indent);
		astprint_decl(out, copy, &hc->h, indent);
		hc->skip = old;
		json_decref(copy);
	}
	return 1;
}

/* ---- the files ------------------------------------------------------------ */

/* C99 5.2.4.1: a string literal of at most 4095 characters is all a
 * compiler must take (gcc -pedantic warns past it), and the OpenCL
 * program is longer (its helpers alone take 7 KB). So it is written as
 * rows of CL_ROW characters, a two-dimensional array whose bytes are the
 * text (the last row padded with NULs), a row the concatenation of
 * literals of one line each. */
enum { CL_ROW = 4000 };

/* The characters a row takes as they are: printable ASCII but for '"',
 * '\\' and '?' (one load a character, gen_c_cl_rows). */
static const unsigned char cl_plain[256] = {
	[' '] = 1, ['!'] = 1, ['#'] = 1, ['$'] = 1, ['%'] = 1, ['&'] = 1,
	['\''] = 1, ['('] = 1, [')'] = 1, ['*'] = 1, ['+'] = 1, [','] = 1,
	['-'] = 1, ['.'] = 1, ['/'] = 1, ['0'] = 1, ['1'] = 1, ['2'] = 1,
	['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1,
	['9'] = 1, [':'] = 1, [';'] = 1, ['<'] = 1, ['='] = 1, ['>'] = 1,
	['@'] = 1, ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1,
	['F'] = 1, ['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1,
	['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1,
	['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1,
	['X'] = 1, ['Y'] = 1, ['Z'] = 1, ['['] = 1, [']'] = 1, ['^'] = 1,
	['_'] = 1, ['`'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1,
	['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1,
	['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1,
	['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1,
	['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1, ['{'] = 1, ['|'] = 1,
	['}'] = 1, ['~'] = 1
};

/* S as the initializer of brg_cl_source: rows of CL_ROW characters, one
 * literal a line. Each character is one of the array's: bytes past
 * ASCII as octal escapes, and ?? as ?\? (no trigraph: a file name in a
 * comment), so that a row can end anywhere. (gen_int.h) */
void gen_c_cl_rows(strbuf *out, const char *s)
{
	size_t n = 0;	/* characters in this row */
	int q = 0;	/* the last character of this literal was ? */

	sb_puts(out, "{\n\t\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (n == CL_ROW) {
			sb_puts(out, "\",\n\t\"");
			n = 0;
			q = 0;
		}
		/* the run of characters that need no escape, at once, up
		   to the row's end */
		size_t k = 0, room = CL_ROW - n;
		while (k < room && cl_plain[(unsigned char)s[k]])
			k++;
		n += k;
		if (k) {
			sb_putn(out, s, k);
			s += k - 1;
			q = 0;
			continue;
		}
		n++;
		if (c == '\n') {
			sb_puts(out, "\\n");
			if (s[1] && n < CL_ROW)
				sb_puts(out, "\"\n\t\"");
			q = 0;
			continue;
		}
		if (c == '?')
			sb_puts(out, q ? "\\?" : "?");
		else if (c == '\t')
			sb_puts(out, "\\t");
		else if (c == '"' || c == '\\') {
			sb_putc(out, '\\');
			sb_putc(out, (char)c);
		} else if (c >= 0x80 || c < ' ')
			sb_printf(out, "\\%03o", c);
		else
			sb_putc(out, (char)c);
		q = c == '?';
	}
	sb_puts(out, "\"\n}");
}

/* Rows of exactly CL_ROW characters have no room for a NUL, which newer
 * compilers warn of under -Wextra; PUSH_POP is "push" or "pop" */
static void c_unterminated(strbuf *out, const char *push_pop)
{
	static const char w[] = "\"-Wunterminated-string-initialization\"";
	sb_printf(out, "#if defined(__GNUC__) && __GNUC__ >= 15\n"
		"#pragma GCC diagnostic %s\n", push_pop);
	if (strcmp(push_pop, "push") == 0)
		sb_printf(out, "#pragma GCC diagnostic ignored %s\n", w);
	sb_printf(out, "#elif defined(__has_warning)\n#if __has_warning(%s)\n"
		"#pragma clang diagnostic %s\n", w, push_pop);
	if (strcmp(push_pop, "push") == 0)
		sb_printf(out, "#pragma clang diagnostic ignored %s\n", w);
	sb_puts(out, "#endif\n#endif\n");
}

/* The OpenCL program CL, as brg_cl_source and brg_program of the file
 * FILE */
static void c_program(strbuf *out, const char *file, const char *cl,
	const strbuf *rows_made)
{
	size_t n = strlen(cl), rows = n ? (n + CL_ROW - 1) / CL_ROW : 1;

	sb_puts(out, "\n/* the OpenCL program of this file */\n");
	c_unterminated(out, "push");
	sb_printf(out, "static const char brg_cl_source[%zu][%d] = ", rows,
		(int)CL_ROW);
	if (rows_made)
		sb_putn(out, rows_made->s, rows_made->len);
	else
		gen_c_cl_rows(out, cl);
	sb_puts(out, ";\n");
	c_unterminated(out, "pop");
	/* unused in a file without kernels; the text is the bytes of the
	   array (C99 6.3.2.3p7) */
	sb_puts(out, "#ifdef __GNUC__\n__attribute__((unused))\n"
		"#endif\nstatic const brt_program brg_program = {\n\t\"");
	gen_c_chars(out, file);
	sb_printf(out, "\", (const char *)brg_cl_source, %zu, "
		"&brt_abi_%d\n};\n\n", n, BRT_ABI_VERSION);
}

static const char domain_helpers[] =
	"/* a stream's dimension: a negative one, or one past 32 bits, is 0,\n"
	" * which brt_stream_new refuses (BR_ERROR_DECLARATION) */\n"
	"BRG_FN unsigned brg_dim(long long n)\n{\n"
	"\treturn n < 0 || n > 0xffffffffLL ? 0u : (unsigned)n;\n}\n\n"
	"/* guide 1.8: the execution domain of the next call of a kernel */\n"
	"BRG_FN void brg_domain_set(brt_exec *x, int size, unsigned n, "
	"const unsigned *v)\n{\n"
	"\tunsigned i;\n"
	"\tfor (i = 0; i < 4; i++) {\n"
	"\t\tunsigned c = i < n ? v[i] : (unsigned)size;\n"
	"\t\tif (size)\n\t\t\tx->size[i] = c;\n"
	"\t\telse\n\t\t\tx->offset[i] = c;\n"
	"\t}\n"
	"\tif (size)\n"
	"\t\tx->rank = n < 4 ? n : 4;\n"
	"}\n\n";

static const char temp_helpers[] =
	"/* .domain() views passed to a kernel, released after the call */\n"
	"static __thread brt_stream *brg_temps[64];\n"
	"static __thread unsigned brg_ntemps;\n"
	"BRG_FN brt_stream *brg_temp(brt_stream *s)\n{\n"
	"\tif (brg_ntemps < 64)\n\t\tbrg_temps[brg_ntemps++] = s;\n"
	"\treturn s;\n}\n"
	"BRG_FN void brg_temp_release(void)\n{\n"
	"\twhile (brg_ntemps)\n\t\tbrt_stream_free(brg_temps[--brg_ntemps]);\n"
	"}\n\n";

static int is_type_only(const json_t *d)
{
	return ast_is(d, "decl") && (ty_streq(ast_str(d, "storage"),
		"typedef") || json_array_size(ast_arr(d, "vars")) == 0);
}

static void header(host_ctx *hc, strbuf *h)
{
	const gen_options *o = hc->g->o;
	const char *prefix = o && o->prefix ? o->prefix : "brook";
	const char *base = strrchr(prefix, '/');
	char guard[256];
	size_t i, k = 0;
	json_t *d;

	base = base ? base + 1 : prefix;
	for (i = 0; base[i] && k < sizeof guard - 3; i++)
		guard[k++] = isalnum((unsigned char)base[i]) ?
			(char)toupper((unsigned char)base[i]) : '_';
	guard[k] = 0;
	sb_puts(h, "/* ");
	gen_comment_chars(h, base);
	sb_printf(h, ".h: generated by brgen; the kernels and functions "
		"of the .br file. */\n#ifndef BRG_%s_H\n#define BRG_%s_H\n\n"
		"#include <brt.h>\n", guard, guard);
	ast_array_foreach(ast_arr(hc->g->doc, "decls"), i, d)
		if (ast_is(d, "directive") && strncmp(ast_str(d, "text"),
				"#include", 8) == 0)
			sb_printf(h, "%s\n", ast_str(d, "text"));
	sb_puts(h, "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
	ast_array_foreach(ast_arr(hc->g->doc, "decls"), i, d)
		if (is_type_only(d))
			astprint_decl(h, d, NULL, 0);
	ast_array_foreach(ast_arr(hc->g->doc, "decls"), i, d) {
		if (!ast_is(d, "func"))
			continue;
		if (gen_is_kernel(d)) {
			if (ast_get(d, "body") && !json_is_null(ast_get(d,
					"body")))
				gen_kernel_protos(hc->g, h, d);
		} else if (!ty_streq(ast_str(d, "storage"), "static") &&
				!ty_streq(ast_str(d, "name"), "main") &&
				ast_get(d, "body") && !json_is_null(ast_get(d,
				"body"))) {
			func_header(hc, h, d);
			sb_puts(h, ";\n");
		}
	}
	sb_puts(h, "\n#ifdef __cplusplus\n}\n#endif\n\n#endif\n");
}

struct gen_host {
	host_ctx hc;
	strbuf body;		/* the declarations, kernels' CPU code among
				   them */
};

gen_host *gen_host_body(gen_ctx *g)
{
	gen_host *gh = xcalloc(1, sizeof *gh);
	host_ctx *hc = &gh->hc;
	size_t i;
	json_t *d;

	hc->g = g;
	hc->h.ctx = hc;
	hc->h.expr = hook_expr;
	hc->h.stmt = hook_stmt;
	hc->h.decl = hook_decl;
	ast_array_foreach(ast_arr(g->doc, "decls"), i, d) {
		line_directive(hc, &gh->body, d, 0);
		astprint_decl(&gh->body, d, &hc->h, 0);
	}
	return gh;
}

void gen_host_files(gen_host *gh, strbuf *c_out, strbuf *h_out,
	const char *cl, const strbuf *rows)
{
	host_ctx *hc = &gh->hc;
	gen_ctx *g = hc->g;
	const char *file = json_string_value(json_array_get(ast_arr(g->doc,
		"files"), 0));

	if (c_out) {
		sb_puts(c_out, "/* generated by brgen from ");
		gen_comment_chars(c_out, file ? file : "a .br file");
		sb_puts(c_out, " */\n"
			"#include <brt.h>\n#include <math.h>\n"
			"#include <stdint.h>\n#include <stdio.h>\n#include <string.h>\n\n");
		/* the interface of libbrt this file is made for (brt.h) */
		sb_printf(c_out, "#if BRT_ABI_VERSION != %d\n#error \"made by "
			"brgen for libbrt's ABI %d; this brt.h is of another\"\n"
			"#endif\n\n", BRT_ABI_VERSION, BRT_ABI_VERSION);
		gen_cpu_prelude(g, c_out);
		if (g->help[GEN_CPU].s)
			sb_puts(c_out, g->help[GEN_CPU].s);
		c_program(c_out, file ? file : "", cl, rows);
		gen_sites_table(g, c_out);
		sb_puts(c_out, domain_helpers);
		if (hc->temps)
			sb_puts(c_out, temp_helpers);
		gen_ops_protos(g, c_out);
		/* the seeds' programs declare main(argc, argv) and use
		 * neither, and keep variables they never read (in kernels
		 * too): not worth a warning in generated code */
		sb_puts(c_out, "#pragma GCC diagnostic ignored "
			"\"-Wunused-parameter\"\n"
			"#pragma GCC diagnostic ignored \"-Wunused-variable\"\n"
			"#if !defined(__clang__) || __clang_major__ >= 13\n"
			"#pragma GCC diagnostic ignored "
			"\"-Wunused-but-set-variable\"\n#endif\n\n");
		if (gh->body.s)
			sb_puts(c_out, gh->body.s);
		if (g->nops) {
			strbuf ops = {0};
			sb_puts(c_out, "\n/* streamGatherOp and streamScatterOp "
				"(BrookGPU) */\n");
			gen_ops_cpu(g, &ops);
			sb_puts(c_out, ops.s);
			sb_free(&ops);
		}
	}
	if (h_out)
		header(hc, h_out);
	gen_host_free(gh);
}

void gen_host_free(gen_host *gh)
{
	if (!gh)
		return;
	sb_free(&gh->body);
	free(gh);
}
