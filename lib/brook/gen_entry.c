/* gen_entry.c - the entry points of every kernel on both targets: the
 * OpenCL __kernel functions of brt.h's ABI and the brt_cpu_fn functions
 * of the CPU backend. Both load each input element once, call the body
 * function (gen_kcode.c) and store each output once; the only difference
 * is who iterates (an NDRange or a loop over [begin, end)). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "brook/ast.h"
#include "brook/gen_int.h"
#include "brook/type.h"

void gen_load(gen_ctx *g, gen_target t, strbuf *b, const json_t *ty,
	const char *ptr, const char *idx);
void gen_store(gen_ctx *g, gen_target t, strbuf *b, const json_t *ty,
	const char *ptr, const char *idx, const char *val);
json_t *gen_param_names(gen_ctx *g, const json_t *fn);

static const char comp[] = "xyzw";

static json_t *params_of(const json_t *fn)
{
	return ast_arr(ast_get(fn, "type"), "params");
}

static int is_role(const json_t *p, const char *r)
{
	return strcmp(gen_role(p), r) == 0;
}

static int is_buffer(const json_t *p)
{
	const char *r = gen_role(p);
	return ty_streq(r, "in") || ty_streq(r, "out") ||
		ty_streq(r, "gather") || ty_streq(r, "scatter");
}

/* The pointer type of a buffer on target T: packed 3-vectors are arrays of
 * their scalar in OpenCL, structs bytes. */
void gen_storage(gen_ctx *g, gen_target t, strbuf *b, const json_t *el);
void gen_storage(gen_ctx *g, gen_target t, strbuf *b, const json_t *el)
{
	el = gen_resolve(g, el);
	if (t == GEN_CL && ty_ncomp(el) == 3)
		sb_puts(b, gen_arith_name(t, gen_scalar(el), 1));
	else if (t == GEN_CL && !gen_scalar(el))
		sb_puts(b, "uchar");
	else
		gen_type(g, t, b, el, NULL);
}

/* brg_iter_float2(v, i, d): the value of an iterator element. */
static const char *iter_helper(gen_ctx *g, gen_target t, const json_t *el)
{
	char fname[64];
	const char *T = gen_arith_name(t, "float", ty_ncomp(el));
	int n = ty_ncomp(el), k;
	strbuf *h = &g->help[t];

	snprintf(fname, sizeof fname, "brg_iter_%s", T);
	if (!gen_need(g, t, fname))
		return gen_kept(g, fname);
	sb_printf(h, "%s%s %s(const brt_view *v, %s i, const %s *d) {",
		t == GEN_CPU ? "BRG_FN " : "", T, fname,
		t == GEN_CL ? "BRG_L" : "int64_t", t == GEN_CL ? "BRG_L" :
		"int64_t");
	if (n == 1) {
		sb_puts(h, " return brg_iter1(v, i, d, 0); }\n");
		return gen_kept(g, fname);
	}
	sb_printf(h, " %s r;", T);
	for (k = 0; k < n; k++)
		sb_printf(h, " r.%c = brg_iter1(v, i, d, %d);", comp[k], k);
	sb_puts(h, " return r; }\n");
	return gen_kept(g, fname);
}

/* The expression reading input P at domain point INDEX_VAR. */
static void input_value(gen_ctx *g, gen_target t, strbuf *b, const json_t *p,
	const char *ivar)
{
	const json_t *el = gen_elem(g, ast_get(p, "type"));
	const char *name = ast_str(p, "name");
	char idx[256];

	snprintf(idx, sizeof idx, "brg_idx(&%s_v, %s, brg_d)", name, ivar);
	if (gen_scalar(el) && ty_streq(gen_scalar(el), "float")) {
		/* an iterator stream may be bound to any float input */
		sb_printf(b, "%s_v.map == 3 ? %s(&%s_v, %s, brg_d) : ", name,
			iter_helper(g, t, el), name, ivar);
	}
	gen_load(g, t, b, el, name, idx);
}

/* OpenCL: the kernel's parameters (brt.h: ARGS, then dom and off). */
static void cl_params(gen_ctx *g, strbuf *b, const json_t *fn, int packed)
{
	json_t *params = params_of(fn);
	json_t *p;
	size_t i;

	json_array_foreach(params, i, p) {
		const char *name = ast_str(p, "name");
		const json_t *el = gen_elem(g, ast_get(p, "type"));
		sb_puts(b, i ? ",\n\t" : "\n\t");
		if (is_buffer(p)) {
			sb_puts(b, "__global ");
			if (is_role(p, "in") || is_role(p, "gather"))
				sb_puts(b, "const ");
			gen_storage(g, GEN_CL, b, el);
			if (packed && (is_role(p, "in") || is_role(p, "out")))
				sb_printf(b, " *%s", name);
			else
				sb_printf(b, " *%s, const brt_view %s_v", name,
					name);
		} else if (!gen_scalar(gen_resolve(g, ast_get(p, "type"))) &&
				ast_str(gen_resolve(g, ast_get(p, "type")),
				"tag")[0]) {
			sb_printf(b, "const brg_pk_%s %s__pk", ast_str(gen_resolve(
				g, ast_get(p, "type")), "tag"), name);
		} else {
			sb_puts(b, "const ");
			gen_type(g, GEN_CL, b, gen_resolve(g, ast_get(p,
				"type")), name);
		}
	}
}

/* OpenCL: struct constants from their host bytes (gen_cl.c). */
static void cl_unpack_values(gen_ctx *g, strbuf *b, const json_t *fn)
{
	json_t *params = params_of(fn);
	json_t *p;
	size_t i;

	json_array_foreach(params, i, p) {
		const json_t *ty = gen_resolve(g, ast_get(p, "type"));
		if (!is_role(p, "value") || gen_scalar(ty) ||
				!ast_str(ty, "tag")[0])
			continue;
		sb_printf(b, "\tconst %s %s %s = brg_unpk_%s(%s__pk);\n",
			ty_kind(ty), ast_str(ty, "tag"), ast_str(p, "name"),
			ast_str(ty, "tag"), ast_str(p, "name"));
	}
}

/* What cpu_unpack takes out of a brt_cpu_call. */
enum { UNPACK_ALL, UNPACK_VALUES, UNPACK_VIEWS };

/* CPU: the arguments out of a brt_cpu_call: every one (UNPACK_ALL), the
 * values (UNPACK_VALUES), the values and the views (UNPACK_VIEWS). Views
 * are copied so that both targets address them as &name_v. */
static void cpu_unpack(gen_ctx *g, strbuf *b, const json_t *fn, int what)
{
	json_t *params = params_of(fn);
	json_t *p;
	size_t i;

	json_array_foreach(params, i, p) {
		const char *name = ast_str(p, "name");
		const json_t *el = gen_elem(g, ast_get(p, "type"));
		if (is_buffer(p) && what == UNPACK_VIEWS && g->i32) {
			sb_printf(b, "\tconst brg_view32 %s_v = brg_view32_of("
				"&brg_c->views[%zu], %d);\n\t(void)%s_v;\n", name,
				i, !is_role(p, "gather"), name);
		} else if (is_buffer(p) && what == UNPACK_VIEWS) {
			sb_printf(b, "\tconst brt_view %s_v = brg_c->views[%zu];"
				"\n\t(void)%s_v;\n", name, i, name);
		} else if (is_buffer(p) && what == UNPACK_ALL) {
			sb_puts(b, "\t");
			if (is_role(p, "in") || is_role(p, "gather"))
				sb_puts(b, "const ");
			gen_type(g, GEN_CPU, b, el, NULL);
			sb_printf(b, " *%s = (", name);
			if (is_role(p, "in") || is_role(p, "gather"))
				sb_puts(b, "const ");
			gen_type(g, GEN_CPU, b, el, NULL);
			sb_printf(b, " *)brg_c->data[%zu];\n", i);
			sb_printf(b, "\tconst brt_view %s_v = brg_c->views[%zu];"
				"\n", name, i);
			sb_printf(b, "\t(void)%s;\n\t(void)%s_v;\n", name, name);
		} else if (is_role(p, "value")) {
			const json_t *ty = gen_resolve(g, ast_get(p, "type"));
			sb_puts(b, "\tconst ");
			gen_type(g, GEN_CPU, b, ty, name);
			sb_puts(b, " = *(const ");
			gen_type(g, GEN_CPU, b, ty, NULL);
			sb_printf(b, " *)brg_c->data[%zu];\n", i);
			sb_printf(b, "\t(void)%s;\n", name);
		}
	}
}

static void dom_setup(gen_target t, strbuf *b)
{
	if (t == GEN_CL)
		sb_puts(b,
			"\tBRG_L brg_d[4], brg_o[4];\n"
			"\tbrg_d[0] = brg_dom.x; brg_d[1] = brg_dom.y; "
			"brg_d[2] = brg_dom.z; brg_d[3] = brg_dom.w;\n"
			"\tbrg_o[0] = brg_off.x; brg_o[1] = brg_off.y; "
			"brg_o[2] = brg_off.z; brg_o[3] = brg_off.w;\n");
	else
		sb_puts(b,
			"\tBRG_L brg_d[4], brg_o[4];\n"
			"\tint brg_k;\n"
			"\tfor (brg_k = 0; brg_k < 4; brg_k++) {\n"
			"\t\tbrg_d[brg_k] = brg_c->dims[brg_k];\n"
			"\t\tbrg_o[brg_k] = brg_c->offset[brg_k];\n"
			"\t}\n");
}

/* Whether code under N reads the position of the domain point:
 * instance(), or a call of another kernel (whose indexof and instance()
 * come from it). */
static int needs_position(gen_ctx *g, const json_t *n, int depth)
{
	if (depth > 256)
		return 1;
	if (json_is_object(n)) {
		const char *key;
		json_t *v;
		if (ast_is(n, "call")) {
			const json_t *fn = ast_get(n, "fn");
			const json_t *d = gen_decl(g, fn);
			if (ty_streq(ast_str(n, "builtin"), "instance") ||
					ty_streq(ast_str(fn, "name"), "instance") ||
					(d && ast_is(d, "func")))
				return 1;
		}
		json_object_foreach((json_t *)n, key, v)
			if (ast_walks(key) && needs_position(g, v, depth + 1))
				return 1;
	} else if (json_is_array(n)) {
		size_t i;
		json_t *v;
		json_array_foreach(n, i, v)
			if (needs_position(g, v, depth + 1))
				return 1;
	}
	return 0;
}

/* needs_position of kernel FN's body, walked once for both targets and
 * every entry point; with --checked a scatter kernel's writes tag their
 * elements with the instance's position (brg_wrote) */
static int body_needs_position(gen_ctx *g, const json_t *fn)
{
	gen_fninfo *fi = gen_fn_info(g, fn);
	json_t *p;
	size_t i;

	if (fi->pos >= 0)
		return fi->pos;
	fi->pos = needs_position(g, ast_get(fn, "body"), 0);
	if (g->o && g->o->checked)
		json_array_foreach(params_of(fn), i, p)
			if (is_role(p, "scatter"))
				fi->pos = 1;
	return fi->pos;
}

/* How map_point addresses the streams: through their views (GEN_VIEW,
 * both targets), on the packed paths (GEN_PACKED: every stream is
 * element brg_i of its packed run, NAME_p[brg_i] on the CPU and
 * NAME[NAME_v.base + brg_i] in OpenCL; the position is brg_px + brg_i,
 * brg_py, brg_pz, brg_pw), or in one lane of OpenCL's K__packed
 * (GEN_LANES: every stream is NAME_a[brg_k], a private array of four;
 * no position). On the CPU's 32-bit packed path, GEN_INTERIOR calls
 * K__bodyin32 and GEN_GUARD sets brg_ok from K__guard32, storing
 * nothing (gen_affine.c); both address as GEN_PACKED. OpenCL's K__grid
 * calls K__bodyin and K__guard alike. */
enum { GEN_VIEW, GEN_PACKED, GEN_LANES, GEN_INTERIOR, GEN_GUARD };

static int is_stream_param(const json_t *p)
{
	return is_role(p, "in") || is_role(p, "out");
}

/* PTR[IX], stream NAME's element at the point in MODE (not GEN_VIEW) on
 * target T. In OpenCL the index starts from the buffer, whose pointer
 * does not step by elements for 3-vectors and structs. */
