/* check_stmt.c - statements (spec 4.4, 6.3.8): blocks and scopes,
 * conditions, returns, and the statements kernels may not use. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "brook/ast.h"
#include "brook/check_int.h"
#include "brook/type.h"
#include "brook/util.h"

/* ---- statements --------------------------------------------------------- */

static void stmt(chk_ctx *c, json_t *s);

void chk_block_items(chk_ctx *c, json_t *b)
{
	json_t *items = ast_arr(b, "items");
	size_t i;
	json_t *it;
	if (!items) {
		chk_bad(c, b, "\"block\" node without \"items\"");
		return;
	}
	json_array_foreach(items, i, it)
		stmt(c, it);
}

static void return_stmt(chk_ctx *c, json_t *s)
{
	json_t *e = ast_get(s, "e");
	json_t *t = chk_opt_expr(c, e);
	c->saw_return = 1;
	if (!c->kern || !c->fnode)
		return;
	json_t *ret = chk_resolve(c, ast_get(ast_get(c->fnode, "type"), "ret"));
	if (!t && !ty_is_void(ret))
		chk_err(c, s, "E-missing-return", "Must return a value");
	else if (t && ty_is_void(ret)) {
		char *n = TN(t);
		chk_err(c, s, "E-return-type", "Mismatched type: actual type is %s but "
			"expected type is void", n);
		free(n);
	} else if (t)
		chk_convert(c, e, e, t, ret, CONV_RETURN, 0);
	json_decref(ret);
}

/* A function declared in a block (C allows it): a name in host code;
 * spec 7.1 "Unsupported variable type" in a kernel, where brgen has no
 * place for it. */
static void local_func(chk_ctx *c, json_t *f)
{
	const char *name = ast_str(f, "name");
	json_t *body = ast_get(f, "body");
	if (!*name || !json_is_object(ast_get(f, "type"))) {
		chk_bad(c, f, "\"func\" node without a name or a type");
		return;
	}
	if (body && !json_is_null(body)) {
		chk_bad(c, f, "a function defined inside a function");
		return;
	}
	if (c->kern)
		chk_err(c, f, "E-unsupported-type", "Unsupported variable type: a "
			"function declared inside a kernel; declare it outside");
	chk_give_id(c, f);
	if (chk_in_scope(c, &c->names, name))
		chk_err(c, f, "E-duplicate", "Variable name Duplicated: %s", name);
	chk_declare(c, &c->names, name, SYM_FUNC, f, chk_decl_type(c, f, "type"));
}

/* The body of a loop or a switch, counted in *N while it is checked. */
static void loop_body(chk_ctx *c, json_t *body, int *n)
{
	(*n)++;
	stmt(c, body);
	(*n)--;
}

/* C99 6.8.1, 6.8.6.2, 6.8.6.3: break only in a loop or a switch, continue
 * only in a loop, case and default only in a switch; C compilers refuse
 * the others, and so does brcheck, with the place in the .br. */
static void jump_place(chk_ctx *c, json_t *s, const char *k)
{
	if (ty_streq(k, "break")) {
		if (!c->loops && !c->switches)
			chk_err(c, s, "E-jump-outside", "break statement not "
				"within a loop or switch");
	} else if (ty_streq(k, "continue")) {
		if (!c->loops)
			chk_err(c, s, "E-jump-outside", "continue statement not "
				"within a loop");
	} else if (!c->switches) {
		chk_err(c, s, "E-jump-outside", "%s label not within a switch "
			"statement", k);
	}
}

/* Whether type T is an integer type: a switch's quantity and a case
 * label's must be (C99 6.8.4.2); an enum's values are ints. */
static int int_type(const json_t *t)
{
	return (ty_is_scalar(t) && ty_scalar_is_integer(ty_scalar(t))) ||
		ty_streq(ty_kind(t), "enum");
}

/* Whether E is an integer constant expression (C99 6.6p6): integer and
 * character constants, enumeration constants, sizeof, casts to an integer
 * type of those or of a floating constant, and the operators on them
 * (no assignment, ++, --, comma or call). */
