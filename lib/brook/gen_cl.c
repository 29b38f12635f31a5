/* gen_cl.c - the OpenCL C program of a .br file: the prelude (brt_view,
 * index arithmetic, Brook's built-ins), the struct types the kernels use,
 * each kernel's body function and its __kernel entry points (brt.h, the
 * ABI comment at its end). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "brook/ast.h"
#include "brook/astprint.h"
#include "brook/gen_int.h"
#include "brook/type.h"

void gen_entries(gen_ctx *g, gen_target t, strbuf *b, const json_t *fn);
void gen_struct_helpers(gen_ctx *g, strbuf *b);
void gen_packed_structs(gen_ctx *g, strbuf *b);

/* Whether TY can live in kernel code: arithmetic, or structs and arrays of
 * such. */
static int cl_representable(gen_ctx *g, const json_t *ty, int depth)
{
	const char *t;
	size_t i;
	json_t *f;

	if (depth > 32)
		return 0;
	if (ty_streq(ty_kind(ty), "typedef") &&
			!json_object_get(g->typedefs, ast_str(ty, "name")))
		return 0;
	ty = gen_resolve(g, ty);
	if (gen_scalar(ty))
		return 1;
	t = ty_kind(ty);
	if (ty_streq(t, "array"))
		return json_is_object(ast_get(ty, "size")) &&
			cl_representable(g, ast_get(ty, "of"), depth + 1);
	if (!ty_streq(t, "struct") && !ty_streq(t, "union"))
		return 0;
	if (!ast_get(ty, "fields") && ast_str(ty, "tag")[0])
		return json_object_get(g->tags, ast_str(ty, "tag")) != NULL;
	ast_array_foreach(ast_arr(ty, "fields"), i, f)
		if (!cl_representable(g, ast_get(f, "type"), depth + 1))
			return 0;
	return 1;
}

static void cl_struct_body(gen_ctx *g, strbuf *b, const json_t *ty)
{
	size_t i;
	json_t *f;

	sb_printf(b, "%s ", ty_kind(ty));
	if (ast_str(ty, "tag")[0])
		sb_printf(b, "%s ", ast_str(ty, "tag"));
	sb_puts(b, "{\n");
	ast_array_foreach(ast_arr(ty, "fields"), i, f) {
		sb_puts(b, "\t");
		gen_type(g, GEN_CL, b, ast_get(f, "type"), ast_str(f, "name"));
		sb_puts(b, ";\n");
	}
	sb_puts(b, "}");
}

/* Enumeration TY's definition alone, as C writes it (not a variable the
 * declaration it is in may have): kernels may use its constants. */
static void cl_enum_def(strbuf *b, const json_t *ty)
{
	json_t *e = json_pack("{s:s,s:n,s:O,s:[]}", "k", "decl", "storage",
		"type", ty, "vars");

	astprint_decl(b, e, NULL, 0);
	json_decref(e);
}

/* The structs and unions defined inside TY's fields (struct { struct {
 * ... } range; } or struct outer { struct inner { ... } in[2]; }), the
 * innermost first, each as a definition of its own: OpenCL C, as C, gives
 * them file scope, and the generated code names them by their tags
 * (anonymous ones have theirs from brgen, gen.c). */
static void cl_nested_defs(gen_ctx *g, strbuf *b, const json_t *ty)
{
	size_t i;
	json_t *f;

	ast_array_foreach(ast_arr(ty, "fields"), i, f) {
		const json_t *ft = ast_get(f, "type");
		while (ty_streq(ty_kind(ft), "array"))
			ft = ast_get(ft, "of");
		if (ty_streq(ty_kind(ft), "enum") && ast_get(ft, "items"))
			cl_enum_def(b, ft);
		if (!ast_get(ft, "fields"))
			continue;
		cl_nested_defs(g, b, ft);
		cl_struct_body(g, b, ft);
		sb_puts(b, ";\n");
	}
}

/* Top-level struct definitions and typedefs, in source order, that kernel
 * code can use. */