static void packed_at(gen_target t, int mode, const char *name, char *ptr,
	size_t nptr, char *ix, size_t nix)
{
	if (mode == GEN_LANES) {
		snprintf(ptr, nptr, "%s_a", name);
		snprintf(ix, nix, "brg_k");
	} else if (t == GEN_CL) {
		snprintf(ptr, nptr, "%s", name);
		snprintf(ix, nix, "%s_v.base + brg_i", name);
	} else {
		snprintf(ptr, nptr, "%s_p", name);
		snprintf(ix, nix, "brg_i");
	}
}

int gen_records(gen_ctx *g, const json_t *fn)
{
	gen_fninfo *fi = gen_fn_info(g, fn);
	json_t *params, *p;
	size_t i;
	int checked = g->o && g->o->checked;

	if (fi->records >= 0)
		return fi->records;
	/* --checked: any kernel may index an array */
	fi->records = checked;
	params = params_of(fn);
	json_array_foreach(params, i, p)
		if (is_role(p, "scatter"))
			fi->records = 1;
	return fi->records;
}

/* The launch's brt_records (brt.h): an OpenCL parameter after off, or
 * brt_cpu_call.errors, for a kernel that records. */
static void rec_param(gen_ctx *g, gen_target t, strbuf *b, const json_t *fn)
{
	if (!gen_records(g, fn))
		return;
	if (t == GEN_CL)
		sb_puts(b, ",\n\t__global brt_records *brg_rec");
	else
		sb_puts(b, "\tBRG_REC *const brg_rec = (BRG_REC *)"
			"brg_c->errors;\n");
}

/* The call of the body at one domain point, its loads and stores. */
static void map_point(gen_ctx *g, gen_target t, strbuf *b, const json_t *fn,
	const char *ind, int mode)
{
	json_t *params = params_of(fn);
	json_t *p;
	size_t i;
	json_t *idx = json_object_get(g->idxof, ast_str(fn, "name"));
	int first = 1;
	char ptr[160], ix[160], val[160];

	/* the coordinates of a domain point cost divisions: only for a
	 * kernel that asks for them (instance(), a subkernel's indexof) */
	sb_printf(b, "%sconst brg_ctx brg_cx = %s", ind, gen_records(g, fn) ?
		"brg_withrec(" : "");
	if (!body_needs_position(g, fn))
		sb_puts(b, "brg_noctx()");
	else if (mode != GEN_VIEW && mode != GEN_LANES)
		sb_puts(b, "brg_ctx4(brg_px + brg_i, brg_py, brg_pz, brg_pw)");
	else
		sb_puts(b, "brg_mkctx(brg_i, brg_d, brg_o)");
	sb_puts(b, gen_records(g, fn) ? ", brg_rec);\n" : ";\n");
	json_array_foreach(params, i, p) {
		const char *name = ast_str(p, "name"), *role = gen_role(p);
		const json_t *el;
		if (!ty_streq(role, "in") && !ty_streq(role, "out"))
			continue;
		el = gen_elem(g, ast_get(p, "type"));
		if (ty_streq(role, "in")) {
			sb_printf(b, "%sconst ", ind);
			gen_type(g, t, b, el, NULL);
			sb_printf(b, " %s_e = ", name);
			if (mode != GEN_VIEW) {
				packed_at(t, mode, name, ptr, sizeof ptr, ix,
					sizeof ix);
				gen_load(g, t, b, el, ptr, ix);
			} else {
				input_value(g, t, b, p, "brg_i");
			}
			sb_puts(b, ";\n");
		} else {
			/* 0 until the kernel writes it: an output a path
			   leaves unwritten, or read first, is 0 on every
			   backend (the interpreter's) */
			char var[160];
			snprintf(var, sizeof var, "%s_e", name);
			sb_puts(b, ind);
			gen_zero_decl(g, t, b, el, var);
		}
	}
	sb_printf(b, "%s%s%s__%s%s(", ind, mode == GEN_GUARD ? "brg_ok = " :
		"", ast_str(fn, "name"), mode == GEN_GUARD ? "guard" :
		mode == GEN_INTERIOR ? "bodyin" : "body", g->i32 ? "32" : "");
	json_array_foreach(params, i, p) {
		const char *name = ast_str(p, "name"), *role = gen_role(p);
		if (!first)
			sb_puts(b, ", ");
		first = 0;
		if (ty_streq(role, "in"))
			sb_printf(b, "%s_e", name);
		else if (ty_streq(role, "out"))
			sb_printf(b, "&%s_e", name);
		else if (ty_streq(role, "gather") ||
				ty_streq(role, "scatter"))
			sb_printf(b, "%s, %s_v", name, name);
		else
			sb_puts(b, name);
	}
	json_array_foreach(params, i, p) {
		const char *name;
		if (!json_object_size(idx))
			break;
		name = ast_str(p, "name");
		if (!json_object_get(idx, name))
			continue;
		if (!first)
			sb_puts(b, ", ");
		first = 0;
		/* spec 5, indexof: a packed stream's element is the point */
		if (mode != GEN_VIEW && mode != GEN_LANES &&
				is_stream_param(p))
			sb_puts(b, "brg_pos4(brg_px + brg_i, brg_py, brg_pz, "
				"brg_pw)");
		else
			sb_printf(b, "brg_idxof(&%s_v, brg_i, brg_d, brg_o)",
				name);
	}
	/* K__guard: x and y of the point, as brg_X and brg_Y in
	   K__bodyin */
	sb_printf(b, "%sbrg_cx%s);\n", first ? "" : ", ", mode == GEN_INTERIOR
		|| (mode == GEN_GUARD && t == GEN_CL) ? ", brg_X, brg_Y" :
		mode == GEN_GUARD ? ", (int32_t)(brg_px + brg_i), brg_Y" : "");
	json_array_foreach(params, i, p) {
		const char *name;
		if (mode == GEN_GUARD)
			break;
		if (!is_role(p, "out"))
			continue;
		name = ast_str(p, "name");
		if (mode != GEN_VIEW) {
			packed_at(t, mode, name, ptr, sizeof ptr, ix,
				sizeof ix);
		} else {
			snprintf(ptr, sizeof ptr, "%s", name);
			snprintf(ix, sizeof ix, "brg_idx(&%s_v, brg_i, brg_d)",
				name);
		}
		snprintf(val, sizeof val, "%s_e", name);
		sb_puts(b, ind);
		gen_store(g, t, b, gen_elem(g, ast_get(p, "type")), ptr, ix,
			val);
		sb_puts(b, ";\n");
	}
}

/* Whether kernel FN reads the position of its domain points: instance(),
 * indexof, a subkernel. */
static int map_uses_position(gen_ctx *g, const json_t *fn)
{
	json_t *idx = json_object_get(g->idxof, ast_str(fn, "name"));
	return body_needs_position(g, fn) ||
		json_object_size(idx) > 0;
}

/* CPU, K__packed32 with a row interior (gen_affine.c): whether this call
 * may use it: x and y below 2^23, so that x + c and y + c are exact as
 * floats. */
static void interior_setup(strbuf *b)
{
	sb_puts(b, "\tint64_t brg_lo, brg_hi, brg_a;\n\tint brg_n, brg_ok = 0;\n"
		"\tint32_t brg_X, brg_Y;\n"
		"\tconst int brg_in = brg_o[0] + brg_d[0] < (1 << 23) && "
		"brg_o[1] + brg_d[1] < (1 << 23);\n");
}

/* brg_ok = K__guard at the point brg_i of the row, at indent IND
 * (OpenCL's K__guard takes x as brg_X) */
static void row_guard(gen_ctx *g, gen_target t, strbuf *b, const json_t *fn,
	const char *ind)
{
	if (t == GEN_CL)
		sb_printf(b, "%sconst int brg_X = (int)(brg_px + brg_i);\n",
			ind);
	map_point(g, t, b, fn, ind, GEN_GUARD);
}

/* The interior of the row [brg_i, brg_hi), searched from brg_lo (the
 * row's end where there is none to seek), then the points before it
 * through K__body and the interior through K__bodyin, on target T at
 * indent IND. The guards hold on an interval: its start is sought among
 * the row's first 8 points, its end by bisection. The caller runs the
 * points after it. */
static void row_interior(gen_ctx *g, gen_target t, strbuf *b,
	const json_t *fn, const char *ind)
{
	const char *L = t == GEN_CL ? "BRG_L" : "int64_t";
	const char *X = t == GEN_CL ? "int" : "int32_t";
	char in2[16];

	snprintf(in2, sizeof in2, "%s\t", ind);
	sb_printf(b, "%sfor (brg_n = 0; brg_lo < brg_hi; brg_lo++) {\n"
		"%sconst %s brg_i = brg_lo;\n", ind, in2, L);
	row_guard(g, t, b, fn, in2);
	sb_printf(b, "%sif (brg_ok)\n%s\tbreak;\n"
		"%sif (++brg_n == 8)\n%s\tbrg_lo = brg_hi - 1;\n"
		"%s}\n"
		"%sfor (brg_a = brg_lo; brg_hi - brg_a > 1; ) {\n"
		"%sconst %s brg_i = brg_a + (brg_hi - brg_a) / 2;\n",
		in2, in2, in2, in2, ind, ind, in2, L);
	row_guard(g, t, b, fn, in2);
	sb_printf(b, "%sif (brg_ok)\n%s\tbrg_a = brg_i;\n"
		"%selse\n%s\tbrg_hi = brg_i;\n"
		"%s}\n"
		"%sfor (; brg_i < brg_lo; brg_i++) {\n", in2, in2, in2, in2,
		ind, ind);
	map_point(g, t, b, fn, in2, GEN_PACKED);
	/* x as a 32-bit counter: an affine index to the compiler,
	 * contiguous loads */
	sb_printf(b, "%s}\n%sfor (brg_X = (%s)(brg_px + brg_i); "
		"brg_i < brg_hi; brg_i++, brg_X++) {\n", ind, ind, X);
	map_point(g, t, b, fn, in2, GEN_INTERIOR);
	sb_printf(b, "%s}\n", ind);
}

/* ... and per row of at least 32 points: the interior [brg_lo, brg_hi),
 * where K__guard32 holds, run through K__bodyin32, the points before and
 * after it through K__body32 (row_interior). */
static void interior_rows(gen_ctx *g, strbuf *b, const json_t *fn)
{
	sb_puts(b, "\t\t/* the row's interior */\n"
		"\t\tbrg_lo = brg_in && brg_r - brg_i >= 32 ? brg_i : brg_r;\n"
		"\t\tbrg_Y = (int32_t)brg_py;\n"
		"\t\tbrg_hi = brg_r;\n");
	row_interior(g, GEN_CPU, b, fn, "\t\t");
}

/* CPU: the packed path of a map or scatter kernel, K__packed, for domain
 * points [begin, end) when every input and output stream is packed in the
 * domain's shape (BRT_MAP_SAME) and no written buffer is another
 * argument's: a plain loop with each buffer a restrict parameter (NAME_p,
 * from its first element, for streams; NAME for gathers and scatters),
 * which the C compiler vectorizes. With positions, the range is walked row
 * by row, the coordinates carried from one row to the next instead of
 * divided out per point. With G->i32, K__packed32 over K__body32, for
 * launches whose indices fit 32 bits (brt.h, brt_cpu_call.index32). */
