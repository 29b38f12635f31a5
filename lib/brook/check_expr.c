/* check_expr.c - expressions: a type on each ("ty"), names resolved
 * ("ref"), swizzles, indexing, operators (spec 6.3.4 to 6.3.13), and
 * the dispatcher over expression kinds. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "brook/ast.h"
#include "brook/check_int.h"
#include "brook/type.h"
#include "brook/util.h"

/* ---- expressions -------------------------------------------------------- */


json_t *chk_unknown(chk_ctx *c, json_t *e)
{
	return chk_set_ty_b(e, chk_T(c, "unknown"));
}

json_t *chk_opt_expr(chk_ctx *c, json_t *e)
{
	return e && !json_is_null(e) ? chk_expr(c, e) : NULL;
}

/* A type object of the AST, resolved (new reference). Reports a missing
 * one as a malformed AST. */
json_t *chk_decl_type(chk_ctx *c, json_t *n, const char *key)
{
	json_t *t = ast_get(n, key);
	if (!json_is_object(t) || (!*ty_kind(t) &&
		!json_is_string(ast_get(t, "t")))) {
		chk_bad(c, n, "\"%s\" node without a valid \"%s\"", ast_kind(n), key);
		return json_incref(chk_T(c, "unknown"));
	}
	return chk_resolve(c, t);
}

/* Host code: streams are not values (spec 3.2). */
static int host_stream_operand(chk_ctx *c, json_t *at, json_t *t)
{
	if (c->kern || !ty_is_stream(t))
		return 0;
	chk_err(c, at, "E-stream-host-op", "stream elements cannot be accessed "
		"outside kernels: a stream is not an operand in host code");
	return 1;
}

