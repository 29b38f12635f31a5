/* gen_cpu.c - the CPU backend's code of each kernel: plain C99 in PREFIX.c
 * over brt.h's vector structs (the body function of gen_kcode.c and the
 * brt_cpu_fn entry points of gen_entry.c), its brt_argdesc table, its
 * brt_kernel descriptor, and the C function with the kernel's name that
 * host code calls. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "brook/ast.h"
#include "brook/astprint.h"
#include "brook/gen_int.h"
#include "brook/type.h"
#include "brt.h"

void gen_entries(gen_ctx *g, gen_target t, strbuf *b, const json_t *fn);
void gen_group_size(gen_ctx *g, const json_t *fn, long gs[3]);

static json_t *params_of(const json_t *fn)
{
	return ast_arr(ast_get(fn, "type"), "params");
}

static int is_void_ret(const json_t *fn)
{
	const json_t *ret = ast_get(ast_get(fn, "type"), "ret");
	return !ret || json_is_null(ret) || ty_streq(ty_kind(ret), "void");
}

void gen_cpu_prelude(gen_ctx *g, strbuf *b)
{
	static const char *const renamed[] = {
		"brg_gidx", "brg_sidx", "brg_cf", "brg_cfd", "brg_ci", "brg_cu",
		"brg_us", "brg_fi",
		"brg_drop", "brg_report", "brg_record", "brg_wrote", "brg_mix",
	};
	size_t i;

	(void)g;
	gen_prelude_common(GEN_CPU, b);
	sb_puts(b, "BRG_FN brg_ctx brg_noctx(void)\n{\n\tbrg_ctx r;\n"
		"\tmemset(&r, 0, sizeof r);\n\treturn r;\n}\n");
	/* OpenCL's min and max of the integer copies of float indices
	 * (gen_kcode.c, shadow_loop) */
	sb_puts(b, "BRG_FN BRG_L brg_lmin(BRG_L a, BRG_L b) { return a < b ? "
		"a : b; }\nBRG_FN BRG_L brg_lmax(BRG_L a, BRG_L b) { return a > "
		"b ? a : b; }\n");
	/* the 32-bit instance (brt.h, brt_cpu_call.index32): the index
	 * helpers again over int32_t and a 32-bit view, renamed *32, as
	 * OpenCL's -DBRG_I32 program variant has them */
	sb_puts(b, "/* the 32-bit instance of kernel code */\n"
		"typedef struct brg_view32 {\n\tint32_t dims[4], pitch[4], "
		"base, rank, map;\n} brg_view32;\n"
		"/* BASE 0 for a gather whose pointer K__cpu moved to its base */\n"
		"BRG_FN brg_view32 brg_view32_of(const brt_view *v, int base)\n{\n"
		"\tbrg_view32 r;\n\tint k;\n\tfor (k = 0; k < 4; k++) {\n"
		"\t\tr.dims[k] = (int32_t)v->dims[k];\n"
		"\t\tr.pitch[k] = (int32_t)v->pitch[k];\n\t}\n"
		"\tr.base = base ? (int32_t)v->base : 0;\n\tr.rank = v->rank;\n"
		"\tr.map = v->map;\n\treturn r;\n}\n"
		"#undef BRG_L\n#undef BRG_LMAX\n#define BRG_L int32_t\n"
		"#define BRG_LMAX 2147483647\n#define brt_view brg_view32\n");
	for (i = 0; i < sizeof renamed / sizeof renamed[0]; i++)
		sb_printf(b, "#define %s %s32\n", renamed[i], renamed[i]);
	sb_puts(b, gen_index_helpers);
	sb_puts(b, gen_record_helpers);
	for (i = 0; i < sizeof renamed / sizeof renamed[0]; i++)
		sb_printf(b, "#undef %s\n", renamed[i]);
	sb_puts(b, "#undef brt_view\n#undef BRG_L\n#undef BRG_LMAX\n"
		"#define BRG_L int64_t\n"
		"#define BRG_LMAX INT64_C(9000000000000000000)\n");
}

/* brt_type of an element: {BRT_FLOAT, 4, 16} */
static void elem_type(gen_ctx *g, strbuf *b, const json_t *el)
{
	static const char *const map[][2] = {
		{"char", "BRT_CHAR"}, {"uchar", "BRT_UCHAR"},
		{"short", "BRT_SHORT"}, {"ushort", "BRT_USHORT"},
		{"int", "BRT_INT"}, {"uint", "BRT_UINT"},
		{"float", "BRT_FLOAT"}, {"double", "BRT_DOUBLE"},
		{"long", "BRT_LONG"}, {"ulong", "BRT_ULONG"},
	};
	const char *s = gen_scalar(gen_resolve(g, el));
	size_t i;

	if (s) {
		for (i = 0; i < sizeof map / sizeof map[0]; i++)
			if (strcmp(map[i][0], s) == 0)
				break;
		sb_printf(b, "{%s, %d, %zu}", i < sizeof map / sizeof map[0] ?
			map[i][1] : "BRT_INT", ty_ncomp(gen_resolve(g, el)),
			gen_size(g, el, NULL));
		return;
	}
	sb_puts(b, "{BRT_STRUCT, 1, sizeof(");
	gen_type(g, GEN_CPU, b, el, NULL);
	sb_puts(b, ")}");
}