static void cpu_map_packed(gen_ctx *g, strbuf *b, const json_t *fn)
{
	json_t *params = params_of(fn);
	json_t *p;
	size_t i;
	int pos = map_uses_position(g, fn);
	const gen_aff *aff = g->i32 && pos ? g->interior : NULL;

	/* not inlined into K__cpu: there the restrict qualifiers, which
	 * let gcc vectorize gathers beside stores, would be lost */
	sb_printf(b, "static __attribute__((noinline)) %svoid %s__packed%s("
		"const brt_cpu_call *brg_c, int64_t brg_b, int64_t brg_e",
		gen_nolv(g, GEN_CPU, fn) ? "BRG_NOLV " : "",
		ast_str(fn, "name"), g->i32 ? "32" : "");
	json_array_foreach(params, i, p) {
		if (!is_buffer(p))
			continue;
		sb_puts(b, ",\n\t");
		if (is_role(p, "in") || is_role(p, "gather"))
			sb_puts(b, "const ");
		gen_type(g, GEN_CPU, b, gen_elem(g, ast_get(p, "type")), NULL);
		sb_printf(b, " *restrict %s%s", ast_str(p, "name"),
			is_stream_param(p) ? "_p" : "");
	}
	sb_puts(b, ")\n{\n");
	cpu_unpack(g, b, fn, UNPACK_VIEWS);
	rec_param(g, GEN_CPU, b, fn);
	dom_setup(GEN_CPU, b);
	sb_puts(b, "\tint64_t brg_i;\n");
	if (!pos) {
		sb_puts(b, "\t(void)brg_o;\n"
			"\tfor (brg_i = brg_b; brg_i < brg_e; brg_i++) {\n");
		map_point(g, GEN_CPU, b, fn, "\t\t", GEN_PACKED);
		sb_puts(b, "\t}\n}\n\n");
		return;
	}
	sb_puts(b,
		"\tBRG_L brg_c4[4], brg_r, brg_px, brg_py, brg_pz, brg_pw;\n"
		"\tbrg_coords(brg_b, brg_d, brg_c4);\n");
	if (aff)
		interior_setup(b);
	sb_puts(b,
		"\tfor (brg_i = brg_b; brg_i < brg_e; ) {\n"
		"\t\tbrg_r = brg_i + brg_d[0] - brg_c4[0];\n"
		"\t\tif (brg_r > brg_e)\n\t\t\tbrg_r = brg_e;\n"
		"\t\tbrg_px = brg_c4[0] + brg_o[0] - brg_i;\n"
		"\t\tbrg_py = brg_c4[1] + brg_o[1];\n"
		"\t\tbrg_pz = brg_c4[2] + brg_o[2];\n"
		"\t\tbrg_pw = brg_c4[3] + brg_o[3];\n");
	if (aff)
		interior_rows(g, b, fn);
	sb_puts(b, "\t\tfor (; brg_i < brg_r; brg_i++) {\n");
	map_point(g, GEN_CPU, b, fn, "\t\t\t", GEN_PACKED);
	sb_puts(b,
		"\t\t}\n"
		"\t\t/* the next row */\n"
		"\t\tbrg_c4[0] = 0;\n"
		"\t\tfor (brg_k = 1; brg_k < 4 && ++brg_c4[brg_k] == "
		"brg_d[brg_k]; brg_k++)\n"
		"\t\t\tbrg_c4[brg_k] = 0;\n"
		"\t}\n}\n\n");
}

/* CPU: K__packed32's test: indices fit 32 bits (brt.h,
 * brt_cpu_call.index32) and every gather's rows are contiguous (pitch[0]
 * 1, as libbrt makes them; gen_kcode.c, pitch_term). */
static void gather_rows_contiguous(strbuf *b, const json_t *fn)
{
	json_t *params = params_of(fn);
	json_t *p;
	size_t i;

	sb_puts(b, "\t\tif (brg_c->index32");
	json_array_foreach(params, i, p)
		if (is_role(p, "gather"))
			sb_printf(b, " && %s_v.pitch[0] == 1", ast_str(p,
				"name"));
	sb_puts(b, ")\n");
}

/* CPU: K__cpu's test for the packed path, and its call. */
static void cpu_map_dispatch(gen_ctx *g, strbuf *b, const json_t *fn)
{
	json_t *params = params_of(fn);
	json_t *p, *q;
	size_t i, j;
	const char *sep = "";
	int k;

	(void)g;
	sb_puts(b, "\tif (");
	json_array_foreach(params, i, p) {
		if (!is_stream_param(p))
			continue;
		sb_printf(b, "%s%s_v.map == 0", sep, ast_str(p, "name"));
		sep = " &&\n\t    ";
	}
	json_array_foreach(params, i, p) {
		if (!is_role(p, "out") && !is_role(p, "scatter"))
			continue;
		json_array_foreach(params, j, q)
			if (j != i && is_buffer(q)) {
				sb_printf(b, "%s(const void *)%s != (const "
					"void *)%s", sep, ast_str(p, "name"),
					ast_str(q, "name"));
				sep = " &&\n\t    ";
			}
	}
	if (!*sep)
		sb_puts(b, "1");
	sb_puts(b, ") {\n");
	for (k = 0; k < 2; k++) {
		if (k)
			sb_puts(b, "\t\telse\n");
		else
			gather_rows_contiguous(b, fn);
		sb_printf(b, "\t\t\t%s__packed%s(brg_c, brg_b, brg_e",
			ast_str(fn, "name"), k ? "" : "32");
		json_array_foreach(params, i, p) {
			const char *name = ast_str(p, "name");
			if (!is_buffer(p))
				continue;
			/* K__packed32's gathers from their base (its
			   views have base 0: an add less per read) */
			if (is_stream_param(p) || (!k && is_role(p, "gather")))
				sb_printf(b, ", %s + %s_v.base", name, name);
			else
				sb_printf(b, ", %s", name);
		}
		sb_puts(b, ");\n");
	}
	sb_puts(b, "\t\treturn;\n\t}\n");
}

/* OpenCL: the head of map entry NAME SUFFIX (brt.h's parameters), up to
 * the domain and the constants. */
static void cl_map_head(gen_ctx *g, strbuf *b, const json_t *fn,
	const char *attr, const char *suffix)
{
	char cln[256];

	sb_printf(b, "__kernel %svoid %s%s(", attr,
		gen_cl_name(ast_str(fn, "name"), cln, sizeof cln), suffix);
	cl_params(g, b, fn, 0);
	sb_puts(b, ",\n\tconst BRG_L4 brg_dom, const BRG_L4 brg_off");
	rec_param(g, GEN_CL, b, fn);
	sb_puts(b, ")\n{\n");
	dom_setup(GEN_CL, b);
	cl_unpack_values(g, b, fn);
}

/* K__packed's head (brt.h, "OpenCL kernel names and parameters"): an
 * input or output stream passes its buffer alone, and the launch one
 * struct of the number of points and each such stream's base, which the
 * kernel names NAME_v.base: PoCL copies each argument of each launch, and
 * the bench's chain of 1,000 launches of out = in + 1 over 4,096 floats
 * took 2.49-2.71 ms with K__packed's six arguments, 1.93-2.20 with three
 * (raw OpenCL 1.58-1.89; six alternating rounds, bench/RESULTS.md,
 * 19:34). */
static void cl_packed_head(gen_ctx *g, strbuf *b, const json_t *fn)
{
	json_t *params = params_of(fn);
	json_t *p;
	size_t i;
	int k = 0;
	char cln[256];

	gen_cl_name(ast_str(fn, "name"), cln, sizeof cln);
	json_array_foreach(params, i, p)
		k += is_stream_param(p);
	/* one base at least: C has no empty array */
	sb_printf(b, "typedef struct brg_pp_%s {\n\tBRG_L n, base[%d];\n} "
		"brg_pp_%s;\n\n__kernel void %s__packed(", cln, k ? k : 1, cln,
		cln);
	cl_params(g, b, fn, 1);
	sb_printf(b, ",\n\tconst brg_pp_%s brg_p", cln);
	rec_param(g, GEN_CL, b, fn);
	sb_puts(b, ")\n{\n");
	cl_unpack_values(g, b, fn);
	sb_puts(b, "\tconst BRG_L brg_n = brg_p.n;\n");
}

/* K__packed's view of each input and output stream, its base. With
 * SHIFT (the one-point path), a stream whose buffer pointer steps by
 * elements starts its pointer at the base instead, and its view at 0: the
 * index of point i is then i alone, which a CPU device's compiler
 * vectorizes over the work-items as it does a hand-written kernel's
 * (cl_map_packed has the figures). */
static void cl_packed_views(gen_ctx *g, strbuf *b, const json_t *fn,
	const char *ind, int shift)
{
	json_t *params = params_of(fn);
	json_t *p;
	size_t i;
	int k = 0;

	json_array_foreach(params, i, p) {
		const char *name = ast_str(p, "name");
		const json_t *el;
		if (!is_stream_param(p))
			continue;
		el = gen_resolve(g, gen_elem(g, ast_get(p, "type")));
		if (shift && gen_scalar(el) && ty_ncomp(el) != 3)
			sb_printf(b, "%s%s += brg_p.base[%d];\n%sconst brg_pv "
				"%s_v = { 0 };\n", ind, name, k, ind, name);
		else
			sb_printf(b, "%sconst brg_pv %s_v = { brg_p.base[%d] };"
				"\n", ind, name, k);
		k++;
	}
}

/* The OpenCL vector of four scalars S when brgen moves them as one
 * 16-byte load or store (a 4-byte scalar: a buffer is aligned for it
 * from any element at a multiple of 4), else NULL. */
static const char *lane_vector_of(const char *s)
{
	if (!s || (!ty_streq(s, "float") && !ty_streq(s, "int") &&
			!ty_streq(s, "uint")))
		return NULL;
	return gen_arith_name(GEN_CL, s, 4);
}

/* lane_vector_of the elements of stream P, for K__packed. */
static const char *lane_vector(gen_ctx *g, const json_t *p)
{
	const json_t *el = gen_resolve(g, gen_elem(g, ast_get(p, "type")));

	return ty_ncomp(el) == 1 ? lane_vector_of(gen_scalar(el)) : NULL;
}

/* Whether every stream of FN has a lane_vector (and there is one). */
static int cl_lanes(gen_ctx *g, const json_t *fn)
{
	json_t *params = params_of(fn);
	json_t *p;
	size_t i;
	int n = 0;

	json_array_foreach(params, i, p) {
		if (!is_stream_param(p))
			continue;
		if (!lane_vector(g, p))
			return 0;
		n++;
	}
	return n > 0;
}

/* K__packed's four points at once: each input one vector load into
 * NAME_a[4], the body per lane, each output one vector store. */
static void cl_packed_lanes(gen_ctx *g, strbuf *b, const json_t *fn)
{
	json_t *params = params_of(fn);
	json_t *p;
	size_t i;

	/* the first test is the launch's, the same for every work-item: a
	 * CPU device's compiler (PoCL) then versions its loop over the
	 * work-items, one copy without the unaligned views nor the last
	 * points, which it vectorizes. With the bound test's own (above),
	 * out = in + 1 on PoCL: 4,096 floats 16,604 -> 3,068 instructions
	 * a launch (callgrind; hand-written 1,152), the bench's chain of
	 * 1,000 launches 3.19 -> 2.48 ms (bench/RESULTS.md, 15:26) */
	sb_puts(b, "\tif ((brg_al && 4 * brg_s == brg_n) || (brg_al && 4 * "
		"brg_j + 3 < brg_n)) {\n");
	json_array_foreach(params, i, p) {
		const char *name = ast_str(p, "name");
		const char *V = lane_vector(g, p);
		const json_t *el = gen_elem(g, ast_get(p, "type"));
		if (!is_stream_param(p))
			continue;
		sb_puts(b, "\t\t");
		if (is_role(p, "out")) {
			gen_type(g, GEN_CL, b, el, NULL);
			sb_printf(b, " %s_a[4];\n", name);
			continue;
		}
		sb_printf(b, "const %s %s_4 = ((__global const %s *)(%s + "
			"%s_v.base))[brg_j];\n\t\tconst ", V, name, V, name,
			name);
		gen_type(g, GEN_CL, b, el, NULL);
		sb_printf(b, " %s_a[4] = { %s_4.x, %s_4.y, %s_4.z, %s_4.w };\n",
			name, name, name, name, name);
	}
	sb_puts(b, "\t\tfor (brg_k = 0; brg_k < 4; brg_k++) {\n");
	map_point(g, GEN_CL, b, fn, "\t\t\t", GEN_LANES);
	sb_puts(b, "\t\t}\n");
	json_array_foreach(params, i, p) {
		const char *name = ast_str(p, "name");
		const char *V = lane_vector(g, p);
		if (!is_role(p, "out"))
			continue;
		sb_printf(b, "\t\t((__global %s *)(%s + %s_v.base))[brg_j] = "
			"(%s)(%s_a[0], %s_a[1], %s_a[2], %s_a[3]);\n", V, name,
			name, V, name, name, name, name);
	}
	sb_puts(b, "\t\treturn;\n\t}\n");
}

/* OpenCL: K__packed, for a kernel that does not read its position,
 * launched by libbrt when every stream is packed in the domain's shape
 * (BRT_MAP_SAME; brt.h, "Launch geometry"): on a CPU device, work-item
 * i takes point i; elsewhere work-item j of ceil(n / 4) takes four of
 * the n points, as a hand-written kernel does. With every
 * stream a 4-byte scalar whose base is a multiple of 4, points 4j to 4j +
 * 3 through vector loads and stores (the last work-item one at a time);
 * else points j, j + s, j + 2s, j + 3s (s = ceil(n / 4)), so that
 * neighbouring work-items still read neighbouring elements. */
