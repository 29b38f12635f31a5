/* gen.c - brgen's driver: checks that the AST is a checked brast document,
 * indexes its declarations, and runs the three writers (host C, OpenCL C,
 * CPU C), the OpenCL C in a second thread where it can (print_both). Also
 * the type helpers the writers share. */
#define _GNU_SOURCE	/* pthread_attr_setaffinity_np, sched_getcpu */
#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "brook/ast.h"
#include "brook/gen_int.h"
#include "brook/type.h"

/* A diagnostic of a thread of gen_program, reported after it (gen_error). */
struct gen_late {
	const char *file;
	int line, col;
	char *id, *msg;
};

/* A new last entry of G's kept diagnostics. */
static struct gen_late *late_slot(gen_ctx *g)
{
	if (g->nlate == g->caplate) {
		g->caplate = g->caplate ? 2 * g->caplate : 8;
		g->late = xrealloc(g->late, g->caplate * sizeof *g->late);
	}
	return &g->late[g->nlate++];
}

void gen_error(gen_ctx *g, const json_t *n, const char *id, const char *fmt,
	...)
{
	char msg[1024];
	const char *file = NULL;
	int line = 0, col = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (n && ast_at(g->doc, n, &file, &line, &col) != 0)
		file = NULL;
	if (g->keep_late) {
		struct gen_late *l = late_slot(g);
		l->file = file;
		l->line = line;
		l->col = col;
		l->id = id ? xstrdup(id) : NULL;
		l->msg = xstrdup(msg);
	} else {
		diag_report(g->d, DIAG_ERROR, file, line, col, id, "%s", msg);
	}
	g->nerrors++;
}

/* Frees the N kept diagnostics V. */
static void late_free(struct gen_late *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].id);
		free(v[i].msg);
	}
	free(v);
}

/* Reports G's kept diagnostics (REPORT 0: drops them). */
static void late_report(gen_ctx *g, int report)
{
	for (size_t i = 0; report && i < g->nlate; i++) {
		struct gen_late *l = &g->late[i];
		diag_report(g->d, DIAG_ERROR, l->file, l->line, l->col, l->id,
			"%s", l->msg);
	}
	late_free(g->late, g->nlate);
	g->late = NULL;
	g->nlate = g->caplate = 0;
}

/* What the walk of index_node collects besides the index: the indexof
 * nodes of function bodies, the subkernel calls of function bodies (and
 * the declaration each lies in) and the calls in the bodies of functions
 * that are not kernels, in the order a walk of each body alone would
 * meet them. */
enum { SITE_INDEXOF = 1, SITE_CALL = 2, SITE_SUB = 4 };

typedef struct {
	const json_t **n;	/* the nodes */
	size_t *decl;		/* the position in "decls" of each */
	size_t count, cap;
} gen_sitelist;

typedef struct {
	gen_sitelist idx;	/* indexof nodes */
	gen_sitelist sub;	/* subkernel calls */
	gen_sitelist calls;	/* calls in functions that are not kernels */
	size_t decl;		/* the declaration being walked */
	/* while the document is read (gen_prep): the walk changes no
	   node, and notes what it would change, in its order */
	int defer;
	gen_sitelist fold;	/* members whose swizzle swizzle_fold
				   makes one */
	gen_sitelist anon;	/* struct and union types anon_tag tags */
} gen_sites;

static void sitelist_add(gen_sitelist *l, const json_t *n, size_t decl)
{
	if (l->count == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->n = xrealloc(l->n, l->cap * sizeof *l->n);
		l->decl = xrealloc(l->decl, l->cap * sizeof *l->decl);
	}
	l->n[l->count] = n;
	l->decl[l->count++] = decl;
}

static void sitelist_free(gen_sitelist *l)
{
	free(l->n);
	free(l->decl);
}

/* sitelist_free of a list that holds a reference to each node. */
static void sitelist_release(gen_sitelist *l)
{
	for (size_t i = 0; i < l->count; i++)
		json_decref((json_t *)l->n[i]);
	sitelist_free(l);
}

static void sites_add(gen_sites *s, const json_t *n, const char *kind,
	unsigned want)
{
	if ((want & SITE_INDEXOF) && ty_streq(kind, "indexof"))
		sitelist_add(&s->idx, n, s->decl);
	if ((want & SITE_SUB) && ty_streq(kind, "call") &&
			ty_streq(ast_str(n, "callee"), "sub"))
		sitelist_add(&s->sub, n, s->decl);
	if ((want & SITE_CALL) && ty_streq(kind, "call"))
		sitelist_add(&s->calls, n, s->decl);
}

/* Which sites the walk still looks for under member KEY of a node where
 * it looks for WANT: the indexof scan never entered "type" nor "ty", the
 * scan for calls never "ty". */
static unsigned sites_under(const char *key, unsigned want)
{
	if (want && key[0] == 't' && key[1] == 'y') {
		if (key[2] == '\0')
			return 0;
		if (key[2] == 'p' && key[3] == 'e' && key[4] == '\0')
			return want & ~(unsigned)SITE_INDEXOF;
	}
	return want;
}

/* An anonymous struct or union (typedef struct { ... } P;) takes a tag
 * made of where it is defined, brg_sFILE_LINE_COL: the generated code
 * names struct types by their tags (struct TAG, brg_pk_TAG, brg_ld_TAG),
 * and every copy of the definition in the AST has the same "at". The
 * brg_ prefix is the generated code's (brcheck, E-generated-name), so no
 * tag of the program's can be the same. Returns the new tag, or NULL. */