/* The brt_type expression of a stream declaration in host code. */
void gen_cpu_type_expr(gen_ctx *g, strbuf *b, const json_t *el);
void gen_cpu_type_expr(gen_ctx *g, strbuf *b, const json_t *el)
{
	strbuf t = {0};

	elem_type(g, &t, el);
	sb_printf(b, "(brt_type)%s", t.s);
	sb_free(&t);
}

static const char *argkind(const json_t *p)
{
	const char *r = gen_role(p);

	if (ty_streq(r, "out"))
		return "BRT_ARG_OUT";
	if (ty_streq(r, "gather"))
		return "BRT_ARG_GATHER";
	if (ty_streq(r, "scatter"))
		return "BRT_ARG_SCATTER";
	if (ty_streq(r, "value"))
		return "BRT_ARG_VALUE";
	if (ty_streq(r, "reduce"))
		return "BRT_ARG_REDUCE";
	return "BRT_ARG_IN";
}

static int declared_rank(gen_ctx *g, const json_t *p)
{
	const json_t *ty = gen_resolve(g, ast_get(p, "type"));
	size_t i;
	json_t *d;

	if (ty_streq(ty_kind(ty), "stream")) {
		/* a<> takes any rank */
		ast_array_foreach(ast_arr(ty, "dims"), i, d)
			if (json_is_null(d))
				return 0;
	}
	return gen_rank(g, ty);
}

/* A gather parameter's declared sizes, x first and four of them, when
 * it declares them all (brt.h: brt_kernel.gather_size), for libbrt to
 * check its stream's; 0 when it does not. */
static int gather_sizes(gen_ctx *g, strbuf *b, const json_t *p)
{
	const json_t *ty = gen_resolve(g, ast_get(p, "type"));
	long long size[BRT_MAX_RANK];
	int n = 0, k;

	for (; ty_streq(ty_kind(ty), "array"); ty = gen_resolve(g,
			ast_get(ty, "of"))) {
		const json_t *sz = ast_get(ty, "size");
		while (ast_is(sz, "paren"))
			sz = ast_get(sz, "e");
		if (n == BRT_MAX_RANK || !ast_is(sz, "int") ||
				!json_is_integer(ast_get(sz, "value")))
			return 0;
		size[n++] = ast_int(sz, "value");
	}
	if (!n)
		return 0;
	for (k = n - 1; k >= 0; k--)
		sb_printf(b, "%lld, ", size[k]);
	for (k = n; k < BRT_MAX_RANK; k++)
		sb_puts(b, "0, ");
	return 1;
}

static int is_stream_reduce(gen_ctx *g, const json_t *p)
{
	return ty_streq(ty_kind(gen_resolve(g, ast_get(p, "type"))),
		"stream");
}

/* The argument table and descriptor of kernel FN; VARIANT 1 for the
 * descriptor whose reduce target is the other kind (stream for a scalar
 * declaration and the reverse). */