static void cl_map_packed(gen_ctx *g, strbuf *b, const json_t *fn)
{
	json_t *params = params_of(fn);
	json_t *p;
	size_t i;
	int lanes = cl_lanes(g, fn);
	const char *sep = "";

	cl_packed_head(g, b, fn);
	/* one point a work-item where the NDRange has a work-item for each
	 * point, as libbrt launches it on a CPU device (brt.h), whose
	 * compiler vectorizes the loop over the work-items better than
	 * four points' lanes (PoCL, the bench's chain, out = in + 1 over
	 * 4,096 floats: 3,032 instructions a launch in four lanes, 1,776 at
	 * one point, the hand-written kernel 1,152; callgrind). The first
	 * test is the launch's, as in cl_packed_lanes. BRG_PACK4 (brt.3)
	 * keeps four. */
	sb_puts(b, "#if defined(BRG_CPU) && !defined(BRG_PACK4)\n"
		"\tif ((BRG_L)get_global_size(0) >= brg_n) {\n"
		"\t\tconst BRG_L brg_i = get_global_id(0);\n"
		"\t\tif ((BRG_L)get_global_size(0) != brg_n && brg_i >= brg_n)"
		"\n\t\t\treturn;\n");
	cl_packed_views(g, b, fn, "\t\t", 1);
	map_point(g, GEN_CL, b, fn, "\t\t", GEN_PACKED);
	sb_puts(b, "\t\treturn;\n\t}\n#endif\n");
	cl_packed_views(g, b, fn, "\t", 0);
	sb_puts(b, "\tconst BRG_L brg_j = get_global_id(0), brg_s = (brg_n + 3) "
		"/ 4;\n\tint brg_k;\n\tconst int brg_al = ");
	if (lanes) {
		sb_puts(b, "((");
		json_array_foreach(params, i, p) {
			if (!is_stream_param(p))
				continue;
			sb_printf(b, "%s%s_v.base", sep, ast_str(p, "name"));
			sep = " | ";
		}
		sb_puts(b, ") & 3) == 0;\n");
	} else {
		sb_puts(b, "0;\n");
	}
	/* no work-item past the points where the NDRange is exactly s (the
	 * launch's test, first: see cl_packed_lanes) */
	sb_puts(b, "\tif ((BRG_L)get_global_size(0) != brg_s && "
		"brg_j >= brg_s)\n\t\treturn;\n");
	if (lanes)
		cl_packed_lanes(g, b, fn);
	sb_puts(b, "\tfor (brg_k = 0; brg_k < 4; brg_k++) {\n"
		"\t\tconst BRG_L brg_i = brg_al ? 4 * brg_j + brg_k : brg_j + "
		"brg_k * brg_s;\n\t\tif (brg_i >= brg_n)\n\t\t\treturn;\n");
	map_point(g, GEN_CL, b, fn, "\t\t", GEN_PACKED);
	sb_puts(b, "\t}\n}\n\n");
}

/* OpenCL: K__grid, for a kernel that reads its position, launched by
 * libbrt as a three-dimensional NDRange over brg_dom.xyz (brg_dom.w 1) when
 * every stream is packed in the domain's shape: the point's coordinates
 * are the work-item's, no division. With EXACT, K__gridx, for an NDRange
 * that is dom.xyz itself: no work-item outside it to send back (H200,
 * 8192 x 8192 stencil: 0.2740-0.2781 ms with the test, 0.2693-0.2700
 * without, alternating runs). */
static void cl_map_grid(gen_ctx *g, strbuf *b, const json_t *fn, int exact)
{
	cl_map_head(g, b, fn, "", exact ? "__gridx" : "__grid");
	sb_puts(b, "\tconst BRG_L brg_x = get_global_id(0), brg_y = "
		"get_global_id(1), brg_z = get_global_id(2);\n");
	if (!exact)
		sb_puts(b, "\tif (brg_x >= brg_d[0] || brg_y >= brg_d[1] || "
			"brg_z >= brg_d[2])\n\t\treturn;\n");
	sb_puts(b, ""
		"\tconst BRG_L brg_i = brg_x + brg_d[0] * (brg_y + brg_d[1] * "
		"brg_z);\n"
		"\tconst BRG_L brg_px = brg_x + brg_o[0] - brg_i, brg_py = "
		"brg_y + brg_o[1];\n"
		"\tconst BRG_L brg_pz = brg_z + brg_o[2], brg_pw = brg_o[3];\n");
	if (!g->interior) {
		map_point(g, GEN_CL, b, fn, "\t", GEN_PACKED);
		sb_puts(b, "}\n\n");
		return;
	}
	/* a row interior (gen_affine.c): where K__guard holds at the
	 * work-item's point, K__bodyin, gathers without clamps; x below
	 * 2^23, so that x + c is exact as a float */
	sb_puts(b, "\tconst int brg_X = (int)(brg_x + brg_o[0]);\n"
		"\tconst int brg_Y = (int)brg_py;\n"
		"\tint brg_ok = 0;\n"
		"\tif (brg_x + brg_o[0] < (1 << 23) && brg_py < (1 << 23)) {\n");
	map_point(g, GEN_CL, b, fn, "\t\t", GEN_GUARD);
	sb_puts(b, "\t}\n\tif (brg_ok) {\n");
	map_point(g, GEN_CL, b, fn, "\t\t", GEN_INTERIOR);
	sb_puts(b, "\t} else {\n");
	map_point(g, GEN_CL, b, fn, "\t\t", GEN_PACKED);
	sb_puts(b, "\t}\n}\n\n");
}

/* OpenCL: K__rows, for a kernel with a row interior, launched by libbrt
 * on a CPU device as a one-dimensional NDRange over the rows of
 * brg_dom.xyz (brg_dom.w 1): a work-item runs a whole row as the CPU
 * backend's packed path does (interior_rows), its interior through
 * K__bodyin in a loop whose loads are contiguous. Such a device runs a
 * work-group's work-items in turn, and does not vectorize K__grid's
 * test at every point (PoCL, 4,096 x 4,096 stencil: 21.5 ms with
 * K__gridx, 4.1 with a row a work-item; hand-written 7.2;
 * bench/RESULTS.md, 15:26). */
static void cl_map_rows(gen_ctx *g, strbuf *b, const json_t *fn)
{
	cl_map_head(g, b, fn, "", "__rows");
	sb_puts(b, ""
		"\tconst BRG_L brg_row = get_global_id(0);\n"
		"\tif (brg_row >= brg_d[1] * brg_d[2])\n\t\treturn;\n"
		"\tconst BRG_L brg_b = brg_row * brg_d[0], brg_r = brg_b + "
		"brg_d[0];\n"
		"\tconst BRG_L brg_px = brg_o[0] - brg_b, brg_py = brg_row % "
		"brg_d[1] + brg_o[1];\n"
		"\tconst BRG_L brg_pz = brg_row / brg_d[1] + brg_o[2], brg_pw = "
		"brg_o[3];\n"
		"\tconst int brg_Y = (int)brg_py;\n"
		"\tBRG_L brg_i = brg_b, brg_lo, brg_hi, brg_a;\n"
		"\tint brg_n, brg_ok = 0, brg_X;\n"
		/* rows of at least 32 points; x and y below 2^23, so that
		 * x + c is exact as a float */
		"\tbrg_lo = brg_d[0] >= 32 && brg_o[0] + brg_d[0] < (1 << 23) "
		"&& brg_py < (1 << 23) ? brg_b : brg_r;\n"
		"\tbrg_hi = brg_r;\n");
	row_interior(g, GEN_CL, b, fn, "\t");
	sb_puts(b, "\tfor (; brg_i < brg_r; brg_i++) {\n");
	map_point(g, GEN_CL, b, fn, "\t\t", GEN_PACKED);
	sb_puts(b, "\t}\n}\n\n");
}

static void map_entry(gen_ctx *g, gen_target t, strbuf *b, const json_t *fn)
{
	const char *name = ast_str(fn, "name");

	if (t == GEN_CL) {
		cl_map_head(g, b, fn, "", "");
		sb_puts(b, "\tconst BRG_L brg_i = get_global_id(0);\n"
			"\tif (brg_i >= brg_d[0] * brg_d[1] * brg_d[2] * "
			"brg_d[3])\n\t\treturn;\n");
		map_point(g, t, b, fn, "\t", GEN_VIEW);
		sb_puts(b, "}\n\n");
		if (map_uses_position(g, fn)) {
			cl_map_grid(g, b, fn, 0);
			/* only with a row interior: mandel, which has none,
			 * ran 1.7% slower without the test (H200) */
			if (g->interior) {
				cl_map_grid(g, b, fn, 1);
				cl_map_rows(g, b, fn);
			}
		} else
			cl_map_packed(g, b, fn);
		return;
	}
	cpu_map_packed(g, b, fn);
	g->i32 = 1;
	cpu_map_packed(g, b, fn);
	g->i32 = 0;
	sb_printf(b, "static %svoid %s__cpu(const brt_cpu_call *brg_c, "
		"int64_t brg_b, int64_t brg_e, int brg_first)\n{\n",
		gen_nolv(g, t, fn) ? "BRG_NOLV " : "", name);
	cpu_unpack(g, b, fn, UNPACK_ALL);
	rec_param(g, t, b, fn);
	dom_setup(t, b);
	sb_puts(b, "\tint64_t brg_i;\n\t(void)brg_first;\n");
	cpu_map_dispatch(g, b, fn);
	sb_puts(b, "\tfor (brg_i = brg_b; brg_i < brg_e; brg_i++) {\n");
	map_point(g, t, b, fn, "\t\t", GEN_VIEW);
	sb_puts(b, "\t}\n}\n\n");
}

/* ---- GroupSize kernels -------------------------------------------------- */

void gen_group_size(gen_ctx *g, const json_t *fn, long gs[3]);
void gen_group_size(gen_ctx *g, const json_t *fn, long gs[3])
{
	size_t i, k;
	json_t *a, *e;

	(void)g;
	gs[0] = gs[1] = gs[2] = 1;
	ast_array_foreach(ast_arr(fn, "attrs"), i, a) {
		if (!ty_streq(ast_str(a, "name"), "GroupSize"))
			continue;
		ast_array_foreach(ast_arr(a, "args"), k, e)
			if (k < 3 && ast_int(e, "value") > 0)
				gs[k] = (long)ast_int(e, "value");
	}
}

/* A shared array of vectors kept by components (gen_group.c,
 * gen_soa_plan): one array of scalars per component, of V's dimensions. */
static void soa_decl(gen_ctx *g, gen_target t, strbuf *b, const json_t *v,
	const char *ind)
{
	const json_t *ty = gen_resolve(g, ast_get(v, "type"));
	const json_t *el = gen_elem(g, ty);
	strbuf dims = { 0 };
	int c;

	for (; ty_streq(ty_kind(ty), "array"); ty = gen_resolve(g,
			ast_get(ty, "of")))
		sb_printf(&dims, "[%lld]", ast_int(ast_get(ty, "size"),
			"value"));
	for (c = 0; c < ty_ncomp(el); c++)
		sb_printf(b, "%s%s brg_soa_%s_%c%s;\n", ind,
			gen_arith_name(t, gen_scalar(el), 1), ast_str(v, "name"),
			"xyzw"[c], dims.s ? dims.s : "");
	sb_free(&dims);
}

/* --checked: the flags of shared variable V, one a component of an
 * element of a 1-D array of scalars or vectors (shared_checked); else
 * 0. */
static long long shared_flags(gen_ctx *g, const json_t *v)
{
	const json_t *ty = gen_resolve(g, ast_get(v, "type")), *el;

	if (!g->o || !g->o->checked || !ty_streq(ty_kind(ty), "array") ||
			!json_is_object(ast_get(ty, "size")) ||
			!ty_is_arith(el = gen_resolve(g, ast_get(ty, "of"))))
		return 0;
	return ast_int(ast_get(ty, "size"), "value") * ty_ncomp(el);
}

/* Shared arrays (guide 1.17.2): top-level "shared" declarations; those of
 * SOA by components. */