static const char *anon_name(const json_t *at, char *name, size_t len)
{
	if (json_array_size(at) != 3)
		return NULL;
	snprintf(name, len, "brg_s%" JSON_INTEGER_FORMAT "_%"
		JSON_INTEGER_FORMAT "_%" JSON_INTEGER_FORMAT,
		json_integer_value(json_array_get(at, 0)),
		json_integer_value(json_array_get(at, 1)),
		json_integer_value(json_array_get(at, 2)));
	return name;
}

static json_t *anon_tag(const json_t *n, const json_t *at)
{
	char name[64];

	if (!anon_name(at, name, sizeof name))
		return NULL;
	json_object_set_new((json_t *)n, "tag", json_string(name));
	return json_object_get(n, "tag");
}

/* Swizzle member N over member E (through parentheses), itself a
 * swizzle: N made one swizzle of the vector under E (v.zw.x: v.z), which
 * C, where brgen writes the CPU's swizzles of several components as
 * calls, could not assign to. Returns what N's "e" is now. */
static json_t *swizzle_fold(json_t *n, json_t *e)
{
	json_t *sw = ast_arr(n, "swizzle"), *in = e;
	char name[8];

	while (ast_is(in, "paren"))
		in = ast_get(in, "e");
	if (!ast_is(in, "member") || !json_array_size(ast_arr(in, "swizzle"))
			|| json_array_size(sw) > 4)
		return e;
	json_t *isw = ast_arr(in, "swizzle"), *fold = json_array();
	size_t i;
	for (i = 0; i < json_array_size(sw); i++) {
		json_t *c = json_array_get(isw, (size_t)json_integer_value(
			json_array_get(sw, i)));
		if (!json_is_integer(c)) {	/* not checked: as it is */
			json_decref(fold);
			return e;
		}
		json_array_append(fold, c);
		name[i] = "xyzw"[json_integer_value(c) & 3];
	}
	name[i] = 0;
	e = ast_get(in, "e");
	json_object_set(n, "e", e);	/* IN and its parentheses go */
	json_object_set_new(n, "swizzle", fold);
	json_object_set_new(n, "name", json_string(name));
	return swizzle_fold(n, e);
}

/* Records every node with an "id" (brcheck numbers declarations) and the
 * struct and union tags defined with their fields, a node before the
 * nodes inside it, and collects into S the sites of WANT (the sites of
 * BODY under member "body"). One pass over the members finds "id", "k",
 * "fields" and "tag" and notes the members to walk (all but "at"):
 * cheaper than a hash lookup of each name and a second pass on every
 * node; and one walk of the tree instead of one for the index and one
 * for each kind of site. Recursion follows the tree's own depth, which
 * the parser bounds. */
static void index_node(gen_ctx *g, const json_t *n, gen_sites *s,
	unsigned want, unsigned body)
{
	if (json_is_object(n)) {
		json_t *id = NULL, *kind = NULL, *tag = NULL, *at = NULL;
		json_t *kids[16], *swz = NULL;
		unsigned char kwant[16];
		size_t nkids = 0, i, ekid = 16;
		int fields = 0, more = 0;
		for (void *it = json_object_iter((json_t *)n); it;
				it = json_object_iter_next((json_t *)n, it)) {
			const char *key = json_object_iter_key(it);
			json_t *v = json_object_iter_value(it);
			unsigned w = want;
			/* the names by their letters: most are a few long,
			 * and a call to strcmp costs more than the test */
			switch (key[0]) {
			case 'a':
				if (key[1] == 't' && key[2] == '\0') {
					at = v;
					continue;
				}
				break;
			case 'b':
				if (body && ty_streq(key, "body"))
					w = body;
				break;
			case 'i':
				if (key[1] == 'd' && key[2] == '\0')
					id = v;
				break;
			case 'k': if (key[1] == '\0') kind = v; break;
			case 'f': fields |= ty_streq(key, "fields"); break;
			case 'e':
				if (key[1] == '\0' && json_is_object(v))
					ekid = nkids;
				break;
			case 's':
				if (ty_streq(key, "swizzle")) {
					/* numbers only; swizzle_fold may
					   replace it */
					swz = v;
					continue;
				}
				break;
			case 't':
				if (key[1] == 'a' && key[2] == 'g' &&
						key[3] == '\0')
					tag = v;
				w = sites_under(key, want);
				break;
			}
			if (!json_is_object(v) && !json_is_array(v))
				continue;	/* nothing to index inside */
			if (nkids < sizeof kids / sizeof kids[0]) {
				kwant[nkids] = (unsigned char)w;
				kids[nkids++] = v;
			} else {
				more = 1;
			}
		}
		if (swz && ekid < nkids && ast_is(n, "member")) {
			if (s->defer)	/* its fold may free the next */
				sitelist_add(&s->fold, json_incref((json_t *)n),
					0);
			else
				kids[ekid] = swizzle_fold((json_t *)n,
					kids[ekid]);
		}
		if (fields && !json_string_length(tag)) {
			char name[64];
			if (!s->defer) {
				tag = anon_tag(n, at);
			} else if (anon_name(at, name, sizeof name)) {
				/* its place among the tags now, its "tag"
				   member later */
				json_object_set(g->tags, name, (json_t *)n);
				sitelist_add(&s->anon, n, 0);
			}
		}
		if (fields && json_string_length(tag))
			json_object_set(g->tags, json_string_value(tag),
				(json_t *)n);
		if (json_is_integer(id) && json_string_length(kind))
			util_map_put(&g->byid, (uint64_t)json_integer_value(id),
				(uint64_t)(uintptr_t)n);
		if (want && json_is_string(kind))
			sites_add(s, n, json_string_value(kind), want);
		for (i = 0; i < nkids; i++)
			index_node(g, kids[i], s, kwant[i], 0);
		if (more) {
			const char *key;
			json_t *v;
			i = 0;
			json_object_foreach((json_t *)n, key, v)
				if (!ty_streq(key, "at") && (json_is_object(v)
						|| json_is_array(v)) &&
						i++ >= nkids)
					index_node(g, v, s, body &&
						ty_streq(key, "body") ?
						body : sites_under(key, want),
						0);
		}
	} else if (json_is_array(n)) {
		size_t i, count = json_array_size(n);
		for (i = 0; i < count; i++) {
			json_t *v = json_array_get(n, i);
			if (json_is_object(v) || json_is_array(v))
				index_node(g, v, s, want, 0);
		}
	}
}

