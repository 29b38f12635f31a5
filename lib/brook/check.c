/* check.c - the semantic checker: name resolution, types, and the rules of
 * the specification's sections 4.3, 4.4 and 6 (spec = seed 002, guide =
 * seed 000, brookgpu = seed 001), with the readings of DESIGN.md.
 *
 * One pass over the declarations in source order, after a pre-pass that
 * classifies every kernel. Host code is C: it gets types and names but
 * only the Brook rules (streams, kernel calls); kernel code gets every
 * rule. Diagnostics IDs: E-... errors, W-... warnings, listed in
 * man/brcheck.1. */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "brook/ast.h"
#include "brook/check.h"
#include "brook/type.h"
#include "brook/util.h"

#define CHK_MAX_DEPTH 500
#define CHK_HASH 4096

/* ---- symbols ------------------------------------------------------------ */

typedef enum chk_symkind {
	SYM_VAR, SYM_PARAM, SYM_FUNC, SYM_TYPEDEF, SYM_ENUM, SYM_TAG
} chk_symkind;

/* Kernel parameter roles (ast.h "role"). */
typedef enum chk_role {
	ROLE_NONE, ROLE_IN, ROLE_OUT, ROLE_GATHER, ROLE_SCATTER, ROLE_VALUE,
	ROLE_REDUCE
} chk_role;

static const char *const role_names[] = {
	NULL, "in", "out", "gather", "scatter", "value", "reduce"
};

typedef struct chk_sym {
	const char *name;
	chk_symkind kind;
	json_t *node;		/* var, param, func node or enum item */
	json_t *type;		/* resolved type as code sees the name */
	chk_role role;		/* kernel parameters */
	int global;		/* declared at file scope */
	int constq;		/* const-qualified */
	int shared;		/* shared local array */
	int local_array;	/* C array declared in a kernel */
	long long shared_size;
	struct chk_sym *shadow;	/* the binding this one hides */
	struct chk_sym *next;	/* next symbol of the same scope */
	struct chk_name *entry;
	struct chk_scope *scope;	/* where it is declared */
} chk_sym;

typedef struct chk_name {
	const char *name;
	chk_sym *top;
	struct chk_name *hnext;
} chk_name;

typedef struct chk_table {
	chk_name *bucket[CHK_HASH];
} chk_table;

typedef struct chk_scope {
	chk_sym *syms;
	struct chk_scope *up;
} chk_scope;

/* ---- functions ---------------------------------------------------------- */

typedef enum chk_class {
	CLASS_NONE, CLASS_MAP, CLASS_REDUCE, CLASS_SCATTER, CLASS_GROUP
} chk_class;

static const char *const class_names[] = {
	NULL, "map", "reduce", "scatter", "group"
};

typedef struct chk_fn {
	const char *name;
	json_t *first;		/* first declaration */
	json_t *def;		/* the definition, or NULL */
	int kernel;		/* kernel or reduce keyword */
	int defined;		/* definition already checked (in order) */
	int sub;		/* called from kernel code */
	chk_class cls;
	long long groupsize;	/* product of GroupSize, 0 if none */
	json_t *group_use;	/* first instanceInGroup()/syncGroup() */
	const char *group_what;
	int nshared;
} chk_fn;

typedef struct chk_edge {
	int from, to;
	json_t *call;
} chk_edge;

/* ---- the context -------------------------------------------------------- */

typedef struct chk_ctx {
	json_t *doc;
	const check_options *o;
	diag_ctx *d;
	int malformed;
	int depth, too_deep;
	long long next_id;
	json_t *cur;		/* innermost node with a location */
	json_t *types;		/* name -> canonical type object */
	chk_table names, tags;
	chk_scope *scope;
	chk_fn *fns;
	size_t nfns, capfns;
	json_t *fn_index;	/* name -> index into fns */
	chk_edge *edges;
	size_t nedges, capedges;
	/* the function being checked */
	chk_fn *fn;
	json_t *fnode;
	int kern;		/* inside a kernel or reduce function */
	int saw_return;
} chk_ctx;

/* ---- diagnostics -------------------------------------------------------- */

static void vreport(chk_ctx *c, diag_level lv, const json_t *n,
	const char *id, const char *fmt, va_list ap)
{
	const char *file = NULL;
	int line = 0, col = 0;
	if (!n || ast_at(c->doc, n, &file, &line, &col) != 0) {
		file = NULL;
		if (c->cur)
			ast_at(c->doc, c->cur, &file, &line, &col);
	}
	strbuf msg = {0};
	sb_vprintf(&msg, fmt, ap);
	diag_report(c->d, lv, file, line, col, id, "%s", msg.s);
	sb_free(&msg);
}