/* spec 6.3.8: a condition must be a scalar in kernel code. */
void chk_condition(chk_ctx *c, json_t *e)
{
	json_t *t = chk_expr(c, e);
	if (host_stream_operand(c, e, t) || !c->kern || ty_is_unknown(t) ||
		ty_is_scalar(t) || ty_is_ptr(t))
		return;
	if (ty_is_vector(t) && c->o->a)
		chk_warn(c, 1, e, "W-vector-condition", "vector in a conditional "
			"expression: only its x component is used");
	else
		chk_err(c, e, ty_is_vector(t) ? "E-vector-condition" :
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
	if (ty_streq(k, "float")) {
		size_t n = strlen(text);
		char last = n ? text[n - 1] : 0;
		t = last == 'f' || last == 'F' ? "float" :
			last == 'l' || last == 'L' ? "ldouble" : "double";
	} else if (ty_streq(k, "int") && strncmp(text, "0x", 2) != 0 &&
		strncmp(text, "0X", 2) != 0) {
		json_t *v = ast_get(e, "value");
		long long n = json_is_integer(v) ? json_integer_value(v) : -1;
		/* C99 6.4.4.1: a decimal constant with u is unsigned int
		   up to 2^32 - 1 */
		if (l)
			t = u ? "ulong" : "long";
		else if (u)
			t = n < 0 || n > 4294967295LL ? "ulong" : "uint";
		else
			t = n < 0 || n > 2147483647LL ? "long" : "int";
	} else if (ty_streq(k, "int")) {
		json_t *v = ast_get(e, "value");
		long long n = json_is_integer(v) ? json_integer_value(v) : -1;
		if (l || n < 0 || n > 4294967295LL)
			t = u ? "ulong" : "long";
		else
			t = u || n > 2147483647LL ? "uint" : "int";
	}
	if (c->kern && ty_scalar_is_reserved(t))
		chk_err(c, e, "E-kernel-constant",
			"Unsupported constant type inside kernel: %s", text);
	return chk_set_ty_b(e, chk_T(c, t));
}

json_t *chk_id_expr(chk_ctx *c, json_t *e)
{
	const char *name = ast_str(e, "name");
	chk_sym *s = chk_lookup(&c->names, name);
	if (!*name)
		chk_bad(c, e, "\"id\" node without a name");
	if (!s || s->kind == SYM_TYPEDEF) {
		/* once per function and name, as gcc does: a misspelt
		   name is most often misspelt alike at each use */
		if (c->kern && *name && !json_object_get(c->undefined, name)) {
			json_object_set_new(c->undefined, name, json_true());
			chk_near n;
			chk_near_init(&n, name);
			chk_near_table(&n, &c->names, 1u << SYM_VAR
				| 1u << SYM_PARAM | 1u << SYM_ENUM);
			chk_err(c, e, "E-undefined", "variable not defined: "
				"\"%s\"%s", name, chk_near_suffix(&n));
		}
		return chk_unknown(c, e);
	}
	json_t *target = s->node;
	if (s->kind == SYM_FUNC) {
		chk_fn *f = chk_fn_find(c, name);
		if (f && f->def)
			target = f->def;
	}
	long long id = chk_node_id(target);
	if (id)
		json_object_set_new_nocheck(e, "ref", json_integer(id));
	/* a function named in a parameter's size, as in kernel void k(float
	 * t[k]): its type holds its parameters' sizes, this one too, and
	 * would hold itself (a cycle of references, never freed) */
	if (s->kind == SYM_FUNC && c->in_params)
		return chk_unknown(c, e);
	/* kernel code has no function pointers: a function is called */
	if (c->kern && s->kind == SYM_FUNC && !c->callee) {
		chk_err(c, e, "E-kernel-func-value", "\"%s\" is a function: in "
			"a kernel it is only called, %s(...)", name, name);
		return chk_unknown(c, e);
	}
	/* brookgpu: global memory is not accessible inside kernels */
	if (c->kern && s->global && s->kind == SYM_VAR)
		chk_err(c, e, "E-kernel-global",
			"global variable \"%s\" is not accessible inside a kernel",
			name);
	return chk_set_ty_b(e, s->type);
}

/* spec 6.3.4: swizzles of xyzw; none on scalars. */
static json_t *member_expr(chk_ctx *c, json_t *e)
{
	json_t *bt = chk_expr(c, ast_get(e, "e"));
	const char *name = ast_str(e, "name");
	if (ast_bool(e, "arrow")) {
		if (c->kern)
			chk_err(c, e, "E-kernel-arrow", "pointer dereference(->) not "
				"allowed inside kernel");
		if (!ty_is_ptr(bt))
			return chk_unknown(c, e);
		/* the pointed-to struct, with its fields (kept alive by "ty") */
		json_t *to = chk_resolve(c, ast_get(bt, "to"));
		json_object_set_new_nocheck(e, "ty", to);
		bt = to;
	}
	if (ty_is_arith(bt)) {
		int n = ty_ncomp(bt);
		size_t len = strlen(name);
		if (ty_is_scalar(bt) && c->kern) {
			chk_err(c, e, "E-swizzle-scalar",
				"Illegal to use swizzle on scalar types");
			return chk_unknown(c, e);
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
			char *tn = ty_name(bt);
			chk_err(c, e, "E-swizzle", "unrecognized field/swizzle: \"%s\" "
				"on %s", name, tn);
			free(tn);
			return chk_unknown(c, e);
		}
		json_object_set_new_nocheck(e, "swizzle", sw);
		return chk_set_ty_b(e, chk_vec(c, ty_scalar(bt), (int)len));
	}
	if (ty_is_struct(bt) && json_is_array(ast_get(bt, "fields"))) {
		size_t i;
		json_t *f;
		json_array_foreach(ast_get(bt, "fields"), i, f)
			if (strcmp(ast_str(f, "name"), name) == 0) {
				long long id = chk_node_id(f);
				if (id)
					json_object_set_new_nocheck(e, "ref", json_integer(id));
				return chk_set_ty(e, chk_decl_type(c, f, "type"));
			}
		chk_near n;
		chk_near_init(&n, name);
		json_array_foreach(ast_get(bt, "fields"), i, f)
			chk_near_try(&n, ast_str(f, "name"));
		chk_err(c, e, "E-swizzle", "unrecognized field/swizzle: \"%s\"%s",
			name, chk_near_suffix(&n));
	} else if (c->kern && (ty_is_array(bt) || ty_is_stream(bt))) {
		/* an array (a gather or scatter array, a local one) or a
		 * stream: its elements have the fields */
		json_t *base = chk_strip_paren(ast_get(e, "e"));
		char *tn = ty_name(bt);
		if (ast_is(base, "id"))
			chk_err(c, e, "E-swizzle", "unrecognized field/swizzle: \"%s\" "
				"on the array \"%s\" (%s): index it first", name,
				ast_str(base, "name"), tn);
		else
			chk_err(c, e, "E-swizzle", "unrecognized field/swizzle: \"%s\" "
				"on %s", name, tn);
		free(tn);
	}
	return chk_unknown(c, e);
}

/* spec 6.3.13, 6.3.11: gather arrays take a[i][j] and a[v] (DESIGN.md
 * reading 3: the vector form warns). */
static json_t *index_expr(chk_ctx *c, json_t *e)
{
	json_t *base = ast_get(e, "a");
	json_t *at = chk_expr(c, base);
	json_t *it = chk_expr(c, ast_get(e, "i"));
	if (!c->kern) {
		if (ty_is_stream(at)) {
			chk_err(c, e, "E-stream-index-host", "stream elements cannot be "
				"accessed outside kernels: use streamRead/streamWrite");
			return chk_unknown(c, e);
		}
		if (ty_is_array(at))
			return chk_set_ty(e, chk_resolve(c, ast_get(at, "of")));
		if (ty_is_ptr(at))
			return chk_set_ty(e, chk_resolve(c, ast_get(at, "to")));
		return chk_unknown(c, e);
	}
	json_t *b = chk_strip_paren(base);
	if (!ast_is(b, "id") && !ast_is(b, "index") && !ast_is(b, "member")) {
		chk_err(c, e, "E-index-base",
			"Array expression of index expression must be variable type");
		return chk_unknown(c, e);
	}
	if (!ty_is_array(at)) {
		if (!ty_is_unknown(at))
			chk_err(c, e, "E-index-not-array", "Variable must be array type");
		return chk_unknown(c, e);
	}
	if (ty_is_unknown(it))
		return chk_set_ty(e, chk_resolve(c, ast_get(at, "of")));
	int n = ty_ncomp(it);
	if (n == 0) {
		chk_err(c, e, "E-index-scalar", "subscript expression must be scalar "
			"type");
		return chk_unknown(c, e);
	}
	chk_sym *s = chk_root_sym(c, base);
	if (n == 1) {
		if (s && s->shared && e != c->write_el)
			chk_shared_read(c, s, e);
		return chk_set_ty(e, chk_resolve(c, ast_get(at, "of")));
	}
	if (s && (s->local_array || s->shared)) {
		chk_err(c, e, "E-index-local", "Local array variable dimensions and "
			"index expression dimensions must be same");
		return chk_unknown(c, e);
	}
	if (n != ty_rank(at)) {
		chk_err(c, e, "E-index-components", "Gather/scatter array dimensions "
			"and subscript vector components must match: %d and %d",
			ty_rank(at), n);
		return chk_unknown(c, e);
	}
	/* spec 6.3.13: "brcc issues a warning for non-C-style indexing"; at
	 * level 1 it stays a warning under strong type checking (spec 9), so
	 * the guide's examples check (DESIGN.md reading 3) */
	chk_warn(c, 1, e, "W-index-vector", "Strongly recommended to use c-style "
		"indexing for gather/scatter arrays");
	return chk_set_ty(e, chk_resolve(c, (json_t *)ty_base(at)));
}

/* spec 6.3.5: N scalar components for an N-component vector. */
static json_t *ctor_expr(chk_ctx *c, json_t *e)
{
	json_t *t = chk_decl_type(c, e, "type");
	json_t *args = ast_arr(e, "args");
	int n = ty_ncomp(t);
	size_t i;
	json_t *a;
	chk_set_ty(e, t);
	if (!args) {
		chk_bad(c, e, "\"ctor\" node without \"args\"");
		return t;
	}
	json_array_foreach(args, i, a) {
		json_t *at = chk_expr(c, a);
		if (ty_is_unknown(at))
			continue;
		if (!ty_is_scalar(at)) {
			char *an = TN(at);
			chk_err(c, a, "E-ctor-component", "component %zu of a vector "
				"constructor must be a scalar, not %s", i + 1, an);
			free(an);
		} else if (n) {
			chk_convert(c, a, a, at, chk_vec(c, ty_scalar(t), 1), CONV_ELEMENT,
				(int)i + 1);
		}
	}
	if (n == 0) {
		char *tn = TN(t);
		chk_err(c, e, "E-ctor-type", "%s is not a vector type", tn);
		free(tn);
	} else if ((size_t)n != json_array_size(args)) {
		char *tn = TN(t);
		chk_err(c, e, "E-ctor-count", "an N component vector must have N "
			"components: %s needs %d, got %zu", tn, n,
			json_array_size(args));
		free(tn);
	}
	return t;
}

/* spec 6.3.6: indexof is float4, on streams and scatter arrays only. */
static json_t *indexof_expr(chk_ctx *c, json_t *e)
{
	json_t *a = chk_strip_paren(ast_get(e, "e"));
	chk_expr(c, ast_get(e, "e"));
	if (!c->kern) {
		chk_err(c, e, "E-indexof-host", "indexof() operator has no meaning "
			"inside non-kernel functions");
		return chk_set_ty_b(e, chk_T(c, "float4"));
	}
	chk_sym *s = ast_is(a, "id") ? chk_lookup(&c->names, ast_str(a, "name")) :
		NULL;
	if (s && (s->role == ROLE_GATHER || s->local_array || s->shared))
		chk_err(c, e, "E-indexof-gather", "indexof() operator is not allowed "
			"on gather array/local array");
	else if (!s || (s->role != ROLE_IN && s->role != ROLE_OUT &&
		s->role != ROLE_SCATTER))
		chk_err(c, e, "E-indexof-operand", "indexof() operator allowed only "
			"on stream/scatter");
	if (c->fn && c->fn->cls == CLASS_REDUCE)
		chk_err(c, e, "E-reduce-indexof", "Illegal to use indexof() function "
			"in reduction kernel");
	return chk_set_ty_b(e, chk_T(c, "float4"));
}

static json_t *cast_expr(chk_ctx *c, json_t *e)
{
	json_t *t = chk_decl_type(c, e, "type");
	json_t *et = chk_expr(c, ast_get(e, "e"));
	chk_set_ty(e, t);
	if (!c->kern) {
		host_stream_operand(c, e, et);
		return t;
	}
	if (ty_is_ptr(t))
		chk_err(c, e, "E-kernel-pointer", "pointers not allowed inside kernel");
	else if (ty_is_array(et))
		chk_err(c, e, "E-cast-array",
			"Illegal to use array type as casting expression");
	else if (ty_is_arith(t) && ty_is_arith(et) &&
		ty_ncomp(t) != ty_ncomp(et)) {
		if (c->o->a)
			chk_warn(c, 1, e, "W-cast-components", "explicit casting "
				"required to have same no of components");
		else {
			/* the types named; no type, so nothing more is said */
			char *from = TN(et), *to = TN(t);
			chk_err(c, e, "E-cast-components", "explicit casting required "
				"to have same no of components (\"%s\" to \"%s\")",
				from, to);
			free(from);
			free(to);
			return chk_set_ty_b(e, chk_T(c, "unknown"));
		}
	}
	return t;
}

/* spec 6.3.12: the operand kinds an operator accepts, in kernel code.
 * SIDE: "left", "right" or NULL (unary). 0 when the operand is wrong. */
static int operand_ok(chk_ctx *c, json_t *at, const char *op, json_t *t,
	const char *side)
{
	const char *s = ty_scalar(t);
	/* an arithmetic type (most operands) is neither unknown nor an array */
	if (s && !ty_op_accepts(op, s)) {
		/* an integer type that % takes: a bitwise operator, which the
		   spec gives int and uint only */
		int narrow = ty_op_accepts("%", s);
		chk_err(c, at, "E-operand-type", "%s%soperand is not an %s type "
			"(operator %s on %s%s)", side ? side : "", side ? " " : "",
			ty_op_needs(op), op, s, narrow ? ": spec 6.3.12 gives the "
			"bitwise operators int and uint; convert to int" : "");
		return 0;
	}
	if (s)
		return 1;
	if (ty_is_unknown(t))
		return 0;
	if (ty_is_array(t)) {
		if (side)
			chk_err(c, at, "E-operand-array",
				"Illegal to use array type as %s operand", side);
		else
			chk_err(c, at, "E-operand-array",
				"Illegal to use array type as unary operand");
		return 0;
	}
	chk_err(c, at, "E-operand-type", "%s%soperand is not an Arithmetic type",
		side ? side : "", side ? " " : "");
	return 0;
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
		chk_warn(c, 1, at, "W-shift-count", "%s", msg);
	else
		chk_err(c, at, "E-shift-count", "%s", msg);
}

/* C's type for a binary operator in host code: enough for brgen. */
static json_t *host_binop(chk_ctx *c, const char *op, json_t *l, json_t *r)
{
	if (is_relational(op))
		return chk_T(c, "int");
	if (ty_is_arith(l) && ty_is_arith(r))
		return chk_promoted(l, r);
	if ((ty_is_ptr(l) || ty_is_array(l)) && ty_is_arith(r))
		return l;
	if ((ty_is_ptr(r) || ty_is_array(r)) && ty_is_arith(l))
		return r;
	if (ty_is_ptr(l) && ty_is_ptr(r) && ty_streq(op, "-"))
		return chk_T(c, "long");
	return chk_T(c, "unknown");
}

/* ast.h: the operators of E's kind; another "op" (or none) is a malformed
 * AST (fuzz/FINDINGS.md, F12). */
static int known_op(chk_ctx *c, json_t *e, const char *op)
{
	if (ty_op_of_kind(op, ast_kind(e)))
		return 1;
	chk_bad(c, e, "\"%s\" node without a known \"op\"", ast_kind(e));
	return 0;
}

static json_t *binop_expr(chk_ctx *c, json_t *e)
{
	const char *op = ast_str(e, "op");
	if (!known_op(c, e, op))
		return chk_unknown(c, e);
	json_t *le = ast_get(e, "l"), *re = ast_get(e, "r");
	json_t *l = chk_expr(c, le), *r = chk_expr(c, re);
	if (!c->kern) {
		if (host_stream_operand(c, e, l) || host_stream_operand(c, e, r))
			return chk_unknown(c, e);
		json_t *t = host_binop(c, op, l, r);
		if (ty_is_array(t))
			t = chk_T(c, "unknown");
		return chk_set_ty_b(e, t);
	}
	int okl = operand_ok(c, e, op, l, "left");
	int okr = operand_ok(c, e, op, r, "right");
	if (!okl || !okr)
		return chk_unknown(c, e);
	json_t *t;
	if (is_shift(op)) {
		shift_count(c, e, l, r);
		t = l;
	} else {
		t = chk_unify(c, e, le, l, re, r, 0);
	}
	if (is_relational(op))
		t = chk_vec(c, "int", ty_ncomp(t));
	return chk_set_ty_b(e, t);
}


static json_t *unop_expr(chk_ctx *c, json_t *e, int postfix)
{
	const char *op = ast_str(e, "op");
	if (!known_op(c, e, op))
		return chk_unknown(c, e);
	int incdec = ty_streq(op, "++") || ty_streq(op, "--") || postfix;
	json_t *t = incdec ? chk_target_expr(c, ast_get(e, "e")) :
		chk_expr(c, ast_get(e, "e"));
	if (ty_streq(op, "&")) {
		if (c->kern)
			chk_err(c, e, "E-kernel-address",
				"variable address(&) not allowed inside kernel");
		else if (host_stream_operand(c, e, t))
			return chk_unknown(c, e);
		json_t *p = json_pack("{s:s, s:O}", "t", "ptr", "to", t);
		return chk_set_ty(e, p);
	}
	if (ty_streq(op, "*")) {
		if (c->kern) {
			chk_err(c, e, "E-kernel-deref",
				"pointer dereference(*) not allowed inside kernel");
			return chk_unknown(c, e);
		}
		if (ty_is_ptr(t))
			return chk_set_ty(e, chk_resolve(c, ast_get(t, "to")));
		if (ty_is_array(t))
			return chk_set_ty(e, chk_resolve(c, ast_get(t, "of")));
		return chk_unknown(c, e);
	}
	if (host_stream_operand(c, e, t))
		return chk_unknown(c, e);
	if (incdec)
		chk_write_check(c, ast_get(e, "e"), e, op);
	json_t *x = chk_strip_paren(ast_get(e, "e"));
	if (incdec && c->kern && e != c->stmt_e && e != c->step_e &&
			ast_is(x, "member") &&
			json_array_size(ast_get(x, "swizzle")) > 1)
		/* brgen makes it x += 1; its value would need the vector's
		   address, which OpenCL C does not take */
		chk_err(c, e, "E-incdec-swizzle", "'%s' on a swizzle of several "
			"components gives no value here: write the swizzle %c= 1, or "
			"use ++ or -- as a statement of its own", op, op[0]);
	if (c->kern && !operand_ok(c, e, op, t, NULL))
		return chk_unknown(c, e);
	if (ty_streq(op, "!"))
		return chk_set_ty_b(e, c->kern ? chk_vec(c, "int", ty_ncomp(t)) :
			chk_T(c, "int"));
	return chk_set_ty_b(e, t);
}

static json_t *assign_expr(chk_ctx *c, json_t *e)
{
	const char *op = ast_str(e, "op");
	if (!known_op(c, e, op))
		return chk_unknown(c, e);
	json_t *le = ast_get(e, "l"), *re = ast_get(e, "r");
	json_t *l = chk_target_expr(c, le);
	int nerrors = c->d->nerrors;
	json_t *r = chk_expr(c, re);
	chk_set_ty_b(e, l);
	/* a = b of two streams would share one stream's storage; not said
	 * again where the right side had an error of its own ("c = a + b") */
	if ((!c->kern && ty_is_unknown(r) && c->d->nerrors != nerrors)
		|| host_stream_operand(c, le, l) || host_stream_operand(c, re, r))
		return l;
	chk_write_check(c, le, e, op);
	if (!c->kern && !ty_is_unknown(l) && !ty_is_unknown(r))
		chk_convert(c, e, re, r, l, CONV_ASSIGN, 0);	/* void */
	if (!c->kern || ty_is_unknown(l) || ty_is_unknown(r))
		return l;
	if (!ty_streq(op, "=")) {
		char bop[4];	/* "+=" -> "+", ">>=" -> ">>" */
		size_t n = strlen(op) - 1;
		memcpy(bop, op, n);
		bop[n] = 0;
		if (!operand_ok(c, e, bop, l, "left") ||
			!operand_ok(c, e, bop, r, "right"))
			return l;
		if (is_shift(bop)) {
			shift_count(c, e, l, r);
			return l;
		}
	} else if (ty_is_array(l)) {
		chk_err(c, e, "E-operand-array",
			"Illegal to use array type as left operand");
		return l;
	}
	chk_convert(c, e, re, r, l, CONV_ASSIGN, 0);
	return l;
}

static json_t *cond_expr(chk_ctx *c, json_t *e)
{
	chk_condition(c, ast_get(e, "c"));
	json_t *te = ast_get(e, "t"), *fe = ast_get(e, "f");
	json_t *t = chk_expr(c, te), *f = chk_expr(c, fe);
	if (ty_is_unknown(t) || ty_is_unknown(f))
		return chk_unknown(c, e);
	if (ty_is_arith(t) && ty_is_arith(f))
		return chk_set_ty_b(e, c->kern ? chk_unify(c, e, te, t, fe, f, 1) :
			chk_promoted(t, f));
	/* spec 7.1: in kernel code ?: chooses between arithmetic values */
	if (c->kern) {
		chk_err(c, e, "E-cond-type", "conditional resultant type is not a "
			"Arithmetic type");
		return chk_unknown(c, e);
	}
	return chk_set_ty_b(e, t);
}

/* ---- the expression dispatcher ------------------------------------------ */

static json_t *expr_kind(chk_ctx *c, json_t *e, const char *k)
{
	switch (k[0]) {
	case 'a':
		if (ty_streq(k, "assign"))
			return assign_expr(c, e);
		break;
	case 'b':
		if (ty_streq(k, "binop"))
			return binop_expr(c, e);
		break;
	case 'c':
		if (ty_streq(k, "call"))
			return chk_call_expr(c, e);
		if (ty_streq(k, "cond"))
			return cond_expr(c, e);
		if (ty_streq(k, "cast"))
			return cast_expr(c, e);
		if (ty_streq(k, "ctor"))
			return ctor_expr(c, e);
		if (ty_streq(k, "char"))
			return literal_type(c, e);
		if (ty_streq(k, "comma")) {
			chk_expr(c, ast_get(e, "l"));
			return chk_set_ty_b(e, chk_expr(c, ast_get(e, "r")));
		}
		if (ty_streq(k, "compound")) {
			json_t *t = chk_decl_type(c, e, "type");
			chk_set_ty(e, t);
			chk_initializer(c, ast_get(e, "init"), t, e);
			return t;
		}
		break;
	case 'f':
		if (ty_streq(k, "float"))
			return literal_type(c, e);
		break;
	case 'i':
		if (ty_streq(k, "id"))
			return chk_id_expr(c, e);
		if (ty_streq(k, "int"))
			return literal_type(c, e);
		if (ty_streq(k, "index"))
			return index_expr(c, e);
		if (ty_streq(k, "indexof"))
			return indexof_expr(c, e);
		break;
	case 'm':
		if (ty_streq(k, "member"))
			return member_expr(c, e);
		break;
	case 'p':
		if (ty_streq(k, "paren"))
			return chk_set_ty_b(e, chk_expr(c, ast_get(e, "e")));
		if (ty_streq(k, "postfix"))
			return unop_expr(c, e, 1);
		break;
	case 's':
		if (ty_streq(k, "string")) {
			if (c->kern)
				chk_err(c, e, "E-kernel-string",
					"String constant in kernel not allowed");
			return chk_set_ty_b(e, chk_T(c, "@string"));
		}
		if (ty_streq(k, "sizeof")) {
			if (c->kern)
				chk_err(c, e, "E-kernel-sizeof", "Sizeof not allowed in kernel");
			if (ast_get(e, "e"))
				host_stream_operand(c, e, chk_expr(c, ast_get(e, "e")));
			return chk_set_ty_b(e, chk_T(c, "ulong"));
		}
		break;
	case 'u':
		if (ty_streq(k, "unop"))
			return unop_expr(c, e, 0);
		break;
	}
	chk_bad(c, e, "\"%s\" is not an expression node", k);
	return chk_unknown(c, e);
}

json_t *chk_expr(chk_ctx *c, json_t *e)
{
	const char *k = ast_kind(e);
	if (!*k) {
		chk_bad(c, json_is_object(e) ? e : c->cur, "an expression is missing "
			"or not a node");
		return chk_T(c, "unknown");
	}
	if (c->depth >= CHK_MAX_DEPTH) {
		if (!c->too_deep)
			chk_err(c, e, "E-too-deep", "expression nested too deeply (more "
				"than %d levels)", CHK_MAX_DEPTH);
		c->too_deep = 1;
		return chk_unknown(c, e);
	}
	json_t *saved = c->cur;
	c->cur = e;
	c->depth++;
	json_t *t = expr_kind(c, e, k);
	c->depth--;
	c->cur = saved;
	return t;
}

json_t *chk_target_expr(chk_ctx *c, json_t *e)
{
	const json_t *saved = c->write_el;
	c->write_el = chk_write_el(e);
	json_t *t = chk_expr(c, e);
	c->write_el = saved;
	return t;
}