static void index_typedefs(gen_ctx *g, const json_t *decls)
{
	size_t i, j;
	json_t *d, *v;

	json_array_foreach(decls, i, d) {
		if (!ast_is(d, "decl") || !ty_streq(ast_str(d, "storage"),
				"typedef"))
			continue;
		ast_array_foreach(ast_arr(d, "vars"), j, v)
			json_object_set(g->typedefs, ast_str(v, "name"),
				ast_get(v, "type"));
	}
}

const json_t *gen_decl(gen_ctx *g, const json_t *idnode)
{
	json_t *ref = ast_get(idnode, "ref");
	const uint64_t *n;

	if (!json_is_integer(ref))
		return NULL;
	n = util_map_get(&g->byid, (uint64_t)json_integer_value(ref));
	return n ? (const json_t *)(uintptr_t)*n : NULL;
}

gen_fninfo *gen_fn_info(gen_ctx *g, const json_t *fn)
{
	/* a kernel's questions come together: the newest entry first */
	for (size_t i = g->nfns; i-- > 0; )
		if (g->fns[i].fn == fn)
			return &g->fns[i];
	if (g->nfns == g->capfns) {
		g->capfns = g->capfns ? 2 * g->capfns : 64;
		g->fns = xrealloc(g->fns, g->capfns * sizeof *g->fns);
	}
	gen_fninfo *fi = &g->fns[g->nfns++];
	memset(fi, 0, sizeof *fi);
	fi->fn = fn;
	fi->pos = -1;
	fi->records = -1;
	fi->nolv = -1;
	return fi;
}

const json_t *gen_resolve(gen_ctx *g, const json_t *ty)
{
	int guard = 0;
	/* each type's kind asked once: gen_resolve is called for most
	   questions code generation asks of a type */
	const char *kind = ty_kind(ty);

	while (ty && ty_streq(kind, "typedef") && guard++ < 64) {
		const json_t *to = json_object_get(g->typedefs,
			ast_str(ty, "name"));
		if (!to)
			break;
		ty = to;
		kind = ty_kind(ty);
	}
	if (ty_streq(kind, "enum") && g->enum_int)
		return g->enum_int;
	return ty;
}

/* Canonical scalar: the few synonyms of ast.h folded into one name. */
const char *gen_scalar(const json_t *ty)
{
	const char *s = ty_scalar(ty);

	if (!s)
		return NULL;
	switch (s[0]) {	/* the synonyms' first letters: most need no strcmp */
	case 'b': case 'l': case 's': case 'u': break;
	default: return s;
	}
	if (ty_streq(s, "schar"))
		return "char";
	if (ty_streq(s, "llong"))
		return "long";
	if (ty_streq(s, "ullong"))
		return "ulong";
	if (ty_streq(s, "bool"))
		return "int";
	if (ty_streq(s, "ldouble"))
		return "double";
	return s;
}

const char *gen_arith_name(gen_target t, const char *s, int n)
{
	static const char *const cpu_scalar[][2] = {
		{"char", "signed char"}, {"uchar", "unsigned char"},
		{"ushort", "unsigned short"}, {"uint", "unsigned int"},
		{"long", "long long"}, {"ulong", "unsigned long long"},
	};
	size_t i;

	if (n > 1)
		return ty_vector_name(s, n);
	if (t == GEN_CPU)
		for (i = 0; i < sizeof cpu_scalar / sizeof cpu_scalar[0]; i++)
			if (strcmp(cpu_scalar[i][0], s) == 0)
				return cpu_scalar[i][1];
	return s;
}

const char *gen_role(const json_t *param)
{
	return ast_str(param, "role");
}

int gen_has_qual(const json_t *n, const char *q)
{
	size_t i;
	json_t *v;

	ast_array_foreach(ast_arr(n, "quals"), i, v)
		if (json_is_string(v) && strcmp(json_string_value(v), q) == 0)
			return 1;
	return 0;
}

const json_t *gen_elem(gen_ctx *g, const json_t *ty)
{
	const char *k;

	ty = gen_resolve(g, ty);
	while (ty && (ty_streq(k = ty_kind(ty), "stream") ||
			ty_streq(k, "array")))
		ty = gen_resolve(g, ast_get(ty, "of"));
	return ty;
}

int gen_rank(gen_ctx *g, const json_t *ty)
{
	int r = 0;

	ty = gen_resolve(g, ty);
	if (ty && ty_streq(ty_kind(ty), "stream"))
		return (int)json_array_size(ast_arr(ty, "dims"));
	while (ty && ty_streq(ty_kind(ty), "array")) {
		r++;
		ty = gen_resolve(g, ast_get(ty, "of"));
	}
	return r;
}

static size_t align_up(size_t n, size_t a)
{
	return a ? (n + a - 1) / a * a : n;
}

/* The host C layout: brt.h's vector types are structs of their scalars,
 * so a float3 is 12 bytes aligned to 4. */
