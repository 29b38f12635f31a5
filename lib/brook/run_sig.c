/* run_sig.c - a kernel's parameters as libbrt describes them (brt.h,
 * brt_argdesc), from the checked AST (ast.h, "WHAT BRCHECK ADDS"). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brook/ast.h"
#include "brook/run_sig.h"
#include "brook/util.h"

#define SIG_ID "E-run-kernel"

/* The type a typedef name stands for, from the file-scope typedefs. */
static const json_t *typedef_lookup(const json_t *doc, const char *name)
{
	size_t i;
	json_t *decl;
	json_array_foreach(ast_arr(doc, "decls"), i, decl) {
		if (!ast_is(decl, "decl") ||
			strcmp(ast_str(decl, "storage"), "typedef") != 0)
			continue;
		size_t j;
		json_t *var;
		json_array_foreach(ast_arr(decl, "vars"), j, var)
			if (strcmp(ast_str(var, "name"), name) == 0)
				return ast_get(var, "type");
	}
	return NULL;
}

int run_elem_type(const json_t *doc, const json_t *ty, brt_type *out)
{
	static const struct { const char *name; brt_scalar k; } tab[] = {
		{"char", BRT_CHAR}, {"schar", BRT_CHAR}, {"uchar", BRT_UCHAR},
		{"short", BRT_SHORT}, {"ushort", BRT_USHORT}, {"int", BRT_INT},
		{"uint", BRT_UINT}, {"float", BRT_FLOAT}, {"double", BRT_DOUBLE},
		{"long", BRT_LONG}, {"ulong", BRT_ULONG}, {"llong", BRT_LONG},
		{"ullong", BRT_ULONG}, {"bool", BRT_INT}, {"enum", BRT_INT},
	};
	for (int depth = 0; depth < 32 && ty; depth++) {
		const char *t = ast_str(ty, "t");
		if (strcmp(t, "typedef") == 0) {
			ty = typedef_lookup(doc, ast_str(ty, "name"));
			continue;
		}
		size_t n = strlen(t);
		unsigned nc = 1;
		char base[16];
		if (n > 1 && n < sizeof base && t[n - 1] >= '2' && t[n - 1] <= '4') {
			nc = (unsigned)(t[n - 1] - '0');
			n--;
		}
		if (n >= sizeof base)
			return -1;
		memcpy(base, t, n);
		base[n] = '\0';
		for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
			if (strcmp(base, tab[i].name) == 0) {
				out->scalar = tab[i].k;
				out->ncomp = nc;
				out->size = nc * (tab[i].k == BRT_CHAR ||
					tab[i].k == BRT_UCHAR ? 1 :
					tab[i].k == BRT_SHORT ||
					tab[i].k == BRT_USHORT ? 2 :
					tab[i].k == BRT_DOUBLE || tab[i].k == BRT_LONG ||
					tab[i].k == BRT_ULONG ? 8 : 4);
				return 0;
			}
		return -1;
	}
	return -1;
}

/* *V converted to the integer type of cast node E, as C converts
 * (two's complement); -1 for a type whose values a long long cannot
 * hold or compare as C does (ulong), or that is not an integer. */
static int cast_int(const json_t *e, long long *v)
{
	static const struct { const char *t; int bits, sgn; } tab[] = {
		{"char", 8, 1}, {"uchar", 8, 0}, {"short", 16, 1},
		{"ushort", 16, 0}, {"int", 32, 1}, {"uint", 32, 0},
		{"long", 64, 1}, {"bool", 1, 0},
	};
	const char *t = ast_str(ast_get(e, "type"), "t");

	for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
		if (strcmp(t, tab[i].t) != 0)
			continue;
		if (tab[i].bits == 1) {
			*v = *v != 0;
		} else if (tab[i].bits < 64) {
			unsigned long long m = (1ULL << tab[i].bits) - 1;
			unsigned long long u = (unsigned long long)*v & m;
			*v = tab[i].sgn && u >> (tab[i].bits - 1) ?
				(long long)u - (long long)m - 1 : (long long)u;
		}
		return 0;
	}
	return -1;
}