static void shared_decls(gen_ctx *g, gen_target t, strbuf *b, const json_t *fn,
	const char *ind, const json_t *soa)
{
	json_t *v;
	long long m;

	gen_shared_foreach(ast_get(fn, "body"), s, v) {
		if (gen_soa_is(soa, v)) {
			soa_decl(g, t, b, v, ind);
			continue;
		}
		sb_printf(b, "%s%s", ind, t == GEN_CL ? "__local " : "");
		gen_type(g, t, b, ast_get(v, "type"), ast_str(v, "name"));
		sb_puts(b, ";\n");
		/* --checked: its flags beside it (shared_checked) */
		if (t == GEN_CL && (m = shared_flags(g, v)))
			sb_printf(b, "%s__local uchar brg_sf_%s[%lld];\n", ind,
				ast_str(v, "name"), m);
	}
}

/* --checked, a group kernel: its shared variables start at 0 in every
 * group, as brrun's interpreter gives them, and each 1-D shared array of
 * scalars or vectors has a flag an element, brg_sf_NAME, set where a
 * work-item writes the element and tested where one reads it (gen_kcode.c,
 * shared_mode): the zeroing, shared among the N work-items of the group
 * on OpenCL (whose flags shared_decls declares), and on the CPU the
 * flags' declarations. */
static void shared_checked(gen_ctx *g, gen_target t, strbuf *b,
	const json_t *fn, const char *ind, long n)
{
	json_t *v;

	if (!g->o || !g->o->checked)
		return;
	gen_shared_foreach(ast_get(fn, "body"), s, v) {
		const char *name = ast_str(v, "name");
		long long m = shared_flags(g, v);
		if (t == GEN_CL) {
			sb_printf(b, "%sfor (brg_zi = brg_zl; brg_zi < "
				"(int)sizeof(%s); brg_zi += %ld)\n%s\t"
				"((__local uchar *)&%s)[brg_zi] = 0;\n",
				ind, name, n, ind, name);
			if (m > 0)
				sb_printf(b, "%sfor (brg_zi = brg_zl; brg_zi < "
					"%lld; brg_zi += %ld)\n%s\tbrg_sf_%s"
					"[brg_zi] = 0;\n", ind, m, n, ind,
					name);
		} else {
			sb_printf(b, "%smemset(&%s, 0, sizeof %s);\n", ind,
				name, name);
			if (m > 0)
				sb_printf(b, "%sunsigned char brg_sf_%s[%lld] = "
					"{0};\n%s(void)brg_sf_%s;\n", ind,
					name, m, ind, name);
		}
	}
}

static void set_name(json_t *names, const json_t *decl, const char *fmt,
	const char *name)
{
	char k[32], v[256];

	util_lltoa(k, ast_int(decl, "id"));
	snprintf(v, sizeof v, fmt, name);
	json_object_set_new(names, k, json_string(v));
}

/* The bytes of a scalar or vector of type T in OpenCL C (a 3-vector as
 * four), with alignment as much; else 0. */
static long arith_bytes(gen_ctx *g, const json_t *t)
{
	const char *s;

	t = gen_resolve(g, t);
	if (!ty_is_arith(t) || !(s = ty_scalar(t)) || ty_streq(s, "bool"))
		return 0;
	return ty_scalar_bits(s) / 8 * (ty_ncomp(t) == 3 ? 4 : ty_ncomp(t));
}

/* The bytes of a shared variable of type T: a scalar, vector, or array
 * of them with literal sizes; else 0. */
static long shared_bytes(gen_ctx *g, const json_t *t)
{
	const json_t *sz;
	long e;

	t = gen_resolve(g, t);
	if (!ty_is_array(t))
		return arith_bytes(g, t);
	sz = ast_get(t, "size");
	e = shared_bytes(g, ast_get(t, "of"));
	if (!ast_is(sz, "int") || ast_int(sz, "value") <= 0 ||
			ast_int(sz, "value") > (1L << 24) || e > (1L << 24))
		return 0;
	return e * (long)ast_int(sz, "value");
}

/* OpenCL: the local memory of group kernel FN's shared variables, or -1
 * where one has no size shared_bytes knows. */
static long shared_total(gen_ctx *g, const json_t *fn)
{
	json_t *v;
	long sum = 0, n;

	gen_shared_foreach(ast_get(fn, "body"), s, v) {
		if (!(n = shared_bytes(g, ast_get(v, "type"))) ||
				(sum += n) > (1L << 40))
			return -1;
		sum += shared_flags(g, v);
	}
	return sum;
}

/* Top-level locals of a group kernel live across phases: declared before
 * the first phase (per thread on the CPU, an array of N, but for a
 * uniform loop's of PLAN). On OpenCL, where a CPU device's build has room
 * in its local memory (-DBRG_CPU -DBRG_LOCAL_MEM=bytes, opencl.c), its
 * scalars and vectors are fields of a local array of structs, one a
 * work-item, named BRG_LV(x): such a device runs a group's work-items in
 * turn between barriers, and PoCL keeps a private variable that lives
 * across one in an array of its own, N elements, so that with 256
 * work-items a work-item's sixteen float4 accumulators of
 * bench/br/matmult_reg.br fell 4 KB apart, in one set of the L1 cache
 * (bench/RESULTS.md, 17:07): at 1024, 193-197 ms, with the structs 31-36
 * (hand-written 81-82; bench/RESULTS.md, 18:36). */
static int hoisted_decls(gen_ctx *g, gen_target t, strbuf *b,
	const json_t *fn, json_t *names, long n, const char *ind,
	const gen_gplan *plan, const long gs[3])
{
	json_t *vars = json_array(), *v, *seen = json_object();
	strbuf lv = {0}, priv = {0};
	long size = 0, align = 1, sh = t == GEN_CL ? shared_total(g, fn) : -1;
	size_t i;

	gen_hoisted(ast_get(fn, "body"), vars);
	/* a loop's variable named like a parameter, which it shadows there,
	   takes its own name at the function's scope, as one named like
	   another variable does */
	json_array_foreach(ast_arr(ast_get(fn, "type"), "params"), i, v)
		json_object_set_new(seen, ast_str(v, "name"), json_true());
	/* the struct's bytes, with OpenCL's alignment of each field */
	json_array_foreach(vars, i, v) {
		long e = sh >= 0 ? arith_bytes(g, ast_get(v, "type")) : 0;
		if (e && !gen_gplan_local(plan, v)) {
			size = (size + e - 1) / e * e + e;
			align = e > align ? e : align;
		}
	}
	size = (size + align - 1) / align * align;
	/* sizes past any device's local memory: private, without overflow */
	if (n > (1L << 20) || size > (1L << 20))
		size = 0;
	json_array_foreach(vars, i, v) {
		char nm[160], un[128];
		const char *name = ast_str(v, "name");
		int field = size && arith_bytes(g, ast_get(v, "type"));
		if (gen_gplan_local(plan, v))
			continue;	/* a uniform loop's (gen_group.c) */
		/* a name declared again in a loop's block (shadowing one
		   outside it) shares the function's scope now: its own */
		if (json_object_get(seen, name)) {
			snprintf(un, sizeof un, "brg_h%zu_%s", i, name);
			name = un;
			if (t != GEN_CPU)
				set_name(names, v, "%s", name);
		}
		json_object_set_new(seen, ast_str(v, "name"), json_true());
		if (t == GEN_CPU) {
			snprintf(nm, sizeof nm, "%s[%ld]", name, n);
			set_name(names, v, "%s[brg_t]", name);
		} else {
			snprintf(nm, sizeof nm, "%s", name);
		}
		if (field) {
			set_name(names, v, "BRG_LV(%s)", name);
			sb_puts(&lv, "\t\t");
			gen_type(g, t, &lv, ast_get(v, "type"), nm);
			sb_puts(&lv, ";\n");
		}
		sb_puts(field ? &priv : b, ind);
		gen_type(g, t, field ? &priv : b, ast_get(v, "type"), nm);
		sb_puts(field ? &priv : b, ";\n");
	}
	json_decref(vars);
	json_decref(seen);
	if (size)
		sb_printf(b, "#if defined(BRG_CPU) && BRG_LOCAL_MEM >= %ld\n"
			"\t__local struct {\n%s\t} brg_lv[%ld];\n"
			"\tconst int brg_lid = (int)(get_local_id(0) + %ld * "
			"(get_local_id(1) + %ld * get_local_id(2)));\n"
			"#define BRG_LV(x) brg_lv[brg_lid].x\n#else\n%s"
			"#define BRG_LV(x) x\n#endif\n", size * n + sh,
			lv.s, n, gs[0], gs[1], priv.s);
	sb_free(&lv);
	sb_free(&priv);
	return size > 0;
}