size_t gen_size(gen_ctx *g, const json_t *ty, size_t *align)
{
	const char *t;
	size_t a = 1, size = 0;

	ty = gen_resolve(g, ty);
	t = ty_kind(ty);
	if (gen_scalar(ty)) {
		a = (size_t)ty_scalar_bits(gen_scalar(ty)) / 8;
		size = a * (size_t)ty_ncomp(ty);
	} else if (ty_streq(t, "struct") || ty_streq(t, "union")) {
		size_t i;
		json_t *f;
		const json_t *def = ty;
		if (!ast_get(ty, "fields") && ast_str(ty, "tag")[0])
			def = json_object_get(g->tags, ast_str(ty, "tag"));
		ast_array_foreach(ast_arr(def, "fields"), i, f) {
			size_t fa, fs = gen_size(g, ast_get(f, "type"), &fa);
			if (ty_streq(t, "union")) {
				size = fs > size ? fs : size;
			} else {
				size = align_up(size, fa) + fs;
			}
			a = fa > a ? fa : a;
		}
		size = align_up(size, a);
	} else if (ty_streq(t, "array")) {
		size_t n = (size_t)ast_int(ast_get(ty, "size"), "value");
		size = gen_size(g, ast_get(ty, "of"), &a) * n;
	}
	if (align)
		*align = a;
	return size;
}

int gen_is_kernel(const json_t *n)
{
	return ast_is(n, "func") && (ast_bool(n, "kernel") ||
		ast_bool(n, "reduce"));
}

const char *gen_kclass(const json_t *fn)
{
	const char *c = ast_str(fn, "class");
	return c[0] ? c : "map";
}

int gen_is_group(const json_t *fn)
{
	size_t i;
	json_t *a;

	ast_array_foreach(ast_arr(fn, "attrs"), i, a)
		if (ty_streq(ast_str(a, "name"), "GroupSize"))
			return 1;
	return ty_streq(gen_kclass(fn), "group");
}

json_t *gen_shared_next(gen_shared *s)
{
	for (; s->i < json_array_size(s->items); s->i++, s->j = 0) {
		const json_t *it = json_array_get(s->items, s->i);
		const json_t *vars = ast_arr(it, "vars");
		if (!ast_is(it, "decl"))
			continue;
		while (s->j < json_array_size(vars)) {
			json_t *v = json_array_get(vars, s->j++);
			if (gen_has_qual(v, "shared"))
				return v;
		}
	}
	return NULL;
}

/* Which parameter indexof node N names, into SET. */
static void indexof_site(gen_ctx *g, const json_t *n, json_t *set)
{
	const json_t *e = ast_get(n, "e");
	while (ast_is(e, "paren"))
		e = ast_get(e, "e");
	const json_t *p = gen_decl(g, e);
	if (p && ast_is(p, "param"))
		json_object_set_new(set, ast_str(p, "name"), json_true());
}

/* Adds to SET the parameters of a function that its subkernel call N
 * passes where the callee names its parameter in indexof(): the callee's
 * index of a resized input is the caller's (brgen passes it), not the
 * output position. 1 when SET grew. */
static int indexof_call(gen_ctx *g, const json_t *n, json_t *set)
{
	const json_t *fn = gen_decl(g, ast_get(n, "fn"));
	json_t *callee = json_object_get(g->idxof, ast_str(fn, "name"));
	json_t *params = ast_arr(ast_get(fn, "type"), "params"), *q;
	size_t i;
	int grew = 0;

	if (!json_object_size(callee))
		return 0;
	json_array_foreach(params, i, q) {
		const json_t *a = json_array_get(ast_arr(n, "args"), i);
		while (ast_is(a, "paren"))
			a = ast_get(a, "e");
		const json_t *p = gen_decl(g, a);
		if (json_object_get(callee, ast_str(q, "name")) && p &&
				ast_is(p, "param") && !json_object_get(set,
				ast_str(p, "name"))) {
			json_object_set_new(set, ast_str(p, "name"),
				json_true());
			grew = 1;
		}
	}
	return grew;
}

/* g->idxof through the subkernel calls SUB of function bodies, until no
 * set grows (a chain of subkernels is at most as long as there are
 * functions). */
static void indexof_through_calls(gen_ctx *g, const gen_sitelist *sub)
{
	const json_t *decls = ast_arr(g->doc, "decls");
	size_t n = json_array_size(decls);

	for (size_t round = 0; round <= n; round++) {
		int grew = 0;
		for (size_t i = 0; i < sub->count; i++) {
			const json_t *d = json_array_get(decls, sub->decl[i]);
			json_t *set = json_object_get(g->idxof,
				ast_str(d, "name"));
			if (set)
				grew |= indexof_call(g, sub->n[i], set);
		}
		if (!grew)
			break;
	}
}

/* OpenCL C's built-in functions a kernel may be named after (OpenCL C
 * 1.2, section 6.12; 2.0, 6.13): brgen renames such a kernel. brcheck
 * refuses a kernel named like a word of OpenCL C (a keyword, type or
 * macro) or a function of the C headers (E-reserved-name), and names
 * beginning with brk_ (E-generated-name), so two kernels never meet. */