static int fold(const json_t *e, long long *v, run_const_id id,
	const void *ctx, int depth)
{
	const char *k = ast_kind(e), *op = ast_str(e, "op");
	long long a, b;

	if (depth > 10000)
		return -1;
	if (strcmp(k, "int") == 0 || strcmp(k, "char") == 0) {
		if (!json_is_integer(ast_get(e, "value")))
			return -1;
		*v = ast_int(e, "value");
		return 0;
	}
	if (strcmp(k, "id") == 0)
		return id ? id(ctx, e, v) : -1;
	if (strcmp(k, "paren") == 0)
		return fold(ast_get(e, "e"), v, id, ctx, depth + 1);
	if (strcmp(k, "cast") == 0)
		return fold(ast_get(e, "e"), v, id, ctx, depth + 1) != 0 ? -1 :
			cast_int(e, v);
	if (strcmp(k, "unop") == 0) {
		if (fold(ast_get(e, "e"), &a, id, ctx, depth + 1) != 0 ||
				a < INT64_MIN + 1)
			return -1;
		switch (op[0]) {
		case '-': *v = -a; return op[1] ? -1 : 0;
		case '+': *v = a; return op[1] ? -1 : 0;
		case '~': *v = ~a; return 0;
		case '!': *v = !a; return op[1] ? -1 : 0;
		}
		return -1;
	}
	if (strcmp(k, "binop") != 0 ||
		fold(ast_get(e, "l"), &a, id, ctx, depth + 1) != 0 ||
		fold(ast_get(e, "r"), &b, id, ctx, depth + 1) != 0 ||
		a < INT32_MIN || a > INT32_MAX || b < INT32_MIN || b > INT32_MAX)
		return -1;
	if (strcmp(op, "<<") == 0 || strcmp(op, ">>") == 0) {
		if (b < 0 || b > 31)
			return -1;
		*v = op[0] == '<' ? (long long)((unsigned long long)a << b)
			: a >> b;
		return 0;
	}
	switch (op[0]) {
	case '+': *v = a + b; return 0;
	case '-': *v = a - b; return 0;
	case '*': *v = a * b; return 0;
	case '/': case '%':
		if (b == 0)
			return -1;
		*v = op[0] == '/' ? a / b : a % b;
		return 0;
	case '&': *v = op[1] ? a && b : a & b; return 0;
	case '|': *v = op[1] ? a || b : a | b; return 0;
	case '^': *v = a ^ b; return 0;
	case '=': *v = a == b; return 0;
	case '!': *v = a != b; return 0;
	case '<': *v = op[1] ? a <= b : a < b; return 0;
	case '>': *v = op[1] ? a >= b : a > b; return 0;
	}
	return -1;
}

int run_const_int(const json_t *e, long long *v, run_const_id id,
	const void *ctx)
{
	return fold(e, v, id, ctx, 0);
}

/* The operator of the first update of a reduce variable in J ("+" from
 * "reduce_op": "+="), or NULL. */
static const char *find_reduce_op(const json_t *j, int depth)
{
	if (depth > 10000)
		return NULL;
	if (json_is_object(j)) {
		const char *op = ast_str(j, "reduce_op");
		size_t n = strlen(op);
		static const char *const ops[] = {"+=", "*=", "|=", "^=", "&="};
		for (size_t i = 0; n == 2 && i < sizeof ops / sizeof ops[0]; i++)
			if (strcmp(op, ops[i]) == 0)
				return ops[i][0] == '+' ? "+" : ops[i][0] == '*' ?
					"*" : ops[i][0] == '|' ? "|" :
					ops[i][0] == '^' ? "^" : "&";
		const char *key;
		json_t *v;
		json_object_foreach((json_t *)j, key, v)
			if ((op = find_reduce_op(v, depth + 1)))
				return op;
	} else if (json_is_array(j)) {
		size_t i;
		json_t *v;
		json_array_foreach(j, i, v) {
			const char *op = find_reduce_op(v, depth + 1);
			if (op)
				return op;
		}
	}
	return NULL;
}