static void err(chk_ctx *c, const json_t *n, const char *id,
	const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void err(chk_ctx *c, const json_t *n, const char *id,
	const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(c, DIAG_ERROR, n, id, fmt, ap);
	va_end(ap);
}

/* A warning of LEVEL (1..3). Under strong type checking (no -a) the level
 * is fixed at 1 and -w has no effect (spec 6.3.3, 9). */
static void warn(chk_ctx *c, int level, const json_t *n, const char *id,
	const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void warn(chk_ctx *c, int level, const json_t *n, const char *id,
	const char *fmt, ...)
{
	int limit = c->o->a ? c->o->wlevel : 1;
	if (level > limit)
		return;
	va_list ap;
	va_start(ap, fmt);
	vreport(c, DIAG_WARNING, n, id, fmt, ap);
	va_end(ap);
}

/* The AST itself is wrong (edited by hand, or another tool's bug). */
static void bad(chk_ctx *c, const json_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void bad(chk_ctx *c, const json_t *n, const char *fmt, ...)
{
	va_list ap;
	c->malformed = 1;
	va_start(ap, fmt);
	strbuf msg = {0};
	sb_puts(&msg, "malformed AST: ");
	sb_vprintf(&msg, fmt, ap);
	va_end(ap);
	const char *file = NULL;
	int line = 0, col = 0;
	if (!n || ast_at(c->doc, n, &file, &line, &col) != 0)
		file = NULL;
	diag_report(c->d, DIAG_ERROR, file, line, col, "E-ast", "%s", msg.s);
	sb_free(&msg);
}

/* ty_name for a message; freed by the caller. */
#define TN(t) ty_name(t)

/* ---- types -------------------------------------------------------------- */

/* The canonical type object for a simple type name (borrowed). */
static json_t *T(chk_ctx *c, const char *name)
{
	json_t *t = json_object_get(c->types, name);
	if (!t) {
		t = ast_type(name);
		json_object_set_new(c->types, name, t);
	}
	return t;
}

static chk_sym *lookup(chk_table *tab, const char *name);

static int has_qual(const json_t *quals, const char *q)
{
	size_t i;
	json_t *v;
	json_array_foreach(quals, i, v)
		if (json_is_string(v) && strcmp(json_string_value(v), q) == 0)
			return 1;
	return 0;
}

/* Resolves typedef names and struct tags in T: a new reference. Struct
 * bodies are not entered (member access resolves field types). */
static json_t *resolve(chk_ctx *c, json_t *t)
{
	if (!json_is_object(t))
		return json_incref(T(c, "unknown"));
	const char *k = ast_str(t, "t");
	if (strcmp(k, "typedef") == 0) {
		chk_sym *s = lookup(&c->names, ast_str(t, "name"));
		if (s && s->kind == SYM_TYPEDEF)
			return json_incref(s->type);
		return json_incref(t);
	}
	if ((strcmp(k, "struct") == 0 || strcmp(k, "union") == 0) &&
		!ast_get(t, "fields") && json_is_string(ast_get(t, "tag"))) {
		chk_sym *s = lookup(&c->tags, ast_str(t, "tag"));
		if (s && s->type)
			return json_incref(s->type);
		return json_incref(t);
	}
	const char *child = strcmp(k, "ptr") == 0 ? "to" :
		strcmp(k, "array") == 0 || strcmp(k, "stream") == 0 ? "of" :
		strcmp(k, "func") == 0 ? "ret" : NULL;
	if (!child)
		return json_incref(t);
	json_t *old = ast_get(t, child);
	json_t *nw = resolve(c, old);
	if (nw == old) {
		json_decref(nw);
		return json_incref(t);
	}
	json_t *copy = json_copy(t);
	json_object_set_new(copy, child, nw);
	return copy;
}

/* Sets n["ty"] = t (a new reference, consumed); returns t, borrowed. */
static json_t *set_ty(json_t *n, json_t *t)
{
	json_object_set_new(n, "ty", t);
	return t;
}

static json_t *set_ty_b(json_t *n, json_t *t)
{
	return set_ty(n, json_incref(t));
}

/* Vector type of scalar S with N components (borrowed), or unknown. */
static json_t *vec(chk_ctx *c, const char *s, int n)
{
	const char *name = ty_vector_name(s, n);
	return T(c, name ? name : "unknown");
}

/* ---- scopes ------------------------------------------------------------- */

static unsigned hash(const char *s)
{
	unsigned h = 5381;
	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h % CHK_HASH;
}

static chk_name *entry(chk_table *tab, const char *name, int create)
{
	unsigned h = hash(name);
	for (chk_name *e = tab->bucket[h]; e; e = e->hnext)
		if (strcmp(e->name, name) == 0)
			return e;
	if (!create)
		return NULL;
	chk_name *e = xcalloc(1, sizeof *e);
	e->name = name;
	e->hnext = tab->bucket[h];
	tab->bucket[h] = e;
	return e;
}

static chk_sym *lookup(chk_table *tab, const char *name)
{
	if (!name || !*name)
		return NULL;
	chk_name *e = entry(tab, name, 0);
	return e ? e->top : NULL;
}

static void table_free(chk_table *tab)
{
	for (size_t i = 0; i < CHK_HASH; i++)
		for (chk_name *e = tab->bucket[i], *nx; e; e = nx) {
			nx = e->hnext;
			free(e);
		}
}

static void push_scope(chk_ctx *c)
{
	chk_scope *s = xcalloc(1, sizeof *s);
	s->up = c->scope;
	c->scope = s;
}

static void sym_free(chk_sym *s)
{
	json_decref(s->type);
	free(s);
}

static void pop_scope(chk_ctx *c)
{
	chk_scope *s = c->scope;
	for (chk_sym *y = s->syms, *nx; y; y = nx) {
		nx = y->next;
		y->entry->top = y->shadow;
		sym_free(y);
	}
	c->scope = s->up;
	free(s);
}

/* The symbol NAME declared in the innermost scope, if any. */
static chk_sym *in_scope(chk_ctx *c, chk_table *tab, const char *name)
{
	chk_sym *s = lookup(tab, name);
	return s && s->scope == c->scope ? s : NULL;
}

/* Declares NAME in the innermost scope; TYPE is consumed. */
static chk_sym *declare(chk_ctx *c, chk_table *tab, const char *name,
	chk_symkind kind, json_t *node, json_t *type)
{
	chk_sym *s = xcalloc(1, sizeof *s);
	s->name = name;
	s->kind = kind;
	s->node = node;
	s->type = type;
	s->global = c->scope->up == NULL;
	s->entry = entry(tab, name, 1);
	s->shadow = s->entry->top;
	s->entry->top = s;
	s->next = c->scope->syms;
	s->scope = c->scope;
	c->scope->syms = s;
	return s;
}

static void give_id(chk_ctx *c, json_t *n)
{
	json_object_set_new(n, "id", json_integer(++c->next_id));
}

static long long node_id(const json_t *n)
{
	return ast_int(n, "id");
}

/* ---- functions table ---------------------------------------------------- */

static chk_fn *fn_find(chk_ctx *c, const char *name)
{
	json_t *i = json_object_get(c->fn_index, name ? name : "");
	return i ? &c->fns[json_integer_value(i)] : NULL;
}

static chk_fn *fn_add(chk_ctx *c, json_t *f)
{
	const char *name = ast_str(f, "name");
	chk_fn *fn = fn_find(c, name);
	if (!fn) {
		if (c->nfns == c->capfns) {
			c->capfns = c->capfns ? 2 * c->capfns : 16;
			c->fns = xrealloc(c->fns, c->capfns * sizeof *c->fns);
		}
		fn = &c->fns[c->nfns];
		memset(fn, 0, sizeof *fn);
		fn->name = name;
		fn->first = f;
		json_object_set_new(c->fn_index, name,
			json_integer((json_int_t)c->nfns));
		c->nfns++;
	}
	if (ast_bool(f, "kernel") || ast_bool(f, "reduce"))
		fn->kernel = 1;
	if (json_is_object(ast_get(f, "body")) && !fn->def)
		fn->def = f;
	return fn;
}

static void edge_add(chk_ctx *c, chk_fn *from, chk_fn *to, json_t *call)
{
	if (c->nedges == c->capedges) {
		c->capedges = c->capedges ? 2 * c->capedges : 16;
		c->edges = xrealloc(c->edges, c->capedges * sizeof *c->edges);
	}
	c->edges[c->nedges].from = (int)(from - c->fns);
	c->edges[c->nedges].to = (int)(to - c->fns);
	c->edges[c->nedges].call = call;
	c->nedges++;
}

/* ---- expression helpers ------------------------------------------------- */

static json_t *strip_paren(json_t *e)
{
	while (ast_is(e, "paren"))
		e = ast_get(e, "e");
	return e;
}

/* A literal number, possibly signed or parenthesized: its type may be
 * promoted silently (spec 6.3.3 table) where strong typing asks for the
 * same type, so `a > 10.0` and `i0 > 0` check; `short s = 5` does not
 * (guide 1.11: narrowing needs a cast). */
static int is_literal(json_t *e)
{
	e = strip_paren(e);
	while (ast_is(e, "unop") && (strcmp(ast_str(e, "op"), "-") == 0 ||
		strcmp(ast_str(e, "op"), "+") == 0))
		e = strip_paren(ast_get(e, "e"));
	return ast_is(e, "int") || ast_is(e, "float") || ast_is(e, "char");
}

/* instance() or instanceInGroup(), or a swizzle of it: int4 that may be
 * assigned to uint4 (DESIGN.md reading 1). */
static int is_instance(json_t *e)
{
	e = strip_paren(e);
	while (ast_is(e, "member"))
		e = strip_paren(ast_get(e, "e"));
	if (!ast_is(e, "call"))
		return 0;
	const char *b = ast_str(e, "builtin");
	return strcmp(b, "instance") == 0 || strcmp(b, "instanceInGroup") == 0;
}

/* The declared name an lvalue or array expression is rooted at. */
static chk_sym *root_sym(chk_ctx *c, json_t *e)
{
	for (;;) {
		e = strip_paren(e);
		if (ast_is(e, "member") || ast_is(e, "index"))
			e = ast_get(e, ast_is(e, "member") ? "e" : "a");
		else
			break;
	}
	if (!ast_is(e, "id"))
		return NULL;
	return lookup(&c->names, ast_str(e, "name"));
}

static int is_lvalue(json_t *e)
{
	e = strip_paren(e);
	return ast_is(e, "id") || ast_is(e, "member") || ast_is(e, "index") ||
		(ast_is(e, "unop") && strcmp(ast_str(e, "op"), "*") == 0);
}

/* Constant integer value of a literal size expression. 1 when E is an
 * int literal (possibly parenthesized). */
static int int_literal(json_t *e, long long *v)
{
	e = strip_paren(e);
	if (!ast_is(e, "int") || !json_is_integer(ast_get(e, "value")))
		return 0;
	*v = ast_int(e, "value");
	return 1;
}

/* ---- conversions (spec 6.3.3) ------------------------------------------- */

/* spec 7.1: "Mismatched type for argument n". */
static void arg_type_err(chk_ctx *c, json_t *a, int n, const json_t *at,
	const json_t *pt)
{
	char *an = TN(at), *pn = TN(pt);
	err(c, a, "E-argument-type", "Mismatched type for argument %d: actual "
		"type is \"%s\" but expected type is \"%s\"", n, an, pn);
	free(an);
	free(pn);
}


typedef enum conv_site {
	CONV_ASSIGN, CONV_ELEMENT, CONV_ARG, CONV_RETURN
} conv_site;

/* What a conversion of arithmetic types does, for the messages of spec 7.2. */
typedef struct conv_info {
	int loss, unused, uninit;
} conv_info;

static conv_info conv_what(const json_t *from, const json_t *to)
{
	conv_info ci = {0, 0, 0};
	const char *fs = ty_scalar(from), *ts = ty_scalar(to);
	int fn = ty_ncomp(from), tn = ty_ncomp(to);
	ci.loss = strcmp(fs, ts) != 0 && !ty_promotes(fs, ts);
	ci.unused = fn > tn;
	ci.uninit = fn > 1 && fn < tn;
	return ci;
}

static int conv_level(conv_info ci)
{
	return ci.loss || ci.unused ? 1 : ci.uninit ? 2 : 3;
}

/* ": unused right operand components and possible loss of data" */
static void conv_parts(strbuf *b, conv_info ci, const char *side)
{
	const char *sep = ": ";
	if (ci.unused) {
		if (side)
			sb_printf(b, "%sunused %s operand components", sep, side);
		else
			sb_printf(b, "%sloss of components", sep);
		sep = " and ";
	}
	if (ci.uninit) {
		if (side)
			sb_printf(b, "%suninitialized %s operand components", sep,
				side);
		else
			sb_printf(b, "%suninitialized components", sep);
		sep = " and ";
	}
	if (ci.loss)
		sb_printf(b, "%spossible loss of data", sep);
}

/* The implicit conversion of E, of type FROM, to TO in kernel code. Strong
 * typing (the default) allows none but the promotion of a literal; with -a
 * each conversion warns at the level of what it loses. */
static void convert(chk_ctx *c, json_t *at, json_t *e, json_t *from,
	json_t *to, conv_site site, int n)
{
	if (!c->kern || ty_is_unknown(from) || ty_is_unknown(to) ||
		ty_equal(from, to))
		return;
	int arith = ty_is_arith(from) && ty_is_arith(to);
	if (arith) {
		const char *fs = ty_scalar(from), *ts = ty_scalar(to);
		int fn = ty_ncomp(from), tn = ty_ncomp(to);
		if (fn == 1 && tn == 1 && is_literal(e) && ty_promotes(fs, ts))
			return;
		if (fn == tn && is_instance(e) && strcmp(fs, "int") == 0 &&
			strcmp(ts, "uint") == 0)
			return;
	}
	char *fname = TN(from), *tname = TN(to);
	if (!arith || !c->o->a) {
		switch (site) {
		case CONV_ASSIGN:
			err(c, at, "E-type-mismatch",
				"Mismatched types: conversion from \"%s\" to \"%s\"",
				fname, tname);
			break;
		case CONV_ELEMENT:
			err(c, at, "E-element-type",
				"Mismatched type for element %d: actual type is %s "
				"but expected type is %s", n, fname, tname);
			break;
		case CONV_ARG:
			arg_type_err(c, at, n, from, to);
			break;
		case CONV_RETURN:
			err(c, at, "E-return-type",
				"Mismatched type: actual type is %s but expected "
				"type is %s", fname, tname);
			break;
		}
	} else {
		conv_info ci = conv_what(from, to);
		strbuf m = {0};
		switch (site) {
		case CONV_ASSIGN:
			sb_printf(&m, "implicit conversion from \"%s\" to \"%s\"",
				fname, tname);
			conv_parts(&m, ci, "right");
			break;
		case CONV_ELEMENT:
			if (ci.loss)
				sb_printf(&m, "possible loss of data for element "
					"%d: conversion from \"%s\" to \"%s\"", n, fname,
					tname);
			else
				sb_printf(&m, "implicit conversion for element %d "
					"from \"%s\" to \"%s\"", n, fname, tname);
			break;
		case CONV_ARG:
			sb_printf(&m, "Conversion from \"%s\" to \"%s\" for "
				"argument %d", fname, tname, n);
			conv_parts(&m, ci, NULL);
			break;
		case CONV_RETURN:
			sb_printf(&m, "Conversion from \"%s\" to \"%s\"", fname,
				tname);
			conv_parts(&m, ci, NULL);
			break;
		}
		warn(c, conv_level(ci), at, "W-implicit-conversion", "%s", m.s);
		sb_free(&m);
	}
	free(fname);
	free(tname);
}

/* The type both operands of a binary operator are brought to (spec 6.3.3:
 * the larger scalar type wins with its component count; for one scalar
 * type, the larger count). */
static json_t *promoted(chk_ctx *c, json_t *l, json_t *r)
{
	const char *ls = ty_scalar(l), *rs = ty_scalar(r);
	int ln = ty_ncomp(l), rn = ty_ncomp(r);
	if (strcmp(ls, rs) == 0)
		return ln >= rn ? l : r;
	int lr = ty_promo_rank(ls), rr = ty_promo_rank(rs);
	if (lr == rr)
		lr = ty_scalar_bits(ls), rr = ty_scalar_bits(rs);
	(void)c;
	return lr >= rr ? l : r;
}

/* Brings the operands of a binary operator (or the arms of ?:) to one type
 * in kernel code; returns that type (borrowed). */
static json_t *unify(chk_ctx *c, json_t *at, json_t *le, json_t *l,
	json_t *re, json_t *r, int cond)
{
	if (ty_equal(l, r))
		return l;
	int ln = ty_ncomp(l), rn = ty_ncomp(r);
	const char *ls = ty_scalar(l), *rs = ty_scalar(r);
	if (ln == 1 && rn == 1) {
		/* one literal operand: either side may be promoted */
		if ((is_literal(le) || is_literal(re)) &&
			(ty_promotes(ls, rs) || ty_promotes(rs, ls)))
			return promoted(c, l, r);
		if (is_literal(le) && is_literal(re))
			return promoted(c, l, r);
	}
	json_t *p = promoted(c, l, r);
	if (!c->o->a) {
		if (cond)
			err(c, at, "E-cond-mismatch", "Mismatched types: True "
				"expression type and false expression type must have "
				"same types and same number of components");
		else
			err(c, at, "E-operand-mismatch", "Mismatched operands: both "
				"must have same type and same number of components");
		return p;
	}
	json_t *from = p == l ? r : l, *to = p;
	conv_info ci = conv_what(from, to);
	char *fname = TN(from), *tname = TN(to);
	strbuf m = {0};
	sb_printf(&m, "implicit conversion from \"%s\" to \"%s\"", fname, tname);
	conv_parts(&m, ci, cond ? (p == l ? "false" : "true") :
		(p == l ? "right" : "left"));
	warn(c, conv_level(ci), at, "W-implicit-conversion", "%s", m.s);
	sb_free(&m);
	free(fname);
	free(tname);
	return p;
}

/* ---- expressions -------------------------------------------------------- */

static json_t *expr(chk_ctx *c, json_t *e);
static void initializer(chk_ctx *c, json_t *init, json_t *type, json_t *at);

static json_t *unknown(chk_ctx *c, json_t *e)
{
	return set_ty_b(e, T(c, "unknown"));
}

static json_t *opt_expr(chk_ctx *c, json_t *e)
{
	return e && !json_is_null(e) ? expr(c, e) : NULL;
}

/* A type object of the AST, resolved (new reference). Reports a missing
 * one as a malformed AST. */
static json_t *decl_type(chk_ctx *c, json_t *n, const char *key)
{
	json_t *t = ast_get(n, key);
	if (!json_is_object(t) || !json_is_string(ast_get(t, "t"))) {
		bad(c, n, "\"%s\" node without a valid \"%s\"", ast_kind(n), key);
		return json_incref(T(c, "unknown"));
	}
	return resolve(c, t);
}

/* spec 6.3.8: a condition must be a scalar in kernel code. */
static void condition(chk_ctx *c, json_t *e)
{
	json_t *t = expr(c, e);
	if (!c->kern || ty_is_unknown(t) || ty_is_scalar(t) || ty_is_ptr(t))
		return;
	if (ty_is_vector(t) && c->o->a)
		warn(c, 1, e, "W-vector-condition", "vector in a conditional "
			"expression: only its x component is used");
	else
		err(c, e, ty_is_vector(t) ? "E-vector-condition" :
			"E-condition-type",
			"conditional expression must be a scalar data type");
}

static json_t *literal_type(chk_ctx *c, json_t *e)
{
	const char *text = ast_str(e, "text");
	const char *k = ast_kind(e);
	const char *t = "int";
	int u = strchr(text, 'u') || strchr(text, 'U');
	int l = strchr(text, 'l') || strchr(text, 'L');
	if (strcmp(k, "float") == 0) {
		size_t n = strlen(text);
		char last = n ? text[n - 1] : 0;
		t = last == 'f' || last == 'F' ? "float" :
			last == 'l' || last == 'L' ? "ldouble" : "double";
	} else if (strcmp(k, "int") == 0 && strncmp(text, "0x", 2) != 0 &&
		strncmp(text, "0X", 2) != 0) {
		json_t *v = ast_get(e, "value");
		long long n = json_is_integer(v) ? json_integer_value(v) : -1;
		if (l)
			t = u ? "ulong" : "long";
		else if (n < 0 || n > 2147483647LL)
			t = u ? "ulong" : "long";
		else
			t = u ? "uint" : "int";
	} else if (strcmp(k, "int") == 0) {
		json_t *v = ast_get(e, "value");
		long long n = json_is_integer(v) ? json_integer_value(v) : -1;
		if (l || n < 0 || n > 4294967295LL)
			t = u ? "ulong" : "long";
		else
			t = u || n > 2147483647LL ? "uint" : "int";
	}
	if (c->kern && ty_scalar_is_reserved(t))
		err(c, e, "E-kernel-constant",
			"Unsupported constant type inside kernel: %s", text);
	return set_ty_b(e, T(c, t));
}

static json_t *id_expr(chk_ctx *c, json_t *e)
{
	const char *name = ast_str(e, "name");
	chk_sym *s = lookup(&c->names, name);
	if (!*name)
		bad(c, e, "\"id\" node without a name");
	if (!s || s->kind == SYM_TYPEDEF) {
		if (c->kern && *name)
			err(c, e, "E-undefined", "variable not defined: \"%s\"",
				name);
		return unknown(c, e);
	}
	json_t *target = s->node;
	if (s->kind == SYM_FUNC) {
		chk_fn *f = fn_find(c, name);
		if (f && f->def)
			target = f->def;
	}
	if (node_id(target))
		json_object_set_new(e, "ref", json_integer(node_id(target)));
	/* brookgpu: global memory is not accessible inside kernels */
	if (c->kern && s->global && s->kind == SYM_VAR)
		err(c, e, "E-kernel-global",
			"global variable \"%s\" is not accessible inside a kernel",
			name);
	return set_ty_b(e, s->type);
}

/* spec 6.3.4: swizzles of xyzw; none on scalars. */
static json_t *member_expr(chk_ctx *c, json_t *e)
{
	json_t *bt = expr(c, ast_get(e, "e"));
	const char *name = ast_str(e, "name");
	if (ast_bool(e, "arrow")) {
		if (c->kern)
			err(c, e, "E-kernel-arrow", "pointer dereference(->) not "
				"allowed inside kernel");
		if (!ty_is_ptr(bt))
			return unknown(c, e);
		/* the pointed-to struct, with its fields (kept alive by "ty") */
		json_t *to = resolve(c, ast_get(bt, "to"));
		json_object_set_new(e, "ty", to);
		bt = to;
	}
	if (ty_is_arith(bt)) {
		int n = ty_ncomp(bt);
		size_t len = strlen(name);
		if (ty_is_scalar(bt) && c->kern) {
			err(c, e, "E-swizzle-scalar",
				"Illegal to use swizzle on scalar types");
			return unknown(c, e);
		}
		json_t *sw = json_array();
		int ok = len >= 1 && len <= 4;
		for (size_t i = 0; ok && i < len; i++) {
			const char *p = strchr("xyzw", name[i]);
			if (!p || !name[i] || p - "xyzw" >= n)
				ok = 0;
			else
				json_array_append_new(sw, json_integer(p - "xyzw"));
		}
		if (!ok) {
			json_decref(sw);
			err(c, e, "E-swizzle", "unrecognized field/swizzle: \"%s\" "
				"on %s", name, ty_scalar(bt));
			return unknown(c, e);
		}
		json_object_set_new(e, "swizzle", sw);
		return set_ty_b(e, vec(c, ty_scalar(bt), (int)len));
	}
	if (ty_is_struct(bt) && json_is_array(ast_get(bt, "fields"))) {
		size_t i;
		json_t *f;
		json_array_foreach(ast_get(bt, "fields"), i, f)
			if (strcmp(ast_str(f, "name"), name) == 0) {
				if (node_id(f))
					json_object_set_new(e, "ref",
						json_integer(node_id(f)));
				return set_ty(e, decl_type(c, f, "type"));
			}
		err(c, e, "E-swizzle", "unrecognized field/swizzle: \"%s\"", name);
	}
	return unknown(c, e);
}

/* spec 6.3.13, 6.3.11: gather arrays take a[i][j] and a[v] (DESIGN.md
 * reading 3: the vector form warns). */
static json_t *index_expr(chk_ctx *c, json_t *e)
{
	json_t *base = ast_get(e, "a");
	json_t *at = expr(c, base);
	json_t *it = expr(c, ast_get(e, "i"));
	if (!c->kern) {
		if (ty_is_stream(at)) {
			err(c, e, "E-stream-index-host", "stream elements cannot be "
				"accessed outside kernels: use streamRead/streamWrite");
			return unknown(c, e);
		}
		if (ty_is_array(at))
			return set_ty(e, resolve(c, ast_get(at, "of")));
		if (ty_is_ptr(at))
			return set_ty(e, resolve(c, ast_get(at, "to")));
		return unknown(c, e);
	}
	json_t *b = strip_paren(base);
	if (!ast_is(b, "id") && !ast_is(b, "index") && !ast_is(b, "member")) {
		err(c, e, "E-index-base",
			"Array expression of index expression must be variable type");
		return unknown(c, e);
	}
	if (!ty_is_array(at)) {
		if (!ty_is_unknown(at))
			err(c, e, "E-index-not-array", "Variable must be array type");
		return unknown(c, e);
	}
	if (ty_is_unknown(it))
		return set_ty(e, resolve(c, ast_get(at, "of")));
	int n = ty_ncomp(it);
	if (n == 0) {
		err(c, e, "E-index-scalar", "subscript expression must be scalar "
			"type");
		return unknown(c, e);
	}
	if (n == 1)
		return set_ty(e, resolve(c, ast_get(at, "of")));
	chk_sym *s = root_sym(c, base);
	if (s && (s->local_array || s->shared)) {
		err(c, e, "E-index-local", "Local array variable dimensions and "
			"index expression dimensions must be same");
		return unknown(c, e);
	}
	if (n != ty_rank(at)) {
		err(c, e, "E-index-components", "Gather/scatter array dimensions "
			"and subscript vector components must match: %d and %d",
			ty_rank(at), n);
		return unknown(c, e);
	}
	warn(c, 2, e, "W-index-vector", "Strongly recommended to use c-style "
		"indexing for gather/scatter arrays");
	return set_ty(e, resolve(c, (json_t *)ty_base(at)));
}

/* spec 6.3.5: N scalar components for an N-component vector. */
static json_t *ctor_expr(chk_ctx *c, json_t *e)
{
	json_t *t = decl_type(c, e, "type");
	json_t *args = ast_arr(e, "args");
	int n = ty_ncomp(t);
	size_t i;
	json_t *a;
	set_ty(e, t);
	if (!args) {
		bad(c, e, "\"ctor\" node without \"args\"");
		return t;
	}
	json_array_foreach(args, i, a) {
		json_t *at = expr(c, a);
		if (ty_is_unknown(at))
			continue;
		if (!ty_is_scalar(at)) {
			char *an = TN(at);
			err(c, a, "E-ctor-component", "component %zu of a vector "
				"constructor must be a scalar, not %s", i + 1, an);
			free(an);
		} else if (n) {
			convert(c, a, a, at, vec(c, ty_scalar(t), 1), CONV_ELEMENT,
				(int)i + 1);
		}
	}
	if (n == 0) {
		char *tn = TN(t);
		err(c, e, "E-ctor-type", "%s is not a vector type", tn);
		free(tn);
	} else if ((size_t)n != json_array_size(args)) {
		char *tn = TN(t);
		err(c, e, "E-ctor-count", "an N component vector must have N "
			"components: %s needs %d, got %zu", tn, n,
			json_array_size(args));
		free(tn);
	}
	return t;
}

/* spec 6.3.6: indexof is float4, on streams and scatter arrays only. */
static json_t *indexof_expr(chk_ctx *c, json_t *e)
{
	json_t *a = strip_paren(ast_get(e, "e"));
	expr(c, ast_get(e, "e"));
	if (!c->kern) {
		err(c, e, "E-indexof-host", "indexof() operator has no meaning "
			"inside non-kernel functions");
		return set_ty_b(e, T(c, "float4"));
	}
	chk_sym *s = ast_is(a, "id") ? lookup(&c->names, ast_str(a, "name")) :
		NULL;
	if (s && (s->role == ROLE_GATHER || s->local_array || s->shared))
		err(c, e, "E-indexof-gather", "indexof() operator is not allowed "
			"on gather array/local array");
	else if (!s || (s->role != ROLE_IN && s->role != ROLE_OUT &&
		s->role != ROLE_SCATTER))
		err(c, e, "E-indexof-operand", "indexof() operator allowed only "
			"on stream/scatter");
	if (c->fn && c->fn->cls == CLASS_REDUCE)
		err(c, e, "E-reduce-indexof", "Illegal to use indexof() function "
			"in reduction kernel");
	return set_ty_b(e, T(c, "float4"));
}

static json_t *cast_expr(chk_ctx *c, json_t *e)
{
	json_t *t = decl_type(c, e, "type");
	json_t *et = expr(c, ast_get(e, "e"));
	set_ty(e, t);
	if (!c->kern)
		return t;
	if (ty_is_ptr(t))
		err(c, e, "E-kernel-pointer", "pointers not allowed inside kernel");
	else if (ty_is_array(et))
		err(c, e, "E-cast-array",
			"Illegal to use array type as casting expression");
	else if (ty_is_arith(t) && ty_is_arith(et) &&
		ty_ncomp(t) != ty_ncomp(et)) {
		if (c->o->a)
			warn(c, 1, e, "W-cast-components", "explicit casting "
				"required to have same no of components");
		else
			err(c, e, "E-cast-components", "explicit casting required "
				"to have same no of components");
	}
	return t;
}

/* spec 6.3.12: the operand kinds an operator accepts, in kernel code.
 * SIDE: "left", "right" or NULL (unary). 0 when the operand is wrong. */
static int operand_ok(chk_ctx *c, json_t *at, const char *op, json_t *t,
	const char *side)
{
	if (ty_is_unknown(t))
		return 0;
	if (ty_is_array(t)) {
		if (side)
			err(c, at, "E-operand-array",
				"Illegal to use array type as %s operand", side);
		else
			err(c, at, "E-operand-array",
				"Illegal to use array type as unary operand");
		return 0;
	}
	if (!ty_is_arith(t)) {
		err(c, at, "E-operand-type", "%s%soperand is not an Arithmetic type",
			side ? side : "", side ? " " : "");
		return 0;
	}
	if (!ty_op_accepts(op, ty_scalar(t))) {
		err(c, at, "E-operand-type", "%s%soperand is not an %s type "
			"(operator %s on %s)", side ? side : "", side ? " " : "",
			ty_op_needs(op), op, ty_scalar(t));
		return 0;
	}
	return 1;
}

static int is_relational(const char *op)
{
	static const char *const ops[] = {
		"<", ">", "<=", ">=", "==", "!=", "&&", "||", NULL
	};
	for (int i = 0; ops[i]; i++)
		if (strcmp(ops[i], op) == 0)
			return 1;
	return 0;
}

static int is_shift(const char *op)
{
	return strncmp(op, "<<", 2) == 0 || strncmp(op, ">>", 2) == 0;
}

/* Shift counts: a scalar, or one per component. */
static void shift_count(chk_ctx *c, json_t *at, json_t *l, json_t *r)
{
	int ln = ty_ncomp(l), rn = ty_ncomp(r);
	if (rn == 1 || rn == ln)
		return;
	const char *msg = rn < ln ? "shift count not specified for all "
		"components" : "unused shift count components";
	if (c->o->a)
		warn(c, 1, at, "W-shift-count", "%s", msg);
	else
		err(c, at, "E-shift-count", "%s", msg);
}

/* Host code: streams are not values (spec 3.2). */
static int host_stream_operand(chk_ctx *c, json_t *at, json_t *t)
{
	if (c->kern || !ty_is_stream(t))
		return 0;
	err(c, at, "E-stream-host-op", "stream elements cannot be accessed "
		"outside kernels: a stream is not an operand in host code");
	return 1;
}

/* C's type for a binary operator in host code: enough for brgen. */
static json_t *host_binop(chk_ctx *c, const char *op, json_t *l, json_t *r)
{
	if (is_relational(op))
		return T(c, "int");
	if (ty_is_arith(l) && ty_is_arith(r))
		return promoted(c, l, r);
	if ((ty_is_ptr(l) || ty_is_array(l)) && ty_is_arith(r))
		return l;
	if ((ty_is_ptr(r) || ty_is_array(r)) && ty_is_arith(l))
		return r;
	if (ty_is_ptr(l) && ty_is_ptr(r) && strcmp(op, "-") == 0)
		return T(c, "long");
	return T(c, "unknown");
}

static json_t *binop_expr(chk_ctx *c, json_t *e)
{
	const char *op = ast_str(e, "op");
	json_t *le = ast_get(e, "l"), *re = ast_get(e, "r");
	json_t *l = expr(c, le), *r = expr(c, re);
	if (!c->kern) {
		if (host_stream_operand(c, e, l) || host_stream_operand(c, e, r))
			return unknown(c, e);
		json_t *t = host_binop(c, op, l, r);
		if (ty_is_array(t))
			t = T(c, "unknown");
		return set_ty_b(e, t);
	}
	int okl = operand_ok(c, e, op, l, "left");
	int okr = operand_ok(c, e, op, r, "right");
	if (!okl || !okr)
		return unknown(c, e);
	json_t *t;
	if (is_shift(op)) {
		shift_count(c, e, l, r);
		t = l;
	} else {
		t = unify(c, e, le, l, re, r, 0);
	}
	if (is_relational(op))
		t = vec(c, "int", ty_ncomp(t));
	return set_ty_b(e, t);
}

static void write_check(chk_ctx *c, json_t *target, json_t *node,
	const char *op);

static json_t *unop_expr(chk_ctx *c, json_t *e, int postfix)
{
	const char *op = ast_str(e, "op");
	json_t *t = expr(c, ast_get(e, "e"));
	if (strcmp(op, "&") == 0) {
		if (c->kern)
			err(c, e, "E-kernel-address",
				"variable address(&) not allowed inside kernel");
		json_t *p = json_pack("{s:s, s:O}", "t", "ptr", "to", t);
		return set_ty(e, p);
	}
	if (strcmp(op, "*") == 0) {
		if (c->kern) {
			err(c, e, "E-kernel-deref",
				"pointer dereference(*) not allowed inside kernel");
			return unknown(c, e);
		}
		if (ty_is_ptr(t))
			return set_ty(e, resolve(c, ast_get(t, "to")));
		if (ty_is_array(t))
			return set_ty(e, resolve(c, ast_get(t, "of")));
		return unknown(c, e);
	}
	if (host_stream_operand(c, e, t))
		return unknown(c, e);
	if (strcmp(op, "++") == 0 || strcmp(op, "--") == 0 || postfix)
		write_check(c, ast_get(e, "e"), e, op);
	if (c->kern && !operand_ok(c, e, op, t, NULL))
		return unknown(c, e);
	if (strcmp(op, "!") == 0)
		return set_ty_b(e, c->kern ? vec(c, "int", ty_ncomp(t)) :
			T(c, "int"));
	return set_ty_b(e, t);
}

static json_t *assign_expr(chk_ctx *c, json_t *e)
{
	const char *op = ast_str(e, "op");
	json_t *le = ast_get(e, "l"), *re = ast_get(e, "r");
	json_t *l = expr(c, le), *r = expr(c, re);
	set_ty_b(e, l);
	write_check(c, le, e, op);
	if (!c->kern || ty_is_unknown(l) || ty_is_unknown(r))
		return l;
	if (strcmp(op, "=") != 0) {
		char bop[4];
		size_t n = *op ? strlen(op) - 1 : 0;	/* "op" may be missing */
		memcpy(bop, op, n < 3 ? n : 3);
		bop[n < 3 ? n : 3] = 0;
		if (!operand_ok(c, e, bop, l, "left") ||
			!operand_ok(c, e, bop, r, "right"))
			return l;
		if (is_shift(bop)) {
			shift_count(c, e, l, r);
			return l;
		}
	} else if (ty_is_array(l)) {
		err(c, e, "E-operand-array",
			"Illegal to use array type as left operand");
		return l;
	}
	convert(c, e, re, r, l, CONV_ASSIGN, 0);
	return l;
}

static json_t *cond_expr(chk_ctx *c, json_t *e)
{
	condition(c, ast_get(e, "c"));
	json_t *te = ast_get(e, "t"), *fe = ast_get(e, "f");
	json_t *t = expr(c, te), *f = expr(c, fe);
	if (ty_is_unknown(t) || ty_is_unknown(f))
		return unknown(c, e);
	if (ty_is_arith(t) && ty_is_arith(f))
		return set_ty_b(e, c->kern ? unify(c, e, te, t, fe, f, 1) :
			promoted(c, t, f));
	if (c->kern && !ty_equal(t, f))
		err(c, e, "E-cond-mismatch", "Mismatched types: True expression "
			"type and false expression type must have same types and "
			"same number of components");
	return set_ty_b(e, t);
}

/* ---- calls (spec 4.3, 6.3.9) -------------------------------------------- */

static void callee(json_t *e, const char *kind)
{
	json_object_set_new(e, "callee", json_string(kind));
}

static json_t *args_of(chk_ctx *c, json_t *e)
{
	json_t *args = ast_arr(e, "args");
	size_t i;
	json_t *a;
	if (!args) {
		bad(c, e, "\"call\" node without \"args\"");
		return NULL;
	}
	json_array_foreach(args, i, a)
		expr(c, a);
	return args;
}

static int arg_count(chk_ctx *c, json_t *e, json_t *args, size_t want)
{
	if (!args || json_array_size(args) == want)
		return 1;
	err(c, e, "E-arg-count", "incorrect number of parameters expect %zu "
		"actual %zu", want, json_array_size(args));
	return 0;
}

/* Product of the constant sizes of a gather array; 0 when one is missing. */
static long long array_count(json_t *t)
{
	long long n = 1, v;
	for (; ty_is_array(t); t = ast_get(t, "of")) {
		if (!int_literal(ast_get(t, "size"), &v))
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
		if (!int_literal(d, &v))
			return 0;
		else
			n *= v;
	return n;
}

static int is_iter_stream(chk_ctx *c, json_t *a)
{
	chk_sym *s = root_sym(c, a);
	return s && s->kind == SYM_VAR && has_qual(ast_get(s->node, "quals"),
		"iter");
}

/* The "role" a parameter was given by classify(). */
static chk_role role_of(const json_t *p)
{
	const char *r = ast_str(p, "role");
	for (int i = 1; i <= ROLE_REDUCE; i++)
		if (strcmp(r, role_names[i]) == 0)
			return (chk_role)i;
	return ROLE_NONE;
}

/* An argument of a kernel call from host code. */
static void host_arg(chk_ctx *c, json_t *a, json_t *p, int n)
{
	chk_role role = role_of(p);
	json_t *at = ast_get(a, "ty");
	json_t *pt = resolve(c, ast_get(p, "type"));
	if (ty_is_unknown(at))
		goto out;
	if (role == ROLE_VALUE) {
		if (ty_is_stream(at) || ty_is_array(at))
			err(c, a, "E-arg-not-value", "Illegal to use array type at "
				"argument %d: Expected value", n);
		else if (ty_is_struct(at) && !ty_equal(at, pt))
			arg_type_err(c, a, n, at, pt);
		goto out;
	}
	if (role == ROLE_REDUCE && !ty_is_stream(at)) {
		if (!is_lvalue(a))
			err(c, a, "E-arg-lvalue", "Argument %d must be lvalue type", n);
		json_t *pe = ty_is_stream(pt) ? ast_get(pt, "of") : pt;
		if (!ty_equal(at, pe))
			arg_type_err(c, a, n, at, pe);
		goto out;
	}
	if (!ty_is_stream(at)) {
		err(c, a, "E-arg-not-stream", "Illegal to use array type at "
			"argument %d: Expected stream type/variable", n);
		goto out;
	}
	json_t *ae = resolve(c, ast_get(at, "of"));
	json_t *pe = role == ROLE_GATHER || role == ROLE_SCATTER ?
		json_incref((json_t *)ty_base(pt)) : ty_is_stream(pt) ?
		resolve(c, ast_get(pt, "of")) : json_incref(pt);
	json_t *pe_r = resolve(c, pe);
	if (!ty_equal(ae, pe_r)) {
		arg_type_err(c, a, n, at, pt);
	} else {
		int pr = ty_rank(pt), ar = ty_rank(at);
		if (pr > 1 && ar != pr)
			err(c, a, "E-arg-dims", "Mismatched dimensions of formal and "
				"actual arguments for argument %d", n);
		else if (role == ROLE_GATHER && array_count(pt) &&
			stream_count(at) && array_count(pt) != stream_count(at))
			err(c, a, "E-arg-gather-count", "Mismatched element count "
				"of gather array for argument %d", n);
	}
	if ((role == ROLE_OUT || role == ROLE_SCATTER) && is_iter_stream(c, a))
		err(c, a, "E-arg-iter-out", "an iterator stream cannot be passed "
			"as an output (argument %d)", n);
	json_decref(ae);
	json_decref(pe);
	json_decref(pe_r);
out:
	json_decref(pt);
}

/* An argument of a subkernel call in kernel code (spec 4.3). */
static void sub_arg(chk_ctx *c, json_t *a, json_t *p, int n)
{
	const char *r = ast_str(p, "role");
	json_t *at = ast_get(a, "ty");
	json_t *pt = resolve(c, ast_get(p, "type"));
	if (strcmp(r, "gather") == 0 || strcmp(r, "scatter") == 0) {
		chk_sym *s = root_sym(c, a);
		if (s && (s->local_array || s->shared))
			err(c, a, "E-arg-local-array", "Local array not allowed to "
				"pass as kernel parameter for argument %d", n);
		else if (!ty_is_array(at) && !ty_is_unknown(at))
			err(c, a, "E-arg-not-gather",
				"Must be gather array type for argument %d", n);
		else if (ty_is_array(at) && !ty_equal(ty_base(at), ty_base(pt)))
			arg_type_err(c, a, n, at, pt);
		else if (ty_is_array(at) && ty_rank(at) != ty_rank(pt))
			err(c, a, "E-arg-dims", "Mismatched dimensions of formal and "
				"actual arguments for argument %d", n);
		json_decref(pt);
		return;
	}
	if (ty_is_array(at)) {
		err(c, a, "E-arg-not-value",
			"Illegal to use array type at argument %d: Expected value", n);
		json_decref(pt);
		return;
	}
	json_t *want = ty_is_stream(pt) ? resolve(c, ast_get(pt, "of")) :
		json_incref(pt);
	if (strcmp(r, "out") == 0 || strcmp(r, "reduce") == 0) {
		if (!is_lvalue(a))
			err(c, a, "E-arg-lvalue", "Argument %d must be lvalue type", n);
		else
			write_check(c, a, NULL, "=");
	}
	convert(c, a, a, at, want, CONV_ARG, n);
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
		err(c, e, "E-reduce-shape", "a reduction cannot produce a stream "
			"of higher rank (%zu) than its input (%zu)", nout, nin);
		return;
	}
	if (nout != nin)
		return;
	for (size_t i = 0; i < nin; i++) {
		int_literal(json_array_get(din, i), &a);
		int_literal(json_array_get(dout, i), &b);
		if (b > a || (b > 0 && a % b != 0)) {
			err(c, e, "E-reduce-shape", "Input dimensions should be "
				"integral multiple of output dimensions: %lld and %lld "
				"in dimension %zu", a, b, i + 1);
			return;
		}
	}
}

/* spec 4.2: a stream is bound read-only or write-only, never both (the
 * runtime allows it with BRT_PERMIT_READ_WRITE_ALIASING: a warning). */
static void read_write(chk_ctx *c, json_t *args, json_t *params,
	const char *name)
{
	size_t i, j;
	json_t *a, *b;
	json_array_foreach(args, i, a) {
		chk_role ri = role_of(json_array_get(params, i));
		chk_sym *si = root_sym(c, a);
		if (!si || !ty_is_stream(ast_get(a, "ty")) ||
			(ri != ROLE_OUT && ri != ROLE_SCATTER && ri != ROLE_REDUCE))
			continue;
		json_array_foreach(args, j, b) {
			chk_role rj = role_of(json_array_get(params, j));
			if (j != i && root_sym(c, b) == si &&
				(rj == ROLE_IN || rj == ROLE_GATHER)) {
				warn(c, 1, a, "W-read-write", "stream \"%s\" is bound "
					"both as input and as output of \"%s\": "
					"read-write binding is not permitted", si->name, name);
				break;
			}
		}
	}
}

static json_t *user_call(chk_ctx *c, json_t *e, json_t *f, chk_sym *s)
{
	const char *name = ast_str(f, "name");
	chk_fn *cf = fn_find(c, name);
	json_t *fnode = cf && cf->def ? cf->def : s->node;
	json_t *args = args_of(c, e);
	id_expr(c, f);
	json_t *ft = ast_get(s->type, "ret") ? s->type : NULL;
	json_t *ret = ft ? resolve(c, ast_get(ft, "ret")) :
		json_incref(T(c, "unknown"));
	set_ty(e, ret);
	if (!cf || !cf->kernel) {
		callee(e, "host");
		if (c->kern)
			err(c, e, "E-kernel-calls-host",
				"kernel can't call a non-kernel: \"%s\"", name);
		return ret;
	}
	json_t *params = ast_arr(ast_get(fnode, "type"), "params");
	if (c->kern) {
		callee(e, "sub");
		cf->sub = 1;
		if (!cf->defined)
			err(c, e, "E-callee-no-definition", "definition must be "
				"available before invoking \"%s\"", name);
		if (cf->cls == CLASS_SCATTER) {
			err(c, e, "E-call-scatter",
				"Illegal to call scatter kernel from any kernel");
			return ret;
		}
		if (c->fn)
			edge_add(c, c->fn, cf, e);
	} else {
		callee(e, cf->cls == CLASS_REDUCE ? "reduce" : "kernel");
		/* spec 6.3.9: a function definition must exist */
		if (!cf->def)
			err(c, e, "E-kernel-no-definition", "A function definition "
				"must exist for kernel \"%s\" in this file", name);
		if (!ty_is_void(ret) && !ty_is_unknown(ret))
			err(c, e, "E-kernel-return-host", "a top-level kernel must "
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
			sub_arg(c, a, p, (int)i + 1);
			continue;
		}
		host_arg(c, a, p, (int)i + 1);
		if (strcmp(ast_str(p, "role"), "in") == 0 && !in)
			in = ast_get(a, "ty");
		if (strcmp(ast_str(p, "role"), "reduce") == 0)
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
	json_t *args = args_of(c, e);
	unknown(c, f);
	callee(e, "builtin");
	json_object_set_new(e, "builtin", json_string(name));
	arg_count(c, e, args, 0);
	if (!c->kern)
		err(c, e, tab[k].id_host, "%s() operator has no meaning inside "
			"non-kernel functions", name);
	else if (c->fn && c->fn->cls == CLASS_REDUCE)
		err(c, e, tab[k].id_reduce, "Illegal to use %s() function in "
			"reduction kernel", name);
	else if (k > 0 && c->fn && !c->fn->groupsize && !c->fn->group_use) {
		c->fn->group_use = e;
		c->fn->group_what = tab[k].name;
	}
	return set_ty_b(e, T(c, tab[k].type));
}

/* spec 5: the built-in functions of kernel code. */
static json_t *builtin_call(chk_ctx *c, json_t *e, json_t *f,
	const ty_builtin *b)
{
	json_t *args = args_of(c, e);
	unknown(c, f);
	callee(e, "builtin");
	json_object_set_new(e, "builtin", json_string(b->name));
	if (!args || !arg_count(c, e, args, (size_t)b->nargs))
		return unknown(c, e);
	size_t i;
	json_t *a, *t = NULL;
	int tlit = 0;
	/* T: the type of the first argument that is not a literal */
	json_array_foreach(args, i, a) {
		json_t *at = ast_get(a, "ty");
		if (ty_is_unknown(at))
			return unknown(c, e);
		if (!ty_is_arith(at)) {
			err(c, e, "E-builtin-nomatch", "No matched built-in function "
				"found: %s()", b->name);
			return unknown(c, e);
		}
		if (!t || (tlit && !is_literal(a))) {
			t = at;
			tlit = is_literal(a);
		}
	}
	int floats = b->sig == TY_B_FLOAT1 || b->sig == TY_B_FLOAT2 ||
		b->sig == TY_B_FLOAT3 || b->sig == TY_B_DOT ||
		b->sig == TY_B_LENGTH || b->sig == TY_B_CROSS;
	if (floats && ty_scalar_is_integer(ty_scalar(t))) {
		if (!c->o->a) {
			err(c, e, "E-builtin-nomatch", "No matched built-in function "
				"found: %s() of %s", b->name, ty_scalar(t));
			return unknown(c, e);
		}
		warn(c, 1, e, "W-builtin-float",
			"all Parameters of \"%s\" are converted to float", b->name);
		t = vec(c, "float", ty_ncomp(t));
	}
	json_array_foreach(args, i, a) {
		json_t *at = ast_get(a, "ty");
		/* clamp(v, lo, hi) and lerp(x, y, a) take scalar bounds */
		if (i > 0 && (b->sig == TY_B_NUM3 || b->sig == TY_B_FLOAT3) &&
			ty_is_scalar(at) && ty_is_vector(t))
			convert(c, a, a, at, vec(c, ty_scalar(t), 1), CONV_ARG,
				(int)i + 1);
		else
			convert(c, a, a, at, t, CONV_ARG, (int)i + 1);
	}
	switch (b->sig) {
	case TY_B_PRED:
		return set_ty_b(e, vec(c, "int", ty_ncomp(t)));
	case TY_B_DOT:
	case TY_B_LENGTH:
		return set_ty_b(e, vec(c, ty_scalar(t), 1));
	case TY_B_CROSS:
		if (ty_ncomp(t) != 3 && ty_ncomp(t) != 4)
			err(c, e, "E-builtin-nomatch", "No matched built-in function "
				"found: cross() needs float3 or float4");
		return set_ty_b(e, t);
	default:
		return set_ty_b(e, t);
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

/* spec 3.3: stream operators; brookgpu: iter(). */
static json_t *stream_op_call(chk_ctx *c, json_t *e, json_t *f,
	const char *name)
{
	json_t *args = args_of(c, e);
	unknown(c, f);
	callee(e, "stream_op");
	if (c->kern) {
		err(c, e, "E-kernel-stream-op", "Kernels cannot call stream "
			"operators: %s()", name);
		return unknown(c, e);
	}
	if (!args)
		return unknown(c, e);
	if (strcmp(name, "iter") == 0) {
		if (!arg_count(c, e, args, 2))
			return unknown(c, e);
		return set_ty_b(e, ast_get(json_array_get(args, 0), "ty"));
	}
	if (strcmp(name, "streamRead") == 0 || strcmp(name, "streamWrite") == 0) {
		if (arg_count(c, e, args, 2)) {
			json_t *st = ast_get(json_array_get(args, 0), "ty");
			if (!ty_is_stream(st) && !ty_is_unknown(st))
				err(c, e, "E-stream-op-arg",
					"%s: argument 1 must be a stream", name);
		}
		return set_ty_b(e, T(c, "void"));
	}
	return unknown(c, e);
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
	args_of(c, e);
	unknown(c, f);
	callee(e, "method");
	for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
		if (strcmp(tab[i].name, name) != 0)
			continue;
		if (tab[i].type)
			return set_ty_b(e, T(c, tab[i].type));
		json_t *t = json_copy(st);
		json_t *dims = json_array();
		for (int k = 0; k < ty_rank(st); k++)
			json_array_append_new(dims, json_null());
		json_object_set_new(t, "dims", dims);
		return set_ty(e, t);
	}
	err(c, e, "E-stream-method", "unknown stream method \"%s\"", name);
	return unknown(c, e);
}

static json_t *call_expr(chk_ctx *c, json_t *e)
{
	json_t *fe = ast_get(e, "fn");
	json_t *f = strip_paren(fe);
	if (ast_is(f, "member") && !c->kern) {
		json_t *bt = expr(c, ast_get(f, "e"));
		if (ty_is_stream(bt)) {
			if (f != fe)
				unknown(c, fe);
			return method_call(c, e, f, bt);
		}
	}
	if (ast_is(f, "id")) {
		const char *name = ast_str(f, "name");
		chk_sym *s = lookup(&c->names, name);
		const ty_builtin *b;
		if (f != fe)
			unknown(c, fe);
		if (s && s->kind == SYM_FUNC)
			return user_call(c, e, f, s);
		if (!s && (strcmp(name, "instance") == 0 ||
			strcmp(name, "instanceInGroup") == 0 ||
			strcmp(name, "syncGroup") == 0))
			return intrinsic_call(c, e, f, name);
		if (!s && is_stream_op(name))
			return stream_op_call(c, e, f, name);
		if (!s && c->kern && (b = ty_builtin_find(name)))
			return builtin_call(c, e, f, b);
		if (!s && c->kern) {
			args_of(c, e);
			unknown(c, f);
			callee(e, "host");
			err(c, e, "E-callee-unknown", "callee unknown: \"%s\"", name);
			return unknown(c, e);
		}
	}
	json_t *ft = expr(c, fe);
	args_of(c, e);
	callee(e, "host");
	if (c->kern) {
		if (ast_is(f, "id"))
			err(c, e, "E-callee-not-function", "callee is not a function");
		else
			err(c, e, "E-indirect-call", "indirect call not supported");
		return unknown(c, e);
	}
	if (ty_is_ptr(ft))
		ft = ast_get(ft, "to");
	if (strcmp(ast_str(ft, "t"), "func") == 0)
		return set_ty(e, resolve(c, ast_get(ft, "ret")));
	return unknown(c, e);
}

/* ---- writes (spec 4.2, 4.4, 6.3.4; guide 1.17.6) ------------------------ */

static int is_iig_x(json_t *e)
{
	e = strip_paren(e);
	if (!ast_is(e, "member") || strcmp(ast_str(e, "name"), "x") != 0)
		return 0;
	json_t *b = strip_paren(ast_get(e, "e"));
	return ast_is(b, "call") &&
		strcmp(ast_str(b, "builtin"), "instanceInGroup") == 0;
}

/* guide 1.17.6: lds[Stride * instanceInGroup().x + offset] = data, with
 * Stride = SharedArraySize / GroupSize and 0 <= offset < Stride. */
static void shared_write(chk_ctx *c, chk_sym *s, json_t *target)
{
	if (!c->fn || !c->fn->groupsize || s->shared_size <= 0)
		return;
	long long want = s->shared_size / c->fn->groupsize, v;
	json_t *i = strip_paren(ast_get(target, "i"));
	json_t *terms[2] = {i, NULL};
	if (ast_is(i, "binop") && strcmp(ast_str(i, "op"), "+") == 0) {
		terms[0] = strip_paren(ast_get(i, "l"));
		terms[1] = strip_paren(ast_get(i, "r"));
	}
	int k = -1;
	json_t *stride = NULL;
	for (int j = 0; j < 2 && terms[j]; j++) {
		json_t *t = terms[j];
		if (is_iig_x(t)) {
			k = j;
		} else if (ast_is(t, "binop") && strcmp(ast_str(t, "op"), "*") == 0) {
			if (is_iig_x(ast_get(t, "l")))
				k = j, stride = ast_get(t, "r");
			else if (is_iig_x(ast_get(t, "r")))
				k = j, stride = ast_get(t, "l");
			else if (k < 0)
				k = -2 - j;
		}
	}
	if (k < -1) {
		err(c, target, "E-shared-mul", "one of the multiplication operand "
			"must be instanceInGroup().x");
		return;
	}
	if (k < 0) {
		err(c, target, "E-shared-thread", "Shared array index expression "
			"must contain instanceInGroup().x");
		return;
	}
	if (stride && !int_literal(stride, &v))
		err(c, target, "E-shared-stride", "stride must be a integer "
			"constant");
	else if ((stride ? v : 1) != want)
		err(c, target, "E-shared-stride-value", "stride value must be "
			"equal to (SharedArraySize / groupSize) = %lld", want);
	json_t *off = terms[1] ? terms[1 - k] : NULL;
	if (!off)
		err(c, target, "E-shared-offset", "offset of Shared array index "
			"expression must be a constant integer");
	else if (!int_literal(off, &v))
		err(c, target, "E-shared-offset", "offset must be a integer "
			"constant");
	else if (v < 0 || v >= want)
		err(c, target, "E-shared-offset-range", "offset value(\"%lld\") "
			"must be in the range of 0 <= offset < (SharedArraySize / "
			"groupSize) = %lld", v, want);
}

/* spec 6.3.4: no repeated component on the left. */
static void swizzle_repeat(chk_ctx *c, json_t *target)
{
	for (json_t *e = strip_paren(target); ast_is(e, "member");
		e = strip_paren(ast_get(e, "e"))) {
		json_t *sw = ast_get(e, "swizzle");
		int seen = 0;
		size_t i;
		json_t *v;
		json_array_foreach(sw, i, v) {
			int bit = 1 << (json_integer_value(v) & 3);
			if (seen & bit) {
				err(c, e, "E-swizzle-repeat", "illegal to use components "
					"repetition in lvalue expression");
				return;
			}
			seen |= bit;
		}
	}
}

/* Kernel rules on the target of an assignment, ++/-- or out argument.
 * NODE: the assign node ("reduce_op" goes there), or NULL. */
static void write_check(chk_ctx *c, json_t *target, json_t *node,
	const char *op)
{
	if (!c->kern)
		return;
	if (!is_lvalue(target)) {
		err(c, target, "E-not-lvalue", "expression is not assignable");
		return;
	}
	swizzle_repeat(c, target);
	chk_sym *s = root_sym(c, target);
	if (!s)
		return;
	switch (s->role) {
	case ROLE_IN:
		err(c, target, "E-input-readonly",
			"Input streams are read only streams: \"%s\"", s->name);
		return;
	case ROLE_VALUE:
		err(c, target, "E-value-readonly", "Non-stream/Non Array inputs "
			"are not allowed to modify inside kernel: \"%s\"", s->name);
		return;
	case ROLE_GATHER:
		err(c, target, "E-gather-readonly",
			"Gather arrays are read only arrays: \"%s\"", s->name);
		return;
	case ROLE_REDUCE: {
		static const char *const ok[] = {"+=", "*=", "|=", "^=", "&=", NULL};
		int good = 0;
		if (node && ast_is(node, "assign"))
			json_object_set_new(node, "reduce_op", json_string(op));
		for (int i = 0; ok[i]; i++)
			good |= strcmp(ok[i], op) == 0;
		/* a reduce function may assign its result freely; a reduction
		 * variable of another kernel only through an associative
		 * operator (spec 4.1.2) */
		if (!good && c->fnode && !ast_bool(c->fnode, "reduce"))
			err(c, target, "E-reduce-op", "reduction variable \"%s\" may "
				"only be updated with +=, *=, |=, ^= or &=", s->name);
		return;
	}
	default:
		break;
	}
	if (s->constq)
		err(c, target, "E-const-lvalue", "lvalue is a constant type: \"%s\"",
			s->name);
	if (s->shared && ast_is(strip_paren(target), "index"))
		shared_write(c, s, strip_paren(target));
}

/* ---- the expression dispatcher ------------------------------------------ */

static json_t *expr_kind(chk_ctx *c, json_t *e, const char *k)
{
	switch (k[0]) {
	case 'a':
		if (strcmp(k, "assign") == 0)
			return assign_expr(c, e);
		break;
	case 'b':
		if (strcmp(k, "binop") == 0)
			return binop_expr(c, e);
		break;
	case 'c':
		if (strcmp(k, "call") == 0)
			return call_expr(c, e);
		if (strcmp(k, "cond") == 0)
			return cond_expr(c, e);
		if (strcmp(k, "cast") == 0)
			return cast_expr(c, e);
		if (strcmp(k, "ctor") == 0)
			return ctor_expr(c, e);
		if (strcmp(k, "char") == 0)
			return literal_type(c, e);
		if (strcmp(k, "comma") == 0) {
			expr(c, ast_get(e, "l"));
			return set_ty_b(e, expr(c, ast_get(e, "r")));
		}
		if (strcmp(k, "compound") == 0) {
			json_t *t = decl_type(c, e, "type");
			set_ty(e, t);
			initializer(c, ast_get(e, "init"), t, e);
			return t;
		}
		break;
	case 'f':
		if (strcmp(k, "float") == 0)
			return literal_type(c, e);
		break;
	case 'i':
		if (strcmp(k, "id") == 0)
			return id_expr(c, e);
		if (strcmp(k, "int") == 0)
			return literal_type(c, e);
		if (strcmp(k, "index") == 0)
			return index_expr(c, e);
		if (strcmp(k, "indexof") == 0)
			return indexof_expr(c, e);
		break;
	case 'm':
		if (strcmp(k, "member") == 0)
			return member_expr(c, e);
		break;
	case 'p':
		if (strcmp(k, "paren") == 0)
			return set_ty_b(e, expr(c, ast_get(e, "e")));
		if (strcmp(k, "postfix") == 0)
			return unop_expr(c, e, 1);
		break;
	case 's':
		if (strcmp(k, "string") == 0) {
			if (c->kern)
				err(c, e, "E-kernel-string",
					"String constant in kernel not allowed");
			return set_ty_b(e, T(c, "@string"));
		}
		if (strcmp(k, "sizeof") == 0) {
			if (c->kern)
				err(c, e, "E-kernel-sizeof", "Sizeof not allowed in kernel");
			if (ast_get(e, "e"))
				expr(c, ast_get(e, "e"));
			return set_ty_b(e, T(c, "ulong"));
		}
		break;
	case 'u':
		if (strcmp(k, "unop") == 0)
			return unop_expr(c, e, 0);
		break;
	}
	bad(c, e, "\"%s\" is not an expression node", k);
	return unknown(c, e);
}

static json_t *expr(chk_ctx *c, json_t *e)
{
	const char *k = ast_kind(e);
	if (!*k) {
		bad(c, json_is_object(e) ? e : c->cur, "an expression is missing "
			"or not a node");
		return T(c, "unknown");
	}
	if (c->depth >= CHK_MAX_DEPTH) {
		if (!c->too_deep)
			err(c, e, "E-too-deep", "expression nested too deeply (more "
				"than %d levels)", CHK_MAX_DEPTH);
		c->too_deep = 1;
		return unknown(c, e);
	}
	json_t *saved = c->cur;
	c->cur = e;
	c->depth++;
	json_t *t = expr_kind(c, e, k);
	c->depth--;
	c->cur = saved;
	return t;
}

/* ---- initializers ------------------------------------------------------- */

/* The type of the Nth element an initializer list fills in T. */
static json_t *init_elem(chk_ctx *c, json_t *t, size_t n, int *element)
{
	*element = 0;
	if (ty_is_array(t))
		return resolve(c, ast_get(t, "of"));
	if (ty_is_vector(t)) {
		*element = 1;
		return json_incref(vec(c, ty_scalar(t), 1));
	}
	if (ty_is_struct(t)) {
		json_t *f = json_array_get(ast_get(t, "fields"), n);
		if (f)
			return decl_type(c, f, "type");
	}
	return json_incref(T(c, "unknown"));
}

/* spec 7.2: initializer lists of vectors and arrays in kernel code. */
static void init_count(chk_ctx *c, json_t *init, json_t *type, size_t n)
{
	long long size = 0;
	if (n == 0) {
		warn(c, 1, init, "W-init-empty", "Empty array initializer");
		return;
	}
	if (ty_is_vector(type))
		size = ty_ncomp(type);
	else if (ty_is_array(type) && !int_literal(ast_get(type, "size"), &size))
		return;
	if (size > 0 && (long long)n > size)
		warn(c, 1, init, "W-init-count", "Too many initializers: %zu for "
			"%lld elements", n, size);
	else if (ty_is_vector(type) && (long long)n < size)
		warn(c, 2, init, "W-init-components", "Uninitialized components: "
			"%zu of %lld given", n, size);
}

static void initializer(chk_ctx *c, json_t *init, json_t *type, json_t *at)
{
	if (!init || json_is_null(init))
		return;
	if (!ast_is(init, "initlist")) {
		json_t *t = expr(c, init);
		convert(c, init, init, t, type, CONV_ASSIGN, 0);
		(void)at;
		return;
	}
	json_t *items = ast_arr(init, "items");
	size_t i;
	json_t *it;
	if (!items) {
		bad(c, init, "\"initlist\" node without \"items\"");
		return;
	}
	if (c->kern)
		init_count(c, init, type, json_array_size(items));
	json_array_foreach(items, i, it) {
		size_t j;
		json_t *dz;
		json_array_foreach(ast_arr(it, "desig"), j, dz)
			if (ast_is(dz, "desig_index"))
				expr(c, ast_get(dz, "index"));
		int element;
		json_t *et = init_elem(c, type, i, &element);
		json_t *v = ast_get(it, "value");
		if (ast_is(v, "initlist")) {
			initializer(c, v, et, it);
		} else {
			json_t *vt = expr(c, v);
			convert(c, v, v, vt, et, element ? CONV_ELEMENT : CONV_ASSIGN,
				(int)i + 1);
		}
		json_decref(et);
	}
}

/* ---- declarations ------------------------------------------------------- */

static void walk_sizes(chk_ctx *c, json_t *t);

/* Struct, union and enum definitions inside a declaration's type: tags,
 * field ids, enum constants. */
static void declare_tags(chk_ctx *c, json_t *t)
{
	const char *k = ast_str(t, "t");
	if (strcmp(k, "struct") == 0 || strcmp(k, "union") == 0) {
		json_t *fields = ast_get(t, "fields");
		const char *tag = ast_str(t, "tag");
		if (json_is_array(fields)) {
			size_t i;
			json_t *f;
			json_array_foreach(fields, i, f) {
				if (!node_id(f))
					give_id(c, f);
				declare_tags(c, ast_get(f, "type"));
				walk_sizes(c, ast_get(f, "type"));
				if (ast_get(f, "bits") && !json_is_null(ast_get(f, "bits")))
					expr(c, ast_get(f, "bits"));
			}
			if (*tag) {
				chk_sym *s = in_scope(c, &c->tags, tag);
				if (s && s->type && json_is_array(ast_get(s->type,
					"fields")) && s->type != t)
					err(c, t, "E-duplicate", "Variable name Duplicated: "
						"%s %s", k, tag);
				else if (s) {
					json_decref(s->type);
					s->type = json_incref(t);
				} else
					declare(c, &c->tags, tag, SYM_TAG, NULL,
						json_incref(t));
			}
		} else if (*tag && !lookup(&c->tags, tag)) {
			declare(c, &c->tags, tag, SYM_TAG, NULL, NULL);
		}
	} else if (strcmp(k, "enum") == 0) {
		size_t i;
		json_t *it;
		json_array_foreach(ast_get(t, "items"), i, it) {
			const char *name = ast_str(it, "name");
			if (node_id(it))
				continue;
			give_id(c, it);
			if (ast_get(it, "value") && !json_is_null(ast_get(it, "value")))
				expr(c, ast_get(it, "value"));
			if (in_scope(c, &c->names, name))
				err(c, it, "E-duplicate", "Variable name Duplicated: %s",
					name);
			declare(c, &c->names, name, SYM_ENUM, it,
				json_incref(T(c, "int")));
		}
	} else if (strcmp(k, "ptr") == 0) {
		declare_tags(c, ast_get(t, "to"));
	} else if (strcmp(k, "array") == 0 || strcmp(k, "stream") == 0) {
		declare_tags(c, ast_get(t, "of"));
	}
}

/* Checks the size expressions inside a type (array sizes, stream dims). */
static void walk_sizes(chk_ctx *c, json_t *t)
{
	const char *k = ast_str(t, "t");
	if (strcmp(k, "array") == 0) {
		if (ast_get(t, "size") && !json_is_null(ast_get(t, "size")))
			expr(c, ast_get(t, "size"));
		walk_sizes(c, ast_get(t, "of"));
	} else if (strcmp(k, "stream") == 0) {
		size_t i;
		json_t *d;
		json_array_foreach(ast_get(t, "dims"), i, d)
			if (!json_is_null(d))
				expr(c, d);
		walk_sizes(c, ast_get(t, "of"));
	} else if (strcmp(k, "ptr") == 0) {
		walk_sizes(c, ast_get(t, "to"));
	}
}

/* Any C qualifier Q on T or the types it is made of. */
static int type_has_qual(const json_t *t, const char *q)
{
	for (; json_is_object(t); t = ast_get(t, ty_is_ptr(t) ? "to" : "of"))
		if (has_qual(ast_get(t, "quals"), q))
			return 1;
	return 0;
}

static int type_has_ptr(const json_t *t)
{
	for (; json_is_object(t); t = ast_get(t, "of"))
		if (ty_is_ptr(t))
			return 1;
	return 0;
}

/* spec 3.2: what a stream may hold. */
static int stream_elem_ok(chk_ctx *c, json_t *t, int depth)
{
	if (depth > 32)
		return 0;
	if (ty_is_arith(t))
		return strcmp(ty_scalar(t), "bool") != 0;
	if (ty_is_array(t))
		return stream_elem_ok(c, ast_get(t, "of"), depth + 1);
	if (ty_is_struct(t)) {
		size_t i;
		json_t *f;
		json_array_foreach(ast_get(t, "fields"), i, f) {
			json_t *ft = resolve(c, ast_get(f, "type"));
			int ok = stream_elem_ok(c, ft, depth + 1);
			json_decref(ft);
			if (!ok)
				return 0;
		}
		return 1;
	}
	return ty_is_unknown(t);
}

/* spec 6.1.2 and 2: reserved types; double vectors beyond two. */
static void kernel_type(chk_ctx *c, json_t *at, json_t *t)
{
	const json_t *b = ty_base(t);
	if (ty_scalar_is_reserved(ty_scalar(b)))
		err(c, at, "E-reserved-type", "reserved type \"%s\" is not "
			"supported in kernels", ty_scalar(b));
	else if (c->o->portable && ty_ncomp(b) > 2 &&
		strcmp(ty_scalar(b), "double") == 0)
		warn(c, 1, at, "W-portable-double", "double data types can have 1 "
			"or 2 components");
}

static void stream_var(chk_ctx *c, json_t *v, json_t *t)
{
	size_t i;
	json_t *d;
	json_t *elem = ast_get(t, "of");
	if (!stream_elem_ok(c, elem, 0)) {
		char *n = TN(elem);
		err(c, v, "E-stream-elem", "Stream element type not supported: %s",
			n);
		free(n);
	}
	json_array_foreach(ast_get(t, "dims"), i, d) {
		if (json_is_null(d)) {
			err(c, v, "E-stream-dims", "stream dimensions must be given: "
				"<> is allowed only for kernel parameters");
			continue;
		}
		json_t *dt = ast_get(d, "ty");
		if (!ty_is_unknown(dt) && !(ty_is_scalar(dt) &&
			ty_scalar_is_integer(ty_scalar(dt))))
			err(c, d, "E-stream-dim-type",
				"expect int for stream dimension parameter");
	}
	if (c->scope->up == NULL)
		err(c, v, "E-stream-global", "streams must be local variables");
	/* spec 3.2, guide 1.2.1.2: the 2008 limits */
	long long total = 1, n;
	int wide = 0;
	json_array_foreach(ast_get(t, "dims"), i, d) {
		if (!int_literal(d, &n)) {
			total = 0;
			break;
		}
		if (total <= (1LL << 23))	/* saturates: no overflow */
			total *= n < 0 ? 0 : n > (1LL << 24) ? (1LL << 24) : n;
		wide |= n > 8192;
	}
	if (c->o->portable && (wide || total > (1LL << 23)))
		warn(c, 1, v, "W-portable-stream", "streams are limited to 2^23 "
			"elements and 8192 along a dimension on the 2008 hardware");
	json_t *init = ast_get(v, "init");
	if (init && !json_is_null(init)) {
		json_t *ie = strip_paren(init);
		int iter = has_qual(ast_get(v, "quals"), "iter") &&
			ast_is(ie, "call") &&
			strcmp(ast_str(ast_get(ie, "fn"), "name"), "iter") == 0;
		if (!iter)
			err(c, v, "E-stream-init", "Stream can't have an initializer");
	}
}

/* guide 1.17.2, 1.17.3: shared float4 lds[256]; */
static void shared_var(chk_ctx *c, json_t *v, json_t *t, chk_sym *s)
{
	long long n = 0, gs = c->fn ? c->fn->groupsize : 0;
	if (!gs)
		err(c, v, "E-shared-groupsize", "Shared array allowed only for "
			"compute shaders: specify GroupSize Attribute");
	if (!ty_is_array(t)) {
		err(c, v, "E-shared-array", "Shared qualifier valid only for Local "
			"Array declared inside kernel");
		return;
	}
	if (ty_rank(t) != 1)
		err(c, v, "E-shared-dims", "Shared Local Array must be 1D");
	else if (!int_literal(ast_get(t, "size"), &n) || n <= 0)
		err(c, v, "E-shared-size", "shared array size must be a positive "
			"integer constant, not a constant expression");
	if (ast_get(v, "init") && !json_is_null(ast_get(v, "init")))
		err(c, v, "E-shared-init", "Shared Local Array should not be "
			"initialized");
	s->shared = 1;
	s->shared_size = n;
	if (c->fn && ++c->fn->nshared == 2 && c->o->portable)
		warn(c, 1, v, "W-portable-shared", "Only One Shared local array "
			"allowed");
	if (n > 0 && gs > 0 && n % gs != 0)
		err(c, v, "E-shared-groupsize",
			"SharedArraySize%%GroupSize must be zero: %lld %% %lld", n, gs);
	if (!c->o->portable || n <= 0)
		return;
	const json_t *e = ast_get(t, "of");
	int bits = ty_scalar_bits(ty_scalar(e)) * ty_ncomp(e);
	if (bits != 128)
		warn(c, 1, v, "W-portable-shared", "Shared array type must be 128 "
			"bit type");
	if (n * bits > 4096 * 32)
		warn(c, 1, v, "W-portable-shared", "Shared array size must be <= "
			"4K 32-bit type");
	if (gs > 0 && n % gs == 0 && (n / gs) * bits / 8 > 64)
		warn(c, 1, v, "W-portable-shared", "SharedArraySize/GroupSize must "
			"be <= 64 bytes");
}

/* guide 1.17, spec 7.1: local arrays in kernels need constant sizes. */
static void local_array(chk_ctx *c, json_t *v, json_t *t)
{
	for (; ty_is_array(t); t = ast_get(t, "of")) {
		json_t *sz = ast_get(t, "size");
		long long n;
		json_t *st = ast_get(sz, "ty");
		if (!sz || json_is_null(sz))
			err(c, v, "E-local-array-size",
				"Local Array size must be non-zero positive int value");
		else if (int_literal(sz, &n)) {
			if (n <= 0)
				err(c, v, "E-local-array-size", "Local Array size must be "
					"non-zero positive int value");
		} else if (!ty_scalar_is_integer(ty_scalar(st)))
			err(c, v, "E-local-array-type",
				"Local Array size must be constant int type");
		else
			err(c, v, "E-local-array-expr",
				"Local Array size expression must be simple constant int");
	}
	if (c->o->portable)
		warn(c, 1, v, "W-portable-local-array", "Local Array not supported "
			"yet");
}

/* spec 6.3.1, 6.3.2, 4.4: one declared variable. */
static void var_decl(chk_ctx *c, json_t *v, const char *storage)
{
	const char *name = ast_str(v, "name");
	json_t *quals = ast_get(v, "quals");
	json_t *raw = ast_get(v, "type");
	if (!ast_is(v, "var") || !*name) {
		bad(c, v, "a declaration holds something other than a named "
			"\"var\"");
		return;
	}
	json_t *t = decl_type(c, v, "type");
	give_id(c, v);
	walk_sizes(c, raw);
	if (strcmp(storage, "typedef") == 0) {
		declare(c, &c->names, name, SYM_TYPEDEF, v, t);
		return;
	}
	chk_sym *prev = in_scope(c, &c->names, name);
	if (prev && prev->kind == SYM_FUNC)
		err(c, v, "E-function-name-clash", "Function names must be unique "
			"among all function and variable names: \"%s\"", name);
	else if (prev && (c->scope->up || prev->kind != SYM_VAR))
		err(c, v, "E-duplicate", "Variable name Duplicated: %s", name);
	if (c->kern) {
		if (strcmp(storage, "static") == 0 || strcmp(storage, "extern") == 0)
			err(c, v, "E-kernel-storage",
				"static or extern not allowed inside kernel");
		if (type_has_qual(raw, "volatile") || type_has_qual(raw, "restrict"))
			err(c, v, "E-kernel-qualifier", "volatile or restrict "
				"qualifiers not allowed inside kernel");
		if (type_has_ptr(t))
			err(c, v, "E-kernel-pointer",
				"pointers not allowed inside kernel");
		if (ty_is_stream(t))
			err(c, v, "E-kernel-stream",
				"streams cannot be declared inside a kernel");
		kernel_type(c, v, t);
	} else if (has_qual(quals, "shared")) {
		err(c, v, "E-shared-placement", "Shared qualifier valid only for "
			"Local Array declared inside kernel");
	}
	if (has_qual(quals, "out"))
		err(c, v, "E-out-qualifier",
			"out qualifier allowed only for kernel parameters");
	if (has_qual(quals, "reduce"))
		err(c, v, "E-reduce-qualifier",
			"reduce qualifier allowed only for kernel parameters");
	if (!c->kern && ty_is_stream(t))
		stream_var(c, v, t);
	chk_sym *s = declare(c, &c->names, name, SYM_VAR, v, t);
	s->constq = has_qual(ast_get(raw, "quals"), "const") ||
		has_qual(quals, "const");
	json_t *init = ast_get(v, "init");
	int has_init = init && !json_is_null(init);
	if (c->kern && has_qual(quals, "shared"))
		shared_var(c, v, t, s);
	else if (c->kern && ty_is_array(t)) {
		s->local_array = 1;
		local_array(c, v, t);
	}
	if (c->kern && s->constq && !has_init)
		err(c, v, "E-const-uninit", "uninitialized const: \"%s\"", name);
	if (has_init && !ty_is_stream(t))
		initializer(c, init, t, v);
	else if (has_init)
		initializer(c, init, T(c, "unknown"), v);
}

static void decl(chk_ctx *c, json_t *d)
{
	json_t *vars = ast_arr(d, "vars");
	const char *storage = ast_str(d, "storage");
	size_t i;
	json_t *v;
	if (!vars) {
		bad(c, d, "\"decl\" node without \"vars\"");
		return;
	}
	declare_tags(c, ast_get(d, "type"));
	json_array_foreach(vars, i, v)
		var_decl(c, v, storage);
}

/* ---- statements --------------------------------------------------------- */

static void stmt(chk_ctx *c, json_t *s);

static void block_items(chk_ctx *c, json_t *b)
{
	json_t *items = ast_arr(b, "items");
	size_t i;
	json_t *it;
	if (!items) {
		bad(c, b, "\"block\" node without \"items\"");
		return;
	}
	json_array_foreach(items, i, it)
		stmt(c, it);
}

static void return_stmt(chk_ctx *c, json_t *s)
{
	json_t *e = ast_get(s, "e");
	json_t *t = opt_expr(c, e);
	c->saw_return = 1;
	if (!c->kern || !c->fnode)
		return;
	json_t *ret = resolve(c, ast_get(ast_get(c->fnode, "type"), "ret"));
	if (!t && !ty_is_void(ret))
		err(c, s, "E-missing-return", "Must return a value");
	else if (t && ty_is_void(ret)) {
		char *n = TN(t);
		err(c, s, "E-return-type", "Mismatched type: actual type is %s but "
			"expected type is void", n);
		free(n);
	} else if (t)
		convert(c, e, e, t, ret, CONV_RETURN, 0);
	json_decref(ret);
}

static void stmt_kind(chk_ctx *c, json_t *s, const char *k)
{
	if (strcmp(k, "block") == 0) {
		push_scope(c);
		block_items(c, s);
		pop_scope(c);
	} else if (strcmp(k, "decl") == 0) {
		decl(c, s);
	} else if (strcmp(k, "expr") == 0) {
		expr(c, ast_get(s, "e"));
	} else if (strcmp(k, "if") == 0) {
		condition(c, ast_get(s, "cond"));
		stmt(c, ast_get(s, "then"));
		if (ast_get(s, "else") && !json_is_null(ast_get(s, "else")))
			stmt(c, ast_get(s, "else"));
	} else if (strcmp(k, "while") == 0) {
		condition(c, ast_get(s, "cond"));
		stmt(c, ast_get(s, "body"));
	} else if (strcmp(k, "do") == 0) {
		stmt(c, ast_get(s, "body"));
		condition(c, ast_get(s, "cond"));
	} else if (strcmp(k, "for") == 0) {
		json_t *init = ast_get(s, "init");
		push_scope(c);
		if (ast_is(init, "decl"))
			decl(c, init);
		else
			opt_expr(c, init);
		if (ast_get(s, "cond") && !json_is_null(ast_get(s, "cond")))
			condition(c, ast_get(s, "cond"));
		opt_expr(c, ast_get(s, "step"));
		stmt(c, ast_get(s, "body"));
		pop_scope(c);
	} else if (strcmp(k, "switch") == 0) {
		if (c->kern && c->o->portable)
			warn(c, 1, s, "W-portable-switch",
				"Switch not supported inside kernel yet");
		expr(c, ast_get(s, "cond"));
		stmt(c, ast_get(s, "body"));
	} else if (strcmp(k, "case") == 0) {
		expr(c, ast_get(s, "e"));
		stmt(c, ast_get(s, "stmt"));
	} else if (strcmp(k, "default") == 0 || strcmp(k, "label") == 0) {
		stmt(c, ast_get(s, "stmt"));
	} else if (strcmp(k, "goto") == 0) {
		if (c->kern)
			err(c, s, "E-kernel-goto", "goto not allowed inside kernel");
	} else if (strcmp(k, "return") == 0) {
		return_stmt(c, s);
	} else if (strcmp(k, "break") != 0 && strcmp(k, "continue") != 0 &&
		strcmp(k, "empty") != 0 && strcmp(k, "directive") != 0) {
		bad(c, s, "\"%s\" is not a statement node", k);
	}
}

static void stmt(chk_ctx *c, json_t *s)
{
	if (!json_is_object(s) || !json_is_string(ast_get(s, "k"))) {
		bad(c, c->cur, "a statement is missing or not a node");
		return;
	}
	if (c->depth >= CHK_MAX_DEPTH) {
		if (!c->too_deep)
			err(c, s, "E-too-deep", "statements nested too deeply (more "
				"than %d levels)", CHK_MAX_DEPTH);
		c->too_deep = 1;
		return;
	}
	json_t *saved = c->cur;
	if (ast_get(s, "at"))
		c->cur = s;
	c->depth++;
	stmt_kind(c, s, ast_kind(s));
	c->depth--;
	c->cur = saved;
}

/* ---- kernels: classification (pre-pass) --------------------------------- */

static int has_qual_any(json_t *p, const char *q)
{
	return has_qual(ast_get(p, "quals"), q) ||
		has_qual(ast_get(ast_get(p, "type"), "quals"), q);
}

static chk_role param_role(json_t *p)
{
	json_t *t = ast_get(p, "type");
	int out = has_qual_any(p, "out");
	if (has_qual_any(p, "reduce"))
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
		if (strcmp(ast_str(a, "name"), "GroupSize") != 0)
			continue;
		long long n = 1, x;
		json_array_foreach(ast_get(a, "args"), j, v)
			if (int_literal(v, &x) && x > 0)
				n *= x;
		return json_array_size(ast_get(a, "args")) ? n : 0;
	}
	return 0;
}

/* Sets "role" on each parameter and "class" on the function (ast.h);
 * spec 4.1.2 (footnote 3: a reduce parameter makes a reduction), guide
 * 1.17 (GroupSize), 4.2 (scatter). */
static void classify(chk_ctx *c, chk_fn *fn, json_t *f)
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
	}
	json_array_foreach(params, i, p) {
		chk_role r = param_role(p);
		/* spec 4.1.2: reduce void max_reduce(double a, reduce double b):
		 * with no stream, the first other parameter is the input */
		if (ast_bool(f, "reduce") && !streams && r == ROLE_VALUE) {
			r = ROLE_IN;
			streams = 1;
		}
		json_object_set_new(p, "role", json_string(role_names[r]));
	}
	long long gs = group_size(f);
	chk_class cls = reduce || ast_bool(f, "reduce") ? CLASS_REDUCE :
		gs ? CLASS_GROUP : scatter ? CLASS_SCATTER : CLASS_MAP;
	json_object_set_new(f, "class", json_string(class_names[cls]));
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
			expr(c, v);
		if (!kernel || strcmp(ast_str(a, "name"), "GroupSize") != 0) {
			err(c, a, "E-attr-unknown", "Unsupported kernel Attribute: %s",
				ast_str(a, "name"));
			continue;
		}
		if (seen++) {
			err(c, a, "E-groupsize-dup", "More than one GroupSize "
				"specified: only one GroupSize allowed");
			continue;
		}
		size_t n = json_array_size(args);
		if (n == 0)
			err(c, a, "E-groupsize-empty", "GroupSize must have values");
		else if (n > 4)
			err(c, a, "E-groupsize-arity",
				"More than 4 components not allowed in GroupSize");
		long long prod = 1, x;
		json_array_foreach(args, j, v) {
			if (!int_literal(v, &x) || x <= 0) {
				err(c, v, "E-groupsize-value", "GroupSize values must be "
					"positive integer constants");
				continue;
			}
			prod *= x;
			if (j > 0 && x != 1 && c->o->portable)
				warn(c, 1, v, "W-portable-groupsize", "dimension %zu of "
					"GroupSize must be 1", j + 1);
		}
		if (c->o->portable && prod > 1024)
			warn(c, 1, a, "W-portable-groupsize", "Group size must be <= "
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
		if (int_literal(sz, &n)) {
			if (n <= 0) {
				err(c, sz, r == ROLE_SCATTER ? "E-scatter-size" :
					"E-gather-size", "%s Array size must be non-zero "
					"positive int value if specified", what);
				bad_size = 1;
			}
		} else if (!ty_scalar_is_integer(ty_scalar(ast_get(sz, "ty")))) {
			err(c, sz, r == ROLE_SCATTER ? "E-scatter-size" :
				"E-gather-size", "%s Array size must be constant int type "
				"if specified", what);
			bad_size = 1;
		} else {
			err(c, sz, r == ROLE_SCATTER ? "E-scatter-size" :
				"E-gather-size", "%s Array size expression must be simple "
				"constant int if specified", what);
			bad_size = 1;
		}
	}
	if (r == ROLE_SCATTER) {
		if (known && !bad_size)
			warn(c, 1, p, "W-scatter-size", "Specifying scatter array "
				"sizes have no meaning presently. Do not specify sizes");
		if (c->o->portable && ty_is_struct(ty_base(t)))
			warn(c, 1, p, "W-portable-scatter", "Scatter stream not "
				"supported for struct");
		return;
	}
	if (known && known < rank) {
		const char *msg = "Incomplete array size specification: Specify all "
			"array sizes for cached gather array (e.g. a[5][5]) or no "
			"array sizes for Streams (e.g. a[][])";
		if (c->o->c)
			warn(c, 1, p, "W-gather-incomplete", "%s", msg);
		else
			err(c, p, "E-gather-incomplete", "%s", msg);
	}
	if (known == rank && !bad_size && !c->o->c) {
		(*ncbuf)++;
		if (c->o->portable && array_count(t) > 4096)
			warn(c, 1, p, "W-portable-cbuf", "Total number of elements of a "
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
		chk_role r = role_of(p);
		json_t *raw = ast_get(p, "type");
		json_t *t = resolve(c, raw);
		n[r]++;
		if (r == ROLE_IN && !in)
			in = p;
		if (r == ROLE_REDUCE && !red)
			red = p;
		if (has_qual_any(p, "const"))
			err(c, p, "E-param-const", "Nothing special to use const "
				"qualifier for kernel parameters. It is a reserved usage");
		if (type_has_qual(raw, "volatile") || type_has_qual(raw, "restrict")
			|| has_qual(ast_get(p, "quals"), "volatile") ||
			has_qual(ast_get(p, "quals"), "restrict"))
			err(c, p, "E-kernel-qualifier", "volatile or restrict "
				"qualifiers not allowed for kernel parameters");
		if (type_has_ptr(ty_is_stream(t) ? ast_get(t, "of") : t))
			err(c, p, "E-kernel-pointer",
				"pointers not allowed inside kernel");
		if (r == ROLE_OUT && !ty_is_stream(t))
			err(c, p, "E-out-not-stream",
				"non-reduce output parameter must be stream type");
		if (ty_is_stream(t) && !stream_elem_ok(c, ast_get(t, "of"), 0)) {
			char *tn = TN(ast_get(t, "of"));
			err(c, p, "E-stream-elem",
				"Stream element type not supported: %s", tn);
			free(tn);
		}
		kernel_type(c, p, t);
		if (r == ROLE_GATHER || r == ROLE_SCATTER)
			array_param(c, p, t, r, &ncbuf);
		json_decref(t);
	}
	/* spec 4.1.2, brookgpu: one input and one reduce output of the same
	 * type */
	if (n[ROLE_REDUCE] || ast_bool(f, "reduce")) {
		if (!n[ROLE_REDUCE])
			err(c, f, "E-reduce-missing", "Specify reduce qualifier for "
				"kernel: a reduce function needs a reduce parameter");
		else if (n[ROLE_REDUCE] != 1 || n[ROLE_IN] != 1 || n[ROLE_OUT] ||
			n[ROLE_SCATTER])
			err(c, f, "E-reduce-params", "reduction kernel can only have "
				"one input stream and one reduction output scalar/stream");
		else {
			json_t *it = resolve(c, ast_get(in, "type"));
			json_t *rt = resolve(c, ast_get(red, "type"));
			json_t *ie = ty_is_stream(it) ? ast_get(it, "of") : it;
			json_t *re = ty_is_stream(rt) ? ast_get(rt, "of") : rt;
			if (!ty_equal(ie, re)) {
				char *a = TN(ie), *b = TN(re);
				err(c, f, "E-reduce-type", "Both the input and the output "
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
		err(c, f, "E-scatter-count", "Only one scatter output allowed");
	if (n[ROLE_SCATTER] && n[ROLE_OUT])
		err(c, f, "E-scatter-mixed",
			"Both scatter output and stream output not allowed");
	if (group_size(f) && n[ROLE_OUT])
		err(c, f, "E-groupsize-output", "Output must be a scatter type if "
			"you specify GroupSize attribute");
	if (c->o->portable) {
		if (n[ROLE_OUT] + n[ROLE_SCATTER] > 8)
			warn(c, 1, f, "W-portable-outputs", "more than 8 outputs: the "
				"2008 hardware binds at most 8 outputs to a kernel");
		if (n[ROLE_IN] + n[ROLE_GATHER] > 128)
			warn(c, 1, f, "W-portable-inputs", "more than 128 inputs: the "
				"2008 hardware binds at most 128 inputs to a kernel");
		if (ncbuf > 10)
			warn(c, 1, f, "W-portable-cbuf", "Maximum number of constant "
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
		json_t *t = decl_type(c, p, "type");
		give_id(c, p);
		walk_sizes(c, ast_get(p, "type"));
		if (!kernel && (has_qual_any(p, "out") || has_qual_any(p, "reduce")))
			err(c, p, has_qual_any(p, "out") ? "E-out-qualifier" :
				"E-reduce-qualifier", "%s qualifier allowed only for kernel "
				"parameters", has_qual_any(p, "out") ? "out" : "reduce");
		if (!*name || json_is_null(ast_get(p, "name"))) {
			json_decref(t);
			continue;
		}
		if (in_scope(c, &c->names, name))
			err(c, p, "E-duplicate", "Variable name Duplicated: %s", name);
		chk_role r = role_of(p);
		if (kernel && ty_is_stream(t)) {
			json_t *e = resolve(c, ast_get(t, "of"));
			json_decref(t);
			t = e;
		}
		chk_sym *s = declare(c, &c->names, name, SYM_PARAM, p, t);
		s->role = kernel ? r : ROLE_NONE;
		s->constq = has_qual_any(p, "const");
	}
}

/* A function: prototype or definition, kernel or not. */
static void func_decl(chk_ctx *c, json_t *f)
{
	const char *name = ast_str(f, "name");
	chk_fn *fn = fn_find(c, name);
	json_t *ft = ast_get(f, "type");
	if (!fn || strcmp(ast_str(ft, "t"), "func") != 0 ||
		!ast_arr(ft, "params")) {
		bad(c, f, "\"func\" node without a name or a \"func\" type");
		return;
	}
	chk_sym *prev = in_scope(c, &c->names, name);
	if (prev && prev->kind != SYM_FUNC)
		err(c, f, "E-function-name-clash", "Function names must be unique "
			"among all function and variable names: \"%s\"", name);
	if (!prev || prev->kind != SYM_FUNC)
		declare(c, &c->names, name, SYM_FUNC, f, decl_type(c, f, "type"));
	json_t *body = ast_get(f, "body");
	int kernel = ast_bool(f, "kernel") || ast_bool(f, "reduce");
	attributes(c, f, kernel);
	json_t *ret = decl_type(c, ft, "ret");
	if (kernel && ty_is_stream(ret))
		err(c, f, "E-kernel-return-stream", "a kernel cannot return a "
			"stream: subkernels can return any non-stream type");
	json_decref(ret);
	if (kernel && ast_bool(f, "noret"))
		warn(c, 1, f, "W-kernel-noret",
			"unspecified kernel return type: void assumed");
	push_scope(c);
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
		block_items(c, body);
		json_t *r = resolve(c, ast_get(ft, "ret"));
		if (kernel && !c->saw_return && !ty_is_void(r) &&
			!ty_is_unknown(r))
			err(c, f, "E-missing-return", "Must return a value");
		json_decref(r);
	} else if (body && !json_is_null(body)) {
		bad(c, f, "function body is not a block");
	}
	pop_scope(c);
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
				err(c, e->call, "E-kernel-recursion", "Recursion is not "
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

static void post_checks(chk_ctx *c)
{
	recursion(c);
	for (size_t i = 0; i < c->nfns; i++) {
		chk_fn *fn = &c->fns[i];
		if (fn->sub && fn->def)
			json_object_set_new(fn->def, "sub", json_true());
		if (fn->group_use && !fn->sub)
			err(c, fn->group_use, strcmp(fn->group_what, "syncGroup") == 0 ?
				"E-sync-pixel" : "E-iig-pixel", "Illegal to use %s() for "
				"pixel shader kernel: specify a GroupSize attribute",
				fn->group_what);
	}
}

/* ---- the document ------------------------------------------------------- */

static const char *const annotations[] = {
	"id", "ref", "ty", "swizzle", "callee", "builtin", "class", "sub",
	"role", "reduce_op", NULL
};

/* Removes the annotations of an earlier check; when the input claims to
 * be checked, every "ref" must name an "id" (IDS: the ids seen). */
static void strip(chk_ctx *c, json_t *n, int depth, json_t *ids, json_t *refs)
{
	if (depth > 4 * CHK_MAX_DEPTH) {
		if (!c->malformed)
			bad(c, NULL, "the document is nested too deeply");
		return;
	}
	if (json_is_array(n)) {
		size_t i;
		json_t *v;
		json_array_foreach(n, i, v)
			strip(c, v, depth + 1, ids, refs);
		return;
	}
	if (!json_is_object(n))
		return;
	json_t *id = ast_get(n, "id"), *ref = ast_get(n, "ref");
	char key[32];
	if (ids && json_is_integer(id) && ast_get(n, "k")) {
		snprintf(key, sizeof key, "%lld", (long long)json_integer_value(id));
		json_object_set_new(ids, key, json_true());
	}
	if (refs && ref && ast_is(n, "id"))
		json_array_append(refs, ref);
	if (ast_get(n, "k") || ast_get(n, "t"))
		for (int i = 0; annotations[i]; i++)
			if (strcmp(annotations[i], "ty") == 0 || ast_get(n, "k"))
				json_object_del(n, annotations[i]);
	const char *key2;
	json_t *v;
	json_object_foreach(n, key2, v)
		strip(c, v, depth + 1, ids, refs);
}

static void check_refs(chk_ctx *c, json_t *ids, json_t *refs)
{
	size_t i;
	json_t *r;
	char key[32];
	json_array_foreach(refs, i, r) {
		if (!json_is_integer(r)) {
			bad(c, NULL, "a \"ref\" is not an integer");
			return;
		}
		snprintf(key, sizeof key, "%lld", (long long)json_integer_value(r));
		if (!json_object_get(ids, key)) {
			bad(c, NULL, "dangling \"ref\": no declaration has \"id\" %s",
				key);
			return;
		}
	}
}

int check_doc(json_t *doc, const check_options *o, diag_ctx *d)
{
	chk_ctx c;
	memset(&c, 0, sizeof c);
	c.doc = doc;
	c.o = o;
	c.d = d;
	int errors_before = d->nerrors;
	json_t *decls = ast_arr(doc, "decls");
	if (!json_is_object(doc) || ast_int(doc, "brast") != BRAST_VERSION ||
		!decls || !ast_arr(doc, "files")) {
		bad(&c, NULL, "not a brast document of version %d with \"files\" "
			"and \"decls\"", BRAST_VERSION);
		return 2;
	}
	int checked = strcmp(ast_str(doc, "stage"), "checked") == 0;
	json_t *ids = checked ? json_object() : NULL;
	json_t *refs = checked ? json_array() : NULL;
	/* a parsed document has no annotations to remove */
	if (checked)
		strip(&c, decls, 0, ids, refs);
	if (checked && !c.malformed)
		check_refs(&c, ids, refs);
	json_decref(ids);
	json_decref(refs);
	if (c.malformed)
		return 2;

	c.types = json_object();
	json_object_set_new(c.types, "@string", json_pack("{s:s, s:{s:s}}",
		"t", "ptr", "to", "t", "char"));
	c.fn_index = json_object();
	size_t i;
	json_t *n;
	/* pre-pass: every function, its id, class and parameter roles */
	json_array_foreach(decls, i, n)
		if (ast_is(n, "func") && *ast_str(n, "name")) {
			fn_add(&c, n);
			give_id(&c, n);
		}
	json_array_foreach(decls, i, n)
		if (ast_is(n, "func") && *ast_str(n, "name"))
			classify(&c, fn_find(&c, ast_str(n, "name")), n);

	push_scope(&c);
	json_array_foreach(decls, i, n) {
		c.cur = n;
		if (ast_is(n, "decl"))
			decl(&c, n);
		else if (ast_is(n, "func"))
			func_decl(&c, n);
		else if (!ast_is(n, "directive"))
			bad(&c, n, "\"%s\" is not a declaration node", ast_kind(n));
	}
	pop_scope(&c);
	post_checks(&c);

	json_object_set_new(doc, "stage", json_string("checked"));
	json_object_set_new(doc, "options", json_pack("{s:b, s:b, s:b, s:i}",
		"a", o->a != 0, "c", o->c != 0, "portable", o->portable != 0,
		"wlevel", o->wlevel));
	table_free(&c.names);
	table_free(&c.tags);
	free(c.fns);
	free(c.edges);
	json_decref(c.fn_index);
	json_decref(c.types);
	if (c.malformed)
		return 2;
	return d->nerrors > errors_before ? 1 : 0;
}