static const char *const cl_reserved[] = {
	"abs", "abs_diff", "acos", "acosh", "acospi", "add_sat", "all", "any",
	"asin", "asinh", "asinpi", "atan", "atan2", "atan2pi", "atanh",
	"atanpi", "barrier", "bitselect", "cbrt", "ceil", "clamp", "clz",
	"copysign", "cos", "cosh", "cospi", "cross", "degrees", "distance",
	"dot", "erf", "erfc", "exp", "exp10", "exp2", "expm1", "fabs", "fdim",
	"floor", "fma", "fmax", "fmin", "fmod", "fract", "frexp", "hadd",
	"hypot", "ilogb", "isequal", "isfinite", "isgreater",
	"isgreaterequal", "isinf", "isless", "islessequal", "islessgreater",
	"isnan", "isnormal", "isnotequal", "isordered", "isunordered",
	"kernel", "ldexp", "length", "lgamma", "lgamma_r", "log", "log10",
	"log1p", "log2", "logb", "mad", "mad24", "mad_hi", "mad_sat", "max",
	"maxmag", "mem_fence", "min", "minmag", "mix", "modf", "mul24",
	"mul_hi", "nan", "nextafter", "normalize", "popcount", "pow", "pown",
	"powr", "printf", "radians", "read_mem_fence", "remainder", "remquo",
	"rhadd", "rint", "rootn", "rotate", "round", "rsqrt", "select",
	"shuffle", "shuffle2", "sign", "signbit", "sin", "sincos", "sinh",
	"sinpi", "smoothstep", "sqrt", "step", "sub_sat", "tan", "tanh",
	"tanpi", "tgamma", "trunc", "upsample", "write_mem_fence",
	"prefetch", "wait_group_events", "ctz", "to_global", "to_local",
	"to_private", "retain_event", "release_event", "create_user_event",
	"set_user_event_status", "capture_event_profiling_info", NULL
};

static const char *const cl_reserved_prefix[] = {
	"convert_", "as_", "vload", "vstore", "atom_", "atomic_", "get_",
	"native_", "half_", "fast_", "async_", "read_image", "write_image",
	"work_group_", "sub_group_", "enqueue_", "ndrange_", "is_valid_",
	"brg_", NULL
};

const char *gen_cl_name(const char *name, char *buf, size_t len)
{
	size_t i;
	int clash = 0;

	/* the first letter rules out most words without a call */
	for (i = 0; cl_reserved[i] && !clash; i++)
		clash = cl_reserved[i][0] == name[0] &&
			strcmp(cl_reserved[i], name) == 0;
	for (i = 0; cl_reserved_prefix[i] && !clash; i++)
		clash = cl_reserved_prefix[i][0] == name[0] &&
			strncmp(cl_reserved_prefix[i], name,
			strlen(cl_reserved_prefix[i])) == 0;
	snprintf(buf, len, "%s%s", clash ? "brk_" : "", name);
	return buf;
}

static int check_doc_stage(gen_ctx *g)
{
	const json_t *v = json_object_get(g->doc, "brast");

	if (!json_is_integer(v) || json_integer_value(v) != BRAST_VERSION) {
		gen_error(g, NULL, "E-gen-version",
			"not a brast document of version %d", BRAST_VERSION);
		return -1;
	}
	if (!ty_streq(ast_str(g->doc, "stage"), "checked")) {
		gen_error(g, NULL, "E-gen-unchecked",
			"the AST is not checked: run it through brcheck first");
		return -1;
	}
	if (!json_is_array(ast_arr(g->doc, "decls"))) {
		gen_error(g, NULL, "E-gen-malformed", "the AST has no decls");
		return -1;
	}
	return 0;
}

/* The parts of a context that are its own (gen_program's threads have
 * each theirs): helpers, names, what it asked of each kernel, diagnostics. */
static void ctx_own_begin(gen_ctx *g)
{
	for (int t = 0; t < 2; t++) {
		g->done[t] = json_object();
		memset(&g->help[t], 0, sizeof g->help[t]);
	}
	g->kept = json_object();
	g->fns = NULL;
	g->nfns = g->capfns = 0;
	g->late = NULL;
	g->nlate = g->caplate = 0;
	g->nerrors = 0;
}

static void ctx_own_free(gen_ctx *g)
{
	for (int t = 0; t < 2; t++) {
		json_decref(g->done[t]);
		sb_free(&g->help[t]);
	}
	json_decref(g->kept);
	for (size_t k = 0; k < g->nfns; k++)
		gen_aff_free(g->fns[k].aff);
	free(g->fns);
	late_report(g, 0);
}

/* ---- two threads ------------------------------------------------------------
 * The second thread prints the OpenCL program, then the CPU code of the
 * kernels from the last one down, while the first prints the host's
 * declarations and the kernels' CPU code from the first one up, each
 * taking the next kernel that the other has not taken. They share only
 * what the index made, which neither changes; each has a context of its
 * own (ctx_own_begin). A kernel the second thread prints is printed as if
 * no helper were defined before it, with its helpers beside it: when the
 * first thread comes to it, it takes those that are new to it, in their
 * order, and the kernel's text, so the file is the one a single thread
 * writes, byte for byte. */

/* A kernel's CPU code printed by the second thread. */
typedef struct gen_piece {
	const json_t *fn;
	int ready;		/* printed (under the lock) */
	strbuf code, help;
	json_t *done;		/* helper name -> the offset of its text in
				   help (gen_need) */
	struct gen_late *late;	/* its diagnostics */
	size_t nlate;
	int nerrors;
} gen_piece;

struct gen_pieces {
	gen_piece *v;		/* the kernels with a body, in the file's
				   order */
	size_t n;
	size_t next;		/* the first thread's place in v */
	size_t lo, hi;		/* v[lo..hi) is taken by neither thread */
	pthread_mutex_t lock;
	pthread_cond_t ready;
};

/* Whether top-level declaration D is a kernel with a body: one that the
 * host files hold CPU code of (gen_c.c, hook_decl). */
static int has_cpu_code(const json_t *d)
{
	return ast_is(d, "func") && gen_is_kernel(d) && ast_get(d, "body") &&
		!json_is_null(ast_get(d, "body"));
}