double run_reduce_identity(const char *op, int *all_ones)
{
	*all_ones = op && strcmp(op, "&") == 0;
	return op && strcmp(op, "*") == 0 ? 1 : 0;
}

/* The kernel called NAME: a func node with a body and "kernel" or
 * "reduce" set. */
static const json_t *find_kernel(const json_t *doc, const char *name)
{
	size_t i;
	json_t *decl;
	json_array_foreach(ast_arr(doc, "decls"), i, decl)
		if (ast_is(decl, "func") && ast_get(decl, "body") &&
			!json_is_null(ast_get(decl, "body")) &&
			(ast_bool(decl, "kernel") || ast_bool(decl, "reduce")) &&
			strcmp(ast_str(decl, "name"), name) == 0)
			return decl;
	return NULL;
}

void run_sig_list(const json_t *doc, char *buf, size_t len)
{
	size_t i, o = 0;
	json_t *decl;
	buf[0] = '\0';
	json_array_foreach(ast_arr(doc, "decls"), i, decl)
		if (ast_is(decl, "func") && (ast_bool(decl, "kernel") ||
			ast_bool(decl, "reduce")) && ast_get(decl, "body") &&
			!json_is_null(ast_get(decl, "body")) && o + 1 < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%s",
				o ? ", " : "", ast_str(decl, "name"));
}

/* The struct type TY names (through typedefs and tags), or NULL. */
static const json_t *struct_of(const json_t *doc, const json_t *ty)
{
	for (int depth = 0; depth < 32 && ty; depth++) {
		const char *t = ast_str(ty, "t");
		if (strcmp(t, "typedef") == 0) {
			ty = typedef_lookup(doc, ast_str(ty, "name"));
			continue;
		}
		if (strcmp(t, "struct") != 0)
			return NULL;
		if (ast_arr(ty, "fields"))
			return ty;
		size_t i;
		json_t *decl;
		json_array_foreach(ast_arr(doc, "decls"), i, decl) {
			const json_t *dt = ast_get(decl, "type");
			if (ast_arr(dt, "fields") && strcmp(ast_str(dt, "t"),
				"struct") == 0 && strcmp(ast_str(dt, "tag"),
				ast_str(ty, "tag")) == 0)
				return dt;
		}
		return NULL;
	}
	return NULL;
}

/* Appends the fields of struct ST at byte BASE to P, C's layout rules
 * (brgen's gen_size): a field aligned to its scalar size or its struct's
 * alignment, the size rounded up to the alignment. Returns the alignment,
 * 0 after reporting a field brrun cannot bind. */
static size_t struct_fields(const json_t *doc, const json_t *st,
	const char *prefix, size_t base, size_t *size, run_param *p, int depth)
{
	size_t i, o = 0, align = 1;
	json_t *f;
	json_array_foreach(ast_arr(st, "fields"), i, f) {
		char name[64];
		snprintf(name, sizeof name, "%s%s", prefix, ast_str(f, "name"));
		const json_t *ft = ast_get(f, "type");
		const json_t *sub = depth < 8 ? struct_of(doc, ft) : NULL;
		brt_type et;
		size_t fa, fs;
		if (sub) {
			char pre[sizeof name + 1];
			snprintf(pre, sizeof pre, "%s.", name);
			/* its fields from 0, then moved to its aligned place */
			size_t n0 = p->nfields;
			fa = struct_fields(doc, sub, pre, 0, &fs, p, depth + 1);
			if (!fa)
				return 0;
			size_t at = (o + fa - 1) / fa * fa;
			for (unsigned k = n0; k < p->nfields; k++)
				p->fields[k].off += base + at;
			o = at + fs;
		} else if (run_elem_type(doc, ft, &et) == 0) {
			fa = et.size / et.ncomp;
			o = (o + fa - 1) / fa * fa;
			p->fields = xrealloc(p->fields, (p->nfields + 1) *
				sizeof *p->fields);
			run_field *rf = &p->fields[p->nfields++];
			snprintf(rf->name, sizeof rf->name, "%s", name);
			rf->type = et;
			rf->off = base + o;
			p->ncomp += et.ncomp;
			o += et.size;
		} else {
			return 0;
		}
		if (fa > align)
			align = fa;
	}
	*size = (o + align - 1) / align * align;
	return o ? align : 0;
}