static void group_entry(gen_ctx *g, gen_target t, strbuf *b, const json_t *fn)
{
	json_t *params = params_of(fn);
	const char *name = ast_str(fn, "name");
	long gs[3], n;
	gen_fn f;
	json_t *p;
	size_t i;
	int lvs;

	gen_group_size(g, fn, gs);
	n = gs[0] * gs[1] * gs[2];
	memset(&f, 0, sizeof f);
	f.g = g;
	f.t = t;
	f.fn = fn;
	f.group = 1;
	f.names = gen_param_names(g, fn);
	if (gen_uses(ast_get(fn, "body"), "return"))
		f.ret_flag = t == GEN_CL ? "brg_ret" : "brg_ret[brg_t]";
	if (t == GEN_CL) {
		char attr[96];
		snprintf(attr, sizeof attr, "__attribute__(("
			"reqd_work_group_size(%ld, %ld, %ld))) ", gs[0], gs[1],
			gs[2]);
		cl_map_head(g, b, fn, attr, "");
		shared_decls(g, t, b, fn, "\t", NULL);
		sb_printf(b,
			"\tconst BRG_L brg_x = get_global_id(0), "
			"brg_y = get_global_id(1), brg_z = get_global_id(2);\n"
			"\tconst int brg_act = brg_x < brg_d[0] && "
			"brg_y < brg_d[1] && brg_z < brg_d[2];\n"
			"\tconst BRG_L brg_i = brg_act ? brg_x + brg_d[0] * "
			"(brg_y + brg_d[1] * brg_z) : 0;\n"
			"\tconst brg_ctx brg_cx = brg_withrec(brg_mkctx(brg_i, "
			"brg_d, brg_o), %s);\n"
			"\tconst int4 brg_ing = (int4)((int)get_local_id(0), "
			"(int)get_local_id(1), (int)get_local_id(2), 0);\n",
			gen_records(g, fn) ? "brg_rec" : "0");
		if (g->o && g->o->checked) {
			sb_printf(b, "\t{\n\t\tconst int brg_zl = (int)("
				"get_local_id(0) + %ld * (get_local_id(1) + %ld "
				"* get_local_id(2)));\n\t\tint brg_zi;\n",
				gs[0], gs[1]);
			shared_checked(g, t, b, fn, "\t\t", n);
			sb_puts(b, "\t\t(void)brg_zi;\n\t}\n"
				"\tbarrier(CLK_LOCAL_MEM_FENCE);\n");
		}
		json_array_foreach(params, i, p) {
			if (!is_role(p, "in"))
				continue;
			sb_puts(b, "\t");
			gen_type(g, t, b, gen_elem(g, ast_get(p, "type")),
				NULL);
			sb_printf(b, " %s_e;\n\tif (brg_act)\n\t\t%s_e = ",
				ast_str(p, "name"), ast_str(p, "name"));
			input_value(g, t, b, p, "brg_i");
			sb_puts(b, ";\n");
			set_name(f.names, p, "%s_e", ast_str(p, "name"));
		}
		lvs = hoisted_decls(g, t, b, fn, f.names, n, "\t", NULL, gs);
		if (f.ret_flag)
			sb_puts(b, "\tint brg_ret = 0;\n");
		f.depth = 1;
		gen_group_split(&f, b, ast_get(fn, "body"), f.ret_flag ?
			"if (brg_act && !brg_ret) {\n" : "if (brg_act) {\n",
			"}\n", "barrier(CLK_LOCAL_MEM_FENCE | "
			"CLK_GLOBAL_MEM_FENCE);\n");
		sb_puts(b, lvs ? "}\n#undef BRG_LV\n\n" : "}\n\n");
		json_decref(f.names);
		json_decref(f.smode);
		json_decref(f.gdep);
		return;
	}
	sb_printf(b, "static void %s__cpu(const brt_cpu_call *brg_c, "
		"int64_t brg_b, int64_t brg_e, int brg_first)\n{\n", name);
	cpu_unpack(g, b, fn, UNPACK_ALL);
	rec_param(g, t, b, fn);
	dom_setup(t, b);
	sb_printf(b,
		"\tconst long brg_gs[3] = { %ldL, %ldL, %ldL };\n"
		"\tBRG_L brg_gd[3], brg_g;\n"
		"\t(void)brg_first;\n"
		"\tfor (brg_k = 0; brg_k < 3; brg_k++)\n"
		"\t\tbrg_gd[brg_k] = (brg_d[brg_k] + brg_gs[brg_k] - 1) / "
		"brg_gs[brg_k];\n"
		"\tfor (brg_g = brg_b; brg_g < brg_e; brg_g++) {\n",
		gs[0], gs[1], gs[2]);
	f.soa = gen_soa_plan(g, fn);
	shared_decls(g, t, b, fn, "\t\t", f.soa);
	shared_checked(g, t, b, fn, "\t\t", n);
	sb_printf(b, "\t\tint brg_act[%ld];\n\t\tBRG_L brg_ti[%ld];\n"
		"\t\tint brg_t;\n", n, n);
	if (f.ret_flag)
		sb_printf(b, "\t\tint brg_ret[%ld];\n", n);
	json_array_foreach(params, i, p) {
		if (!is_role(p, "in"))
			continue;
		sb_puts(b, "\t\t");
		gen_type(g, t, b, gen_elem(g, ast_get(p, "type")), NULL);
		sb_printf(b, " %s_e[%ld];\n", ast_str(p, "name"), n);
		set_name(f.names, p, "%s_e[brg_t]", ast_str(p, "name"));
	}
	if (!g->o || !g->o->checked)
		f.gplan = gen_gplan_new(g, fn, n, gs[1] == 1 && gs[2] == 1 ?
			gs[0] : 0);
	hoisted_decls(g, t, b, fn, f.names, n, "\t\t", f.gplan, gs);
	sb_printf(b,
		"\t\tfor (brg_t = 0; brg_t < %ld; brg_t++) {\n"
		"\t\t\tconst BRG_L brg_x = brg_g %% brg_gd[0] * brg_gs[0] + "
		"brg_t %% brg_gs[0];\n"
		"\t\t\tconst BRG_L brg_y = brg_g / brg_gd[0] %% brg_gd[1] * "
		"brg_gs[1] + brg_t / brg_gs[0] %% brg_gs[1];\n"
		"\t\t\tconst BRG_L brg_z = brg_g / brg_gd[0] / brg_gd[1] * "
		"brg_gs[2] + brg_t / brg_gs[0] / brg_gs[1];\n"
		"\t\t\tconst BRG_L brg_i = brg_x + brg_d[0] * (brg_y + "
		"brg_d[1] * brg_z);\n"
		"\t\t\tbrg_act[brg_t] = brg_x < brg_d[0] && brg_y < brg_d[1] "
		"&& brg_z < brg_d[2];\n"
		"\t\t\tbrg_ti[brg_t] = brg_act[brg_t] ? brg_i : 0;\n"
		"%s"
		"\t\t\tif (!brg_act[brg_t])\n\t\t\t\tcontinue;\n", n,
		f.ret_flag ? "\t\t\tbrg_ret[brg_t] = 0;\n" : "");
	json_array_foreach(params, i, p) {
		if (!is_role(p, "in"))
			continue;
		sb_printf(b, "\t\t\t%s_e[brg_t] = ", ast_str(p, "name"));
		input_value(g, t, b, p, "brg_i");
		sb_puts(b, ";\n");
	}
	sb_puts(b, "\t\t}\n");
	{
		char open[768], mask[64], prolog[512];
		snprintf(mask, sizeof mask, "brg_act[brg_t]%s",
			f.ret_flag ? " && !brg_ret[brg_t]" : "");
		snprintf(prolog, sizeof prolog,
			"\t\t\tconst brg_ctx brg_cx = brg_withrec(brg_mkctx("
			"brg_ti[brg_t], brg_d, brg_o), %s);\n"
			"\t\t\tconst int4 brg_ing = int4_((int)(brg_t %% "
			"brg_gs[0]), (int)(brg_t / brg_gs[0] %% brg_gs[1]), "
			"(int)(brg_t / brg_gs[0] / brg_gs[1]), 0);\n"
			"\t\t\t(void)brg_cx;\n\t\t\t(void)brg_ing;\n",
			gen_records(g, fn) ? "brg_rec" : "0");
		snprintf(open, sizeof open, "for (brg_t = 0; brg_t < %ld; "
			"brg_t++) if (%s) {\n%s", n, mask, prolog);
		f.tmask = mask;
		f.tprolog = prolog;
		f.depth = 2;
		gen_group_split(&f, b, ast_get(fn, "body"), open, "}\n",
			"/* syncGroup() */\n");
	}
	sb_puts(b, "\t}\n}\n\n");
	gen_gplan_free(f.gplan);
	json_decref(f.soa);
	json_decref(f.names);
	json_decref(f.smode);
	json_decref(f.gdep);
}

/* ---- reductions ---------------------------------------------------------- */

static const json_t *role_param(const json_t *fn, const char *role, size_t *at)
{
	json_t *params = params_of(fn);
	json_t *p;
	size_t i;

	json_array_foreach(params, i, p)
		if (is_role(p, role)) {
			if (at)
				*at = i;
			return p;
		}
	return NULL;
}

/* name__body(x, &acc, values.., ctx) */
static void reduce_call(strbuf *b, const json_t *fn, const char *x,
	const char *acc, const char *ind)
{
	json_t *params = params_of(fn);
	json_t *p;
	size_t i;

	sb_printf(b, "%s%s__body(", ind, ast_str(fn, "name"));
	json_array_foreach(params, i, p) {
		if (i)
			sb_puts(b, ", ");
		if (is_role(p, "in"))
			sb_puts(b, x);
		else if (is_role(p, "reduce"))
			sb_puts(b, acc);
		else
			sb_puts(b, ast_str(p, "name"));
	}
	sb_puts(b, json_array_size(params) ? ", brg_cx);\n" : "brg_cx);\n");
}

/* OpenCL: while a consecutive block has four elements left for the
 * work-item, its four loads first, then their folds in the order of the
 * plain loop (same results): four loads in flight per work-item rather
 * than one, as a float4 load gives a hand-written reduction. */
static void cl_reduce_unrolled(gen_ctx *g, strbuf *b, const json_t *fn,
	const json_t *el, const char *op)
{
	int k;
	char x[16], ix[64];

	/* a reduce variable's partial results (map 4, a second launch) are
	   combined by its operator, not its body: the loop below does */
	sb_puts(b, op ? "\tif (brg_fast && brg_vin.map != 4)\n"
		: "\tif (brg_fast)\n");
	sb_puts(b, "\tfor (; brg_j + 3 * brg_L < brg_hi; brg_j += 4 * brg_L) {\n");
	for (k = 0; k < 4; k++) {
		snprintf(x, sizeof x, "brg_x%d", k);
		snprintf(ix, sizeof ix, "brg_st + brg_j + %d * brg_L", k);
		sb_puts(b, "\t\tconst ");
		gen_type(g, GEN_CL, b, el, x);
		sb_puts(b, " = ");
		gen_load(g, GEN_CL, b, el, "brg_in", ix);
		sb_puts(b, ";\n");
	}
	for (k = 0; k < 4; k++) {
		snprintf(x, sizeof x, "brg_x%d", k);
		if (!op)
			sb_printf(b, "\t\tif (!brg_have) {\n\t\t\tbrg_acc = "
				"%s;\n\t\t\tbrg_have = 1;\n\t\t} else\n", x);
		reduce_call(b, fn, x, "&brg_acc", op ? "\t\t" : "\t\t\t");
	}
	sb_puts(b, "\t}\n");
}

/* The operator of a reduce variable (spec 4.1.2: += *= |= ^= &=), or
 * NULL for a reduce function, whose body is its own combining rule. */
static const char *scan_reduce_op(const json_t *n)
{
	if (json_is_object(n)) {
		const char *key;
		json_t *v;
		if (ast_is(n, "assign") && ast_str(n, "reduce_op")[0] &&
				!ty_streq(ast_str(n, "reduce_op"), "="))
			return ast_str(n, "reduce_op");
		json_object_foreach((json_t *)n, key, v) {
			const char *op;
			if (ty_streq(key, "ty") || ty_streq(key, "at"))
				continue;
			if ((op = scan_reduce_op(v)))
				return op;
		}
	} else if (json_is_array(n)) {
		size_t i;
		json_t *v;
		json_array_foreach(n, i, v) {
			const char *op = scan_reduce_op(v);
			if (op)
				return op;
		}
	}
	return NULL;
}

const char *gen_reduce_op(const json_t *fn);
const char *gen_reduce_op(const json_t *fn)
{
	if (ast_bool(fn, "reduce"))
		return NULL;
	return scan_reduce_op(ast_get(fn, "body"));
}

/* VAR = the identity of OP (DESIGN.md reading 8), component-wise. */
static void reduce_identity(gen_ctx *g, gen_target t, strbuf *b,
	const json_t *el, const char *op, const char *var, const char *ind)
{
	const char *S = gen_arith_name(t, gen_scalar(el), 1);
	const char *v = ty_streq(op, "*=") ? "1" : ty_streq(op, "&=") ?
		"~0" : "0";
	int n = ty_ncomp(el), k;

	(void)g;
	if (n <= 1) {
		sb_printf(b, "%s%s = (%s)%s;\n", ind, var, S, v);
		return;
	}
	for (k = 0; k < n; k++)
		sb_printf(b, "%s%s.%c = (%s)%s;\n", ind, var, comp[k], S, v);
}

/* ACC = ACC op X, component-wise. */
static void reduce_combine(gen_ctx *g, strbuf *b, const json_t *el,
	const char *op, const char *acc, const char *x, const char *ind)
{
	int n = ty_ncomp(el), k;

	(void)g;
	if (n <= 1) {
		sb_printf(b, "%s%s = %s %.1s %s;\n", ind, acc, acc, op, x);
		return;
	}
	for (k = 0; k < n; k++)
		sb_printf(b, "%s%s.%c = %s.%c %.1s %s.%c;\n", ind, acc, comp[k],
			acc, comp[k], op, x, comp[k]);
}

/* The reduction tree's local memory, element IDX: a struct through its
 * brg_ldl_/brg_stl_ helpers (the packed host layout, as in buffers). */
static void tmp_load(gen_ctx *g, strbuf *b, const json_t *el, const char *idx)
{
	el = gen_resolve(g, el);
	if (!gen_scalar(el))
		sb_printf(b, "brg_ldl_%s(brg_tmp, %s)", ast_str(el, "tag"), idx);
	else
		gen_load(g, GEN_CL, b, el, "brg_tmp", idx);
}

static void tmp_store(gen_ctx *g, strbuf *b, const json_t *el,
	const char *idx, const char *val)
{
	el = gen_resolve(g, el);
	if (!gen_scalar(el))
		sb_printf(b, "brg_stl_%s(brg_tmp, %s, %s)", ast_str(el, "tag"),
			idx, val);
	else
		gen_store(g, GEN_CL, b, el, "brg_tmp", idx, val);
}

/* CPU: ACC = ACC combined with X, a partial result: by the operator of a
 * reduce variable, else by the reduce function's body (DESIGN.md reading
 * 8). */
static void cpu_merge(gen_ctx *g, strbuf *b, const json_t *fn,
	const json_t *el, const char *op, const char *acc, const char *x,
	const char *ind)
{
	char pa[64];

	if (op) {
		reduce_combine(g, b, el, op, acc, x, ind);
		return;
	}
	snprintf(pa, sizeof pa, "&%s", acc);
	reduce_call(b, fn, x, pa, ind);
}

/* cl_reduce_vector's test of a packed, aligned block, when COND (NULL:
 * always); vector_loop then opens its loop over the vectors, up to its
 * body, and vector_tail closes both. */
static void vector_head(strbuf *b, const char *cond)
{
	sb_printf(b, "\tif (brg_fast%s%s && ((brg_st + brg_lo) & 3) == 0) {\n"
		"\t\tconst BRG_L brg_q = (brg_st + brg_lo) / 4, brg_nq = "
		"(brg_hi - brg_lo) / 4;\n"
		"\t\tconst BRG_L brg_r = brg_hi - brg_lo - 4 * brg_nq;\n"
		"\t\tbrg_j = brg_l;\n", cond ? " && " : "", cond ? cond : "");
}

static void vector_loop(strbuf *b, const char *V)
{
	sb_printf(b, "\t\tfor (; brg_j < brg_nq; brg_j += brg_L) {\n"
		"\t\t\tconst %s brg_v = ((__global const %s *)brg_in)"
		"[brg_q + brg_j];\n", V, V);
}