static int int_const_expr(chk_ctx *c, const json_t *e, int depth)
{
	static const char *const ops[] = { "+", "-", "*", "/", "%", "<<",
		">>", "<", ">", "<=", ">=", "==", "!=", "&", "|", "^", "&&",
		"||", NULL };
	const char *k, *op;
	size_t i;

	e = chk_strip_paren((json_t *)e);
	k = ast_kind(e);
	op = ast_str(e, "op");
	if (!k || depth >= CHK_MAX_DEPTH)
		return 0;
	if (ty_streq(k, "int") || ty_streq(k, "char") || ty_streq(k, "sizeof"))
		return 1;
	if (ty_streq(k, "id")) {
		chk_sym *sym = chk_lookup(&c->names, ast_str(e, "name"));
		return sym && sym->kind == SYM_ENUM;
	}
	if (ty_streq(k, "unop"))
		return (ty_streq(op, "+") || ty_streq(op, "-") ||
			ty_streq(op, "~") || ty_streq(op, "!")) &&
			int_const_expr(c, ast_get(e, "e"), depth + 1);
	if (ty_streq(k, "binop")) {
		for (i = 0; ops[i] && !ty_streq(op, ops[i]); i++)
			;
		return ops[i] && int_const_expr(c, ast_get(e, "l"), depth + 1) &&
			int_const_expr(c, ast_get(e, "r"), depth + 1);
	}
	if (ty_streq(k, "cond"))
		return int_const_expr(c, ast_get(e, "c"), depth + 1) &&
			int_const_expr(c, ast_get(e, "t"), depth + 1) &&
			int_const_expr(c, ast_get(e, "f"), depth + 1);
	if (ty_streq(k, "cast")) {
		const json_t *x = chk_strip_paren(ast_get(e, "e"));
		return int_type(ast_get(e, "ty")) && (ast_is(x, "float") ||
			int_const_expr(c, x, depth + 1));
	}
	return 0;
}

/* Calls VISIT(LABEL, ARG) on each case and default label of switch body
 * S, not on those of a switch inside it, in order until one gives
 * nonzero: that value, else 0. */
typedef int label_fn(json_t *label, void *arg);

static int switch_labels(json_t *s, label_fn *visit, void *arg, int depth)
{
	static const char *const subs[] = {"stmt", "then", "else", "body"};
	const char *k = ast_kind(s);
	size_t i;
	json_t *it;
	int r;

	if (!k || ty_streq(k, "switch") || depth >= CHK_MAX_DEPTH)
		return 0;
	if ((ty_streq(k, "case") || ty_streq(k, "default")) &&
			(r = visit(s, arg)) != 0)
		return r;
	if (ty_streq(k, "block")) {
		json_array_foreach(ast_arr(s, "items"), i, it)
			if ((r = switch_labels(it, visit, arg, depth + 1)) != 0)
				return r;
		return 0;
	}
	for (i = 0; i < sizeof subs / sizeof subs[0]; i++)
		if (json_is_object(ast_get(s, subs[i])) &&
				(r = switch_labels(ast_get(s, subs[i]), visit, arg,
				depth + 1)) != 0)
			return r;
	return 0;
}

/* A switch's labels so far: a second default, and a case value that
 * chk_int_const folds met before in V (N of them), are errors. */
typedef struct case_seen {
	chk_ctx *c;
	long long *v;
	size_t n, cap;
	int defaults;
} case_seen;

static int label_seen(json_t *label, void *arg)
{
	case_seen *cs = arg;
	long long v;
	size_t i;

	if (ast_is(label, "default") && cs->defaults++)
		chk_err(cs->c, label, "E-default-duplicate", "multiple default "
			"labels in one switch");
	if (!ast_is(label, "case") || !chk_int_const(ast_get(label, "e"), &v))
		return 0;
	for (i = 0; i < cs->n && cs->v[i] != v; i++)
		;
	if (i < cs->n) {
		chk_err(cs->c, label, "E-case-duplicate", "duplicate case value "
			"%lld", v);
		return 0;
	}
	if (cs->n == cs->cap) {
		cs->cap = cs->cap ? 2 * cs->cap : 16;
		cs->v = xrealloc(cs->v, cs->cap * sizeof *cs->v);
	}
	cs->v[cs->n++] = v;
	return 0;
}

