/* check_decl.c - declarations and initializers (spec 6.3.1, 6.3.2, 4.4,
 * 3.2): variables, streams, local and shared arrays, tags and enums. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brt.h"
#include "brook/ast.h"
#include "brook/astprint.h"
#include "brook/check_int.h"
#include "brook/type.h"
#include "brook/util.h"

/* ---- initializers ------------------------------------------------------- */

/* The type of the Nth element an initializer list fills in T. */
static json_t *init_elem(chk_ctx *c, json_t *t, size_t n, int *element)
{
	*element = 0;
	if (ty_is_array(t))
		return chk_resolve(c, ast_get(t, "of"));
	if (ty_is_vector(t)) {
		*element = 1;
		return json_incref(chk_vec(c, ty_scalar(t), 1));
	}
	if (ty_is_struct(t)) {
		json_t *f = json_array_get(ast_get(t, "fields"), n);
		if (f)
			return chk_decl_type(c, f, "type");
	}
	return json_incref(chk_T(c, "unknown"));
}

/* spec 7.2: initializer lists of vectors and arrays in kernel code. */
static void init_count(chk_ctx *c, json_t *init, json_t *type, size_t n)
{
	long long size = 0;
	if (n == 0) {
		chk_warn(c, 1, init, "W-init-empty", "Empty array initializer");
		return;
	}
	if (ty_is_vector(type))
		size = ty_ncomp(type);
	else if (ty_is_array(type) && !chk_int_literal(ast_get(type, "size"), &size))
		return;
	if (size > 0 && (long long)n > size)
		chk_warn(c, 1, init, "W-init-count", "Too many initializers: %zu for "
			"%lld elements", n, size);
	else if (ty_is_vector(type) && (long long)n < size)
		chk_warn(c, 2, init, "W-init-components", "Uninitialized components: "
			"%zu of %lld given", n, size);
}

/* spec 7.1, 7.2: "Initializer is not vector type": a brace list for a
 * scalar in kernel code (an error under strong type checking, a warning
 * with -a). */
static void init_not_vector(chk_ctx *c, json_t *init)
{
	if (c->o->a)
		chk_warn(c, 1, init, "W-init-not-vector",
			"Initializer is not vector type");
	else
		chk_err(c, init, "E-init-not-vector",
			"Initializer is not vector type");
}

/* spec 7.1: the braces of an array initializer in kernel code follow the
 * array's dimensions: a list for each row of a[2][2], none around an
 * element of a[4]. V: the value for an element of type ET of TYPE. 1 when
 * it does not fit (reported unless QUIET: once a list is enough). */
static int init_dims(chk_ctx *c, json_t *v, json_t *type, json_t *et,
	int quiet)
{
	if (!c->kern || !ty_is_array(type) || ty_is_unknown(et))
		return 0;
	if (ast_is(v, "initlist") ? !ty_is_scalar(et) : !ty_is_array(et))
		return 0;
	if (!quiet)
		chk_err(c, v, "E-init-dims",
			"Mismatched array dimensions and initializer dimensions");
	return 1;
}

void chk_initializer(chk_ctx *c, json_t *init, json_t *type, json_t *at)
{
	if (!init || json_is_null(init))
		return;
	if (!ast_is(init, "initlist")) {
		json_t *t = chk_expr(c, init);
		chk_convert(c, init, init, t, type, CONV_ASSIGN, 0);
		(void)at;
		return;
	}
	json_t *items = ast_arr(init, "items");
	size_t i;
	json_t *it;
	int dims_bad = 0;
	if (!items) {
		chk_bad(c, init, "\"initlist\" node without \"items\"");
		return;
	}
	if (c->kern && ty_is_scalar(type))
		init_not_vector(c, init);
	else if (c->kern)
		init_count(c, init, type, json_array_size(items));
	json_array_foreach(items, i, it) {
		size_t j;
		json_t *dz;
		json_array_foreach(ast_arr(it, "desig"), j, dz)
			if (ast_is(dz, "desig_index"))
				chk_expr(c, ast_get(dz, "index"));
		int element;
		json_t *et = init_elem(c, type, i, &element);
		json_t *v = ast_get(it, "value");
		if (init_dims(c, v, type, et, dims_bad)) {
			dims_bad = 1;
			json_decref(et);
			et = json_incref(chk_T(c, "unknown"));
		}
		if (ast_is(v, "initlist")) {
			chk_initializer(c, v, et, it);
		} else {
			json_t *vt = chk_expr(c, v);
			chk_convert(c, v, v, vt, et, element ? CONV_ELEMENT : CONV_ASSIGN,
				(int)i + 1);
		}
		json_decref(et);
	}
}