static void cl_types(gen_ctx *g, strbuf *b)
{
	size_t i, j;
	json_t *d, *v;

	ast_array_foreach(ast_arr(g->doc, "decls"), i, d) {
		const json_t *ty = ast_get(d, "type");
		int has_body = ast_get(ty, "fields") != NULL;
		if (!ast_is(d, "decl"))
			continue;
		if (ty_streq(ty_kind(ty), "enum") && ast_get(ty, "items")) {
			/* the constants, as C writes them; a typedef too,
			   which kernel code may name */
			if (ty_streq(ast_str(d, "storage"), "typedef"))
				astprint_decl(b, d, NULL, 0);
			else	/* not its variables */
				cl_enum_def(b, ty);
			continue;
		}
		if (ty_streq(ast_str(d, "storage"), "typedef")) {
			/* the body once, with the first name that OpenCL
			   can have (typedef struct { ... } *PP, P;) */
			int body = has_body && cl_representable(g, ty, 0);
			ast_array_foreach(ast_arr(d, "vars"), j, v) {
				if (!cl_representable(g, ast_get(v, "type"), 0))
					continue;
				if (body) {
					body = 0;
					cl_nested_defs(g, b, ty);
					sb_puts(b, "typedef ");
					cl_struct_body(g, b, ty);
					sb_printf(b, " %s;\n",
						ast_str(v, "name"));
				} else {
					sb_puts(b, "typedef ");
					gen_type(g, GEN_CL, b, ast_get(v,
						"type"), ast_str(v, "name"));
					sb_puts(b, ";\n");
				}
			}
		} else if (has_body && json_array_size(ast_arr(d, "vars")) ==
				0 && cl_representable(g, ty, 0)) {
			cl_nested_defs(g, b, ty);
			cl_struct_body(g, b, ty);
			sb_puts(b, ";\n");
		}
	}
}

/* brt.h's brt_view, or with -DBRG_I32 its 32-bit form (brt_view32): libbrt
 * builds that variant of the program and passes 32-bit views, domains and
 * sizes when every buffer of a launch has fewer than 2^31 elements and
 * every gather's extents are at most 2^24, so that index arithmetic is
 * 32-bit (64-bit multiplies and conversions cost several instructions
 * each on GPUs) and BRG_D24, a gather extent's test in front of a loop
 * whose float coordinates are read as integers (gen_kcode.c, sh_conds),
 * is 1. brg_pv is what K__packed keeps of a stream's view, its base
 * (gen_entry.c; libbrt takes the declaration for the mark of K__packed's
 * parameters, brt.h). BRG_PACK1 marks a program whose K__packed runs one
 * point a work-item where the NDRange has a work-item for each point
 * (brt.h, "Launch geometry"). */
static const char cl_view[] =
	"#ifdef BRG_I32\n"
	"#define BRG_L int\n#define BRG_L4 int4\n#define BRG_LMAX 2147483647\n"
	"#define BRG_CVT convert_int_sat_rtz\n"
	"#define BRG_D24(d) 1\n"
	"#else\n"
	"#define BRG_L long\n#define BRG_L4 long4\n"
	"#define BRG_LMAX 9000000000000000000L\n"
	"#define BRG_CVT convert_long_sat_rtz\n"
	"#define BRG_D24(d) ((d) <= 16777216)\n"
	"#endif\n"
	"typedef struct brt_view {\n"
	"\tBRG_L dims[4];\n"
	"\tBRG_L pitch[4];\n"
	"\tBRG_L base;\n"
	"\tint rank;\n"
	"\tint map;\n"
	"\tfloat lo[4];\n"
	"\tfloat step[4];\n"
	"} brt_view;\n"
	"typedef struct brg_pv {\n\tBRG_L base;\n} brg_pv;\n"
	"#define BRG_PACK1 1\n";