static gen_pieces *pieces_new(const gen_ctx *g)
{
	gen_pieces *ps = xcalloc(1, sizeof *ps);
	size_t i;
	json_t *d;

	ast_array_foreach(ast_arr(g->doc, "decls"), i, d)
		ps->n += has_cpu_code(d);
	ps->v = xcalloc(ps->n ? ps->n : 1, sizeof *ps->v);
	ps->n = 0;
	ast_array_foreach(ast_arr(g->doc, "decls"), i, d)
		if (has_cpu_code(d))
			ps->v[ps->n++].fn = d;
	ps->hi = ps->n;
	if (pthread_mutex_init(&ps->lock, NULL) == 0) {
		if (pthread_cond_init(&ps->ready, NULL) == 0)
			return ps;
		pthread_mutex_destroy(&ps->lock);
	}
	free(ps->v);
	free(ps);
	return NULL;
}

static void pieces_free(gen_pieces *ps)
{
	if (!ps)
		return;
	for (size_t i = 0; i < ps->n; i++) {
		gen_piece *p = &ps->v[i];
		sb_free(&p->code);
		sb_free(&p->help);
		json_decref(p->done);
		late_free(p->late, p->nlate);
	}
	pthread_cond_destroy(&ps->ready);
	pthread_mutex_destroy(&ps->lock);
	free(ps->v);
	free(ps);
}

/* The second thread: P printed with W, its CPU helpers and diagnostics
 * its own. */
static void print_piece(gen_ctx *w, gen_piece *p)
{
	json_t *done = w->done[GEN_CPU];
	strbuf help = w->help[GEN_CPU];
	struct gen_late *late = w->late;
	size_t nlate = w->nlate, caplate = w->caplate;
	int nerrors = w->nerrors;

	w->done[GEN_CPU] = json_object();
	memset(&w->help[GEN_CPU], 0, sizeof help);
	w->late = NULL;
	w->nlate = w->caplate = 0;
	w->nerrors = 0;
	gen_cpu_kernel(w, &p->code, p->fn);
	p->done = w->done[GEN_CPU];
	p->help = w->help[GEN_CPU];
	p->late = w->late;
	p->nlate = w->nlate;
	p->nerrors = w->nerrors;
	w->done[GEN_CPU] = done;
	w->help[GEN_CPU] = help;
	w->late = late;
	w->nlate = nlate;
	w->caplate = caplate;
	w->nerrors = nerrors;
}

static void print_pieces(gen_ctx *w, gen_pieces *ps)
{
	for (;;) {
		gen_piece *p;
		pthread_mutex_lock(&ps->lock);
		if (ps->hi <= ps->lo) {
			pthread_mutex_unlock(&ps->lock);
			return;
		}
		p = &ps->v[--ps->hi];
		pthread_mutex_unlock(&ps->lock);
		print_piece(w, p);
		pthread_mutex_lock(&ps->lock);
		p->ready = 1;
		pthread_cond_broadcast(&ps->ready);
		pthread_mutex_unlock(&ps->lock);
	}
}

typedef struct helper_at {
	const char *name;
	size_t at;
} helper_at;