static void descriptor(gen_ctx *g, strbuf *b, const json_t *fn, int variant)
{
	static const char *const loops[] = {"for", "while", "do", NULL};
	json_t *params = params_of(fn);
	const char *name = ast_str(fn, "name");
	const char *cls = gen_kclass(fn);
	const char *suffix = variant ? "__other" : "";
	json_t *p;
	size_t i;
	long gs[3] = {1, 1, 1};
	const char *file = "";
	int line = 0, col = 0, records, nsizes = 0;
	strbuf sizes = {0};

	sb_printf(b, "static const brt_argdesc %s__args%s[] = {\n", name,
		suffix);
	json_array_foreach(params, i, p) {
		int rs = 0;
		if (ty_streq(gen_role(p), "reduce"))
			rs = is_stream_reduce(g, p) ^ variant;
		sb_printf(b, "\t{%s, ", argkind(p));
		elem_type(g, b, gen_elem(g, ast_get(p, "type")));
		sb_printf(b, ", %d, %d},\n", declared_rank(g, p), rs);
		if (ty_streq(gen_role(p), "gather") && gather_sizes(g, &sizes,
				p))
			nsizes++;
		else
			sb_puts(&sizes, "0, 0, 0, 0, ");
	}
	if (!json_array_size(params))
		sb_puts(b, "\t{BRT_ARG_VALUE, {BRT_INT, 1, 4}, 0, 0},\n");
	sb_puts(b, "};\n");
	if (nsizes)
		sb_printf(b, "static const unsigned %s__sizes%s[] = {%s};\n",
			name, suffix, sizes.s);
	if (gen_is_group(fn))
		gen_group_size(g, fn, gs);
	records = gen_records(g, fn);
	if (records) {
		sb_printf(b, "static const char *const %s__names%s[] = {", name,
			suffix);
		json_array_foreach(params, i, p)
			sb_printf(b, "%s\"%s\"", i ? ", " : "", ast_str(p,
				"name"));
		sb_puts(b, "};\n");
	}
	ast_at(g->doc, fn, &file, &line, &col);
	sb_printf(b, "static const brt_kernel %s__kernel%s = {\n"
		"\t.name = \"%s\",\n\t.program = &brg_program,\n"
		"\t.kclass = %s,\n\t.nargs = %zu,\n\t.args = %s__args%s,\n"
		"\t.cpu = %s__cpu,\n",
		name, suffix, name, gen_is_group(fn) ? "BRT_KERNEL_GROUP" :
		ty_streq(cls, "reduce") ? "BRT_KERNEL_REDUCE" :
		ty_streq(cls, "scatter") ? "BRT_KERNEL_SCATTER" :
		"BRT_KERNEL_MAP", json_array_size(params), name, suffix,
		name);
	if (ty_streq(cls, "reduce") && !gen_is_group(fn))
		sb_printf(b, "\t.combine_call = %s__combine,\n\t.reduce_init = %s,\n",
			name, ast_bool(fn, "reduce") ? "BRT_REDUCE_FIRST" :
			"BRT_REDUCE_VALUE");
	sb_printf(b, "\t.group = {%ld, %ld, %ld},\n", gs[0], gs[1], gs[2]);
	if (records)
		sb_printf(b, "\t.records = 1,\n\t.arg_names = %s__names%s,\n",
			name, suffix);
	if (records && json_array_size(g->sites))
		sb_printf(b, "\t.sites = brg_sites,\n\t.nsites = %zu,\n",
			json_array_size(g->sites));
	json_array_foreach(params, i, p)	/* brgen --checked: write owners */
		if (records && g->o && g->o->checked &&
				ty_streq(gen_role(p), "scatter")) {
			sb_puts(b, "\t.owners = 1,\n");
			break;
		}
	{
		char cln[256];
		if (strcmp(gen_cl_name(name, cln, sizeof cln), name) != 0)
			sb_printf(b, "\t.cl_name = \"%s\",\n", cln);
	}
	if (gen_uses_any(ast_get(fn, "body"), loops))
		sb_puts(b, "\t.loops = 1,\n");
	if (nsizes)
		sb_printf(b, "\t.gather_size = %s__sizes%s,\n", name, suffix);
	sb_free(&sizes);
	if (gen_is_group(fn)) {
		json_t *v;
		size_t bytes = 0;
		gen_shared_foreach(ast_get(fn, "body"), s, v)
			bytes += gen_size(g, ast_get(v, "type"), NULL);
		sb_printf(b, "\t.shared_bytes = %zu,\n", bytes);
	}
	sb_puts(b, "\t.src_file = \"");
	gen_c_chars(b, file);
	sb_printf(b, "\",\n\t.src_line = %d,\n};\n", line);
}

/* The host-side C type of a kernel parameter in the wrapper. */
static void wrapper_param(gen_ctx *g, strbuf *b, const json_t *p, int variant)
{
	const char *r = gen_role(p), *name = ast_str(p, "name");

	if (ty_streq(r, "value")) {
		/* by the typedef's name where there is one: an enum or
		   struct without a tag has no other */
		astprint_type(b, ast_get(p, "type"), name);
	} else if (ty_streq(r, "reduce") &&
			!(is_stream_reduce(g, p) ^ variant)) {
		char nm[160];
		snprintf(nm, sizeof nm, "*%s", name);
		astprint_type(b, gen_elem(g, ast_get(p, "type")), nm);
	} else {
		sb_printf(b, "brt_stream *%s", name);
	}
}

static void wrapper_proto(gen_ctx *g, strbuf *b, const json_t *fn,
	const char *fname, int exec, int variant)
{
	json_t *params = params_of(fn);
	json_t *p;
	size_t i;

	sb_printf(b, "void %s(", fname);
	if (exec)
		sb_puts(b, "const brt_exec *brg_exec");
	json_array_foreach(params, i, p) {
		if (i || exec)
			sb_puts(b, ", ");
		wrapper_param(g, b, p, variant);
	}
	if (!exec && !json_array_size(params))
		sb_puts(b, "void");
	sb_putc(b, ')');
}