/* ---- declarations ------------------------------------------------------- */


/* Struct, union and enum definitions inside a declaration's type: tags,
 * field ids, enum constants. */
static void declare_tags(chk_ctx *c, json_t *t)
{
	const char *k = ty_kind(t);
	if (ty_streq(k, "struct") || ty_streq(k, "union")) {
		json_t *fields = ast_get(t, "fields");
		const char *tag = ast_str(t, "tag");
		if (json_is_array(fields)) {
			size_t i;
			json_t *f;
			json_array_foreach(fields, i, f) {
				if (!chk_node_id(f))
					chk_give_id(c, f);
				chk_type_name(c, f, ast_str(f, "name"));
				declare_tags(c, ast_get(f, "type"));
				chk_walk_sizes(c, ast_get(f, "type"));
				if (ast_get(f, "bits") && !json_is_null(ast_get(f, "bits")))
					chk_expr(c, ast_get(f, "bits"));
			}
			if (*tag) {
				chk_sym *s = chk_in_scope(c, &c->tags, tag);
				if (!s) {
					chk_brg_name(c, t, tag);
					chk_type_name(c, t, tag);
				}
				if (s && s->type && json_is_array(ast_get(s->type,
					"fields")) && s->type != t)
					chk_err(c, t, "E-duplicate", "Variable name Duplicated: "
						"%s %s", k, tag);
				else if (s) {
					json_decref(s->type);
					s->type = json_incref(t);
				} else
					chk_declare(c, &c->tags, tag, SYM_TAG, NULL,
						json_incref(t));
			}
		} else if (*tag && !chk_lookup(&c->tags, tag)) {
			chk_brg_name(c, t, tag);
			chk_declare(c, &c->tags, tag, SYM_TAG, NULL, NULL);
		}
	} else if (ty_streq(k, "enum")) {
		size_t i;
		json_t *it;
		json_array_foreach(ast_get(t, "items"), i, it) {
			const char *name = ast_str(it, "name");
			if (chk_node_id(it))
				continue;
			chk_give_id(c, it);
			if (ast_get(it, "value") && !json_is_null(ast_get(it, "value")))
				chk_expr(c, ast_get(it, "value"));
			if (chk_in_scope(c, &c->names, name))
				chk_err(c, it, "E-duplicate", "Variable name Duplicated: %s",
					name);
			chk_generated_name(c, it, name);
			chk_type_name(c, it, name);
			chk_declare(c, &c->names, name, SYM_ENUM, it,
				json_incref(chk_T(c, "int")));
		}
	} else if (ty_streq(k, "ptr")) {
		declare_tags(c, ast_get(t, "to"));
	} else if (ty_streq(k, "array") || ty_streq(k, "stream")) {
		declare_tags(c, ast_get(t, "of"));
	}
}

/* Checks the size expressions inside a type (array sizes, stream dims). */
void chk_walk_sizes(chk_ctx *c, json_t *t)
{
	const char *k = ty_kind(t);
	if (ty_streq(k, "array")) {
		if (ast_get(t, "size") && !json_is_null(ast_get(t, "size")))
			chk_expr(c, ast_get(t, "size"));
		chk_walk_sizes(c, ast_get(t, "of"));
	} else if (ty_streq(k, "stream")) {
		size_t i;
		json_t *d;
		json_array_foreach(ast_get(t, "dims"), i, d)
			if (!json_is_null(d))
				chk_expr(c, d);
		chk_walk_sizes(c, ast_get(t, "of"));
	} else if (ty_streq(k, "ptr")) {
		chk_walk_sizes(c, ast_get(t, "to"));
	}
}

/* The C qualifiers on T and the types it is made of (chk_quals). */
unsigned chk_type_quals(const json_t *t)
{
	unsigned q = 0;
	for (; json_is_object(t); t = ast_get(t, ty_is_ptr(t) ? "to" : "of"))
		q |= chk_quals(ast_get(t, "quals"));
	return q;
}

int chk_type_has_ptr(const json_t *t)
{
	for (; json_is_object(t); t = ast_get(t, "of"))
		if (ty_is_ptr(t))
			return 1;
	return 0;
}

