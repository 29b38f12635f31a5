/* check_scope.c - the checker's tables: canonical types, typedef and
 * tag resolution, scopes of names and tags, node ids, the functions
 * table and call graph, and small questions about expressions. */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brook/ast.h"
#include "brook/check_int.h"
#include "brook/type.h"
#include "brook/util.h"

/* ---- types -------------------------------------------------------------- */

/* The canonical type object for a simple type name (borrowed). */
json_t *chk_T(chk_ctx *c, const char *name)
{
	json_t *t = json_object_get(c->types, name);
	if (!t) {
		t = ast_type(name);
		json_object_set_new(c->types, name, t);
	}
	return t;
}


int chk_has_qual(const json_t *quals, const char *q)
{
	size_t i;
	json_t *v;
	json_array_foreach(quals, i, v)
		if (json_is_string(v) && strcmp(json_string_value(v), q) == 0)
			return 1;
	return 0;
}

unsigned chk_quals(const json_t *quals)
{
	static const char *const names[] = {
		"const", "volatile", "restrict", "out", "vout", "reduce", "iter",
		"shared", NULL
	};
	unsigned set = 0;
	size_t i;
	json_t *v;
	json_array_foreach(quals, i, v) {
		const char *q = json_string_value(v);
		for (int j = 0; q && names[j]; j++)
			if (ty_streq(names[j], q))
				set |= 1u << j;
	}
	return set;
}

/* Resolves typedef names and struct tags in T: a new reference. Struct
 * bodies are not entered (member access resolves field types). */
json_t *chk_resolve(chk_ctx *c, json_t *t)
{
	if (!json_is_object(t))
		return json_incref(chk_T(c, "unknown"));
	const char *k = ty_kind(t);
	/* only typedef, struct, union, ptr, array, stream and func may hold
	 * a name to resolve; the first letter tells most others apart */
	if (!k[0] || !strchr("tsupaf", k[0]))
		return json_incref(t);
	if (ty_streq(k, "typedef")) {
		chk_sym *s = chk_lookup(&c->names, ast_str(t, "name"));
		if (s && s->kind == SYM_TYPEDEF)
			return json_incref(s->type);
		return json_incref(t);
	}
	if ((ty_streq(k, "struct") || ty_streq(k, "union")) &&
		!ast_get(t, "fields") && json_is_string(ast_get(t, "tag"))) {
		chk_sym *s = chk_lookup(&c->tags, ast_str(t, "tag"));
		if (s && s->type)
			return json_incref(s->type);
		return json_incref(t);
	}
	const char *child = ty_streq(k, "ptr") ? "to" :
		ty_streq(k, "array") || ty_streq(k, "stream") ? "of" :
		ty_streq(k, "func") ? "ret" : NULL;
	if (!child)
		return json_incref(t);
	json_t *old = ast_get(t, child);
	json_t *nw = chk_resolve(c, old);
	if (nw == old) {
		json_decref(nw);
		return json_incref(t);
	}
	json_t *copy = json_copy(t);
	json_object_set_new(copy, child, nw);
	return copy;
}

/* Sets n["ty"] = t (a new reference, consumed); returns t, borrowed. */
json_t *chk_set_ty(json_t *n, json_t *t)
{
	json_object_setn_new_nocheck(n, "ty", 2, t);	/* no strlen */
	return t;
}

json_t *chk_set_ty_b(json_t *n, json_t *t)
{
	return chk_set_ty(n, json_incref(t));
}