static void stmt_kind(chk_ctx *c, json_t *s, const char *k)
{
	if (ty_streq(k, "block")) {
		chk_push_scope(c);
		chk_block_items(c, s);
		chk_pop_scope(c);
	} else if (ty_streq(k, "decl")) {
		chk_decl(c, s);
	} else if (ty_streq(k, "expr")) {
		c->stmt_e = chk_strip_paren(ast_get(s, "e"));
		chk_expr(c, ast_get(s, "e"));
		c->stmt_e = NULL;
	} else if (ty_streq(k, "if")) {
		chk_condition(c, ast_get(s, "cond"));
		stmt(c, ast_get(s, "then"));
		if (ast_get(s, "else") && !json_is_null(ast_get(s, "else")))
			stmt(c, ast_get(s, "else"));
	} else if (ty_streq(k, "while")) {
		chk_condition(c, ast_get(s, "cond"));
		loop_body(c, ast_get(s, "body"), &c->loops);
	} else if (ty_streq(k, "do")) {
		loop_body(c, ast_get(s, "body"), &c->loops);
		chk_condition(c, ast_get(s, "cond"));
	} else if (ty_streq(k, "for")) {
		json_t *init = ast_get(s, "init");
		chk_push_scope(c);
		if (ast_is(init, "decl"))
			chk_decl(c, init);
		else
			chk_opt_expr(c, init);
		if (ast_get(s, "cond") && !json_is_null(ast_get(s, "cond")))
			chk_condition(c, ast_get(s, "cond"));
		c->step_e = chk_strip_paren(ast_get(s, "step"));
		chk_opt_expr(c, ast_get(s, "step"));
		c->step_e = NULL;
		loop_body(c, ast_get(s, "body"), &c->loops);
		chk_pop_scope(c);
	} else if (ty_streq(k, "switch")) {
		if (c->kern && c->o->portable)
			chk_warn(c, 1, s, "W-portable-switch",
				"Switch not supported inside kernel yet");
		json_t *t = chk_expr(c, ast_get(s, "cond"));
		if (!ty_is_unknown(t) && !int_type(t))
			chk_err(c, ast_get(s, "cond"), "E-switch-type", "switch "
				"quantity not an integer");
		loop_body(c, ast_get(s, "body"), &c->switches);
		case_seen cs = { .c = c };
		switch_labels(ast_get(s, "body"), label_seen, &cs, 0);
		free(cs.v);
	} else if (ty_streq(k, "case")) {
		jump_place(c, s, k);
		json_t *t = chk_expr(c, ast_get(s, "e"));
		if (!ty_is_unknown(t) && (!int_type(t) ||
				!int_const_expr(c, ast_get(s, "e"), 0)))
			chk_err(c, ast_get(s, "e"), "E-case-const", "case label "
				"does not reduce to an integer constant");
		stmt(c, ast_get(s, "stmt"));
	} else if (ty_streq(k, "default")) {
		jump_place(c, s, k);
		stmt(c, ast_get(s, "stmt"));
	} else if (ty_streq(k, "label")) {
		stmt(c, ast_get(s, "stmt"));
	} else if (ty_streq(k, "goto")) {
		if (c->kern)
			chk_err(c, s, "E-kernel-goto", "control flow statement not "
				"supported: goto inside a kernel");
	} else if (ty_streq(k, "func")) {
		local_func(c, s);
	} else if (ty_streq(k, "return")) {
		return_stmt(c, s);
	} else if (ty_streq(k, "directive")) {
		/* brgen's two targets share no pragma: GCC warns of
		 * OpenCL's, and a loop's copies part #pragma unroll from it */
		if (c->kern)
			chk_warn(c, 1, s, "W-kernel-pragma", "a directive inside "
				"a kernel is left out of the generated code: %s",
				ast_str(s, "text"));
	} else if (ty_streq(k, "break") || ty_streq(k, "continue")) {
		jump_place(c, s, k);
	} else if (!ty_streq(k, "empty")) {
		chk_bad(c, s, "\"%s\" is not a statement node", k);
	}
}