/* spec 3.2: what a stream may hold. */
int chk_stream_elem_ok(chk_ctx *c, json_t *t, int depth)
{
	if (depth > 32)
		return 0;
	if (ty_is_arith(t))
		return !ty_streq(ty_scalar(t), "bool");
	if (ty_is_array(t))
		return chk_stream_elem_ok(c, ast_get(t, "of"), depth + 1);
	if (ty_is_struct(t)) {
		size_t i;
		json_t *f;
		json_array_foreach(ast_get(t, "fields"), i, f) {
			json_t *ft = chk_resolve(c, ast_get(f, "type"));
			int ok = chk_stream_elem_ok(c, ft, depth + 1);
			json_decref(ft);
			if (!ok)
				return 0;
		}
		return 1;
	}
	return ty_is_unknown(t);
}

/* The first struct or union that T (its element) or a field of it,
 * nested, has without its fields: a tag declared but not defined before
 * this point. *FIELD: the field that has it, or NULL. */
static char *incomplete_in(chk_ctx *c, const json_t *t, int depth,
	const char **field)
{
	t = ty_base(t);
	if (!ty_is_struct(t) || depth > 16)
		return NULL;
	json_t *fields = ast_get(t, "fields");
	if (!json_is_array(fields))
		return ty_name(t);
	size_t i;
	json_t *f;
	json_array_foreach(fields, i, f) {
		json_t *ft = chk_resolve(c, ast_get(f, "type"));
		char *r = ty_is_ptr(ft) ? NULL : incomplete_in(c, ft, depth + 1,
			field);
		json_decref(ft);
		if (r) {
			if (!*field)
				*field = ast_str(f, "name");
			return r;
		}
	}
	return NULL;
}

/* spec 6.1.2 and 2: reserved types; double vectors beyond two; C: a
 * variable of a struct (or with a struct field) needs its definition. */
void chk_kernel_type(chk_ctx *c, json_t *at, json_t *t)
{
	const json_t *b = ty_base(t);
	const char *field = NULL;
	char *inc = incomplete_in(c, t, 0, &field);
	if (inc) {
		char of[160] = "";
		if (field)
			snprintf(of, sizeof of, " (of its field \"%s\")", field);
		chk_err(c, at, "E-incomplete-type", "\"%s\" needs the fields of "
			"%s%s, which has no definition before this point",
			ast_str(at, "name"), inc, of);
		free(inc);
	}
	if (ty_scalar_is_reserved(ty_scalar(b)))
		chk_err(c, at, "E-reserved-type", "reserved type \"%s\" is not "
			"supported in kernels", ty_scalar(b));
	else if (c->o->portable && ty_ncomp(b) > 2 &&
		ty_streq(ty_scalar(b), "double"))
		chk_warn(c, 1, at, "W-portable-double", "double data types can have 1 "
			"or 2 components");
}

/* spec 7.2: a stream dimension whose type only the C compiler knows (a
 * function of a system header, a macro of one). */
static void dim_unknown(chk_ctx *c, json_t *d)
{
	strbuf b = {0};
	astprint_expr(&b, d, NULL);
	chk_warn(c, 1, d, "W-dim-type", "can't determine the type of \"%s\", "
		"expected int", b.s ? b.s : "");
	sb_free(&b);
}

/* spec 7.1 "vout deprecated": BrookGPU's variable output streams (a
 * kernel pushing any number of values) have no place in Brook+, and
 * neither brgen nor the runtime implements them. */
void chk_vout(chk_ctx *c, json_t *at)
{
	chk_err(c, at, "E-vout", "vout deprecated: variable output streams "
		"are not supported; use an out stream, or a scatter array and a "
		"count");
}

/* spec 7.1 "Problem with stream declaration: dimension == n not
 * supported": the runtime's streams have at most BRT_MAX_RANK dimensions
 * (brt.h), gather and scatter arrays likewise. */
void chk_stream_rank(chk_ctx *c, json_t *at, json_t *t)
{
	int rank = ty_rank(t);
	if (rank > BRT_MAX_RANK)
		chk_err(c, at, "E-stream-rank", "Problem with stream declaration: "
			"dimension == %d not supported (at most %d)", rank,
			BRT_MAX_RANK);
}

/* spec 3.2 declares streams of arrays (float b<>[2][3]); neither brgen
 * nor the runtime implements them: "Unsupported variable type". 1 when
 * stream T holds arrays. */