static int by_offset(const void *a, const void *b)
{
	const helper_at *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

/* Whether each of P's N helpers H (by offset) starts where gen_need put
 * it and ends where the next starts. A helper that asks for another
 * before printing a byte of its own text shares its offset with it, and
 * its text, printed after the other's, cannot be told from it (seed
 * 7800032 of fuzz/difftest.py: brg_predec_float4 asked for brg_sub_float4
 * first and was lost where the first thread had brg_sub_float4). */
static int piece_sound(const gen_piece *p, const helper_at *h, size_t n)
{
	if (n == 0 ? p->help.len != 0 : h[0].at != 0)
		return 0;
	for (size_t k = 0; k + 1 < n; k++)
		if (h[k].at == h[k + 1].at)
			return 0;
	return 1;
}

/* The first thread: piece P at its place in B, with the helpers that G
 * has not defined, in the order P defined them. A piece whose helpers
 * cannot be told apart is printed again here, as one thread prints it. */
static void piece_merge(gen_ctx *g, strbuf *b, gen_piece *p)
{
	size_t n = json_object_size(p->done), k = 0;
	helper_at *h = xcalloc(n ? n : 1, sizeof *h);
	const char *name;
	json_t *v;

	json_object_foreach(p->done, name, v) {
		h[k].name = name;
		h[k++].at = (size_t)json_integer_value(v);
	}
	qsort(h, n, sizeof *h, by_offset);
	if (!piece_sound(p, h, n)) {
		free(h);
		late_free(p->late, p->nlate);
		p->late = NULL;
		p->nlate = 0;
		gen_cpu_kernel(g, b, p->fn);
		return;
	}
	for (k = 0; k < n; k++) {
		size_t end = k + 1 < n ? h[k + 1].at : p->help.len;
		if (gen_need(g, GEN_CPU, h[k].name))
			sb_putn(&g->help[GEN_CPU], p->help.s + h[k].at,
				end - h[k].at);
	}
	free(h);
	sb_putn(b, p->code.s ? p->code.s : "", p->code.len);
	for (k = 0; k < p->nlate; k++)
		*late_slot(g) = p->late[k];
	p->nlate = 0;
	g->nerrors += p->nerrors;
}

void gen_cpu_kernel_at(gen_ctx *g, strbuf *b, const json_t *fn)
{
	gen_pieces *ps = g->pieces;
	size_t i;

	if (ps) {
		for (i = ps->next; i < ps->n && ps->v[i].fn != fn; i++)
			;
		if (i < ps->n) {
			gen_piece *p = &ps->v[i];
			int theirs;
			ps->next = i + 1;
			pthread_mutex_lock(&ps->lock);
			theirs = i >= ps->hi;
			if (!theirs)
				ps->lo = i + 1;
			else
				while (!p->ready)
					pthread_cond_wait(&ps->ready, &ps->lock);
			pthread_mutex_unlock(&ps->lock);
			if (theirs) {
				piece_merge(g, b, p);
				return;
			}
		}
	}
	gen_cpu_kernel(g, b, fn);
}

typedef struct cl_job {
	gen_ctx g;
	strbuf cl;
	gen_pieces *pieces;	/* NULL: the OpenCL program alone */
	int ran;
	int with_rows;		/* make ROWS too */
	strbuf rows;		/* CL as the C file holds it
				   (gen_c_cl_rows), once made */
} cl_job;

static void *cl_thread(void *p)
{
	cl_job *j = p;

	if (ast_arena_enter() != 0)
		return NULL;	/* the caller prints it after its part */
	gen_cl_program(&j->g, &j->cl);
	j->ran = 1;
	/* after errors the host's files are not made */
	if (j->pieces && !j->g.nerrors)
		print_pieces(&j->g, j->pieces);
	/* the C file's copy of the program here too, where the first
	   thread would make it after both */
	if (j->with_rows && !j->g.nerrors)
		gen_c_cl_rows(&j->rows, j->cl.s ? j->cl.s : "");
	return NULL;
}

/* The processors this process may run on (1 where it cannot tell). */
static int processors(void)
{
#ifdef HAVE_SCHED_GETAFFINITY
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		return CPU_COUNT(&set);
#endif
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

/* Starts FN(ARG) in thread *TH on a processor other than the caller's
 * where it can: a new thread is queued beside the one that made it, and
 * on a machine of two processors it waited there for milliseconds while
 * the other one idled (bench/RESULTS.md). 0, or -1 when no thread. */
static int start_beside(pthread_t *th, void *(*fn)(void *), void *arg)
{
	pthread_attr_t at;
	int r;

	if (pthread_attr_init(&at) != 0)
		return -1;
#if defined(HAVE_PTHREAD_ATTR_SETAFFINITY_NP) && \
	defined(HAVE_SCHED_GETAFFINITY) && defined(HAVE_SCHED_GETCPU)
	{
		cpu_set_t set;
		int me = sched_getcpu();
		if (me >= 0 && sched_getaffinity(0, sizeof set, &set) == 0 &&
				CPU_ISSET(me, &set) && CPU_COUNT(&set) > 1) {
			CPU_CLR(me, &set);
			(void)pthread_attr_setaffinity_np(&at, sizeof set, &set);
		}
	}
#endif
	r = pthread_create(th, &at, fn, arg);
	pthread_attr_destroy(&at);
	return r == 0 ? 0 : -1;
}

/* Both parts, the OpenCL program in J and the host's declarations in *GH,
 * in two threads where they can be had. Diagnostics come out as one
 * thread would give them: the OpenCL program's, and the host's only when
 * it has none (the host's files are not made then). */
static void print_both(gen_ctx *g, cl_job *j, gen_host **gh)
{
	pthread_t th;
	int started = 0;

	j->g = *g;
	ctx_own_begin(&j->g);
	j->g.keep_late = 1;
	j->pieces = pieces_new(g);
	if (ast_arena_share() == 0) {
		started = start_beside(&th, cl_thread, j) == 0;
		if (!started)
			ast_arena_unshare();
	}
	g->keep_late = 1;
	g->pieces = started ? j->pieces : NULL;
	*gh = gen_host_body(g);
	g->pieces = NULL;
	g->keep_late = 0;
	if (started) {
		pthread_join(th, NULL);
		ast_arena_unshare();
	}
	if (!j->ran)
		gen_cl_program(&j->g, &j->cl);
	pieces_free(j->pieces);
	j->pieces = NULL;
	late_report(&j->g, 1);
	late_report(g, j->g.nerrors == 0);
	if (j->g.nerrors) {
		gen_host_free(*gh);
		*gh = NULL;
		g->nerrors = 0;
	}
}

/* Declaration I of the document, N, into G's index and S. */
static void index_decl(gen_ctx *g, gen_sites *s, const json_t *n, size_t i)
{
	unsigned body = 0;

	if (ast_is(n, "func"))
		body = SITE_INDEXOF | SITE_SUB |
			(gen_is_kernel(n) ? 0 : SITE_CALL);
	s->decl = i;
	index_node(g, n, s, 0, body);
}

/* The index made while the document is read: each declaration is walked
 * as it arrives, while brcheck is still checking the ones after it,
 * rather than all of them after the whole document (bench/RESULTS.md,
 * 2026-11-29: the pipeline 0.8-2.5 ms faster in alternating pairs). The
 * walk changes no node
 * then: the document may yet be checked again (brgen, an AST whose seal
 * does not match), which must see it as it came. It holds a reference to
 * each declaration it walked and each member it will fold, so that none
 * is freed, nor its memory given to another node, while it is noted. */
struct gen_prep {
	gen_ctx g;		/* its tags and byid */
	gen_sites sites;
	gen_sitelist decls;	/* those indexed, in order, each held */
	int bad;		/* handed out of order */
};

gen_prep *gen_prep_new(void)
{
	gen_prep *p = xcalloc(1, sizeof *p);

	p->sites.defer = 1;
	return p;
}

void gen_prep_decl(void *arg, json_t *decl, size_t i)
{
	gen_prep *p = arg;

	if (p->bad || i != p->decls.count) {
		p->bad = 1;
		return;
	}
	if (!p->g.tags)
		p->g.tags = json_object();
	sitelist_add(&p->decls, json_incref(decl), i);
	index_decl(&p->g, &p->sites, decl, i);
}

static void sites_free(gen_sites *s)
{
	sitelist_free(&s->idx);
	sitelist_free(&s->sub);
	sitelist_release(&s->fold);
	sitelist_free(&s->anon);
	sitelist_free(&s->calls);
}

void gen_prep_free(gen_prep *p)
{
	if (!p)
		return;
	json_decref(p->g.tags);
	util_map_free(&p->g.byid);
	sites_free(&p->sites);
	sitelist_release(&p->decls);
	free(p);
}

/* Whether P indexed the declarations of DOC, all of them. */
static int prep_fits(const gen_prep *p, const json_t *doc)
{
	const json_t *decls = ast_arr(doc, "decls");

	if (!p || p->bad || p->decls.count != json_array_size(decls))
		return 0;
	for (size_t i = 0; i < p->decls.count; i++)
		if (p->decls.n[i] != json_array_get(decls, i))
			return 0;
	return 1;
}

/* G's index and S from P, the changes the walk put off made, in the
 * walk's order, as the walk after reading makes them. A member that an
 * earlier fold took out of the tree (v.wz.yx.y: .yx and .wz go into .y)
 * is folded too, on its own, changing nothing that stays. */
static void prep_take(gen_ctx *g, gen_sites *s, gen_prep *p)
{
	size_t i;

	g->tags = p->g.tags ? p->g.tags : json_object();
	p->g.tags = NULL;
	g->byid = p->g.byid;
	memset(&p->g.byid, 0, sizeof p->g.byid);
	*s = p->sites;
	memset(&p->sites, 0, sizeof p->sites);
	for (i = 0; i < s->fold.count; i++)
		swizzle_fold((json_t *)s->fold.n[i],
			ast_get(s->fold.n[i], "e"));
	for (i = 0; i < s->anon.count; i++)
		anon_tag(s->anon.n[i], ast_get(s->anon.n[i], "at"));
	s->defer = 0;
}

int gen_program(const json_t *doc, const gen_options *o, strbuf *c_out,
	strbuf *h_out, strbuf *cl_out, diag_ctx *d)
{
	return gen_program_prepared(doc, NULL, o, c_out, h_out, cl_out, d);
}

int gen_program_prepared(const json_t *doc, gen_prep *prep,
	const gen_options *o, strbuf *c_out, strbuf *h_out, strbuf *cl_out,
	diag_ctx *d)
{
	gen_ctx g;
	gen_sites sites = {0};
	cl_job job;
	gen_host *gh = NULL;
	size_t i;
	json_t *n;
	int nerrors;

	memset(&g, 0, sizeof g);
	memset(&job, 0, sizeof job);
	g.doc = doc;
	g.o = o;
	g.d = d;
	if (o && o->sites)
		*o->sites = NULL;
	if (check_doc_stage(&g) != 0)
		return 1;
	ctx_own_begin(&g);
	g.typedefs = json_object();
	g.enum_int = json_pack("{s:s}", "t", "int");
	g.idxof = json_object();
	g.sites = json_array();
	if (prep_fits(prep, doc)) {
		prep_take(&g, &sites, prep);
	} else {
		g.tags = json_object();
		ast_array_foreach(ast_arr(doc, "decls"), i, n)
			index_decl(&g, &sites, n, i);
	}
	index_typedefs(&g, ast_arr(doc, "decls"));
	/* which parameters each function names in indexof() */
	size_t s = 0;
	ast_array_foreach(ast_arr(doc, "decls"), i, n) {
		if (ast_is(n, "func") && ast_get(n, "body") &&
				!json_is_null(ast_get(n, "body"))) {
			json_t *set = json_object();
			char k[32];
			for (; s < sites.idx.count && sites.idx.decl[s] <= i;
					s++)
				if (sites.idx.decl[s] == i)
					indexof_site(&g, sites.idx.n[s], set);
			snprintf(k, sizeof k, "%s", ast_str(n, "name"));
			json_object_set_new(g.idxof, k, set);
		}
	}
	indexof_through_calls(&g, &sites.sub);
	for (s = 0; s < sites.calls.count; s++)
		gen_ops_site(&g, sites.calls.n[s]);
	sites_free(&sites);

	if ((c_out || h_out) && !g.nerrors && !(o && o->checked) &&
			(o && o->jobs ? o->jobs : processors()) > 1) {
		/* --checked numbers the accesses of both targets in one
		 * table (g.sites): one thread */
		job.with_rows = c_out != NULL;
		print_both(&g, &job, &gh);
		if (!job.g.nerrors && cl_out)
			sb_puts(cl_out, job.cl.s ? job.cl.s : "");
	} else {
		gen_cl_program(&g, &job.cl);
		if (!g.nerrors && cl_out)
			sb_puts(cl_out, job.cl.s ? job.cl.s : "");
		if (!g.nerrors && (c_out || h_out))
			gh = gen_host_body(&g);
	}
	if (gh)
		gen_host_files(gh, c_out, h_out, job.cl.s ? job.cl.s : "",
			job.rows.len ? &job.rows : NULL);
	nerrors = job.g.nerrors + g.nerrors;
	if (o && o->sites)
		*o->sites = nerrors ? NULL : json_incref(g.sites);

	sb_free(&job.cl);
	sb_free(&job.rows);
	if (job.g.doc)
		ctx_own_free(&job.g);
	ctx_own_free(&g);
	util_map_free(&g.byid);
	json_decref(g.typedefs);
	json_decref(g.enum_int);
	json_decref(g.tags);
	json_decref(g.idxof);
	json_decref(g.sites);
	free(g.ops);
	return nerrors ? 1 : 0;
}