static void stmt(chk_ctx *c, json_t *s)
{
	const char *k = ast_kind(s);
	/* "k" may be there and empty: a node of no kind, not a missing one */
	if (!*k && (!json_is_object(s) || !json_is_string(ast_get(s, "k")))) {
		chk_bad(c, c->cur, "a statement is missing or not a node");
		return;
	}
	if (c->depth >= CHK_MAX_DEPTH) {
		if (!c->too_deep)
			chk_err(c, s, "E-too-deep", "statements nested too deeply (more "
				"than %d levels)", CHK_MAX_DEPTH);
		c->too_deep = 1;
		return;
	}
	json_t *saved = c->cur;
	if (ast_get(s, "at"))
		c->cur = s;
	c->depth++;
	stmt_kind(c, s, k);
	c->depth--;
	c->cur = saved;
}

/* ---- jumps into a stream's scope ------------------------------------------ */

/* C refuses a jump into the scope of a variable length array (C99 6.8.6.1,
 * 6.8.4.2); a stream is created where it is declared, as such an array,
 * and freed when its scope ends, so a goto or a case label that skips
 * its declaration would use and free a stream never made. The streams in
 * scope at a statement form a path from the function's top, so a jump is
 * good when those in scope at its target are a prefix of those at the
 * jump. */

typedef struct jump_site {
	const json_t *node;
	const char *label;	/* the label, or the one a goto names */
	const json_t **in;	/* the streams in scope there, outermost first */
	size_t n;
} jump_site;

typedef struct jump_walk {
	chk_ctx *c;
	const json_t **in;
	size_t n, cap;
	jump_site *labels, *gotos;
	size_t nlabels, ngotos, caplabels, capgotos;
	size_t sw;		/* streams in scope at the innermost switch */
	int depth;
} jump_walk;

static void jump_site_add(jump_walk *w, jump_site **sites, size_t *n,
	size_t *cap, const json_t *node, const char *label)
{
	jump_site *s;

	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		*sites = xrealloc(*sites, *cap * sizeof **sites);
	}
	s = &(*sites)[(*n)++];
	s->node = node;
	s->label = label;
	s->n = w->n;
	s->in = xmalloc((w->n ? w->n : 1) * sizeof *s->in);
	if (w->n)
		memcpy(s->in, w->in, w->n * sizeof *s->in);
}

static void jump_decl(jump_walk *w, const json_t *d)
{
	size_t i;
	json_t *v;

	json_array_foreach(ast_arr(d, "vars"), i, v) {
		json_t *t = chk_resolve(w->c, ast_get(v, "type"));
		if (ty_is_stream(t)) {
			if (w->n == w->cap) {
				w->cap = w->cap ? w->cap * 2 : 8;
				w->in = xrealloc(w->in, w->cap * sizeof *w->in);
			}
			w->in[w->n++] = v;
		}
		json_decref(t);
	}
}

static void jump_stmt(jump_walk *w, const json_t *s)
{
	const char *k = ast_kind(s);
	size_t keep = w->n, i;
	json_t *it;

	if (w->depth >= CHK_MAX_DEPTH)
		return;		/* E-too-deep */
	w->depth++;
	if (ty_streq(k, "block")) {
		json_array_foreach(ast_arr(s, "items"), i, it)
			jump_stmt(w, it);
	} else if (ty_streq(k, "decl")) {
		jump_decl(w, s);
		w->depth--;
		return;		/* in scope to the end of the block */
	} else if (ty_streq(k, "if")) {
		jump_stmt(w, ast_get(s, "then"));
		jump_stmt(w, ast_get(s, "else"));
	} else if (ty_streq(k, "while") || ty_streq(k, "do")) {
		jump_stmt(w, ast_get(s, "body"));
	} else if (ty_streq(k, "for")) {
		if (ast_is(ast_get(s, "init"), "decl"))
			jump_decl(w, ast_get(s, "init"));
		jump_stmt(w, ast_get(s, "body"));
	} else if (ty_streq(k, "switch")) {
		size_t sw = w->sw;
		w->sw = w->n;
		jump_stmt(w, ast_get(s, "body"));
		w->sw = sw;
	} else if (ty_streq(k, "case") || ty_streq(k, "default")) {
		if (w->n > w->sw && w->sw != (size_t)-1)
			chk_err(w->c, s, "E-jump-into-stream", "a %s label in "
				"the scope of stream \"%s\", declared in the "
				"switch's body: the jump to it skips the "
				"stream's declaration", k,
				ast_str(w->in[w->n - 1], "name"));
		jump_stmt(w, ast_get(s, "stmt"));
	} else if (ty_streq(k, "label")) {
		jump_site_add(w, &w->labels, &w->nlabels, &w->caplabels, s,
			ast_str(s, "name"));
		jump_stmt(w, ast_get(s, "stmt"));
	} else if (ty_streq(k, "goto")) {
		jump_site_add(w, &w->gotos, &w->ngotos, &w->capgotos, s,
			ast_str(s, "label"));
	}
	w->n = keep;
	w->depth--;
}