int chk_stream_of_arrays(chk_ctx *c, json_t *at, json_t *t)
{
	json_t *elem = ast_get(t, "of");
	if (!ty_is_stream(t) || !ty_is_array(elem))
		return 0;
	char *n = TN(elem);
	chk_err(c, at, "E-unsupported-type", "Unsupported variable type: a "
		"stream of arrays (%s) is not supported; use a stream of vectors "
		"or of structs", n);
	free(n);
	return 1;
}

/* A stream dimension that is a literal, possibly signed: its value. */
static int signed_dim(json_t *d, long long *v)
{
	int neg = 0;
	d = chk_strip_paren(d);
	while (ast_is(d, "unop") && (ty_streq(ast_str(d, "op"), "-") ||
		ty_streq(ast_str(d, "op"), "+"))) {
		neg ^= ty_streq(ast_str(d, "op"), "-");
		d = chk_strip_paren(ast_get(d, "e"));
	}
	if (!chk_int_literal(d, v))
		return 0;
	if (neg)
		*v = -*v;
	return 1;
}

/* brookgpu, "Iterator Streams": 1D iterators, or 2D ones of float2. */
static void iter_shape(chk_ctx *c, json_t *v, json_t *t)
{
	json_t *elem = ast_get(t, "of");
	int rank = ty_rank(t);
	if (rank == 1 || (rank == 2 && ty_is_vector(elem) &&
		ty_streq(ty_scalar(elem), "float") && ty_ncomp(elem) == 2))
		return;
	char *n = TN(elem);
	chk_err(c, v, "E-iter-shape", "iterator streams are 1D, or 2D of "
		"float2: not %dD of %s", rank, n);
	free(n);
}

static void stream_var(chk_ctx *c, json_t *v, json_t *t, const char *storage)
{
	size_t i;
	json_t *d;
	json_t *elem = ast_get(t, "of");
	long long dim;
	if (!chk_stream_of_arrays(c, v, t) && !chk_stream_elem_ok(c, elem, 0)) {
		char *n = TN(elem);
		chk_err(c, v, "E-stream-elem", "Stream element type not supported: %s",
			n);
		free(n);
	}
	json_array_foreach(ast_get(t, "dims"), i, d) {
		if (json_is_null(d)) {
			chk_err(c, v, "E-stream-dims", "stream dimensions must be given: "
				"<> is allowed only for kernel parameters");
			continue;
		}
		json_t *dt = ast_get(d, "ty");
		if (ty_is_unknown(dt))
			dim_unknown(c, d);
		else if (!(ty_is_scalar(dt) && ty_scalar_is_integer(ty_scalar(dt))))
			chk_err(c, d, "E-stream-dim-type",
				"expect int for stream dimension parameter");
		else if (signed_dim(d, &dim) && dim <= 0)
			chk_err(c, d, "E-stream-dim-value", "stream dimension must be "
				"positive: %lld", dim);
	}
	chk_stream_rank(c, v, t);
	if (c->scope->up == NULL)
		chk_err(c, v, "E-stream-global", "streams must be local variables");
	else if (ty_streq(storage, "static") || ty_streq(storage, "extern"))
		chk_err(c, v, "E-stream-storage", "a stream cannot be %s: streams "
			"are local variables, released when their block ends",
			storage);
	/* spec 3.2, guide 1.2.1.2: the 2008 limits */
	long long total = 1, n;
	int wide = 0;
	json_array_foreach(ast_get(t, "dims"), i, d) {
		if (!chk_int_literal(d, &n)) {
			total = 0;
			break;
		}
		if (total <= (1LL << 23))	/* saturates: no overflow */
			total *= n < 0 ? 0 : n > (1LL << 24) ? (1LL << 24) : n;
		wide |= n > 8192;
	}
	if (c->o->portable && (wide || total > (1LL << 23)))
		chk_warn(c, 1, v, "W-portable-stream", "streams are limited to 2^23 "
			"elements and 8192 along a dimension on the 2008 hardware");
	json_t *init = ast_get(v, "init");
	if (init && !json_is_null(init)) {
		json_t *ie = chk_strip_paren(init);
		int iter = chk_has_qual(ast_get(v, "quals"), "iter") &&
			ast_is(ie, "call") &&
			ty_streq(ast_str(ast_get(ie, "fn"), "name"), "iter");
		if (!iter)
			chk_err(c, v, "E-stream-init", "Stream can't have an initializer");
	}
	if (chk_has_qual(ast_get(v, "quals"), "iter") && (!init ||
			json_is_null(init)))
		chk_err(c, v, "E-iter-init", "an iterator stream needs an "
			"initializer iter(start, end)");
	if (chk_has_qual(ast_get(v, "quals"), "iter"))
		iter_shape(c, v, t);
	/* spec 7.1: brcc had no iterator streams (brookgpu's iter) */
	if (c->o->portable && chk_has_qual(ast_get(v, "quals"), "iter"))
		chk_warn(c, 1, v, "W-portable-iterator", "Iterator not supported");
}

