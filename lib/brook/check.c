/* check.c - the semantic checker: name resolution, types, and the rules of
 * the specification's sections 4.3, 4.4 and 6 (spec = seed 002, guide =
 * seed 000, brookgpu = seed 001), with the readings of DESIGN.md.
 *
 * One pass over the declarations in source order, after a pre-pass that
 * classifies every kernel. Host code is C: it gets types and names but
 * only the Brook rules (streams, kernel calls); kernel code gets every
 * rule. The rules live in check_*.c (check_int.h lists them); this file
 * runs the pass over a document. Diagnostic IDs: E-... errors, W-... warnings, listed in
 * man/brcheck.1. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "brook/ast.h"
#include "brook/check_int.h"
#include "brook/type.h"
#include "brook/util.h"

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
			chk_bad(c, NULL, "the document is nested too deeply");
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
		util_lltoa(key, (long long)json_integer_value(id));
		json_object_set_new(ids, key, json_true());
	}
	if (refs && ref && ast_is(n, "id"))
		json_array_append(refs, ref);
	if (ast_get(n, "k") || ast_get(n, "t"))
		for (int i = 0; annotations[i]; i++)
			if (ty_streq(annotations[i], "ty") || ast_get(n, "k"))
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
			chk_bad(c, NULL, "a \"ref\" is not an integer");
			return;
		}
		util_lltoa(key, (long long)json_integer_value(r));
		if (!json_object_get(ids, key)) {
			chk_bad(c, NULL, "dangling \"ref\": no declaration has \"id\" %s",
				key);
			return;
		}
	}
}

static int id_cmp(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* The document's "subs": the ids of the definitions that kernel code
 * calls, ascending. A document member, not one of each definition: the
 * calls come after the definition (E-callee-no-definition), which
 * brcheck has sent on by then (check_doc_each). */
static json_t *subs(const chk_ctx *c)
{
	long long *ids = xmalloc((c->nfns + 1) * sizeof *ids);
	size_t n = 0;
	json_t *a = json_array();

	for (size_t i = 0; i < c->nfns; i++)
		if (c->fns[i].sub && c->fns[i].def)
			ids[n++] = chk_node_id(c->fns[i].def);
	qsort(ids, n, sizeof *ids, id_cmp);
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_integer(ids[i]));
	free(ids);
	return a;
}

int check_doc(json_t *doc, const check_options *o, diag_ctx *d)
{
	return check_doc_each(doc, o, d, NULL, NULL);
}

int check_doc_each(json_t *doc, const check_options *o, diag_ctx *d,
	check_each_fn *each, void *arg)
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
		chk_bad(&c, NULL, "not a brast document of version %d with \"files\" "
			"and \"decls\"", BRAST_VERSION);
		return 2;
	}
	int checked = ty_streq(ast_str(doc, "stage"), "checked");
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
	c.undefined = json_object();
	size_t i;
	json_t *n;
	/* pre-pass: every function, its id, class and parameter roles */
	json_array_foreach(decls, i, n)
		if (ast_is(n, "func") && *ast_str(n, "name")) {
			chk_fn_add(&c, n);
			chk_give_id(&c, n);
		}
	json_array_foreach(decls, i, n)
		if (ast_is(n, "func") && *ast_str(n, "name"))
			chk_classify(&c, chk_fn_find(&c, ast_str(n, "name")), n);

	/* the document's own members as they stay, before EACH sees the
	   first declaration: all but "subs", which comes last */
	json_object_set_new(doc, "stage", json_string("checked"));
	json_object_set_new(doc, "options", json_pack("{s:b, s:b, s:b, s:i}",
		"a", o->a != 0, "c", o->c != 0, "portable", o->portable != 0,
		"wlevel", o->wlevel));
	json_object_del(doc, "subs");
	chk_push_scope(&c);
	json_array_foreach(decls, i, n) {
		c.cur = n;
		if (ast_is(n, "decl"))
			chk_decl(&c, n);
		else if (ast_is(n, "func")) {
			chk_func_decl(&c, n);
			if (ast_bool(n, "kernel") || ast_bool(n, "reduce"))
				chk_kernel_depth(&c, n);
		}
		else if (!ast_is(n, "directive"))
			chk_bad(&c, n, "\"%s\" is not a declaration node", ast_kind(n));
		if (each)
			each(arg, n);
	}
	chk_pop_scope(&c);
	chk_post_checks(&c);
	json_object_set_new(doc, "subs", subs(&c));

	chk_table_free(&c.names);
	chk_table_free(&c.tags);
	free(c.fns);
	free(c.edges);
	json_decref(c.fn_index);
	json_decref(c.undefined);
	json_decref(c.types);
	if (c.malformed)
		return 2;
	return d->nerrors > errors_before ? 1 : 0;
}