static void jump_sites_free(jump_site *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free((void *)s[i].in);
	free(s);
}

void chk_jumps(chk_ctx *c, const json_t *body)
{
	jump_walk w = {0};
	size_t g, l, i;

	w.c = c;
	w.sw = (size_t)-1;
	jump_stmt(&w, body);
	for (g = 0; g < w.ngotos; g++) {
		const jump_site *go = &w.gotos[g];
		for (l = 0; l < w.nlabels; l++)
			if (!strcmp(w.labels[l].label, go->label))
				break;
		if (l == w.nlabels)
			continue;	/* the C compiler says so */
		const jump_site *to = &w.labels[l];
		for (i = 0; i < to->n; i++)
			if (i >= go->n || go->in[i] != to->in[i])
				break;
		if (i < to->n)
			chk_err(c, go->node, "E-jump-into-stream", "goto %s "
				"jumps into the scope of stream \"%s\" (line "
				"%lld) past its declaration", go->label,
				ast_str(to->in[i], "name"),
				(long long)json_integer_value(json_array_get(
				ast_get(to->in[i], "at"), 1)));
	}
	jump_sites_free(w.labels, w.nlabels);
	jump_sites_free(w.gotos, w.ngotos);
	free(w.in);
}

/* ---- nesting of kernel code ----------------------------------------------- */

/* Every kernel brcheck accepts must build as OpenCL C, whose compilers
 * allow 256 nested brackets of each kind, and run in brrun's interpreter,
 * which recurses once per node. A node's weight bounds the brackets brgen
 * prints around its operands (gen_kcode.c), and is at least 1: a loop may
 * become up to three blocks (a declaration's, a fast copy's, a counted
 * copy's), an index into a gather stream brg_idx(...)[...] in four
 * brackets, a vector comparison or logical operator a conversion around
 * the operation. Redundant parentheses count: brgen keeps them. */
static int kernel_weight(const json_t *n)
{
	const char *k = ast_kind(n);
	if (!*k)
		return 0;	/* a type, a list of names */
	if (ty_streq(k, "for") || ty_streq(k, "while") || ty_streq(k, "do"))
		return 3;
	if (ty_streq(k, "index"))
		return 4;
	if (ty_streq(k, "binop") || ty_streq(k, "unop")) {
		static const char *const logical[] = {
			"<", ">", "<=", ">=", "==", "!=", "&&", "||", "!", NULL
		};
		const char *op = ast_str(n, "op");
		for (int i = 0; logical[i]; i++)
			if (ty_streq(op, logical[i]))
				return 2;
	}
	return 1;
}

typedef struct kdepth_walk {
	chk_ctx *c;
	const json_t *where;	/* innermost node with a location */
	int over;		/* reported */
} kdepth_walk;

/* N and what it holds, N at weighted depth D before its own weight. */
static void kdepth(kdepth_walk *w, const json_t *n, int d)
{
	if (w->over)
		return;
	if (json_is_array(n)) {
		size_t i;
		json_t *v;
		json_array_foreach(n, i, v)
			kdepth(w, v, d);
		return;
	}
	if (!json_is_object(n))
		return;
	const json_t *saved = w->where;
	if (ast_get(n, "at"))
		w->where = n;
	d += kernel_weight(n);
	if (d > CHK_KERNEL_DEPTH) {
		chk_err(w->c, w->where, "E-too-deep", "kernel code nested too "
			"deeply (more than %d levels: OpenCL C allows 256 "
			"brackets)", CHK_KERNEL_DEPTH);
		w->over = 1;
		return;
	}
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)n, key, v)
		if (ast_walks(key) && !ty_streq(key, "type"))
			kdepth(w, v, d);
	w->where = saved;
}