/* guide 1.17.2, 1.17.3: shared float4 lds[256]; */
static void shared_var(chk_ctx *c, json_t *v, json_t *t, chk_sym *s)
{
	long long n = 0, gs = c->fn ? c->fn->groupsize : 0;
	if (!gs)
		chk_err(c, v, "E-shared-groupsize", "Shared array allowed only for "
			"compute shaders: specify GroupSize Attribute");
	if (!ty_is_array(t)) {
		chk_err(c, v, "E-shared-array", "Shared qualifier valid only for Local "
			"Array declared inside kernel");
		return;
	}
	if (ty_rank(t) != 1)
		chk_err(c, v, "E-shared-dims", "Shared Local Array must be 1D");
	else if (!chk_int_literal(ast_get(t, "size"), &n) || n <= 0)
		chk_err(c, v, "E-shared-size", "shared array size must be a positive "
			"integer constant, not a constant expression");
	if (ast_get(v, "init") && !json_is_null(ast_get(v, "init")))
		chk_err(c, v, "E-shared-init", "Shared Local Array should not be "
			"initialized");
	s->shared = 1;
	s->shared_size = n;
	if (c->fn && ++c->fn->nshared == 2 && c->o->portable)
		chk_warn(c, 1, v, "W-portable-shared", "Only One Shared local array "
			"allowed");
	if (n > 0 && gs > 0 && n % gs != 0)
		chk_err(c, v, "E-shared-groupsize",
			"SharedArraySize%%GroupSize must be zero: %lld %% %lld", n, gs);
	if (!c->o->portable || n <= 0)
		return;
	const json_t *e = ast_get(t, "of");
	int bits = ty_scalar_bits(ty_scalar(e)) * ty_ncomp(e);
	if (bits != 128)
		chk_warn(c, 1, v, "W-portable-shared", "Shared array type must be 128 "
			"bit type");
	if (n * bits > 4096 * 32)
		chk_warn(c, 1, v, "W-portable-shared", "Shared array size must be <= "
			"4K 32-bit type");
	if (gs > 0 && n % gs == 0 && (n / gs) * bits / 8 > 64)
		chk_warn(c, 1, v, "W-portable-shared", "SharedArraySize/GroupSize must "
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
			chk_err(c, v, "E-local-array-size",
				"Local Array size must be non-zero positive int value");
		else if (chk_int_literal(sz, &n)) {
			if (n <= 0)
				chk_err(c, v, "E-local-array-size", "Local Array size must be "
					"non-zero positive int value");
		} else if (!ty_scalar_is_integer(ty_scalar(st)))
			chk_err(c, v, "E-local-array-type",
				"Local Array size must be constant int type");
		else
			chk_err(c, v, "E-local-array-expr",
				"Local Array size expression must be simple constant int");
	}
	if (c->o->portable)
		chk_warn(c, 1, v, "W-portable-local-array", "Local Array not supported "
			"yet");
}

/* E-iter-qualifier at N: a variable or parameter that is not a stream
 * (BrookGPU's iterators are host streams, which kernels read as input
 * streams). */
void chk_iter_qual(chk_ctx *c, const json_t *n)
{
	chk_err(c, n, "E-iter-qualifier", "iter qualifier allowed only for "
		"streams: iter float s<16> = iter(0.0f, 16.0f); on the host, "
		"iter float a<> or float a<> a kernel's parameter");
}