/* OpenCL, a work-group of one work-item (a CPU device's, reduce.c): the
 * work-item's block is consecutive, and with one accumulator each fold
 * would wait for the one before. Eight accumulators, element i of the
 * block into accumulator i % 8, two vectors a step, then merged as a
 * tree, as the CPU backend's cpu_fold_packed does; the loop after it
 * takes the last vector, if any, and the scalar loop the last elements.
 * A reduce variable's accumulators start from the identity and take
 * every element through the body, merged by the operator; a reduce
 * function's start from the first eight elements. Only in a CPU device's
 * build (-DBRG_CPU, opencl.c): compiled for an H100, the unused branch
 * cost its reductions 1.5-3.5% (medians of six alternating rounds:
 * rowsum in runs of 16 calls 0.0254 -> 0.0263 ms a call, the sum of
 * 2^26 0.1091 -> 0.1119). */
static void cl_reduce_runs(gen_ctx *g, strbuf *b, const json_t *fn,
	const json_t *el, const char *op, const char *V)
{
	char x[32], a[32];
	int k;

	sb_puts(b, "#ifdef BRG_CPU\n\t\tif (brg_L == 1 && brg_nq >= 4) {\n"
		"\t\t\t");
	gen_type(g, GEN_CL, b, el, NULL);
	sb_puts(b, " brg_a[8];\n\t\t\tint brg_w;\n");
	if (op) {
		sb_puts(b, "\t\t\tfor (brg_k = 0; brg_k < 8; brg_k++) {\n");
		reduce_identity(g, GEN_CL, b, el, op, "brg_a[brg_k]",
			"\t\t\t\t");
		sb_puts(b, "\t\t\t}\n\t\t\tbrg_j = 0;\n");
	} else {
		sb_printf(b, "\t\t\tfor (brg_k = 0; brg_k < 2; brg_k++) {\n"
			"\t\t\t\tconst %s brg_v = ((__global const %s *)"
			"brg_in)[brg_q + brg_k];\n"
			"\t\t\t\tbrg_a[4 * brg_k] = brg_v.x;\n"
			"\t\t\t\tbrg_a[4 * brg_k + 1] = brg_v.y;\n"
			"\t\t\t\tbrg_a[4 * brg_k + 2] = brg_v.z;\n"
			"\t\t\t\tbrg_a[4 * brg_k + 3] = brg_v.w;\n"
			"\t\t\t}\n\t\t\tbrg_j = 2;\n", V, V);
	}
	sb_printf(b, "\t\t\tfor (; brg_j + 2 <= brg_nq; brg_j += 2) {\n"
		"\t\t\t\tconst %s brg_v = ((__global const %s *)brg_in)"
		"[brg_q + brg_j];\n"
		"\t\t\t\tconst %s brg_u = ((__global const %s *)brg_in)"
		"[brg_q + brg_j + 1];\n", V, V, V, V);
	for (k = 0; k < 8; k++) {
		snprintf(x, sizeof x, "brg_%c.%c", k < 4 ? 'v' : 'u',
			comp[k % 4]);
		snprintf(a, sizeof a, "&brg_a[%d]", k);
		reduce_call(b, fn, x, a, "\t\t\t\t");
	}
	sb_puts(b, "\t\t\t}\n\t\t\tfor (brg_w = 1; brg_w < 8; brg_w *= 2)\n"
		"\t\t\t\tfor (brg_k = 0; brg_k < 8; brg_k += 2 * brg_w)"
		" {\n");
	if (op)
		reduce_combine(g, b, el, op, "brg_a[brg_k]",
			"brg_a[brg_k + brg_w]", "\t\t\t\t\t");
	else
		reduce_call(b, fn, "brg_a[brg_k + brg_w]", "&brg_a[brg_k]",
			"\t\t\t\t\t");
	sb_puts(b, "\t\t\t\t}\n");
	if (op)
		reduce_combine(g, b, el, op, "brg_acc", "brg_a[0]",
			"\t\t\t");
	else {
		sb_puts(b, "\t\t\tif (!brg_have) {\n\t\t\t\tbrg_acc = "
			"brg_a[0];\n\t\t\t\tbrg_have = 1;\n\t\t\t} else\n");
		reduce_call(b, fn, "brg_a[0]", "&brg_acc", "\t\t\t\t");
	}
	sb_puts(b, "\t\t}\n#endif\n");
}

static void vector_tail(strbuf *b)
{
	sb_puts(b, "\t\t}\n"
		"\t\tbrg_j = brg_lo + 4 * brg_nq + brg_l;\n"
		"\t\tbrg_m = brg_nq > brg_r ? brg_nq : brg_r;\n"
		"\t\tif (brg_m > brg_L)\n\t\t\tbrg_m = brg_L;\n\t}\n");
}

/* OpenCL: a packed block of 4-byte scalars whose first element is at a
 * multiple of 4 is folded as the hand-written reductions do: work-item l
 * takes the vectors l, l + L, ... of its share, one 16-byte load each,
 * then the last (n mod 4) elements one each; brg_m becomes the number of
 * work-items that hold a value. A reduce variable's body takes each
 * element in turn (it may test them); a reduce function, the combining
 * rule, folds a vector as a tree, (x y) (z w), then into the accumulator
 * (reading 8 leaves the order free). */
static void cl_reduce_vector(gen_ctx *g, strbuf *b, const json_t *fn,
	const json_t *el, const char *op)
{
	const char *V = gen_arith_name(GEN_CL, gen_scalar(el), 4);
	char x[16];
	int k;

	if (op) {
		/* a reduce variable's partial results (map 4): its operator,
		   a vector at a time */
		vector_head(b, "brg_vin.map == 4");
		vector_loop(b, V);
		for (k = 0; k < 4; k++) {
			snprintf(x, sizeof x, "brg_v.%c", comp[k]);
			reduce_combine(g, b, el, op, "brg_acc", x, "\t\t\t");
		}
		vector_tail(b);
	}
	/* a reduce function combines its partial results by its body */
	vector_head(b, op ? "brg_vin.map != 4" : NULL);
	cl_reduce_runs(g, b, fn, el, op, V);
	vector_loop(b, V);
	if (op) {
		/* each element through the body, which may test it */
		for (k = 0; k < 4; k++) {
			snprintf(x, sizeof x, "brg_v.%c", comp[k]);
			reduce_call(b, fn, x, "&brg_acc", "\t\t\t");
		}
	} else {
		/* the test of brg_have stays in the loop: with the first
		 * vector peeled off, the H100 ran sum and rowsum about 5%
		 * slower */
		sb_puts(b, "\t\t\t");
		gen_type(g, GEN_CL, b, el, NULL);
		sb_puts(b, " brg_t0 = brg_v.x, brg_t1 = brg_v.z;\n");
		reduce_call(b, fn, "brg_v.y", "&brg_t0", "\t\t\t");
		reduce_call(b, fn, "brg_v.w", "&brg_t1", "\t\t\t");
		reduce_call(b, fn, "brg_t1", "&brg_t0", "\t\t\t");
		sb_puts(b, "\t\t\tif (!brg_have) {\n\t\t\t\tbrg_acc = brg_t0;"
			"\n\t\t\t\tbrg_have = 1;\n\t\t\t} else\n");
		reduce_call(b, fn, "brg_t0", "&brg_acc", "\t\t\t\t");
	}
	vector_tail(b);
}

/* CPU: the fold of a packed range (the input's view BRT_MAP_SAME) into
 * eight accumulators, element i into accumulator i % 8, then merged as a
 * tree: no accumulator waits on the previous element, and the C compiler
 * vectorizes the eight (as bench/cpu.c's sum_range). Reading 8 makes the
 * order free: the operation is associative and commutative. The tree is a
 * loop, (0 1) (2 3) (4 5) (6 7), (0 2) (4 6), (0 4), and the last
 * (n mod 8) elements follow it: written out as seven statements, or with
 * the last elements folded into accumulator 0 before it, the tree kept
 * GCC 12 from holding the eight in one vector register (-march=znver4: a
 * thread folds 15 GB/s so, 38 as now). */
static void cpu_fold_packed(gen_ctx *g, strbuf *b, const json_t *fn,
	const json_t *el, const char *op)
{
	sb_puts(b, "\tif (brg_in_v.map == 0 && brg_e - brg_b >= 16) {\n"
		"\t\tconst ");
	gen_type(g, GEN_CPU, b, el, NULL);
	sb_puts(b, " *brg_x8 = brg_in + brg_in_v.base;\n\t\t");
	gen_type(g, GEN_CPU, b, el, NULL);
	sb_puts(b, " brg_a[8];\n\t\tint brg_w;\n"
		"\t\tfor (brg_k = 0; brg_k < 8; brg_k++) {\n");
	if (op)
		reduce_identity(g, GEN_CPU, b, el, op, "brg_a[brg_k]",
			"\t\t\t");
	else
		sb_puts(b, "\t\t\tbrg_a[brg_k] = brg_x8[brg_b + brg_k];\n");
	sb_printf(b, "\t\t}\n\t\tfor (brg_i = brg_b + %d; brg_i + 8 <= brg_e; "
		"brg_i += 8)\n\t\t\tfor (brg_k = 0; brg_k < 8; brg_k++)\n",
		op ? 0 : 8);
	reduce_call(b, fn, "brg_x8[brg_i + brg_k]", "&brg_a[brg_k]",
		"\t\t\t\t");
	/* braces: a vector's merge is a statement a component */
	sb_puts(b, "\t\tfor (brg_w = 1; brg_w < 8; brg_w *= 2)\n"
		"\t\t\tfor (brg_k = 0; brg_k < 8; brg_k += 2 * brg_w) {\n");
	cpu_merge(g, b, fn, el, op, "brg_a[brg_k]", "brg_a[brg_k + brg_w]",
		"\t\t\t\t");
	sb_puts(b, "\t\t\t}\n\t\tfor (; brg_i < brg_e; brg_i++)\n");
	reduce_call(b, fn, "brg_x8[brg_i]", "&brg_a[0]", "\t\t\t");
	sb_puts(b, "\t\tif (brg_first)\n\t\t\t*brg_acc = brg_a[0];\n"
		"\t\telse {\n");
	cpu_merge(g, b, fn, el, op, "(*brg_acc)", "brg_a[0]", "\t\t\t");
	sb_puts(b, "\t\t}\n\t\treturn;\n\t}\n");
}

/* A reduction's context: no position; under --checked the launch's
 * records (brt.h, REDUCE), which every pass and combining step shares. */
static void reduce_ctx(gen_ctx *g, gen_target t, strbuf *b,
	const json_t *fn)
{
	if (!gen_records(g, fn)) {
		sb_puts(b, "\tconst brg_ctx brg_cx = brg_noctx();\n");
		return;
	}
	if (t != GEN_CL)
		rec_param(g, t, b, fn);
	sb_puts(b, "\tconst brg_ctx brg_cx = brg_withrec(brg_noctx(), "
		"brg_rec);\n");
}