void chk_kernel_depth(chk_ctx *c, const json_t *fn)
{
	kdepth_walk w = {c, fn, 0};
	/* past CHK_MAX_DEPTH the checker has said so once already */
	if (!c->too_deep)
		kdepth(&w, ast_get(fn, "body"), 0);
}

/* ---- where syncGroup() may stand ------------------------------------------ */

static int is_sync_call(const json_t *n, const void *unused)
{
	(void)unused;
	return ast_is(n, "call") && ty_streq(ast_str(n, "builtin"),
		"syncGroup");
}

static int is_sync_stmt(const json_t *s)
{
	return ast_is(s, "expr") && is_sync_call(chk_strip_paren(ast_get(s,
		"e")), NULL);
}

/* Statement S of a group kernel's outermost block, or of the body of a
 * for or while loop with syncGroup() standing there: syncGroup() as a
 * statement, or in such a loop, as brgen runs a group's threads phase by
 * phase (brgen(1), E-gen-sync-nested and E-gen-sync-loop). Warnings, so
 * that brcheck -x (a linter in CI) finds what brgen would refuse. */
static void sync_place(chk_ctx *c, const json_t *s)
{
	const json_t *call;
	size_t i;
	json_t *it;

	if (is_sync_stmt(s))
		return;
	if ((ast_is(s, "for") || ast_is(s, "while")) &&
			ast_find(ast_get(s, "body"), is_sync_call, NULL)) {
		const json_t *body = ast_get(s, "body");
		if (ast_is(ast_get(s, "init"), "decl"))
			chk_warn(c, 1, s, "W-sync-loop", "a loop with "
				"syncGroup() declares its variable before the "
				"loop: brgen refuses it");
		if (!ast_is(body, "block"))
			sync_place(c, body);
		json_array_foreach(ast_arr(body, "items"), i, it)
			sync_place(c, it);
		return;
	}
	if ((call = ast_find(s, is_sync_call, NULL)))
		chk_warn(c, 1, call, "W-sync-nested", "syncGroup() must be a "
			"statement of the kernel's outermost block or of a for or "
			"while loop there: brgen refuses it");
}

void chk_sync_places(chk_ctx *c, const json_t *body)
{
	size_t i;
	json_t *it;

	json_array_foreach(ast_arr(body, "items"), i, it)
		sync_place(c, it);
}

/* ---- falling off the end of a function ------------------------------------ */

/* C99 6.9.1p12: a function that reaches its closing brace returns no
 * value. Whether control can pass the end of a statement, as a C
 * compiler's -Wreturn-type asks: never past a return, break, continue
 * or goto; past a block when past its last statement, where a case
 * label or a label makes a statement reachable again; past an if when
 * past a branch (an if with no else when its condition may be false);
 * past a loop when its condition may be false or a break leaves it
 * (while (1), for (;;) and do ... while (1) otherwise never end); past a
 * switch when it has no default, a break leaves it or its body's end is
 * reachable; a switch on a constant enters at the case of that value, or
 * at default when no case has it. A condition counts as constant when it
 * folds (chk_int_const); any other may go either way. A break or continue
 * counts only where it is reachable: case 1: return a; break; ends. */

typedef struct flow_target {
	int broke;		/* a reachable break leaves it */
	int continued;		/* a reachable continue (a loop) */
	int reach;		/* the switch is reachable: so are its labels */
	int has_default;	/* the switch has a default label */
	int konst;		/* its condition folds, to VALUE: only the case
				   of that value, or default when none is,
				   is reached from the switch */
	long long value;
	int matched;		/* a case label has that value */
} flow_target;

typedef struct flow_walk {
	flow_target *brk;	/* what a break leaves: a loop or a switch */
	flow_target *cont;	/* what a continue goes on: a loop */
	flow_target *sw;	/* the innermost switch */
	int depth;
} flow_walk;