/* spec 6.3.1, 6.3.2, 4.4: one declared variable. */
static void var_decl(chk_ctx *c, json_t *v, const char *storage)
{
	const char *name = ast_str(v, "name");
	json_t *quals = ast_get(v, "quals");
	json_t *raw = ast_get(v, "type");
	if (!ast_is(v, "var") || !*name) {
		chk_bad(c, v, "a declaration holds something other than a named "
			"\"var\"");
		return;
	}
	json_t *t = chk_decl_type(c, v, "type");
	chk_give_id(c, v);
	chk_walk_sizes(c, raw);
	if (ty_streq(storage, "typedef")) {
		chk_generated_name(c, v, name);
		chk_type_name(c, v, name);
		chk_declare(c, &c->names, name, SYM_TYPEDEF, v, t);
		return;
	}
	chk_sym *prev = chk_in_scope(c, &c->names, name);
	if (prev && prev->kind == SYM_FUNC)
		chk_err(c, v, "E-function-name-clash", "Function names must be unique "
			"among all function and variable names: \"%s\"", name);
	else if (prev && (c->scope->up || prev->kind != SYM_VAR))
		chk_err(c, v, "E-duplicate", "Variable name Duplicated: %s", name);
	if (c->kern) {
		if (ty_streq(storage, "static") || ty_streq(storage, "extern"))
			chk_err(c, v, "E-kernel-storage",
				"static or extern not allowed inside kernel");
		if (chk_type_quals(raw) & (CHK_Q_VOLATILE | CHK_Q_RESTRICT))
			chk_err(c, v, "E-kernel-qualifier", "volatile or restrict "
				"qualifiers not allowed inside kernel");
		if (chk_type_has_ptr(t))
			chk_err(c, v, "E-kernel-pointer",
				"pointers not allowed inside kernel");
		if (ty_is_stream(t))
			chk_err(c, v, "E-kernel-stream",
				"streams cannot be declared inside a kernel");
		chk_kernel_type(c, v, t);
	} else if (chk_has_qual(quals, "shared")) {
		chk_err(c, v, "E-shared-placement", "Shared qualifier valid only for "
			"Local Array declared inside kernel");
	}
	if (chk_has_qual(quals, "out"))
		chk_err(c, v, "E-out-qualifier",
			"out qualifier allowed only for kernel parameters");
	if (chk_has_qual(quals, "vout"))
		chk_vout(c, v);
	if (chk_has_qual(quals, "reduce"))
		chk_err(c, v, "E-reduce-qualifier",
			"reduce qualifier allowed only for kernel parameters");
	if (chk_has_qual(quals, "iter") && !ty_is_stream(t))
		chk_iter_qual(c, v);
	if (!c->kern && ty_is_stream(t))
		stream_var(c, v, t, storage);
	chk_generated_name(c, v, name);
	chk_sym *s = chk_declare(c, &c->names, name, SYM_VAR, v, t);
	s->constq = chk_has_qual(ast_get(raw, "quals"), "const") ||
		chk_has_qual(quals, "const");
	json_t *init = ast_get(v, "init");
	int has_init = init && !json_is_null(init);
	if (c->kern && chk_has_qual(quals, "shared"))
		shared_var(c, v, t, s);
	else if (c->kern && ty_is_array(t)) {
		s->local_array = 1;
		local_array(c, v, t);
	}
	if (c->kern && has_init && !ty_is_array(t) && !ty_is_stream(t)) {
		s->value = init;	/* W-reduce-expr follows it */
		s->writes = 1;
	}
	if (c->kern && s->constq && !has_init)
		chk_err(c, v, "E-const-uninit", "uninitialized const: \"%s\"", name);
	if (has_init && !ty_is_stream(t))
		chk_initializer(c, init, t, v);
	else if (has_init)
		chk_initializer(c, init, chk_T(c, "unknown"), v);
}

/* A struct, union or enum body in T or the types it is made of. */
static int defines_type(const json_t *t)
{
	for (; json_is_object(t); t = ast_get(t, ty_is_ptr(t) ? "to" : "of"))
		if (json_is_array(ast_get(t, "fields")) ||
			json_is_array(ast_get(t, "items")))
			return 1;
	return 0;
}

void chk_decl(chk_ctx *c, json_t *d)
{
	json_t *vars = ast_arr(d, "vars");
	const char *storage = ast_str(d, "storage");
	size_t i;
	json_t *v;
	if (!vars) {
		chk_bad(c, d, "\"decl\" node without \"vars\"");
		return;
	}
	/* spec 7.1 "Unsupported variable type": brgen writes a kernel's body
	 * apart from the host's type definitions, so a kernel uses types
	 * defined outside it */
	if (c->kern && (ty_streq(storage, "typedef") ||
		defines_type(ast_get(d, "type"))))
		chk_err(c, d, "E-unsupported-type", "Unsupported variable type: "
			"%s defined inside a kernel; define it outside",
			ty_streq(storage, "typedef") ? "a typedef" :
			"a struct, union or enum");
	declare_tags(c, ast_get(d, "type"));
	json_array_foreach(vars, i, v)
		var_decl(c, v, storage);
}