/* Vector type of scalar S with N components (borrowed), or unknown. */
json_t *chk_vec(chk_ctx *c, const char *s, int n)
{
	const char *name = ty_vector_name(s, n);
	return chk_T(c, name ? name : "unknown");
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

chk_sym *chk_lookup(chk_table *tab, const char *name)
{
	if (!name || !*name)
		return NULL;
	chk_name *e = entry(tab, name, 0);
	return e ? e->top : NULL;
}

void chk_near_init(chk_near *n, const char *name)
{
	size_t len = strlen(name);
	n->name = name;
	n->best = NULL;
	/* a third of the name's length, at least one; none for names of
	 * one or two characters, where anything is near */
	n->dist = len < 3 ? 0 : len < 6 ? 2 : (int)(len / 3) + 1;
	n->text[0] = 0;
}

void chk_near_try(chk_near *n, const char *cand)
{
	if (n->dist == 0 || !cand || strcmp(cand, n->name) == 0)
		return;
	int d = util_edit_distance(n->name, cand, n->dist - 1);
	/* the first of equally near ones, in the order tried */
	if (d < n->dist) {
		n->best = cand;
		n->dist = d;
	}
}

void chk_near_table(chk_near *n, chk_table *tab, unsigned kinds)
{
	for (size_t i = 0; i < CHK_HASH; i++)
		for (chk_name *e = tab->bucket[i]; e; e = e->hnext)
			if (e->top && (kinds & 1u << e->top->kind))
				chk_near_try(n, e->name);
}

void chk_near_funcs(chk_near *n, chk_ctx *c)
{
	chk_near_table(n, &c->names, 1u << SYM_FUNC);
	for (size_t i = 0; i < c->nfns; i++)
		chk_near_try(n, c->fns[i].name);
}

const char *chk_near_suffix(chk_near *n)
{
	/* a name found is at most 64 bytes (util_edit_distance): TEXT
	   holds it */
	if (!n->best)
		return "";
	snprintf(n->text, sizeof n->text, "; did you mean \"%s\"?", n->best);
	return n->text;
}

void chk_table_free(chk_table *tab)
{
	for (size_t i = 0; i < CHK_HASH; i++)
		for (chk_name *e = tab->bucket[i], *nx; e; e = nx) {
			nx = e->hnext;
			free(e);
		}
}

void chk_push_scope(chk_ctx *c)
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

void chk_pop_scope(chk_ctx *c)
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
chk_sym *chk_in_scope(chk_ctx *c, chk_table *tab, const char *name)
{
	chk_sym *s = chk_lookup(tab, name);
	return s && s->scope == c->scope ? s : NULL;
}

/* Declares NAME in the innermost scope; TYPE is consumed. */
chk_sym *chk_declare(chk_ctx *c, chk_table *tab, const char *name,
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

void chk_give_id(chk_ctx *c, json_t *n)
{
	json_object_set_new_nocheck(n, "id", json_integer(++c->next_id));
}

long long chk_node_id(const json_t *n)
{
	return ast_int(n, "id");
}

/* ---- functions table ---------------------------------------------------- */

chk_fn *chk_fn_find(chk_ctx *c, const char *name)
{
	json_t *i = json_object_get(c->fn_index, name ? name : "");
	return i ? &c->fns[json_integer_value(i)] : NULL;
}

chk_fn *chk_fn_add(chk_ctx *c, json_t *f)
{
	const char *name = ast_str(f, "name");
	chk_fn *fn = chk_fn_find(c, name);
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

void chk_edge_add(chk_ctx *c, chk_fn *from, chk_fn *to, json_t *call)
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

json_t *chk_strip_paren(json_t *e)
{
	while (ast_is(e, "paren"))
		e = ast_get(e, "e");
	return e;
}

/* instance() or instanceInGroup(), or a swizzle of it: int4 that may be
 * assigned to uint4 (DESIGN.md reading 1). */
int chk_is_instance(json_t *e)
{
	e = chk_strip_paren(e);
	while (ast_is(e, "member"))
		e = chk_strip_paren(ast_get(e, "e"));
	if (!ast_is(e, "call"))
		return 0;
	const char *b = ast_str(e, "builtin");
	return ty_streq(b, "instance") || ty_streq(b, "instanceInGroup");
}

/* The declared name an lvalue or array expression is rooted at. */
chk_sym *chk_root_sym(chk_ctx *c, json_t *e)
{
	for (;;) {
		e = chk_strip_paren(e);
		if (ast_is(e, "member") || ast_is(e, "index"))
			e = ast_get(e, ast_is(e, "member") ? "e" : "a");
		else
			break;
	}
	if (!ast_is(e, "id"))
		return NULL;
	return chk_lookup(&c->names, ast_str(e, "name"));
}

int chk_is_lvalue(json_t *e)
{
	/* a field, component or element of an lvalue: (t + t).x and
	   f().x are not (an element through a pointer is) */
	for (int depth = 0; depth < 100000; depth++) {
		e = chk_strip_paren(e);
		if (ast_is(e, "id") || (ast_is(e, "unop") &&
				ty_streq(ast_str(e, "op"), "*")))
			return 1;
		if (ast_is(e, "member"))
			e = ast_get(e, "e");
		else if (ast_is(e, "index") && ty_streq(ty_kind(ast_get(
				ast_get(e, "a"), "ty")), "ptr"))
			return 1;
		else if (ast_is(e, "index"))
			e = ast_get(e, "a");
		else
			return 0;
	}
	return 0;
}

/* Constant integer value of a literal size expression. 1 when E is an
 * int literal (possibly parenthesized). */
int chk_int_literal(json_t *e, long long *v)
{
	e = chk_strip_paren(e);
	if (!ast_is(e, "int") || !json_is_integer(ast_get(e, "value")))
		return 0;
	*v = ast_int(e, "value");
	return 1;
}

/* The value of E, an int expression of int literals under parentheses,
 * unary - and + and binary + - * / %, folded as kernel code's 32-bit int
 * computes it: 1 when E is one and every step stays in int (C99 6.5p5:
 * an overflow is undefined); *V is set only then. */
int chk_int_const(json_t *e, long long *v)
{
	long long l, r, x;

	e = chk_strip_paren(e);
	const char *op = ast_str(e, "op");
	if (ast_is(e, "unop") && (ty_streq(op, "-") || ty_streq(op, "+"))) {
		if (!chk_int_const(ast_get(e, "e"), &l))
			return 0;
		x = *op == '-' ? -l : l;
	} else if (ast_is(e, "binop") && op[0] && !op[1] && strchr("+-*/%",
			op[0]) && chk_int_const(ast_get(e, "l"), &l) &&
			chk_int_const(ast_get(e, "r"), &r)) {
		if ((op[0] == '/' || op[0] == '%') && r == 0)
			return 0;
		x = op[0] == '+' ? l + r : op[0] == '-' ? l - r :
			op[0] == '*' ? l * r : op[0] == '/' ? l / r : l % r;
	} else if (!chk_int_literal(e, &x)) {
		return 0;
	}
	if (x < INT_MIN || x > INT_MAX)
		return 0;
	*v = x;
	return 1;
}