/* 1 when condition E is a nonzero constant, 0 when zero, -1 otherwise. */
static int flow_cond(const json_t *e)
{
	long long v;
	if (!chk_int_const((json_t *)e, &v))
		return -1;
	return v != 0;
}

static int flow(flow_walk *w, const json_t *s, int in);

/* A loop's BODY, entered when IN, T recording its breaks and continues:
 * whether control can pass the body's end. */
static int flow_loop(flow_walk *w, flow_target *t, const json_t *body,
	int in)
{
	flow_target *brk = w->brk, *cont = w->cont;
	w->brk = w->cont = t;
	int out = flow(w, body, in);
	w->brk = brk;
	w->cont = cont;
	return out;
}

/* Whether case LABEL has the constant value *ARG (switch_labels). */
static int case_is(json_t *label, void *arg)
{
	long long c;

	return ast_is(label, "case") && chk_int_const(ast_get(label, "e"), &c)
		&& c == *(const long long *)arg;
}

/* Whether control can pass the end of S, reached when IN. */
static int flow(flow_walk *w, const json_t *s, int in)
{
	const char *k = ast_kind(s);
	flow_target t = {0};
	int out = in, v;
	size_t i;
	json_t *it;

	if (w->depth >= CHK_MAX_DEPTH)
		return 0;	/* E-too-deep */
	w->depth++;
	if (ty_streq(k, "block")) {
		json_array_foreach(ast_arr(s, "items"), i, it)
			out = flow(w, it, out);
	} else if (ty_streq(k, "return") || ty_streq(k, "goto")) {
		out = 0;
	} else if (ty_streq(k, "break")) {
		if (in && w->brk)
			w->brk->broke = 1;
		out = 0;
	} else if (ty_streq(k, "continue")) {
		if (in && w->cont)
			w->cont->continued = 1;
		out = 0;
	} else if (ty_streq(k, "if")) {
		const json_t *e = ast_get(s, "else");
		v = flow_cond(ast_get(s, "cond"));
		out = flow(w, ast_get(s, "then"), in && v != 0);
		if (json_is_object(e))
			out = flow(w, e, in && v != 1) || out;
		else
			out = out || (in && v != 1);
	} else if (ty_streq(k, "while") || ty_streq(k, "for")) {
		const json_t *e = ast_get(s, "cond");
		v = *k == 'f' && (!e || json_is_null(e)) ? 1 : flow_cond(e);
		flow_loop(w, &t, ast_get(s, "body"), in && v != 0);
		out = (in && v != 1) || t.broke;
	} else if (ty_streq(k, "do")) {
		/* the body's end, or a continue, leads to the condition */
		out = flow_loop(w, &t, ast_get(s, "body"), in);
		v = flow_cond(ast_get(s, "cond"));
		out = ((out || t.continued) && v != 1) || t.broke;
	} else if (ty_streq(k, "switch")) {
		flow_target *brk = w->brk, *sw = w->sw;
		t.reach = in;
		t.konst = chk_int_const(ast_get(s, "cond"), &t.value);
		t.matched = t.konst && switch_labels(ast_get(s, "body"),
			case_is, &t.value, 0);
		w->brk = w->sw = &t;
		out = flow(w, ast_get(s, "body"), 0);
		w->brk = brk;
		w->sw = sw;
		out = out || t.broke || (in && !t.has_default && !t.matched);
	} else if (ty_streq(k, "case") || ty_streq(k, "default")) {
		flow_target *sw = w->sw;
		long long c;
		int hit = sw && sw->reach;
		if (sw && *k == 'd')
			sw->has_default = 1;
		if (hit && sw->konst)
			hit = *k == 'd' ? !sw->matched :
				!chk_int_const(ast_get(s, "e"), &c) ||
				c == sw->value;
		out = flow(w, ast_get(s, "stmt"), in || hit);
	} else if (ty_streq(k, "label")) {
		/* a goto may reach it */
		out = flow(w, ast_get(s, "stmt"), 1);
	}
	w->depth--;
	return out;
}

int chk_falls_off(const json_t *body)
{
	flow_walk w = {0};
	return flow(&w, body, 1);
}