const char *run_comp_name(const run_param *p, unsigned c, char *buf,
	size_t len)
{
	const char *xyzw = "xyzw";
	buf[0] = '\0';
	if (!p->fields) {
		if (p->desc.type.ncomp > 1)
			snprintf(buf, len, "%c", xyzw[c % p->desc.type.ncomp]);
		return buf;
	}
	for (unsigned i = 0; i < p->nfields; i++) {
		unsigned n = p->fields[i].type.ncomp;
		if (c < n) {
			if (n > 1)
				snprintf(buf, len, "%s.%c", p->fields[i].name,
					xyzw[c]);
			else
				snprintf(buf, len, "%s", p->fields[i].name);
			break;
		}
		c -= n;
	}
	return buf;
}

static const struct { const char *role; brt_argkind kind; } roles[] = {
	{"in", BRT_ARG_IN}, {"out", BRT_ARG_OUT}, {"gather", BRT_ARG_GATHER},
	{"scatter", BRT_ARG_SCATTER}, {"value", BRT_ARG_VALUE},
	{"reduce", BRT_ARG_REDUCE},
};

/* Fills P from the PARAM node: kind from its role, element type and rank
 * from its type. */
static int param_desc(const json_t *doc, const json_t *pn, run_param *p,
	diag_ctx *d)
{
	const char *role = ast_str(pn, "role");
	const char *file;
	int line, col;
	if (ast_at(doc, pn, &file, &line, &col) != 0) {
		file = NULL;
		line = col = 0;
	}
	size_t r;
	for (r = 0; r < sizeof roles / sizeof roles[0]; r++)
		if (strcmp(role, roles[r].role) == 0)
			break;
	if (r == sizeof roles / sizeof roles[0]) {
		diag_report(d, DIAG_ERROR, file, line, col, SIG_ID,
			"parameter '%s' has no role: is the AST checked?",
			p->name);
		return -1;
	}
	p->desc.kind = roles[r].kind;
	const json_t *ty = ast_get(pn, "type");
	unsigned rank = 0;
	if (strcmp(ast_str(ty, "t"), "stream") == 0) {
		json_t *dims = ast_arr(ty, "dims");
		rank = (unsigned)json_array_size(dims);
		if (rank == 1 && json_is_null(json_array_get(dims, 0)))
			rank = 0;
		p->desc.reduce_stream = p->desc.kind == BRT_ARG_REDUCE;
		ty = ast_get(ty, "of");
	} else if (strcmp(ast_str(ty, "t"), "array") == 0) {
		while (strcmp(ast_str(ty, "t"), "array") == 0 &&
			rank < BRT_MAX_RANK) {
			long long n = 0;
			const json_t *sz = ast_get(ty, "size");
			if (sz && !json_is_null(sz) &&
				run_const_int(sz, &n, NULL, NULL) != 0)
				n = 0;
			p->decl_dims[rank++] = n > 0 ? (size_t)n : 0;
			ty = ast_get(ty, "of");
		}
	}
	const json_t *st = struct_of(doc, ty);
	if (st) {
		/* spec 2: streams, gathers, values and reductions (of a
		 * reduce function, spec 4.1.2) of structs */
		size_t size = 0;
		if (struct_fields(doc, st, "", 0, &size, p, 0) == 0) {
			diag_report(d, DIAG_ERROR, file, line, col, SIG_ID,
				"parameter '%s': brrun binds structs of scalar, "
				"vector and struct fields", p->name);
			return -1;
		}
		p->desc.type = brt_type_struct(size);
	} else if (run_elem_type(doc, ty, &p->desc.type) != 0) {
		diag_report(d, DIAG_ERROR, file, line, col, SIG_ID,
			"parameter '%s': brrun binds scalar, vector and struct "
			"element types", p->name);
		return -1;
	} else {
		p->ncomp = p->desc.type.ncomp;
	}
	p->desc.rank = rank > BRT_MAX_RANK ? BRT_MAX_RANK : rank;
	return 0;
}