void gen_cl_program(gen_ctx *g, strbuf *b)
{
	strbuf code = {0}, types = {0}, structs = {0};
	size_t i;
	json_t *d;

	ast_array_foreach(ast_arr(g->doc, "decls"), i, d) {
		if (!gen_is_kernel(d) || !ast_get(d, "body") ||
				json_is_null(ast_get(d, "body")))
			continue;
		const json_t *ret = ast_get(ast_get(d, "type"), "ret");
		int map = !ret || ty_streq(ty_kind(ret), "void");
		const gen_aff *a = NULL;
		if (!gen_is_group(d)) {
			gen_body_function(g, GEN_CL, &code, d);
			/* a row interior: K__bodyin and K__guard for K__grid
			 * (gen_affine.c, gen_entry.c) */
			a = map ? gen_aff_of(g, d) : NULL;
			if (a) {
				g->aff = a;
				gen_body_function(g, GEN_CL, &code, d);
				g->aff = NULL;
				gen_guard_function(g, GEN_CL, &code, d, a);
			}
		}
		if (map) {
			g->interior = a;
			gen_entries(g, GEN_CL, &code, d);
			g->interior = NULL;
		}
	}
	gen_ops_cl(g, &code);
	cl_types(g, &types);
	gen_struct_helpers(g, &structs);
	gen_packed_structs(g, &structs);

	const char *file = json_string_value(json_array_get(ast_arr(g->doc,
		"files"), 0));
	sb_puts(b, "/* OpenCL C generated by brgen from ");
	gen_comment_chars(b, file ? file : "a .br file");
	sb_puts(b, " */\n");
	if (g->uses_double)
		sb_puts(b, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
	/* one rounding per operation, as on the CPU backend; with
	 * --fp-contract=fast the compiler may fuse a * b + c (OpenCL C 6.10,
	 * FP_CONTRACT), and results may differ in the last bits */
	sb_printf(b, "#pragma OPENCL FP_CONTRACT %s\n",
		g->o && g->o->fp_contract ? "ON" : "OFF");
	/* libbrt then builds with the driver's own division and sqrt, not
	 * the correctly rounded ones (lib/brt/cache.c) */
	if (g->o && g->o->fast_math)
		sb_puts(b, "#define BRG_FAST_MATH 1\n");
	sb_puts(b, cl_view);
	gen_prelude_common(GEN_CL, b);
	sb_puts(b, "brg_ctx brg_noctx(void)\n{\n\tbrg_ctx r;\n"
		"\tr.inst = (int4)(0);\n\tr.rec = 0;\n\treturn r;\n}\n");
	if (types.s)
		sb_puts(b, types.s);
	if (structs.s)
		sb_puts(b, structs.s);
	if (g->help[GEN_CL].s)
		sb_puts(b, g->help[GEN_CL].s);
	if (code.s)
		sb_puts(b, code.s);
	sb_free(&code);
	sb_free(&types);
	sb_free(&structs);
}

/* Packed structs in OpenCL buffers: the host layout (gen_size) read and
 * written one scalar or vector field at a time. */
static void field_access(gen_ctx *g, strbuf *b, const json_t *ty,
	const char *lv, size_t off, int store, const char *as, int depth)
{
	const json_t *r = gen_resolve(g, ty);
	size_t i;
	json_t *f;

	if (depth > 16)
		return;
	if (gen_scalar(r)) {
		const char *s = gen_arith_name(GEN_CL, gen_scalar(r), 1);
		int n = ty_ncomp(r);
		if (n == 1 && store)
			sb_printf(b, "\t*(%s %s *)(q + %zu) = %s;\n", as, s,
				off, lv);
		else if (n == 1)
			sb_printf(b, "\t%s = *(%s const %s *)(q + %zu);\n",
				lv, as, s, off);
		else if (store)
			sb_printf(b, "\tvstore%d(%s, 0, (%s %s *)(q + %zu));"
				"\n", n, lv, as, s, off);
		else
			sb_printf(b, "\t%s = vload%d(0, (%s const %s *)"
				"(q + %zu));\n", lv, n, as, s, off);
		return;
	}
	if (ty_streq(ty_kind(r), "array")) {
		size_t n = (size_t)ast_int(ast_get(r, "size"), "value"), k;
		size_t es = gen_size(g, ast_get(r, "of"), NULL);
		for (k = 0; k < n && k < 4096; k++) {
			char sub[256];
			snprintf(sub, sizeof sub, "%s[%zu]", lv, k);
			field_access(g, b, ast_get(r, "of"), sub, off + k * es,
				store, as, depth + 1);
		}
		return;
	}
	if (!ast_get(r, "fields") && ast_str(r, "tag")[0])
		r = json_object_get(g->tags, ast_str(r, "tag"));
	{
		size_t o = 0;
		ast_array_foreach(ast_arr(r, "fields"), i, f) {
			size_t fa, fs = gen_size(g, ast_get(f, "type"), &fa);
			char sub[256];
			if (fa)
				o = (o + fa - 1) / fa * fa;
			snprintf(sub, sizeof sub, "%s.%s", lv,
				ast_str(f, "name"));
			field_access(g, b, ast_get(f, "type"), sub, off + o,
				store, as, depth + 1);
			if (ty_streq(ty_kind(r), "struct"))
				o += fs;
		}
	}
}

/* Field F of a packed struct (packed_fields) into B, and its rebuilding
 * into U: a number as it is, a vector as an array of its components, a
 * struct as its packed form; an array field as an array of those, rebuilt
 * element by element in loops. */
static void packed_member(gen_ctx *g, strbuf *b, strbuf *u, const json_t *f,
	const char *prefix)
{
	const char *name = ast_str(f, "name");
	const json_t *et = gen_resolve(g, ast_get(f, "type"));
	strbuf dims = {0}, idx = {0}, loops = {0};
	int nd = 0;

	while (ty_streq(ty_kind(et), "array") && nd < 8) {
		long long n = (long long)ast_int(ast_get(et, "size"), "value");
		sb_printf(&dims, "[%lld]", n);
		sb_printf(&idx, "[brg_i%d]", nd);
		sb_printf(&loops, "for (int brg_i%d = 0; brg_i%d < %lld; "
			"brg_i%d++)\n\t", nd, nd, n, nd);
		nd++;
		et = gen_resolve(g, ast_get(et, "of"));
	}
	/* an array of more than 8 dimensions is refused */
	int ok = !ty_streq(ty_kind(et), "array");
	const char *D = dims.s ? dims.s : "", *I = idx.s ? idx.s : "";
	const char *L = loops.s ? loops.s : "";
	if (ok && gen_scalar(et) && ty_ncomp(et) > 1) {
		int k, n = ty_ncomp(et);
		sb_printf(b, "\t%s %s%s[%d];\n", gen_arith_name(GEN_CL,
			gen_scalar(et), 1), name, D, n);
		sb_printf(u, "\t%sr.%s%s%s = (%s)(", L, prefix, name, I,
			gen_arith_name(GEN_CL, gen_scalar(et), n));
		for (k = 0; k < n; k++)
			sb_printf(u, "%sp.%s%s%s[%d]", k ? ", " : "", prefix,
				name, I, k);
		sb_puts(u, ");\n");
	} else if (ok && gen_scalar(et)) {
		sb_printf(b, "\t%s %s%s;\n", gen_arith_name(GEN_CL,
			gen_scalar(et), 1), name, D);
		sb_printf(u, "\t%sr.%s%s%s = p.%s%s%s;\n", L, prefix, name, I,
			prefix, name, I);
	} else if (ok && ast_str(et, "tag")[0]) {
		sb_printf(b, "\tbrg_pk_%s %s%s;\n", ast_str(et, "tag"), name,
			D);
		sb_printf(u, "\t%sr.%s%s%s = brg_unpk_%s(p.%s%s%s);\n", L,
			prefix, name, I, ast_str(et, "tag"), prefix, name, I);
	} else {
		gen_error(g, f, "E-gen-struct-value", "field '%s': a struct "
			"constant argument of this field's type is not "
			"supported on OpenCL", name);
	}
	sb_free(&dims);
	sb_free(&idx);
	sb_free(&loops);
}

/* A constant argument of struct type reaches the kernel as its host bytes
 * (brt.h: every VALUE as its packed bytes): brg_pk_TAG mirrors the host
 * layout (vectors as arrays, explicit padding), brg_unpk_TAG rebuilds the
 * OpenCL struct. */
static void packed_fields(gen_ctx *g, strbuf *b, strbuf *u, const json_t *ty,
	const char *prefix)
{
	const json_t *def = gen_resolve(g, ty);
	size_t i, o = 0, npad = 0, size = gen_size(g, ty, NULL);
	json_t *f;

	if (!ast_get(def, "fields") && ast_str(def, "tag")[0])
		def = json_object_get(g->tags, ast_str(def, "tag"));
	ast_array_foreach(ast_arr(def, "fields"), i, f) {
		size_t fa, fs = gen_size(g, ast_get(f, "type"), &fa);
		size_t at = fa ? (o + fa - 1) / fa * fa : o;
		if (ty_streq(ty_kind(def), "union"))
			at = 0;
		if (at > o)
			sb_printf(b, "\tuchar brg_pad%zu[%zu];\n", npad++, at - o);
		packed_member(g, b, u, f, prefix);
		o = at + fs;
	}
	if (size > o)
		sb_printf(b, "\tuchar brg_pad%zu[%zu];\n", npad, size - o);
}

/* brg_pk_TAG and brg_unpk_TAG of TAG after those of the structs in its
 * fields, which they use: a struct defined inside another's fields comes
 * after it in g->tags. DONE holds the tags printed. */
static void packed_struct(gen_ctx *g, strbuf *b, const char *tag,
	const json_t *ty, json_t *done, int depth)
{
	strbuf u = {0};
	size_t i;
	json_t *f;

	if (json_object_get(done, tag) || depth > 64 ||
			!cl_representable(g, ty, 0))
		return;
	json_object_set_new(done, tag, json_true());
	ast_array_foreach(ast_arr(ty, "fields"), i, f) {
		const json_t *ft = gen_resolve(g, ast_get(f, "type"));
		while (ty_streq(ty_kind(ft), "array"))
			ft = gen_resolve(g, ast_get(ft, "of"));
		const char *ftag = ast_str(ft, "tag");
		const json_t *def = ftag[0] ? json_object_get(g->tags, ftag)
			: NULL;
		if (def)
			packed_struct(g, b, ftag, def, done, depth + 1);
	}
	sb_printf(b, "typedef %s __attribute__((packed)) brg_pk_%s {\n",
		ty_kind(ty), tag);
	packed_fields(g, b, &u, ty, "");
	sb_printf(b, "} brg_pk_%s;\n", tag);
	sb_printf(b, "%s %s brg_unpk_%s(brg_pk_%s p)\n{\n\t%s %s r;"
		"\n%s\treturn r;\n}\n", ty_kind(ty), tag, tag, tag,
		ty_kind(ty), tag, u.s ? u.s : "");
	sb_free(&u);
}

void gen_packed_structs(gen_ctx *g, strbuf *b)
{
	const char *tag;
	json_t *ty, *done = json_object();

	json_object_foreach(g->tags, tag, ty)
		packed_struct(g, b, tag, ty, done, 0);
	json_decref(done);
}

/* brg_ld_TAG / brg_st_TAG (global memory) and brg_ldl_TAG / brg_stl_TAG
 * (local memory: a reduction's tree) for every tagged struct with fields. */
void gen_struct_helpers(gen_ctx *g, strbuf *b)
{
	static const char *const space[2][2] = {
		{ "", "__global" }, { "l", "__local" } };
	const char *tag;
	json_t *ty;
	int a;

	json_object_foreach(g->tags, tag, ty) {
		size_t size = gen_size(g, ty, NULL);
		if (!cl_representable(g, ty, 0))
			continue;
		for (a = 0; a < 2; a++) {
			const char *sfx = space[a][0], *as = space[a][1];
			sb_printf(b, "%s %s brg_ld%s_%s(%s const uchar *p, "
				"long k)\n{\n\t%s %s r;\n\t%s const uchar "
				"*q = p + k * %zu;\n", ty_kind(ty), tag, sfx, tag,
				as, ty_kind(ty), tag, as, size);
			field_access(g, b, ty, "r", 0, 0, as, 0);
			sb_puts(b, "\treturn r;\n}\n");
			sb_printf(b, "void brg_st%s_%s(%s uchar *p, long k, "
				"%s %s r)\n{\n\t%s uchar *q = p + k * %zu;\n",
				sfx, tag, as, ty_kind(ty), tag, as, size);
			field_access(g, b, ty, "r", 0, 1, as, 0);
			sb_puts(b, "}\n");
		}
	}
}