static void reduce_entry(gen_ctx *g, gen_target t, strbuf *b,
	const json_t *fn)
{
	json_t *params = params_of(fn);
	const char *name = ast_str(fn, "name");
	size_t in_at = 0, r_at = 0, i;
	const json_t *in = role_param(fn, "in", &in_at);
	const json_t *r = role_param(fn, "reduce", &r_at), *p;
	const json_t *el;
	char cln[256];
	const char *op = gen_reduce_op(fn);

	if (!in || !r) {
		gen_error(g, fn, "E-gen-reduce",
			"a reduction needs one input stream and one reduce "
			"parameter");
		return;
	}
	el = gen_elem(g, ast_get(in, "type"));
	if (op && ty_is_struct(el)) {
		/* brcheck refuses it (E-reduce-var-type): the operator has no
		 * meaning for a struct, whose partials it would combine */
		gen_error(g, fn, "E-gen-reduce", "a reduction variable of a "
			"struct type needs a reduce function");
		return;
	}
	if (t == GEN_CL) {
		sb_printf(b, "__kernel void %s__reduce(__global const ",
			gen_cl_name(name, cln, sizeof cln));
		gen_storage(g, t, b, el);
		sb_puts(b, " *brg_in, const brt_view brg_vin, __global ");
		gen_storage(g, t, b, el);
		sb_puts(b, " *brg_out, const BRG_L brg_nout,\n\tconst BRG_L4 "
			"brg_block, const BRG_L brg_chunks, __local ");
		/* a struct's bytes: local memory as ulong, for the alignment
		 * of its fields (a device may align a uchar argument to 1) */
		if (gen_scalar(gen_resolve(g, el)))
			gen_storage(g, t, b, el);
		else
			sb_puts(b, "ulong");
		sb_puts(b, gen_scalar(gen_resolve(g, el)) ? " *brg_tmp" :
			" *brg_tmpa");
		json_array_foreach(params, i, p) {
			if (!is_role(p, "value"))
				continue;
			if (!gen_scalar(gen_resolve(g, ast_get(p, "type"))) &&
					ast_str(gen_resolve(g, ast_get(p,
					"type")), "tag")[0]) {
				sb_printf(b, ", const brg_pk_%s %s__pk",
					ast_str(gen_resolve(g, ast_get(p,
					"type")), "tag"), ast_str(p, "name"));
				continue;
			}
			sb_puts(b, ", const ");
			gen_type(g, t, b, gen_resolve(g, ast_get(p, "type")),
				ast_str(p, "name"));
		}
		rec_param(g, t, b, fn);
		sb_puts(b, ")\n{\n");
		if (!gen_scalar(gen_resolve(g, el)))
			sb_puts(b, "\t__local uchar *brg_tmp = (__local uchar *)"
				"brg_tmpa;\n");
		cl_unpack_values(g, b, fn);
		sb_puts(b, "\tBRG_L brg_bd[4], brg_od[4], brg_oc[4], "
			"brg_bc[4], brg_n, brg_lo, brg_hi, brg_j, brg_m, brg_s;\n"
			"\tBRG_L brg_st, brg_p = 1;\n\tint brg_fast = 1, brg_pk;\n"
			"\tconst BRG_L brg_g = get_group_id(0);\n"
			"\tBRG_L brg_o = brg_g, brg_c = 0;\n"
			"\tconst BRG_L brg_l = get_local_id(0), brg_L = "
			"get_local_size(0);\n\tint brg_k, brg_have = 0;\n");
		reduce_ctx(g, t, b, fn);
		sb_puts(b, "\t");
		gen_type(g, t, b, el, NULL);
		sb_puts(b, " brg_acc, brg_x;\n");
		if (op) {
			/* a reduce variable: every work-item starts from the
			 * identity */
			reduce_identity(g, t, b, el, op, "brg_acc", "\t");
			sb_puts(b, "\tbrg_have = 1;\n");
		}
		sb_puts(b, ""
			"\tbrg_bd[0] = brg_block.x; brg_bd[1] = brg_block.y; "
			"brg_bd[2] = brg_block.z; brg_bd[3] = brg_block.w;\n"
			"\tbrg_n = brg_bd[0] * brg_bd[1] * brg_bd[2] * brg_bd[3];\n"
			/* no division where each block is one work-group's
			 * (chunks 1) nor for the start of a packed run: up to
			 * ten divisions came before the first load. H100, rows
			 * of 4,096 floats in runs of 16 calls: 0.0275 -> 0.0268
			 * ms a call */
			"\tbrg_lo = 0;\n\tbrg_hi = brg_n;\n"
			"\tif (brg_chunks != 1) {\n"
			"\t\tbrg_o = brg_g / brg_chunks;\n"
			"\t\tbrg_c = brg_g % brg_chunks;\n"
			"\t\tbrg_lo = (BRG_L)((long)brg_c * brg_n / brg_chunks);\n"
			"\t\tbrg_hi = (BRG_L)((long)(brg_c + 1) * brg_n / "
			"brg_chunks);\n\t}\n"
			/* a block that is one run of a packed input (a whole
			 * reduction, whole rows, ...): its elements are
			 * consecutive, read in coalesced order, and it starts
			 * at element o n of the input (brg_st, which only the
			 * fast paths read; the others address by brg_oc) */
			"\tbrg_pk = 1;\n"
			"\tfor (brg_k = 0; brg_k < 4; brg_k++) {\n"
			"\t\tif (brg_vin.dims[brg_k] > 1 && brg_vin.pitch[brg_k] "
			"!= brg_p)\n\t\t\tbrg_fast = 0;\n"
			"\t\tbrg_p *= brg_vin.dims[brg_k];\n"
			"\t\tif (!brg_pk && brg_bd[brg_k] != 1)\n"
			"\t\t\tbrg_fast = 0;\n"
			"\t\tif (brg_bd[brg_k] != brg_vin.dims[brg_k])\n"
			"\t\t\tbrg_pk = 0;\n\t}\n"
			"\tbrg_st = brg_vin.base + brg_o * brg_n;\n"
			"\tif (!brg_fast) {\n"
			"\t\tfor (brg_k = 0; brg_k < 4; brg_k++)\n"
			"\t\t\tbrg_od[brg_k] = brg_vin.dims[brg_k] / "
			"brg_bd[brg_k];\n"
			"\t\tbrg_coords(brg_o, brg_od, brg_oc);\n\t}\n"
			"\tbrg_j = brg_lo + brg_l;\n"
			/* the work-items that will hold a value */
			"\tbrg_m = brg_hi - brg_lo < brg_L ? brg_hi - brg_lo : "
			"brg_L;\n");
		if (ty_ncomp(gen_resolve(g, el)) == 1 &&
				lane_vector_of(gen_scalar(gen_resolve(g, el))))
			cl_reduce_vector(g, b, fn, el, op);
		cl_reduce_unrolled(g, b, fn, el, op);
		sb_puts(b, ""
			"\tfor (; brg_j < brg_hi; brg_j += "
			"brg_L) {\n\t\tBRG_L brg_e = brg_st + brg_j;\n"
			"\t\tif (!brg_fast) {\n\t\t\tbrg_e = brg_vin.base;\n"
			"\t\t\tbrg_coords(brg_j, brg_bd, brg_bc);\n"
			"\t\t\tfor (brg_k = 0; brg_k < 4; brg_k++)\n"
			"\t\t\t\tbrg_e += (brg_oc[brg_k] * brg_bd[brg_k] + "
			"brg_bc[brg_k]) * brg_vin.pitch[brg_k];\n\t\t}\n"
			"\t\tbrg_x = ");
		gen_load(g, t, b, el, "brg_in", "brg_e");
		sb_puts(b, ";\n");
		if (op) {
			sb_puts(b, "\t\tif (brg_vin.map == 4) {\n");
			reduce_combine(g, b, el, op, "brg_acc", "brg_x",
				"\t\t\t");
			sb_puts(b, "\t\t\tcontinue;\n\t\t}\n");
		} else {
			sb_puts(b, "\t\tif (!brg_have) {\n\t\t\tbrg_acc = "
				"brg_x;\n\t\t\tbrg_have = 1;\n"
				"\t\t\tcontinue;\n\t\t}\n");
		}
		reduce_call(b, fn, "brg_x", "&brg_acc", "\t\t");
		sb_puts(b, "\t}\n\tif (brg_have)\n\t\t");
		tmp_store(g, b, el, "brg_l", "brg_acc");
		sb_puts(b, ";\n\tbarrier(CLK_LOCAL_MEM_FENCE);\n"
			/* brt.h: L is a power of two; before the step of s,
			 * tmp[0, min(m, 2s)) hold values, after it tmp[0, s) */
			"\tfor (brg_s = brg_L / 2; brg_s > 0; brg_s >>= 1) {\n"
			"\t\tif (brg_l < brg_s && brg_l + brg_s < brg_m) {\n"
			"\t\t\tbrg_acc = ");
		tmp_load(g, b, el, "brg_l");
		sb_puts(b, ";\n\t\t\tbrg_x = ");
		tmp_load(g, b, el, "brg_l + brg_s");
		sb_puts(b, ";\n");
		if (op)
			reduce_combine(g, b, el, op, "brg_acc", "brg_x",
				"\t\t\t");
		else
			reduce_call(b, fn, "brg_x", "&brg_acc", "\t\t\t");
		sb_puts(b, "\t\t\t");
		tmp_store(g, b, el, "brg_l", "brg_acc");
		sb_puts(b, ";\n\t\t}\n\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n\t}\n"
			"\tif (brg_l == 0) {\n\t\tbrg_acc = ");
		tmp_load(g, b, el, "0");
		sb_puts(b, ";\n\t\t");
		gen_store(g, t, b, el, "brg_out", "brg_o * brg_chunks + brg_c",
			"brg_acc");
		sb_puts(b, ";\n\t}\n}\n\n");
		return;
	}
	/* CPU: brt.h, REDUCE: [begin, end) within one brg_block, FIRST set */
	sb_printf(b, "static void %s__cpu(const brt_cpu_call *brg_c, "
		"int64_t brg_b, int64_t brg_e, int brg_first)\n{\n", name);
	sb_puts(b, "\tconst ");
	gen_type(g, t, b, el, NULL);
	sb_puts(b, " *brg_in = (const ");
	gen_type(g, t, b, el, NULL);
	sb_printf(b, " *)brg_c->data[%zu];\n\tconst brt_view brg_in_v = "
		"brg_c->views[%zu];\n\t", in_at, in_at);
	gen_type(g, t, b, el, NULL);
	sb_puts(b, " *brg_acc = (");
	gen_type(g, t, b, el, NULL);
	sb_printf(b, " *)brg_c->data[%zu];\n", r_at);
	cpu_unpack(g, b, fn, UNPACK_VALUES);
	reduce_ctx(g, t, b, fn);
	sb_puts(b, "\tBRG_L brg_d[4];\n\tint64_t brg_i;\n\tint brg_k;\n"
		"\tfor (brg_k = 0; brg_k < 4; brg_k++)\n"
		"\t\tbrg_d[brg_k] = brg_c->dims[brg_k];\n");
	cpu_fold_packed(g, b, fn, el, op);
	sb_puts(b, "\tfor (brg_i = brg_b; brg_i < brg_e; brg_i++) {\n\t\tconst ");
	gen_type(g, t, b, el, NULL);
	sb_puts(b, " brg_x = brg_in[brg_idx(&brg_in_v, brg_i, brg_d)];\n");
	if (op) {
		sb_puts(b, "\t\tif (brg_first) {\n");
		reduce_identity(g, t, b, el, op, "(*brg_acc)", "\t\t\t");
		sb_puts(b, "\t\t\tbrg_first = 0;\n\t\t}\n");
	} else {
		sb_puts(b, "\t\tif (brg_first) {\n\t\t\t*brg_acc = brg_x;\n"
			"\t\t\tbrg_first = 0;\n\t\t\tcontinue;\n\t\t}\n");
	}
	reduce_call(b, fn, "brg_x", "brg_acc", "\t\t");
	sb_puts(b, "\t}\n}\n\n");
	/* the combining rule (brt.h, combine_call): the same body on a
	 * partial result, with the call's constant arguments */
	sb_printf(b, "static void %s__combine(const brt_cpu_call *brg_c, "
		"const void *brg_val, void *brg_accp)\n{\n", name);
	reduce_ctx(g, t, b, fn);
	sb_puts(b, "\t");
	gen_type(g, t, b, el, NULL);
	sb_puts(b, " brg_x;\n");
	cpu_unpack(g, b, fn, UNPACK_VALUES);
	sb_puts(b, "\t(void)brg_c;\n\tmemcpy(&brg_x, brg_val, sizeof brg_x);\n");
	if (op) {
		strbuf acc = {0};
		sb_puts(&acc, "(*(");
		gen_type(g, t, &acc, el, NULL);
		sb_puts(&acc, " *)brg_accp)");
		sb_puts(b, "\t(void)brg_cx;\n");
		reduce_combine(g, b, el, op, acc.s, "brg_x", "\t");
		sb_free(&acc);
	} else {
		strbuf acc = {0};
		sb_puts(&acc, "(");
		gen_type(g, t, &acc, el, NULL);
		sb_puts(&acc, " *)brg_accp");
		reduce_call(b, fn, "brg_x", acc.s, "\t");
		sb_free(&acc);
	}
	sb_puts(b, "}\n\n");
}

/* Every entry point of kernel FN on target T, after its body function. */
void gen_entries(gen_ctx *g, gen_target t, strbuf *b, const json_t *fn);
void gen_entries(gen_ctx *g, gen_target t, strbuf *b, const json_t *fn)
{
	const char *cls = gen_kclass(fn);

	if (gen_is_group(fn))
		group_entry(g, t, b, fn);
	else if (ty_streq(cls, "reduce"))
		reduce_entry(g, t, b, fn);
	else
		map_entry(g, t, b, fn);
}