int run_sig_build(const json_t *doc, const char *name, run_sig *sig,
	diag_ctx *d)
{
	memset(sig, 0, sizeof *sig);
	const json_t *f = find_kernel(doc, name);
	if (!f) {
		char list[512];
		run_sig_list(doc, list, sizeof list);
		diag_report(d, DIAG_ERROR, NULL, 0, 0, SIG_ID,
			"no kernel '%s' in this file (kernels: %s)", name,
			list[0] ? list : "none");
		return -1;
	}
	const json_t *ret = ast_get(ast_get(f, "type"), "ret");
	if (ret && strcmp(ast_str(ret, "t"), "void") != 0) {
		/* brgen writes no OpenCL entry for it (spec 7) */
		const char *file;
		int line, col;
		if (ast_at(doc, f, &file, &line, &col) != 0) {
			file = NULL;
			line = col = 0;
		}
		diag_report(d, DIAG_ERROR, file, line, col, SIG_ID,
			"kernel '%s' returns a value: a subkernel, which other "
			"kernels call; brrun runs a kernel that writes its "
			"outputs (out streams, a scatter array, a reduction)",
			name);
		return -1;
	}
	sig->func = f;
	sig->name = ast_str(f, "name");
	const char *cls = ast_str(f, "class");
	sig->kclass = strcmp(cls, "reduce") == 0 ? BRT_KERNEL_REDUCE :
		strcmp(cls, "scatter") == 0 ? BRT_KERNEL_SCATTER :
		strcmp(cls, "group") == 0 ? BRT_KERNEL_GROUP : BRT_KERNEL_MAP;
	sig->reduce_init = ast_bool(f, "reduce") ? BRT_REDUCE_FIRST :
		BRT_REDUCE_VALUE;
	sig->group[0] = sig->group[1] = sig->group[2] = 1;
	sig->reduce_op = find_reduce_op(ast_get(f, "body"), 0);
	size_t i;
	json_t *a;
	json_array_foreach(ast_arr(f, "attrs"), i, a) {
		if (strcmp(ast_str(a, "name"), "GroupSize") != 0)
			continue;
		size_t j;
		json_t *e;
		json_array_foreach(ast_arr(a, "args"), j, e) {
			long long v;
			if (j < 3 && run_const_int(e, &v, NULL, NULL) == 0 && v > 0 &&
				v <= 65536)
				sig->group[j] = (unsigned)v;
		}
	}
	json_t *params = ast_arr(ast_get(f, "type"), "params");
	sig->nparams = (unsigned)json_array_size(params);
	sig->params = xcalloc(sig->nparams + 1, sizeof *sig->params);
	json_t *pn;
	json_array_foreach(params, i, pn) {
		run_param *p = &sig->params[i];
		p->node = pn;
		p->name = ast_str(pn, "name");
		if (param_desc(doc, pn, p, d) != 0) {
			run_sig_free(sig);
			return -1;
		}
	}
	return 0;
}

void run_sig_free(run_sig *sig)
{
	for (unsigned i = 0; sig->params && i < sig->nparams; i++)
		free(sig->params[i].fields);
	free(sig->params);
	memset(sig, 0, sizeof *sig);
}