/* Names of the host functions of kernel FN: K, K__exec and, for a
 * reduction, K__other (the reduce target of the other kind). */
void gen_kernel_protos(gen_ctx *g, strbuf *b, const json_t *fn);
void gen_kernel_protos(gen_ctx *g, strbuf *b, const json_t *fn)
{
	char nm[256];
	const char *name = ast_str(fn, "name");

	if (!is_void_ret(fn))
		return;
	wrapper_proto(g, b, fn, name, 0, 0);
	sb_puts(b, ";\n");
	snprintf(nm, sizeof nm, "%s__exec", name);
	wrapper_proto(g, b, fn, nm, 1, 0);
	sb_puts(b, ";\n");
	if (ty_streq(gen_kclass(fn), "reduce")) {
		snprintf(nm, sizeof nm, "%s__other", name);
		wrapper_proto(g, b, fn, nm, 0, 1);
		sb_puts(b, ";\n");
	}
}

static void wrapper_body(gen_ctx *g, strbuf *b, const json_t *fn,
	int variant, const char *exec)
{
	json_t *params = params_of(fn);
	json_t *p;
	size_t i, n = json_array_size(params);

	(void)g;
	sb_printf(b, "{\n\tbrt_arg brg_a[%zu];\n", n ? n : 1);
	if (!n)
		sb_puts(b, "\tbrg_a[0].value = NULL;\n");
	json_array_foreach(params, i, p) {
		const char *r = gen_role(p), *name = ast_str(p, "name");
		if (ty_streq(r, "value"))
			sb_printf(b, "\tbrg_a[%zu].value = &%s;\n", i, name);
		else if (ty_streq(r, "reduce") &&
				!(is_stream_reduce(g, p) ^ variant))
			sb_printf(b, "\tbrg_a[%zu].target = %s;\n", i, name);
		else
			sb_printf(b, "\tbrg_a[%zu].s = %s;\n", i, name);
	}
	sb_printf(b, "\tbrt_run(&%s__kernel%s, brg_a, %s);\n}\n",
		ast_str(fn, "name"), variant ? "__other" : "", exec);
}

static void wrappers(gen_ctx *g, strbuf *b, const json_t *fn)
{
	json_t *params = params_of(fn);
	const char *name = ast_str(fn, "name");
	char nm[256];
	json_t *p;
	size_t i;
	int reduce = ty_streq(gen_kclass(fn), "reduce");

	/* guide 1.8: kernel.domainOffset()/domainSize() apply to the next
	 * call of the kernel from .br host code */
	sb_printf(b, "static brt_exec %s__domain;\n\n", name);
	snprintf(nm, sizeof nm, "%s__exec", name);
	wrapper_proto(g, b, fn, nm, 1, 0);
	sb_putc(b, '\n');
	wrapper_body(g, b, fn, 0, "brg_exec");
	sb_putc(b, '\n');
	wrapper_proto(g, b, fn, name, 0, 0);
	sb_printf(b, "\n{\n\tbrt_exec brg_x = %s__domain;\n"
		"\tmemset(&%s__domain, 0, sizeof %s__domain);\n\t%s__exec("
		"&brg_x", name, name, name, name);
	json_array_foreach(params, i, p)
		sb_printf(b, ", %s", ast_str(p, "name"));
	sb_puts(b, ");\n}\n\n");
	if (reduce) {
		snprintf(nm, sizeof nm, "%s__other", name);
		wrapper_proto(g, b, fn, nm, 0, 1);
		sb_putc(b, '\n');
		wrapper_body(g, b, fn, 1, "NULL");
		sb_putc(b, '\n');
	}
}

/* Everything PREFIX.c holds for kernel FN, at its place in the file. */
void gen_cpu_kernel(gen_ctx *g, strbuf *b, const json_t *fn)
{
	const gen_aff *a = NULL;

	if (!gen_is_group(fn)) {
		gen_body_function(g, GEN_CPU, b, fn);
		a = gen_aff_of(g, fn);
		/* K__body32 (brt.h, brt_cpu_call.index32), and with a row
		 * interior K__bodyin32 and K__guard32 (gen_affine.c) */
		g->i32 = 1;
		gen_body_function(g, GEN_CPU, b, fn);
		if (a) {
			g->aff = a;
			gen_body_function(g, GEN_CPU, b, fn);
			g->aff = NULL;
			gen_guard_function(g, GEN_CPU, b, fn, a);
		}
		g->i32 = 0;
	}
	if (is_void_ret(fn)) {
		g->interior = a;
		gen_entries(g, GEN_CPU, b, fn);
		g->interior = NULL;
		descriptor(g, b, fn, 0);
		if (ty_streq(gen_kclass(fn), "reduce"))
			descriptor(g, b, fn, 1);
		sb_putc(b, '\n');
		wrappers(g, b, fn);
	}
}
