/* run_interp.c - an interpreter of checked kernels for brrun's CPU backend
 * (run_interp.h).
 *
 * Compilation turns the checked AST (ast.h) into trees of rnode
 * (expressions) and rstmt (statements): every name is a frame slot, every
 * type a value kind and a component count, every builtin a code. Values are
 * rval: four components of the kind's C type. Arithmetic happens in the
 * type the usual arithmetic conversions give (spec 6.2: C's rules, scalars
 * widened to vectors), integers wrap around as OpenCL's do, and division by
 * zero or a float out of an integer's range gives a value, never a trap. */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brook/ast.h"
#include "brook/run_interp.h"
#include "brook/type.h"
#include "brook/util.h"

#define INTERP_ID "E-run-interp"
#define PI 3.14159265358979323846
#define MAX_NEST 400		/* expression and statement nesting */
#define RUN_MAX_VALUES 65536	/* frame slots of a thread or work-item,
				   a kernel's and its calls' together */
#define RUN_MAX_PARAMS 64	/* parameters of a subkernel that is called */
#define RUN_MAX_CALLS 64	/* subkernel calls nested in one another */
#define RUN_GROUP_VALUES (1 << 22)	/* the frames of a work-group */

/* ---- values --------------------------------------------------------- */

enum vk { VK_VOID, VK_BOOL, VK_S8, VK_U8, VK_S16, VK_U16, VK_S32, VK_U32,
	VK_S64, VK_U64, VK_F32, VK_F64 };
/* Arithmetic classes: where a kind's components live in rcomp. */
enum cls { C_I, C_U, C_L, C_Q, C_F, C_D };

typedef struct rtype {
	uint8_t k;		/* enum vk */
	uint8_t n;		/* components, 1..4 */
} rtype;

typedef union rcomp {
	int32_t i;
	uint32_t u;
	int64_t l;
	uint64_t q;
	float f;
	double d;
} rcomp;

typedef struct rval {
	rcomp c[4];
} rval;

static int cls_of(int k)
{
	switch (k) {
	case VK_U8: case VK_U16: case VK_U32: return C_U;
	case VK_S64: return C_L;
	case VK_U64: return C_Q;
	case VK_F32: return C_F;
	case VK_F64: return C_D;
	default: return C_I;
	}
}

/* Bits of a kind's scalar: for OpenCL's shift-count masking. */
static int bits_of(int k)
{
	switch (k) {
	case VK_S8: case VK_U8: return 8;
	case VK_S16: case VK_U16: return 16;
	case VK_S64: case VK_U64: case VK_F64: return 64;
	default: return 32;
	}
}

static int is_float(int k)
{
	return k == VK_F32 || k == VK_F64;
}

static double sat_d(double v, double lo, double hi)
{
	if (isnan(v))
		return 0;
	return v < lo ? lo : v > hi ? hi : v;
}

/* One component of kind SK converted to kind DK (C's conversions; a float
 * out of an integer's range saturates, NaN gives 0). */
static rcomp cvt1(rcomp s, int sk, int dk)
{
	rcomp d;
	int sc = cls_of(sk);
	if (dk == VK_F32 || dk == VK_F64) {
		double v = sc == C_I ? s.i : sc == C_U ? s.u : sc == C_L ?
			(double)s.l : sc == C_Q ? (double)s.q : sc == C_F ?
			(double)s.f : s.d;
		if (dk == VK_F32)
			d.f = sc == C_D ? (float)s.d : sc == C_F ? s.f :
				sc == C_L ? (float)s.l : sc == C_Q ? (float)s.q :
				(float)v;
		else
			d.d = v;
		return d;
	}
	if (dk == VK_BOOL) {
		d.i = sc == C_I ? s.i != 0 : sc == C_U ? s.u != 0 : sc == C_L ?
			s.l != 0 : sc == C_Q ? s.q != 0 : sc == C_F ? s.f != 0 :
			s.d != 0;
		return d;
	}
	/* to an integer: through 64 bits, wrapping like C's unsigned and
	 * gcc's signed conversions */
	uint64_t u;
	if (sc == C_F || sc == C_D) {
		double v = sc == C_F ? s.f : s.d;
		if (dk == VK_U64)
			u = (uint64_t)sat_d(v, 0, 18446744073709549568.0);
		else if (dk == VK_S64)
			u = (uint64_t)(int64_t)sat_d(v, -9223372036854775808.0,
				9223372036854774784.0);
		else {
			static const double lo[] = {[VK_S8] = -128, [VK_U8] = 0,
				[VK_S16] = -32768, [VK_U16] = 0,
				[VK_S32] = -2147483648.0, [VK_U32] = 0};
			static const double hi[] = {[VK_S8] = 127, [VK_U8] = 255,
				[VK_S16] = 32767, [VK_U16] = 65535,
				[VK_S32] = 2147483647.0, [VK_U32] = 4294967295.0};
			u = (uint64_t)(int64_t)sat_d(v, lo[dk], hi[dk]);
		}
	} else {
		u = sc == C_I ? (uint64_t)(int64_t)s.i : sc == C_U ? s.u :
			sc == C_L ? (uint64_t)s.l : s.q;
	}
	switch (dk) {
	case VK_S8: d.i = (int8_t)(uint8_t)u; break;
	case VK_U8: d.u = (uint8_t)u; break;
	case VK_S16: d.i = (int16_t)(uint16_t)u; break;
	case VK_U16: d.u = (uint16_t)u; break;
	case VK_S32: d.i = (int32_t)(uint32_t)u; break;
	case VK_U32: d.u = (uint32_t)u; break;
	case VK_S64: d.l = (int64_t)u; break;
	default: d.q = u; break;
	}
	return d;
}

/* V of type FROM as type TO: a scalar widens to every component, a longer
 * vector gives its first components. */
static void cvt(rval *o, rtype to, const rval *v, rtype from)
{
	rval t;
	if (to.k == from.k && to.n == from.n) {
		*o = *v;
		return;
	}
	/* a number fills every component; a narrower vector is widened
	   with zeros (brook(7), -a), as the generated code does */
	for (int i = 0; i < to.n; i++) {
		if (from.n == 1 || i < from.n)
			t.c[i] = cvt1(v->c[from.n == 1 ? 0 : i], from.k, to.k);
		else
			t.c[i] = cvt1((rcomp){.q = 0}, VK_S32, to.k);
	}
	for (int i = to.n; i < 4; i++)
		t.c[i].q = 0;
	*o = t;
}

static int truth(const rval *v, rtype t)
{
	return cvt1(v->c[0], t.k, VK_BOOL).i;
}

/* The type of arithmetic on A and B (C's usual arithmetic conversions,
 * char and short promoted to int, scalars widened to the vector). */
static rtype common_type(rtype a, rtype b)
{
	static const int rank[] = {[VK_BOOL] = 0, [VK_S8] = 0, [VK_U8] = 0,
		[VK_S16] = 0, [VK_U16] = 0, [VK_S32] = 0, [VK_U32] = 1,
		[VK_S64] = 2, [VK_U64] = 3, [VK_F32] = 4, [VK_F64] = 5};
	static const uint8_t kinds[] = {VK_S32, VK_U32, VK_S64, VK_U64,
		VK_F32, VK_F64};
	rtype r;
	int ra = rank[a.k], rb = rank[b.k];
	r.k = kinds[ra > rb ? ra : rb];
	r.n = a.n > b.n ? a.n : b.n;
	/* OpenCL: vectors of a small integer type stay that type */
	if (r.n > 1 && a.k == b.k)
		r.k = a.k;
	return r;
}

/* ---- the compiled form --------------------------------------------- */

typedef struct rnode rnode;
typedef struct rstmt rstmt;
typedef struct rfunc rfunc;
typedef struct rframe rframe;
typedef void reval_fn(const rnode *n, rframe *f, rval *o);

/* Where an lvalue or an array element lives. */
enum acc_kind {
	ACC_SLOT,		/* frame slots from BASE on */
	ACC_ARG,		/* a gather or scatter buffer: the argument
				   index is in slot BASE */
	ACC_SHARED		/* group-shared slots from BASE on */
};

/* A struct laid out in slots, field after field (spec 2: structs of
 * scalars and vectors, nested structs). */
typedef struct rstruct rstruct;
typedef struct rfield {
	const char *name;
	int off;		/* first slot, from the struct's */
	rtype ty;		/* a scalar or vector field */
	const rstruct *st;	/* a struct field */
} rfield;
struct rstruct {
	int nslots;
	int nfields;
	rfield *f;
	rtype *slot_ty;		/* per slot: the type of its field */
};

typedef struct racc {
	int kind;
	int base;
	rtype elty;		/* type of one element */
	const rstruct *st;	/* the element is this struct, or NULL */
	int esize;		/* slots of one element (1, or the struct's) */
	int fofs;		/* slots past the element: a struct field */
	int ndims;		/* array extents (slots), or the rank (args) */
	int64_t dims[BRT_MAX_RANK]; /* ACC_SLOT, ACC_SHARED: extents,
				   slowest first */
	int nidx;
	rnode *idx[BRT_MAX_RANK]; /* indices as written, slowest first */
	int vec;		/* ACC_ARG: one vector index, .x fastest */
	int nsw;		/* components selected, 0 for all */
	uint8_t sw[4];
	struct rnode *pre;	/* a struct a call returns: the call, which
				   leaves it in the slots from BASE on, runs
				   first */
	const char *name;	/* ACC_ARG: the parameter's name; ACC_SLOT,
				   ACC_SHARED: an array's */
	int role;		/* ACC_ARG: the kernel's own gather (1) or
				   scatter (2) parameter; 0 a function's */
	int site[2];		/* ACC_ARG, checked: the site of a read [0]
				   and of a write [1] (run_prog.sites),
				   plus one; 0: none */
	int asite[BRT_MAX_RANK]; /* ACC_SLOT, ACC_SHARED, checked: the site
				   of each index, plus one; 0: none */
	int usite;		/* ACC_SHARED, checked, a 1-D array of
				   scalars or vectors: the site of a read
				   before the group wrote the element
				   (BRT_SITE_UNSET), plus one; 0: none */
} racc;

struct rnode {
	reval_fn *ev;
	rtype ty;		/* the value's type */
	rtype opty;		/* binop, assign: type of the arithmetic */
	int op;			/* operator or builtin code */
	int slot;		/* misc integer: slot, argument index */
	rnode *k[3];
	rnode **args;
	int nargs;
	rtype *argty;		/* sub calls: parameter types */
	racc *acc;		/* loads and stores */
	racc *acc2;		/* struct copies: the source */
	racc **outs;		/* sub calls: out arguments, or NULL */
	rfunc *fn;
	rval c;			/* constant */
	uint8_t sw[4];
};

enum stmt_kind { S_EXPR, S_BLOCK, S_IF, S_WHILE, S_DO, S_FOR, S_BREAK,
	S_CONTINUE, S_RETURN, S_SWITCH, S_EMPTY, S_INIT };

struct rstmt {
	int kind;
	rnode *e, *e2;		/* expression, condition; for: step */
	rstmt *s1, *s2;		/* then, else, body; for: init */
	rstmt **items;		/* block; switch: flattened body */
	int n;
	int64_t *cases;		/* switch: label value per item */
	int *case_kind;		/* 0 none, 1 case, 2 default */
	int slot, nslots;	/* S_INIT: zeroed slots of a declaration */
};

enum { X_NORMAL, X_BREAK, X_CONTINUE, X_RETURN };

struct rfunc {
	const json_t *node;
	int nslots;
	int need;		/* slots of its frame and of the most the
				   calls in it stack above the frame */
	int calls;		/* calls nested in it, at most (0: none) */
	int nparams;
	int *pslot;		/* per parameter: its slot */
	rtype *ptype;
	rtype ret;
	const rstruct *rst;	/* a struct returned: in slots from RET_SLOT */
	int ret_slot;
	const rstruct **pst;	/* per parameter: its struct, or NULL */
	rstmt *body;
	int compiling;
};

/* Per parameter of the kernel itself. */
typedef struct rparam {
	brt_argkind kind;
	brt_type type;		/* element in memory */
	rtype rt;		/* element in a slot */
	int slot;
	const rstruct *st;	/* a struct element: field k of the run_sig's
				   flattened fields is slot + k */
	const run_field *fields;
} rparam;

struct run_prog {
	const run_sig *sig;
	rfunc *main;
	int nparams;
	rparam *params;
	int reduce_arg;		/* index of the reduce argument, or -1 */
	int in_arg;		/* the reduce's input stream */
	int reduce_op;		/* the reduce variable's operator */
	int shared_slots;	/* group kernels */
	int has_sync;		/* the kernel calls syncGroup() */
	void **blocks;		/* arena of everything compiled */
	size_t nblocks, capblocks;
	rfunc **funcs;		/* by func id */
	int *slot_of;		/* by declaration id */
	racc **var_acc;		/* by declaration id: arrays, gathers */
	long long *enum_val;	/* by declaration id: enumeration constants */
	unsigned char *enum_ok;	/* ... whose value is known */
	int max_id;
	pthread_mutex_t lock;
	int failed;
	char message[200];
	int checked;		/* brgen --checked's reports (brt.h,
				   brt_records): accesses outside their array,
				   scatter writes that race */
	brt_site *sites;	/* ... the accesses that report */
	unsigned nsites, capsites;
};

/* An enumeration constant's value for run_const_int: the constants of
 * the file whose value is known (enum_scan, in order, so each may name
 * the ones before). */
static int enum_id(const void *ctx, const json_t *e, long long *v)
{
	const run_prog *p = ctx;
	long long id = ast_int(e, "ref");

	if (!json_is_integer(ast_get(e, "ref")) || id < 0 || id > p->max_id ||
			!p->enum_ok[id])
		return -1;
	*v = p->enum_val[id];
	return 0;
}

/* The state of one thread running points. */
struct rframe {
	rval *slots;
	rval ret;
	const brt_cpu_call *call;
	int64_t coord[4];	/* the domain point, x first */
	int64_t lin;		/* its linear index */
	int64_t local[4];	/* group kernels: instanceInGroup */
	rval *shared;
	uint8_t *sflags;	/* --checked: four per shared slot, one a
				   component, 1 once a work-item of the
				   group wrote it */
	struct rthread *th;
};

typedef struct rthread {
	const run_prog *prog;
	rval *stack;
	int sp, cap;		/* slots used, slots there */
	int depth;
	struct rgroup *group;	/* group kernels: barrier */
} rthread;

/* ---- compilation ---------------------------------------------------- */

typedef struct cctx {
	const json_t *doc;
	diag_ctx *d;
	run_prog *p;
	rfunc *fn;		/* the function being compiled */
	int depth;		/* in the function being compiled */
	int too_deep;		/* said so: once is enough */
	int loops;		/* enclosing loops and switches */
	int site_need;		/* the most the calls compiled so far in the
				   function (or argument list) stack above it */
	int site_calls;		/* and their nesting */
} cctx;

static void *carena(run_prog *p, size_t n)
{
	void *m = xcalloc(1, n);
	if (p->nblocks == p->capblocks) {
		p->capblocks = p->capblocks ? 2 * p->capblocks : 64;
		p->blocks = xrealloc(p->blocks, p->capblocks * sizeof *p->blocks);
	}
	p->blocks[p->nblocks++] = m;
	return m;
}

static int cfail(cctx *c, const json_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int cfail(cctx *c, const json_t *n, const char *fmt, ...)
{
	const char *file = NULL;
	int line = 0, col = 0;
	if (ast_at(c->doc, n, &file, &line, &col) != 0)
		file = NULL;
	char msg[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	diag_report(c->d, DIAG_ERROR, file, line, col, INTERP_ID, "%s", msg);
	return -1;
}

/* A value type from a "ty" or declared type; -1 when it is not one. */
static int rtype_of(cctx *c, const json_t *ty, rtype *out)
{
	const char *t = ast_str(ty, "t");
	out->n = 1;
	if (strcmp(t, "void") == 0) {
		out->k = VK_VOID;
		out->n = 0;
		return 0;
	}
	if (strcmp(t, "bool") == 0) {
		out->k = VK_BOOL;
		return 0;
	}
	brt_type bt;
	if (run_elem_type(c->doc, ty, &bt) != 0)
		return -1;
	static const uint8_t map[] = {[BRT_CHAR] = VK_S8, [BRT_UCHAR] = VK_U8,
		[BRT_SHORT] = VK_S16, [BRT_USHORT] = VK_U16, [BRT_INT] = VK_S32,
		[BRT_UINT] = VK_U32, [BRT_FLOAT] = VK_F32, [BRT_DOUBLE] = VK_F64,
		[BRT_LONG] = VK_S64, [BRT_ULONG] = VK_U64};
	out->k = map[bt.scalar];
	out->n = (uint8_t)bt.ncomp;
	return 0;
}

static int expr_type(cctx *c, const json_t *e, rtype *out)
{
	if (rtype_of(c, ast_get(e, "ty"), out) != 0)
		return cfail(c, e, "the interpreter does not support values of "
			"this type here");
	return 0;
}

static rnode *new_node(cctx *c, reval_fn *ev, rtype ty)
{
	rnode *n = carena(c->p, sizeof *n);
	n->ev = ev;
	n->ty = ty;
	return n;
}

static rnode *cexpr(cctx *c, const json_t *e);
static rstmt *cstmt(cctx *c, const json_t *s);
static rfunc *cfunc(cctx *c, const json_t *f);
static rnode *csubargs(cctx *c, rfunc *fn, const json_t *fdecl,
	json_t *args, rtype ty);

/* ---- evaluation of expressions -------------------------------------- */

static void ev_const(const rnode *n, rframe *f, rval *o)
{
	(void)f;
	*o = n->c;
}

static void ev_cast(const rnode *n, rframe *f, rval *o)
{
	rval v;
	n->k[0]->ev(n->k[0], f, &v);
	cvt(o, n->ty, &v, n->k[0]->ty);
}

static void ev_comma(const rnode *n, rframe *f, rval *o)
{
	n->k[0]->ev(n->k[0], f, o);
	n->k[1]->ev(n->k[1], f, o);
}

static void ev_cond(const rnode *n, rframe *f, rval *o)
{
	rval c, v;
	n->k[0]->ev(n->k[0], f, &c);
	const rnode *b = truth(&c, n->k[0]->ty) ? n->k[1] : n->k[2];
	b->ev(b, f, &v);
	cvt(o, n->ty, &v, b->ty);
}

enum binop { B_ADD, B_SUB, B_MUL, B_DIV, B_MOD, B_SHL, B_SHR, B_AND, B_OR,
	B_XOR, B_LT, B_GT, B_LE, B_GE, B_EQ, B_NE, B_LAND, B_LOR, B_NONE };

static const char *const binop_names[] = {"+", "-", "*", "/", "%", "<<",
	">>", "&", "|", "^", "<", ">", "<=", ">=", "==", "!=", "&&", "||"};

static int binop_code(const char *op)
{
	for (int i = 0; i < B_NONE; i++)
		if (strcmp(op, binop_names[i]) == 0)
			return i;
	return -1;
}

/* Component arithmetic of one class; comparisons give 1 or 0 in .i. */
#define ARITH_CMP(F) \
	case B_LT: r.i = a.F < b.F; break; \
	case B_GT: r.i = a.F > b.F; break; \
	case B_LE: r.i = a.F <= b.F; break; \
	case B_GE: r.i = a.F >= b.F; break; \
	case B_EQ: r.i = a.F == b.F; break; \
	case B_NE: r.i = a.F != b.F; break;
#define ARITH_INT(T, UT, F, S) \
	switch (op) { \
	case B_ADD: r.F = (T)((UT)a.F + (UT)b.F); break; \
	case B_SUB: r.F = (T)((UT)a.F - (UT)b.F); break; \
	case B_MUL: r.F = (T)((UT)a.F * (UT)b.F); break; \
	case B_DIV: r.F = b.F == 0 ? 0 : (S && b.F == (T)-1) ? \
		(T)(0 - (UT)a.F) : a.F / b.F; break; \
	case B_MOD: r.F = b.F == 0 ? a.F : (S && b.F == (T)-1) ? 0 : \
		a.F % b.F; break; \
	case B_SHL: r.F = (T)((UT)a.F << ((UT)b.F & (UT)(bits - 1))); break; \
	case B_SHR: r.F = a.F >> ((UT)b.F & (UT)(bits - 1)); break; \
	case B_AND: r.F = a.F & b.F; break; \
	case B_OR: r.F = a.F | b.F; break; \
	case B_XOR: r.F = a.F ^ b.F; break; \
	ARITH_CMP(F) \
	default: r.q = 0; break; \
	}
#define ARITH_FLT(F, FMOD) \
	switch (op) { \
	case B_ADD: r.F = a.F + b.F; break; \
	case B_SUB: r.F = a.F - b.F; break; \
	case B_MUL: r.F = a.F * b.F; break; \
	case B_DIV: r.F = a.F / b.F; break; \
	case B_MOD: r.F = FMOD(a.F, b.F); break; \
	ARITH_CMP(F) \
	default: r.q = 0; break; \
	}

static rcomp arith1(int op, int k, int bits, rcomp a, rcomp b)
{
	rcomp r;
	r.q = 0;
	switch (cls_of(k)) {
	case C_I: ARITH_INT(int32_t, uint32_t, i, 1) break;
	case C_U: ARITH_INT(uint32_t, uint32_t, u, 0) break;
	case C_L: ARITH_INT(int64_t, uint64_t, l, 1) break;
	case C_Q: ARITH_INT(uint64_t, uint64_t, q, 0) break;
	case C_F: ARITH_FLT(f, fmodf) break;
	default: ARITH_FLT(d, fmod) break;
	}
	return r;
}

static int is_compare(int op)
{
	return op >= B_LT && op <= B_NE;
}

/* O = A op B, A and B of type T (already converted), result of type RT. */
static void arith(int op, rtype t, rtype rt, const rval *a, const rval *b,
	rval *o)
{
	rval r;
	int bits = bits_of(t.n > 1 ? rt.k : t.k);
	if (bits < 32 && t.n == 1)
		bits = 32;
	for (int i = 0; i < t.n; i++) {
		r.c[i] = arith1(op, t.k, bits, a->c[i], b->c[i]);
		/* a vector of a small integer type wraps in its width
		   (OpenCL C), its components held as int32 */
		if (t.n > 1 && t.k < VK_S32 && !is_compare(op))
			r.c[i] = cvt1(r.c[i], VK_S32, t.k);
	}
	rtype from = t;
	if (is_compare(op))
		from.k = VK_S32;
	cvt(o, rt, &r, from);
}

static void ev_binop(const rnode *n, rframe *f, rval *o)
{
	rval a, b;
	n->k[0]->ev(n->k[0], f, &a);
	if ((n->op == B_LAND || n->op == B_LOR) && n->opty.n > 1) {
		/* component-wise on vectors, both sides evaluated */
		rval r;
		n->k[1]->ev(n->k[1], f, &b);
		cvt(&a, n->opty, &a, n->k[0]->ty);
		cvt(&b, n->opty, &b, n->k[1]->ty);
		for (int i = 0; i < n->opty.n; i++) {
			int x = cvt1(a.c[i], n->opty.k, VK_BOOL).i;
			int y = cvt1(b.c[i], n->opty.k, VK_BOOL).i;
			r.c[i].i = n->op == B_LAND ? x && y : x || y;
		}
		rtype it = {VK_S32, n->opty.n};
		cvt(o, n->ty, &r, it);
		return;
	}
	if (n->op == B_LAND || n->op == B_LOR) {
		int t = truth(&a, n->k[0]->ty);
		if (n->op == B_LAND ? t : !t) {
			n->k[1]->ev(n->k[1], f, &b);
			t = truth(&b, n->k[1]->ty);
		}
		rval r = {{{.i = t}}};
		rtype it = {VK_S32, 1};
		cvt(o, n->ty, &r, it);
		return;
	}
	n->k[1]->ev(n->k[1], f, &b);
	cvt(&a, n->opty, &a, n->k[0]->ty);
	cvt(&b, n->opty, &b, n->k[1]->ty);
	arith(n->op, n->opty, n->ty, &a, &b, o);
}

enum unop { U_NEG, U_PLUS, U_NOT, U_BITNOT };

static void ev_unop(const rnode *n, rframe *f, rval *o)
{
	rval v, r;
	n->k[0]->ev(n->k[0], f, &v);
	rtype t = n->opty;
	cvt(&v, t, &v, n->k[0]->ty);
	for (int i = 0; i < t.n; i++) {
		rcomp a = v.c[i], x;
		x.q = 0;
		switch (n->op) {
		case U_NEG:
			switch (cls_of(t.k)) {
			case C_I: x.i = (int32_t)(0u - (uint32_t)a.i); break;
			case C_U: x.u = 0u - a.u; break;
			case C_L: x.l = (int64_t)(0u - (uint64_t)a.l); break;
			case C_Q: x.q = 0u - a.q; break;
			case C_F: x.f = -a.f; break;
			default: x.d = -a.d; break;
			}
			break;
		case U_NOT:
			x.i = !cvt1(a, t.k, VK_BOOL).i;
			break;
		case U_BITNOT:
			x.q = ~a.q;
			break;
		default:
			x = a;
			break;
		}
		/* a vector of a small integer type wraps in its width */
		if (t.n > 1 && t.k < VK_S32 && n->op != U_NOT)
			x = cvt1(x, VK_S32, t.k);
		r.c[i] = x;
	}
	rtype from = t;
	if (n->op == U_NOT)
		from.k = VK_S32;
	cvt(o, n->ty, &r, from);
}

/* ---- element access ------------------------------------------------- */

static int vk_of_scalar(brt_scalar s)
{
	static const uint8_t map[] = {[BRT_CHAR] = VK_S8, [BRT_UCHAR] = VK_U8,
		[BRT_SHORT] = VK_S16, [BRT_USHORT] = VK_U16, [BRT_INT] = VK_S32,
		[BRT_UINT] = VK_U32, [BRT_FLOAT] = VK_F32, [BRT_DOUBLE] = VK_F64,
		[BRT_LONG] = VK_S64, [BRT_ULONG] = VK_U64};
	return s >= BRT_CHAR && s <= BRT_ULONG ? map[s] : VK_S32;
}

/* Reads one packed element of type BT at P into O as type RT. */
static void load_mem(const char *p, brt_type bt, rtype rt, rval *o)
{
	rval v;
	rtype mt = {(uint8_t)vk_of_scalar(bt.scalar), (uint8_t)bt.ncomp};
	for (unsigned i = 0; i < bt.ncomp && i < 4; i++) {
		rcomp c;
		c.q = 0;
		switch (bt.scalar) {
		case BRT_CHAR: { int8_t x; memcpy(&x, p + i, 1); c.i = x; break; }
		case BRT_UCHAR: { uint8_t x; memcpy(&x, p + i, 1); c.u = x; break; }
		case BRT_SHORT: { int16_t x; memcpy(&x, p + 2 * i, 2); c.i = x; break; }
		case BRT_USHORT: { uint16_t x; memcpy(&x, p + 2 * i, 2); c.u = x; break; }
		case BRT_INT: memcpy(&c.i, p + 4 * i, 4); break;
		case BRT_UINT: memcpy(&c.u, p + 4 * i, 4); break;
		case BRT_FLOAT: memcpy(&c.f, p + 4 * i, 4); break;
		case BRT_DOUBLE: memcpy(&c.d, p + 8 * i, 8); break;
		case BRT_LONG: memcpy(&c.l, p + 8 * i, 8); break;
		case BRT_ULONG: memcpy(&c.q, p + 8 * i, 8); break;
		default: break;
		}
		v.c[i] = c;
	}
	cvt(o, rt, &v, mt);
}

/* Writes V of type RT at P as one packed element of type BT. */
static void store_mem(char *p, brt_type bt, rtype rt, const rval *v)
{
	rval m;
	rtype mt = {(uint8_t)vk_of_scalar(bt.scalar), (uint8_t)bt.ncomp};
	cvt(&m, mt, v, rt);
	size_t s = bt.ncomp ? bt.size / bt.ncomp : 0;
	for (unsigned i = 0; i < bt.ncomp && i < 4; i++) {
		rcomp c = m.c[i];
		switch (s) {
		case 1: { uint8_t x = (uint8_t)c.u; memcpy(p + i, &x, 1); break; }
		case 2: { uint16_t x = (uint16_t)c.u; memcpy(p + 2 * i, &x, 2); break; }
		case 4: memcpy(p + 4 * i, &c.u, 4); break;
		case 8: memcpy(p + 8 * i, &c.q, 8); break;
		default: break;
		}
	}
}

/* Component COMP of V, the value of index N, as an integer coordinate */
static int64_t index_comp(const rnode *n, const rval *v, int comp)
{
	rcomp c = v->c[comp < n->ty.n ? comp : 0];
	switch (cls_of(n->ty.k)) {
	case C_I: return c.i;
	case C_U: return c.u;
	case C_L: return c.l;
	case C_Q: return c.q > INT64_MAX ? INT64_MAX : (int64_t)c.q;
	case C_F: return (int64_t)sat_d(floor(c.f), -9e18, 9e18);
	default: return (int64_t)sat_d(floor(c.d), -9e18, 9e18);
	}
}

static int64_t index_value(const rnode *n, rframe *f)
{
	rval v;
	n->ev(n, f, &v);
	return index_comp(n, &v, 0);
}

/* brgen's brg_mix: a 32-bit mix, one to one */
static uint32_t mix32(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x7feb352dU;
	h ^= h >> 15;
	h *= 0x846ca68bU;
	return h ^ (h >> 16);
}

/* --checked: one access of site SITE (plus one) outside its array, as
 * brgen's brg_record writes it (brt.h, brt_records): IDX and DIMS. */
static void rec_put(brt_records *rec, int site, const int64_t idx[4],
	const int64_t dims[4])
{
	int n = __atomic_fetch_add(&rec->count, 1, __ATOMIC_RELAXED);
	if (n < 0 || n >= BRT_NRECORDS)
		return;
	brt_record *r = &rec->rec[n];
	r->site = site - 1;
	memcpy(r->idx, idx, sizeof r->idx);
	memcpy(r->dims, dims, sizeof r->dims);
}

/* What an access of a gather (a read) or of a scatter array (a write,
 * STORE) records in the launch's brt_records (brt.h), as generated code
 * does: a write outside the array is dropped, and with --checked a read
 * or a write outside at its site (RAW: the coordinates as computed), a
 * write inside the element's owner at offset OFF (brgen's brg_wrote). */
static void acc_record(const racc *a, rframe *f, int arg, int store,
	const int64_t raw[4], int oor, int64_t off)
{
	brt_records *rec = f->call->errors;
	const run_prog *p = f->th->prog;
	if (!rec || p->params[arg].kind != (store ? BRT_ARG_SCATTER :
		BRT_ARG_GATHER))
		return;
	if (oor && store)
		__atomic_fetch_or(&rec->dropped, (int32_t)(1u << (arg < 31 ? arg
			: 31)), __ATOMIC_RELAXED);
	if (!p->checked)
		return;
	if (oor && a->site[store]) {
		rec_put(rec, a->site[store], raw, f->call->views[arg].dims);
	} else if (!oor && store) {
		/* the tag mixes the instance's position as brg_wrote does */
		uint32_t h = 0;
		for (int i = 0; i < 4; i++)
			h = mix32(h + (uint32_t)f->coord[i]);
		int32_t t = (int32_t)h, old = 0;
		if (t == 0 || t == -1)
			t = 1;
		int32_t *w = (int32_t *)(rec + 1) + BRT_OWNER_WORDS * off;
		if (a->site[1])		/* the writing site's bit */
			__atomic_fetch_or(w + 1, (int32_t)(1u << ((a->site[1]
				- 1) % 32)), __ATOMIC_RELAXED);
		if (!__atomic_compare_exchange_n(w, &old, t, 0,
			__ATOMIC_RELAXED, __ATOMIC_RELAXED) && old != t)
			__atomic_store_n(w, -1, __ATOMIC_RELAXED);
	}
}

/* --checked: index X of dimension I of the array A outside it, as
 * brgen's brg_aidx_N records it (brt.h, BRT_SITE_ARRAY). */
static void acc_arecord(const racc *a, rframe *f, int i, int64_t x)
{
	int64_t idx[4] = {x, i + 1, a->ndims, 0}, dims[4] = {0, 0, 0, 0};
	if (!f->call->errors)
		return;
	for (int k = 0; k < a->ndims && k < 4; k++)
		dims[k] = a->dims[k];
	rec_put(f->call->errors, a->asite[i], idx, dims);
}

/* The location an access names: a slot, or an element of an argument
 * buffer (*mem, with its type in *bt). Gathers, and indices of local and
 * shared arrays, clamp each coordinate into the array (spec 4.2,
 * DESIGN.md); a scatter store out of range sets *out_of_range and goes
 * nowhere. STORE: the access writes (acc_record). */
static rval *acc_locate(const racc *a, rframe *f, char **mem, brt_type *bt,
	int *out_of_range, int store)
{
	*mem = NULL;
	*out_of_range = 0;
	if (a->pre) {
		rval junk;
		a->pre->ev(a->pre, f, &junk);
	}
	if (a->kind != ACC_ARG) {
		int64_t off = 0;
		for (int i = 0; i < a->nidx; i++) {
			int64_t x = index_value(a->idx[i], f);
			if (x < 0 || x >= a->dims[i]) {
				*out_of_range = 1;
				if (a->asite[i])
					acc_arecord(a, f, i, x);
				x = x < 0 ? 0 : a->dims[i] - 1;
			}
			off = off * a->dims[i] + x;
		}
		for (int i = a->nidx; i < a->ndims; i++)
			off *= a->dims[i];
		off = off * (a->esize ? a->esize : 1) + a->fofs;
		return (a->kind == ACC_SHARED ? f->shared : f->slots) + a->base +
			off;
	}
	int arg = f->slots[a->base].c[0].i;
	const brt_view *v = &f->call->views[arg];
	int64_t x[4] = {0, 0, 0, 0}, raw[4];
	if (a->vec) {	/* evaluated once: g[int2(i++, 0)] steps i once */
		rval iv;
		a->idx[0]->ev(a->idx[0], f, &iv);
		for (int i = 0; i < v->rank && i < 4; i++)
			x[i] = index_comp(a->idx[0], &iv, i);
	} else {
		for (int i = 0; i < a->nidx && i < 4; i++)
			x[a->nidx - 1 - i] = index_value(a->idx[i], f);
	}
	memcpy(raw, x, sizeof raw);
	int64_t off = v->base;
	for (int i = 0; i < 4; i++) {
		int64_t d = v->dims[i] > 0 ? v->dims[i] : 1;
		if (x[i] < 0 || x[i] >= d) {
			*out_of_range = 1;
			x[i] = x[i] < 0 ? 0 : d - 1;
		}
		off += x[i] * v->pitch[i];
	}
	if (f->call->errors)
		acc_record(a, f, arg, store, raw, *out_of_range, off);
	const rparam *rp = &f->th->prog->params[arg];
	*bt = rp->type;
	*mem = f->call->data[arg] + off * (int64_t)bt->size;
	if (rp->fields) {
		/* a field, or the first of a struct's fields (at its 0) */
		*mem += rp->fields[a->fofs].off;
		*bt = rp->fields[a->fofs].type;
	}
	return NULL;
}

/* The fields of argument memory a struct access names from its first,
 * or NULL when it names slots. */
static const run_field *acc_fields(const racc *a, const rframe *f)
{
	if (a->kind != ACC_ARG)
		return NULL;
	const rparam *rp = &f->th->prog->params[f->slots[a->base].c[0].i];
	return rp->fields ? rp->fields + a->fofs : NULL;
}

/* Field K of a struct at slots S, or in memory MEM whose fields are FL
 * (from the struct's first): loaded as type T into O, or stored from V. */
static void sfield_load(rval *s, char *mem, const run_field *fl, int k,
	rtype t, rval *o)
{
	if (s)
		*o = s[k];
	else if (mem && fl)
		load_mem(mem + (fl[k].off - fl[0].off), fl[k].type, t, o);
	else
		memset(o, 0, sizeof *o);
}

static void sfield_store(rval *s, char *mem, const run_field *fl, int k,
	rtype t, const rval *v)
{
	if (s)
		s[k] = *v;
	else if (mem && fl)
		store_mem(mem + (fl[k].off - fl[0].off), fl[k].type, t, v);
}

/* Where an access names, located once (acc_locate): a compound
 * assignment reads and writes it with its indices evaluated once. */
typedef struct rloc {
	rval *s;
	char *mem;
	brt_type bt;
	int oor;
	uint8_t *flag;		/* --checked, a shared element (racc.usite):
				   its components' written flags, else NULL */
	rframe *f;
} rloc;

static void acc_at(const racc *a, rframe *f, int store, rloc *l)
{
	l->s = acc_locate(a, f, &l->mem, &l->bt, &l->oor, store);
	l->flag = a->usite && f->sflags && l->s ? f->sflags + 4 * (l->s -
		f->shared) : NULL;
	l->f = f;
}

/* The components of its element that access A names, a bit each
 * (1 << c): its swizzle's, else all. */
static int acc_comps(const racc *a)
{
	int n = a->nsw ? a->nsw : a->elty.n > 0 ? a->elty.n : 1, m = 0;
	for (int i = 0; i < n && i < 4; i++)
		m |= 1 << (a->nsw ? a->sw[i] : i);
	return m;
}

/* The components of L that access A reads and no work-item wrote
 * (--checked), a bit each (1 << c); 0 where it wrote them all. */
static int loc_unwritten(const racc *a, const rloc *l)
{
	int m = acc_comps(a), u = 0;
	for (int c = 0; c < 4; c++)
		if ((m & (1 << c)) && !__atomic_load_n(l->flag + c,
			__ATOMIC_RELAXED))
			u |= 1 << c;
	return u;
}

/* Reads the value at L, components selected. */
static void loc_load(const racc *a, const rloc *l, rval *o)
{
	rval v;
	int u = l->flag && l->f->call->errors ? loc_unwritten(a, l) : 0;
	if (u) {
		/* a shared element no work-item wrote (BRT_SITE_UNSET): of a
		   vector, the components */
		int vec = a->elty.n > 1;
		int64_t idx[4] = {l->s - l->f->shared - a->base, vec ? u : 0,
			0, 0};
		int64_t dims[4] = {a->dims[0], vec ? a->elty.n : 0, 0, 0};
		rec_put(l->f->call->errors, a->usite, idx, dims);
	}
	if (l->s)
		v = *l->s;
	else if (l->mem)
		load_mem(l->mem, l->bt, a->elty, &v);
	else
		memset(&v, 0, sizeof v);
	if (a->nsw) {
		rval r;
		memset(&r, 0, sizeof r);
		for (int i = 0; i < a->nsw; i++)
			r.c[i] = v.c[a->sw[i]];
		*o = r;
	} else {
		*o = v;
	}
}

/* Stores V (of the access's value type) at L: nowhere for a scatter
 * outside its array. */
static void loc_store(const racc *a, const rloc *l, const rval *v)
{
	if (l->oor && a->kind == ACC_ARG)
		return;
	rval cur;
	if (l->s)
		cur = *l->s;
	else if (l->mem)
		load_mem(l->mem, l->bt, a->elty, &cur);
	else
		return;
	if (a->nsw) {
		for (int i = 0; i < a->nsw; i++)
			cur.c[a->sw[i]] = v->c[i];
	} else {
		cur = *v;
	}
	if (l->s)
		*l->s = cur;
	else
		store_mem(l->mem, l->bt, a->elty, &cur);
	int m = l->flag ? acc_comps(a) : 0;
	for (int c = 0; c < 4; c++)
		if (m & (1 << c))
			__atomic_store_n(l->flag + c, 1, __ATOMIC_RELAXED);
}

/* Reads the value an access names, components selected. */
static void acc_load(const racc *a, rframe *f, rval *o)
{
	rloc l;
	acc_at(a, f, 0, &l);
	loc_load(a, &l, o);
}

/* Stores V (of the access's value type) where the access names. */
static void acc_store(const racc *a, rframe *f, const rval *v)
{
	rloc l;
	acc_at(a, f, 1, &l);
	loc_store(a, &l, v);
}

/* The type of what an access yields: its element, or the components. */
static rtype acc_type(const racc *a)
{
	rtype t = a->elty;
	if (a->nsw)
		t.n = (uint8_t)a->nsw;
	return t;
}

static void ev_load(const rnode *n, rframe *f, rval *o)
{
	rval v;
	acc_load(n->acc, f, &v);
	cvt(o, n->ty, &v, acc_type(n->acc));
}

/* The struct DST names in frame FD = the one SRC names in FS: field by
 * field, between slots and the memory of stream, gather and scatter
 * arguments. */
static void copy_struct_at(const racc *dst, rframe *fd, const rloc *dl,
	const racc *src, rframe *fs, const rloc *sl);

static void copy_struct(const racc *dst, rframe *fd, const racc *src,
	rframe *fs)
{
	copy_struct_at(dst, fd, NULL, src, fs, NULL);
}

/* ... with DL and SL where DST and SRC are, located already (ev_call's
 * out arguments), or NULL. */
static void copy_struct_at(const racc *dst, rframe *fd, const rloc *dl,
	const racc *src, rframe *fs, const rloc *sl)
{
	rloc s, d;
	if (!sl) {
		acc_at(src, fs, 0, &s);
		sl = &s;
	}
	if (!dl) {
		acc_at(dst, fd, 1, &d);
		dl = &d;
	}
	const run_field *sf = acc_fields(src, fs), *df = acc_fields(dst, fd);
	int n = dst->st->nslots;
	if (dl->oor && dst->kind == ACC_ARG)
		return;
	if (sl->s && dl->s) {
		memmove(dl->s, sl->s, (size_t)n * sizeof *dl->s);
		return;
	}
	for (int k = 0; k < n; k++) {
		rval v;
		rtype t = dst->st->slot_ty[k];
		sfield_load(sl->s, sl->mem, sf, k, t, &v);
		sfield_store(dl->s, dl->mem, df, k, t, &v);
	}
}

static void ev_struct_copy(const rnode *n, rframe *f, rval *o)
{
	memset(o, 0, sizeof *o);
	copy_struct(n->acc, f, n->acc2, f);
}

/* The slots from BASE on in a frame, as a struct ST. */
static racc slots_acc(int base, const rstruct *st)
{
	racc a;
	memset(&a, 0, sizeof a);
	a.kind = ACC_SLOT;
	a.base = base;
	a.st = st;
	a.esize = st->nslots;
	return a;
}

static void ev_slot(const rnode *n, rframe *f, rval *o)
{
	*o = f->slots[n->slot];
}

/* assign: l op= r. opty is the arithmetic type (common of l and r). */
static void ev_assign(const rnode *n, rframe *f, rval *o)
{
	rval r, cur, res;
	rtype lt = acc_type(n->acc);
	n->k[1]->ev(n->k[1], f, &r);
	if (n->op == B_NONE) {
		cvt(&res, lt, &r, n->k[1]->ty);
		acc_store(n->acc, f, &res);
	} else {
		rloc l;		/* the indices once, as C evaluates them */
		acc_at(n->acc, f, 1, &l);
		loc_load(n->acc, &l, &cur);
		cvt(&cur, n->opty, &cur, lt);
		cvt(&r, n->opty, &r, n->k[1]->ty);
		arith(n->op, n->opty, lt, &cur, &r, &res);
		loc_store(n->acc, &l, &res);
	}
	cvt(o, n->ty, &res, lt);
}

/* ++x, --x, x++, x--: slot 1 for postfix. */
static void ev_incdec(const rnode *n, rframe *f, rval *o)
{
	rval cur, one, res;
	rtype lt = acc_type(n->acc);
	rloc l;			/* the indices once */
	acc_at(n->acc, f, 1, &l);
	loc_load(n->acc, &l, &cur);
	rtype it = {VK_S32, 1};
	rval k1 = {{{.i = 1}}};
	rtype t = common_type(lt, it);
	rval c2;
	cvt(&c2, t, &cur, lt);
	cvt(&one, t, &k1, it);
	arith(n->op, t, lt, &c2, &one, &res);
	loc_store(n->acc, &l, &res);
	cvt(o, n->ty, n->slot ? &cur : &res, lt);
}

static void ev_swizzle(const rnode *n, rframe *f, rval *o)
{
	rval v, r;
	n->k[0]->ev(n->k[0], f, &v);
	memset(&r, 0, sizeof r);
	for (int i = 0; i < n->ty.n; i++)
		r.c[i] = v.c[n->sw[i]];
	*o = r;
}

/* float4(a, b, ..): the components of the arguments in order. */
static void ev_ctor(const rnode *n, rframe *f, rval *o)
{
	rval r;
	int m = 0;
	memset(&r, 0, sizeof r);
	for (int i = 0; i < n->nargs; i++) {
		rval v;
		const rnode *a = n->args[i];
		a->ev(a, f, &v);
		for (int j = 0; j < a->ty.n && m < 4; j++)
			r.c[m++] = cvt1(v.c[j], a->ty.k, n->ty.k);
	}
	if (m == 1)
		for (int j = 1; j < n->ty.n; j++)
			r.c[j] = r.c[0];
	*o = r;
}

/* indexof(s) (spec 5): the coordinates of the element of S the point
 * reads, as float4 (DESIGN.md reading 1); instance(): the point, int4. */
static void ev_indexof(const rnode *n, rframe *f, rval *o)
{
	rval r;
	rtype ft = {VK_F32, 4};
	const brt_cpu_call *c = f->call;
	memset(&r, 0, sizeof r);
	for (int i = 0; i < 4; i++) {
		int64_t x = f->coord[i] + c->offset[i];
		if (n->slot >= 0) {
			/* resized and iterator streams: own coordinates */
			const brt_view *v = &c->views[n->slot];
			if (v->map >= BRT_MAP_RESIZE && c->dims[i] > 0)
				x = f->coord[i] * v->dims[i] / c->dims[i];
		}
		r.c[i].f = (float)x;
	}
	cvt(o, n->ty, &r, ft);
}

static void ev_instance(const rnode *n, rframe *f, rval *o)
{
	rval r;
	rtype it = {VK_S32, 4};
	memset(&r, 0, sizeof r);
	for (int i = 0; i < 4; i++)
		r.c[i].i = (int32_t)(n->op ? f->local[i] :
			f->coord[i] + f->call->offset[i]);
	cvt(o, n->ty, &r, it);
}

static void group_barrier(rframe *f);

static void ev_sync(const rnode *n, rframe *f, rval *o)
{
	(void)n;
	memset(o, 0, sizeof *o);
	group_barrier(f);
}

/* ---- builtins (spec 5) ---------------------------------------------- */

enum bi { BI_ABS, BI_ACOS, BI_ASIN, BI_ATAN, BI_ATAN2, BI_CEIL, BI_CLAMP,
	BI_COS, BI_COSH, BI_CROSS, BI_DEGREES, BI_DISTANCE, BI_DOT, BI_EXP,
	BI_EXP2, BI_FLOOR, BI_FMOD, BI_FRAC, BI_ISFINITE, BI_ISINF, BI_ISNAN,
	BI_LENGTH, BI_LERP, BI_LOG, BI_LOG10, BI_LOG2, BI_MAD, BI_MAX, BI_MIN,
	BI_NORMALIZE, BI_POW, BI_RADIANS, BI_ROUND, BI_RSQRT, BI_SATURATE,
	BI_SIGN, BI_SIN, BI_SINH, BI_SQRT, BI_STEP, BI_TAN, BI_TANH, BI_TRUNC,
	BI_FABS, BI_FMIN, BI_FMAX, BI_N };

static const struct {
	const char *name;
	int nargs;
} builtins[BI_N] = {
	[BI_ABS] = {"abs", 1}, [BI_ACOS] = {"acos", 1}, [BI_ASIN] = {"asin", 1},
	[BI_ATAN] = {"atan", 1}, [BI_ATAN2] = {"atan2", 2},
	[BI_CEIL] = {"ceil", 1}, [BI_CLAMP] = {"clamp", 3},
	[BI_COS] = {"cos", 1}, [BI_COSH] = {"cosh", 1},
	[BI_CROSS] = {"cross", 2}, [BI_DEGREES] = {"degrees", 1},
	[BI_DISTANCE] = {"distance", 2}, [BI_DOT] = {"dot", 2},
	[BI_EXP] = {"exp", 1}, [BI_EXP2] = {"exp2", 1},
	[BI_FLOOR] = {"floor", 1}, [BI_FMOD] = {"fmod", 2},
	[BI_FRAC] = {"frac", 1}, [BI_ISFINITE] = {"isfinite", 1},
	[BI_ISINF] = {"isinf", 1}, [BI_ISNAN] = {"isnan", 1},
	[BI_LENGTH] = {"length", 1}, [BI_LERP] = {"lerp", 3},
	[BI_LOG] = {"log", 1}, [BI_LOG10] = {"log10", 1},
	[BI_LOG2] = {"log2", 1}, [BI_MAD] = {"mad", 3}, [BI_MAX] = {"max", 2},
	[BI_MIN] = {"min", 2}, [BI_NORMALIZE] = {"normalize", 1},
	[BI_POW] = {"pow", 2}, [BI_RADIANS] = {"radians", 1},
	[BI_ROUND] = {"round", 1}, [BI_RSQRT] = {"rsqrt", 1},
	[BI_SATURATE] = {"saturate", 1}, [BI_SIGN] = {"sign", 1},
	[BI_SIN] = {"sin", 1}, [BI_SINH] = {"sinh", 1}, [BI_SQRT] = {"sqrt", 1},
	[BI_STEP] = {"step", 2}, [BI_TAN] = {"tan", 1}, [BI_TANH] = {"tanh", 1},
	[BI_TRUNC] = {"trunc", 1}, [BI_FABS] = {"fabs", 1},
	[BI_FMIN] = {"fmin", 2}, [BI_FMAX] = {"fmax", 2},
};

/* One-argument float functions, in double; the float variants round the
 * result to float, as a correctly rounded OpenCL function would. */
static double bi_unary(int b, double x)
{
	switch (b) {
	case BI_ACOS: return acos(x);
	case BI_ASIN: return asin(x);
	case BI_ATAN: return atan(x);
	case BI_CEIL: return ceil(x);
	case BI_COS: return cos(x);
	case BI_COSH: return cosh(x);
	case BI_DEGREES: return x * (180.0 / PI);
	case BI_EXP: return exp(x);
	case BI_EXP2: return exp2(x);
	case BI_FLOOR: return floor(x);
	case BI_FRAC: return x - floor(x);		/* spec 5: frac */
	case BI_LOG: return log(x);
	case BI_LOG10: return log10(x);
	case BI_LOG2: return log2(x);
	case BI_RADIANS: return x * (PI / 180.0);
	case BI_ROUND: return floor(x + 0.5);		/* spec 5: round */
	case BI_RSQRT: return 1.0 / sqrt(x);
	case BI_SATURATE: return x < 0 ? 0 : x > 1 ? 1 : x;
	case BI_SIGN: return x > 0 ? 1 : x < 0 ? -1 : 0;	/* spec 5 */
	case BI_SIN: return sin(x);
	case BI_SINH: return sinh(x);
	case BI_SQRT: return sqrt(x);
	case BI_TAN: return tan(x);
	case BI_TANH: return tanh(x);
	case BI_TRUNC: return trunc(x);
	default: return x;
	}
}

/* A float component of class CL as double, and back. */
static double fget(rcomp c, int cl)
{
	return cl == C_F ? c.f : c.d;
}

static rcomp fput(double v, int cl)
{
	rcomp c;
	c.q = 0;
	if (cl == C_F)
		c.f = (float)v;
	else
		c.d = v;
	return c;
}

/* min/max/abs/clamp/sign on integer components. */
static rcomp int_op(int b, int cl, rcomp x, rcomp y, rcomp z)
{
	rcomp r = x;
	switch (cl) {
#define INT_CASE(CL, F) case CL: \
		switch (b) { \
		case BI_MIN: case BI_FMIN: r.F = y.F < x.F ? y.F : x.F; break; \
		case BI_MAX: case BI_FMAX: r.F = y.F > x.F ? y.F : x.F; break; \
		case BI_CLAMP: r.F = x.F < y.F ? y.F : x.F > z.F ? z.F : x.F; \
			break; \
		case BI_SIGN: r.F = x.F != 0; break; \
		default: break; \
		} break;
	INT_CASE(C_I, i)
	INT_CASE(C_U, u)
	INT_CASE(C_L, l)
	INT_CASE(C_Q, q)
#undef INT_CASE
	default: break;
	}
	/* signed: abs wraps at the minimum, as OpenCL's abs does */
	if (cl == C_I && b == BI_ABS)
		r.i = x.i < 0 ? (int32_t)(0u - (uint32_t)x.i) : x.i;
	if (cl == C_I && b == BI_SIGN)
		r.i = x.i > 0 ? 1 : x.i < 0 ? -1 : 0;
	if (cl == C_L && b == BI_ABS)
		r.l = x.l < 0 ? (int64_t)(0u - (uint64_t)x.l) : x.l;
	if (cl == C_L && b == BI_SIGN)
		r.l = x.l > 0 ? 1 : x.l < 0 ? -1 : 0;
	return r;
}

static void ev_builtin(const rnode *n, rframe *f, rval *o)
{
	rval a[3], r;
	rtype t = n->opty;	/* type the arguments are converted to */
	int cl = cls_of(t.k);
	memset(&r, 0, sizeof r);
	memset(a, 0, sizeof a);
	for (int i = 0; i < n->nargs && i < 3; i++) {
		n->args[i]->ev(n->args[i], f, &a[i]);
		cvt(&a[i], t, &a[i], n->args[i]->ty);
	}
	int b = n->op;
	rtype rt = t;
	switch (b) {
	case BI_DOT: case BI_LENGTH: case BI_DISTANCE: {
		double s = 0;
		for (int i = 0; i < t.n; i++) {
			double x = fget(a[0].c[i], cl);
			if (b == BI_DISTANCE)
				x -= fget(a[1].c[i], cl);
			double y = b == BI_DOT ? fget(a[1].c[i], cl) : x;
			/* float dot products accumulate in float */
			s = cl == C_F ? (double)(float)(s + (double)(float)(x * y)) :
				s + x * y;
		}
		if (t.n == 1 && b != BI_DOT)	/* |a|, |a - b| */
			s = fabs(fget(a[0].c[0], cl) -
				(b == BI_DISTANCE ? fget(a[1].c[0], cl) : 0));
		r.c[0] = fput(b == BI_DOT ? s : t.n == 1 ? s : sqrt(s), cl);
		rt.n = 1;
		break;
	}
	case BI_NORMALIZE: {
		double s = 0;
		for (int i = 0; i < t.n; i++) {
			double x = fget(a[0].c[i], cl);
			s = cl == C_F ? (double)(float)(s + (double)(float)(x * x)) :
				s + x * x;
		}
		/* a / length(a); a scalar's length is |a| */
		double l = t.n == 1 ? fabs(fget(a[0].c[0], cl)) : sqrt(s);
		if (cl == C_F)
			l = (float)l;
		for (int i = 0; i < t.n; i++)
			r.c[i] = fput(fget(a[0].c[i], cl) / l, cl);
		break;
	}
	case BI_CROSS: {
		double x[3], y[3];
		for (int i = 0; i < 3; i++) {
			x[i] = fget(a[0].c[i], cl);
			y[i] = fget(a[1].c[i], cl);
		}
		for (int i = 0; i < 3; i++) {
			int j = (i + 1) % 3, k = (i + 2) % 3;
			double p = x[j] * y[k], q = x[k] * y[j];
			if (cl == C_F)
				p = (float)p, q = (float)q;
			r.c[i] = fput(p - q, cl);
		}
		break;
	}
	case BI_ISFINITE: case BI_ISINF: case BI_ISNAN:
		for (int i = 0; i < t.n; i++) {
			double x = is_float(t.k) ? fget(a[0].c[i], cl) : 0;
			r.c[i].i = b == BI_ISFINITE ? isfinite(x) != 0 :
				b == BI_ISINF ? isinf(x) != 0 : isnan(x) != 0;
		}
		rt.k = VK_S32;
		break;
	default:
		for (int i = 0; i < t.n; i++) {
			rcomp x = a[0].c[i], y = a[1].c[i], z = a[2].c[i];
			if (!is_float(t.k)) {
				r.c[i] = int_op(b, cl, x, y, z);
				continue;
			}
			double fx = fget(x, cl), fy = fget(y, cl), fz = fget(z, cl);
			double v;
			switch (b) {
			case BI_ABS: case BI_FABS: v = fabs(fx); break;
			case BI_ATAN2: v = atan2(fx, fy); break;
			case BI_CLAMP: v = fx < fy ? fy : fx > fz ? fz : fx; break;
			case BI_FMOD: v = fmod(fx, fy); break;
			case BI_LERP:		/* spec 5: (1 - a)x + ay */
				v = cl == C_F ? (double)((1.0f - z.f) * x.f +
					z.f * y.f) : (1 - fz) * fx + fz * fy;
				break;
			case BI_MAD:
				v = cl == C_F ? (double)(x.f * y.f + z.f) :
					fx * fy + fz;
				break;
			case BI_MAX: case BI_FMAX: v = fy > fx ? fy : fx; break;
			case BI_MIN: case BI_FMIN: v = fy < fx ? fy : fx; break;
			case BI_POW: v = cl == C_F ? powf(x.f, y.f) : pow(fx, fy);
				break;
			case BI_STEP: v = fy >= fx ? 1 : 0; break;
			case BI_ROUND:
				v = cl == C_F ? floorf(x.f + 0.5f) : floor(fx + 0.5);
				break;
			case BI_RSQRT:
				v = cl == C_F ? (double)(1.0f / sqrtf(x.f)) :
					1.0 / sqrt(fx);
				break;
			case BI_FRAC:
				v = cl == C_F ? (double)(x.f - floorf(x.f)) :
					fx - floor(fx);
				break;
			default: v = bi_unary(b, fx); break;
			}
			r.c[i] = fput(v, cl);
		}
		break;
	}
	cvt(o, n->ty, &r, rt);
}

/* ---- calls of subkernels -------------------------------------------- */

static int exec(const rstmt *s, rframe *f);

static void call_fail(rframe *f, const char *msg)
{
	run_prog *p = (run_prog *)f->th->prog;
	pthread_mutex_lock(&p->lock);
	if (!p->failed) {
		p->failed = 1;
		snprintf(p->message, sizeof p->message, "%s", msg);
	}
	pthread_mutex_unlock(&p->lock);
}

static void ev_call(const rnode *n, rframe *f, rval *o)
{
	const rfunc *fn = n->fn;
	rthread *th = f->th;
	rloc outs[RUN_MAX_PARAMS];	/* out arguments, located once */
	memset(o, 0, sizeof *o);
	if (th->sp + fn->nslots > th->cap || th->depth >= RUN_MAX_CALLS) {
		/* not reached: the frames' sizes and the calls' nesting are
		 * known when the kernel is compiled (csubcall) */
		call_fail(f, "subkernel calls nested deeper than compiled");
		return;
	}
	rframe g = *f;
	g.slots = th->stack + th->sp;
	memset(g.slots, 0, (size_t)fn->nslots * sizeof *g.slots);
	/* the frame is the callee's from here: a call in an argument, or
	 * in an out argument's index, gets one above it */
	th->sp += fn->nslots;
	th->depth++;
	for (int i = 0; i < fn->nparams; i++) {
		rval v;
		const racc *oa = n->outs ? n->outs[i] : NULL;
		/* an out argument: its element located once, read in and
		 * written back, so an index's side effect runs once, as in C */
		if (oa)
			acc_at(oa, f, 1, &outs[i]);
		if (fn->pst[i]) {	/* a struct, by value */
			racc pa = slots_acc(fn->pslot[i], fn->pst[i]);
			copy_struct_at(&pa, &g, NULL, oa ? oa :
				n->args[i]->acc, f, oa ? &outs[i] : NULL);
			continue;
		}
		if (oa) {
			loc_load(oa, &outs[i], &v);
			cvt(&g.slots[fn->pslot[i]], fn->ptype[i], &v,
				acc_type(oa));
			continue;
		}
		n->args[i]->ev(n->args[i], f, &v);
		if (n->argty[i].k == VK_VOID)	/* gather: the argument index */
			g.slots[fn->pslot[i]] = v;
		else
			cvt(&g.slots[fn->pslot[i]], fn->ptype[i], &v,
				n->args[i]->ty);
	}
	memset(&g.ret, 0, sizeof g.ret);
	exec(fn->body, &g);
	for (int i = 0; i < fn->nparams; i++) {
		if (!n->outs || !n->outs[i])
			continue;
		if (fn->pst[i]) {
			racc pa = slots_acc(fn->pslot[i], fn->pst[i]);
			copy_struct_at(n->outs[i], f, &outs[i], &pa, &g, NULL);
		} else {
			loc_store(n->outs[i], &outs[i], &g.slots[fn->pslot[i]]);
		}
	}
	if (fn->rst)	/* into the caller's slots that the call's access names */
		memmove(f->slots + n->slot, g.slots + fn->ret_slot,
			(size_t)fn->rst->nslots * sizeof *f->slots);
	else
		cvt(o, n->ty, &g.ret, fn->ret);
	th->depth--;
	th->sp -= fn->nslots;
}

/* ---- compiling expressions ------------------------------------------ */

static rnode *const_node(cctx *c, rtype t, rcomp v)
{
	rnode *n = new_node(c, ev_const, t);
	for (int i = 0; i < 4; i++)
		n->c.c[i] = i < t.n ? v : (rcomp){.q = 0};
	return n;
}

static racc *cacc(cctx *c, const json_t *e);
static const json_t *struct_type(cctx *c, const json_t *ty);
static const rstruct *struct_layout(cctx *c, const json_t *where,
	const json_t *ty, int depth);
static racc *call_struct(cctx *c, const json_t *e);

/* Whether E calls a function that returns a struct. */
static int struct_call(cctx *c, const json_t *e)
{
	return ast_is(e, "call") && struct_type(c, ast_get(e, "ty")) != NULL;
}

/* The access path of a variable or parameter. */
static racc *var_acc(cctx *c, const json_t *e)
{
	long long id = ast_int(e, "ref");
	if (!json_is_integer(ast_get(e, "ref")) || id < 0 || id > c->p->max_id) {
		cfail(c, e, "'%s' is not declared in the kernel",
			ast_str(e, "name"));
		return NULL;
	}
	if (c->p->var_acc[id]) {
		racc *a = carena(c->p, sizeof *a);
		*a = *c->p->var_acc[id];
		return a;
	}
	cfail(c, e, "the interpreter does not support the use of '%s' here "
		"(only locals and parameters of kernels)", ast_str(e, "name"));
	return NULL;
}

/* The site (brt_site) of an access at AT by the function being compiled
 * of array NAME, of KIND (enum brt_site_kind), plus one: one per file,
 * line, function, array and kind, as brgen --checked's (same messages). */
static int add_site(cctx *c, const json_t *at, const char *name, int kind)
{
	run_prog *p = c->p;
	const char *file = "?", *fn = ast_str(c->fn->node, "name");
	int line = 0, col = 0;
	ast_at(c->doc, at, &file, &line, &col);
	for (unsigned i = 0; i < p->nsites; i++) {
		const brt_site *s = &p->sites[i];
		if (s->line == line && s->kind == kind &&
		    strcmp(s->file, file) == 0 && strcmp(s->kernel, fn) == 0 &&
		    strcmp(s->array, name) == 0)
			return (int)i + 1;
	}
	if (p->nsites == p->capsites) {
		p->capsites = p->capsites ? 2 * p->capsites : 8;
		p->sites = xrealloc(p->sites, p->capsites * sizeof *p->sites);
	}
	brt_site *s = &p->sites[p->nsites++];
	s->file = file;
	s->line = line;
	s->kernel = fn;
	s->array = name;
	s->kind = kind;
	return (int)p->nsites;
}

/* --checked: the sites of an access of gather or scatter array A whose
 * first index is AT; a parameter of the kernel's own has the one its
 * role makes (so that a race names the one line that writes). */
static void acc_sites(cctx *c, racc *a, const json_t *at)
{
	if (!c->p->checked || !a->name)
		return;
	if (a->role != 2)
		a->site[0] = add_site(c, at, a->name, BRT_SITE_GATHER);
	if (a->role != 1)
		a->site[1] = add_site(c, at, a->name, BRT_SITE_SCATTER);
}

/* Whether access A names one element: every index given, or one vector
 * index of a gather (spec 4.2). */
static int acc_whole(const racc *a)
{
	return a->vec || a->nidx == a->ndims;
}

/* access "." field: the field's slots within the element. */
static racc *struct_member(cctx *c, const json_t *e, racc *a)
{
	const char *name = ast_str(e, "name");
	if (!acc_whole(a)) {
		cfail(c, e, "an array is used without all its indices");
		return NULL;
	}
	for (int i = 0; i < a->st->nfields; i++) {
		const rfield *fl = &a->st->f[i];
		if (strcmp(fl->name, name) != 0)
			continue;
		a->fofs += fl->off;
		a->st = fl->st;
		a->elty = fl->ty;
		return a;
	}
	cfail(c, e, "no field '%s'", name);
	return NULL;
}

/* access = id | access "[" expr "]" | access "." swizzle
 *        | access "." field */
static racc *cacc(cctx *c, const json_t *e)
{
	const char *k = ast_kind(e);
	if (strcmp(k, "paren") == 0)
		return cacc(c, ast_get(e, "e"));
	if (strcmp(k, "id") == 0)
		return var_acc(c, e);
	if (struct_call(c, e))
		return call_struct(c, e);
	if (strcmp(k, "index") == 0) {
		racc *a = cacc(c, ast_get(e, "a"));
		if (!a)
			return NULL;
		if (a->nsw || a->nidx >= (a->kind == ACC_ARG ? a->ndims :
			a->ndims) || a->vec) {
			cfail(c, e, "too many indices");
			return NULL;
		}
		rnode *i = cexpr(c, ast_get(e, "i"));
		if (!i)
			return NULL;
		if (a->kind == ACC_ARG && a->nidx == 0)
			acc_sites(c, a, ast_get(e, "i"));
		else if (a->kind != ACC_ARG && c->p->checked && a->name)
			a->asite[a->nidx] = add_site(c, ast_get(e, "i"),
				a->name, a->kind == ACC_SHARED ?
				BRT_SITE_SHARED : BRT_SITE_ARRAY);
		/* as brgen's shared_mode: 1-D shared arrays of scalars or
		   vectors */
		if (a->kind == ACC_SHARED && c->p->checked && a->name &&
		    a->ndims == 1 && !a->st)
			a->usite = add_site(c, e, a->name, BRT_SITE_UNSET);
		if (i->ty.n > 1) {
			/* spec 4.2: a vector index, .x the column */
			if (a->kind != ACC_ARG || a->nidx > 0) {
				cfail(c, e, "a vector index only selects an element "
					"of a gather array");
				return NULL;
			}
			a->vec = 1;
			a->nidx = 1;
			a->idx[0] = i;
			return a;
		}
		a->idx[a->nidx++] = i;
		return a;
	}
	if (strcmp(k, "member") == 0) {
		json_t *sw = ast_arr(e, "swizzle");
		size_t nsw = json_array_size(sw);
		racc *a = cacc(c, ast_get(e, "e"));
		if (!a)
			return NULL;
		if (a->st)
			return struct_member(c, e, a);
		if (nsw == 0 || nsw > 4) {
			cfail(c, e, "not a member of a struct or vector");
			return NULL;
		}
		uint8_t s[4];
		for (size_t i = 0; i < nsw; i++) {
			int x = (int)json_integer_value(json_array_get(sw, i));
			if (x < 0 || x > 3 || (a->nsw && x >= a->nsw)) {
				cfail(c, e, "bad swizzle");
				return NULL;
			}
			s[i] = (uint8_t)(a->nsw ? a->sw[x] : x);
		}
		memcpy(a->sw, s, nsw);
		a->nsw = (int)nsw;
		return a;
	}
	cfail(c, e, "not something the interpreter can assign to");
	return NULL;
}

/* An access that yields a value (all its indices given). */
static int acc_complete(cctx *c, const json_t *e, const racc *a)
{
	if (!acc_whole(a))
		return cfail(c, e, "an array is used without all its indices");
	return 0;
}

/* True when E names a place: a variable, an element, a field or
 * components of one (else a member applies to a computed value). */
static int is_access(cctx *c, const json_t *e)
{
	for (int depth = 0; depth < MAX_NEST; depth++) {
		const char *k = ast_kind(e);
		if (strcmp(k, "id") == 0 || strcmp(k, "index") == 0 ||
			struct_call(c, e))
			return 1;
		if (strcmp(k, "member") != 0 && strcmp(k, "paren") != 0)
			return 0;
		e = ast_get(e, "e");
	}
	return 0;
}

/* dst = src for a struct: SRC must name a struct of the same layout. */
static rnode *struct_copy(cctx *c, const json_t *e, racc *dst,
	const json_t *src)
{
	racc *a = NULL;
	if (is_access(c, src) && !(a = cacc(c, src)))
		return NULL;	/* reported */
	if (!a || !a->st || a->st->nslots != dst->st->nslots ||
		!acc_whole(a) || !acc_whole(dst)) {
		cfail(c, e, "the interpreter assigns a struct only from a "
			"struct variable, element, field or call");
		return NULL;
	}
	rtype vt = {VK_VOID, 0};
	rnode *n = new_node(c, ev_struct_copy, vt);
	n->acc = dst;
	n->acc2 = a;
	n->slot = dst->st->nslots;
	return n;
}

static int builtin_code(const char *name)
{
	for (int i = 0; i < BI_N; i++)
		if (strcmp(builtins[i].name, name) == 0)
			return i;
	return -1;
}

static rnode *cbuiltin(cctx *c, const json_t *e, const char *name,
	json_t *args, rtype ty)
{
	size_t na = json_array_size(args);
	if (strcmp(name, "instance") == 0 ||
		strcmp(name, "instanceInGroup") == 0) {
		rnode *n = new_node(c, ev_instance, ty);
		n->op = name[8] != '\0';
		return n;
	}
	if (strcmp(name, "syncGroup") == 0) {
		c->p->has_sync = 1;
		return new_node(c, ev_sync, ty);
	}
	int b = builtin_code(name);
	if (b < 0) {
		cfail(c, e, "the interpreter does not know the builtin '%s'",
			name);
		return NULL;
	}
	if ((int)na != builtins[b].nargs) {
		cfail(c, e, "'%s' takes %d arguments", name, builtins[b].nargs);
		return NULL;
	}
	rnode *n = new_node(c, ev_builtin, ty);
	n->op = b;
	n->nargs = (int)na;
	n->args = carena(c->p, (na + 1) * sizeof *n->args);
	rtype t = {VK_S32, 1};
	for (size_t i = 0; i < na; i++) {
		n->args[i] = cexpr(c, json_array_get(args, i));
		if (!n->args[i])
			return NULL;
		t = i == 0 ? n->args[0]->ty : common_type(t, n->args[i]->ty);
		if (i == 0 && t.k < VK_S32)
			t.k = VK_S32;
	}
	/* the arithmetic type: the arguments' common type; floating for the
	 * functions only defined on floats */
	switch (b) {
	case BI_ABS: case BI_MIN: case BI_MAX: case BI_CLAMP: case BI_SIGN:
		break;
	case BI_ISFINITE: case BI_ISINF: case BI_ISNAN:
		if (!is_float(t.k))
			t.k = VK_F32;
		break;
	default:
		if (!is_float(t.k))
			t.k = is_float(ty.k) ? ty.k : VK_F32;
		break;
	}
	if (b == BI_CROSS)
		t.n = 3;
	n->opty = t;
	return n;
}

/* Whether parameter PN is out or reduce: its argument is copied back. */
static int out_param(const json_t *pn)
{
	json_t *q;
	size_t qi;
	json_array_foreach(ast_arr(pn, "quals"), qi, q) {
		const char *s = json_string_value(q) ? json_string_value(q) : "";
		if (strcmp(s, "out") == 0 || strcmp(s, "reduce") == 0)
			return 1;
	}
	return 0;
}

/* A call of a function with a body (a subkernel, or a reduce function
 * used as one, DESIGN.md reading 7): arguments by value, out parameters
 * copied back, gathers passed by argument index. */
static rnode *csubcall(cctx *c, const json_t *e, const json_t *fdecl,
	json_t *args, rtype ty)
{
	rfunc *fn = cfunc(c, fdecl);
	if (!fn)
		return NULL;
	size_t na = json_array_size(args);
	if ((int)na != fn->nparams) {
		cfail(c, e, "wrong number of arguments");
		return NULL;
	}
	if (na > RUN_MAX_PARAMS) {
		cfail(c, e, "the interpreter calls a subkernel of up to %d "
			"parameters", RUN_MAX_PARAMS);
		return NULL;
	}
	/* the callee's frame is reserved before its arguments are
	 * evaluated (ev_call): a call in one stacks above it */
	int outer_need = c->site_need, outer_calls = c->site_calls;
	c->site_need = c->site_calls = 0;
	rnode *n = csubargs(c, fn, fdecl, args, ty);
	int need = fn->nslots + (c->site_need > fn->need - fn->nslots ?
		c->site_need : fn->need - fn->nslots);
	int calls = 1 + (c->site_calls > fn->calls ? c->site_calls :
		fn->calls);
	c->site_need = need > outer_need ? need : outer_need;
	c->site_calls = calls > outer_calls ? calls : outer_calls;
	if (n && calls > RUN_MAX_CALLS) {
		cfail(c, e, "the interpreter nests subkernel calls up to %d "
			"deep", RUN_MAX_CALLS);
		return NULL;
	}
	return n;
}

/* csubcall's node and its arguments. */
static rnode *csubargs(cctx *c, rfunc *fn, const json_t *fdecl,
	json_t *args, rtype ty)
{
	size_t na = json_array_size(args);
	rnode *n = new_node(c, ev_call, ty);
	n->fn = fn;
	n->nargs = (int)na;
	n->args = carena(c->p, (na + 1) * sizeof *n->args);
	n->argty = carena(c->p, (na + 1) * sizeof *n->argty);
	json_t *params = ast_arr(ast_get(fdecl, "type"), "params");
	for (size_t i = 0; i < na; i++) {
		json_t *pa = json_array_get(params, i);
		json_t *ae = json_array_get(args, i);
		n->argty[i] = fn->ptype[i];
		if (fn->pst[i]) {
			/* a struct: copied in from the access (a call's
			 * result included), out ones copied back (ev_call) */
			rtype vt = {VK_VOID, 0};
			racc *a = is_access(c, ae) ? cacc(c, ae) : NULL;
			if (!a || !a->st || a->st->nslots != fn->pst[i]->nslots ||
				!acc_whole(a)) {
				if (a || !is_access(c, ae))
					cfail(c, ae, "the interpreter passes a struct "
						"from a variable, element, field or "
						"call");
				return NULL;
			}
			n->args[i] = new_node(c, ev_const, vt);
			n->args[i]->acc = a;
			if (out_param(pa)) {
				if (!n->outs)
					n->outs = carena(c->p,
						(na + 1) * sizeof *n->outs);
				n->outs[i] = a;
			}
			continue;
		}
		if (fn->ptype[i].k == VK_VOID) {
			/* a gather parameter: pass the caller's argument slot */
			racc *a = cacc(c, ae);
			if (!a)
				return NULL;
			if (a->kind != ACC_ARG || a->nidx) {
				cfail(c, ae, "the interpreter passes only gather "
					"parameters as arrays");
				return NULL;
			}
			rtype it = {VK_S32, 1};
			n->args[i] = new_node(c, ev_slot, it);
			n->args[i]->slot = a->base;
			continue;
		}
		n->args[i] = cexpr(c, ae);
		if (!n->args[i])
			return NULL;
		if (out_param(pa)) {
			if (!n->outs)
				n->outs = carena(c->p, (na + 1) * sizeof *n->outs);
			n->outs[i] = cacc(c, ae);
			if (!n->outs[i])
				return NULL;
		}
	}
	return n;
}

static rnode *ccall(cctx *c, const json_t *e, rtype ty)
{
	const char *callee = ast_str(e, "callee");
	json_t *args = ast_arr(e, "args");
	const json_t *fnx = ast_get(e, "fn");
	if (strcmp(callee, "builtin") == 0) {
		const char *name = ast_str(e, "builtin");
		if (!*name)
			name = ast_str(fnx, "name");
		return cbuiltin(c, e, name, args, ty);
	}
	if (strcmp(callee, "sub") == 0 || strcmp(callee, "kernel") == 0 ||
		strcmp(callee, "reduce") == 0) {
		size_t i;
		json_t *decl;
		/* the definition with a body of the function named */
		json_array_foreach(ast_arr(c->doc, "decls"), i, decl)
			if (ast_is(decl, "func") && ast_get(decl, "body") &&
				!json_is_null(ast_get(decl, "body")) &&
				strcmp(ast_str(decl, "name"),
					ast_str(fnx, "name")) == 0)
				return csubcall(c, e, decl, args, ty);
		cfail(c, e, "no body for '%s'", ast_str(fnx, "name"));
		return NULL;
	}
	cfail(c, e, "the interpreter cannot call '%s' (%s) in a kernel",
		ast_str(fnx, "name"), *callee ? callee : "unknown callee");
	return NULL;
}

/* A call of a function returning a struct: the call copies the result
 * into slots of the caller's frame, which the access returned names
 * (its PRE, the call, runs first). */
static racc *call_struct(cctx *c, const json_t *e)
{
	rtype vt = {VK_VOID, 0};
	rnode *n = ccall(c, e, vt);
	if (!n)
		return NULL;
	if (n->ev != ev_call || !n->fn->rst) {
		cfail(c, e, "the interpreter cannot take a struct from this "
			"call");
		return NULL;
	}
	racc *a = carena(c->p, sizeof *a);
	*a = slots_acc(c->fn->nslots, n->fn->rst);
	c->fn->nslots += n->fn->rst->nslots;
	n->slot = a->base;
	a->pre = n;
	return a;
}

static int assign_code(const char *op)
{
	if (strcmp(op, "=") == 0)
		return B_NONE;
	char b[4] = {0};
	size_t n = strlen(op);
	if (n < 2 || n > 3)
		return -1;
	memcpy(b, op, n - 1);
	return binop_code(b);
}

static rnode *cexpr_in(cctx *c, const json_t *e)
{
	const char *k = ast_kind(e);
	rtype ty;
	if (strcmp(k, "paren") == 0)
		return cexpr(c, ast_get(e, "e"));
	if (struct_call(c, e)) {
		/* its value unused (an expression statement) */
		racc *a = call_struct(c, e);
		return a ? a->pre : NULL;
	}
	if (strcmp(k, "call") == 0) {
		if (rtype_of(c, ast_get(e, "ty"), &ty) != 0) {
			cfail(c, e, "the interpreter does not support calls "
				"returning this type");
			return NULL;
		}
		return ccall(c, e, ty);
	}
	if (strcmp(k, "assign") == 0 && strcmp(ast_str(e, "op"), "=") == 0) {
		racc *l = cacc(c, ast_get(e, "l"));
		if (!l)
			return NULL;
		if (l->st)
			return struct_copy(c, e, l, ast_get(e, "r"));
	}
	if (expr_type(c, e, &ty) != 0)
		return NULL;
	if (strcmp(k, "int") == 0 || strcmp(k, "char") == 0) {
		rcomp v;
		json_t *jv = ast_get(e, "value");
		if (json_is_integer(jv))
			v.l = (int64_t)json_integer_value(jv);
		else
			v.q = strtoull(json_string_value(jv) ?
				json_string_value(jv) : "0", NULL, 10);
		rtype lt = {VK_S64, 1};
		if (!json_is_integer(jv))
			lt.k = VK_U64;
		return const_node(c, ty, cvt1(v, lt.k, ty.k));
	}
	if (strcmp(k, "float") == 0) {
		rcomp v;
		v.d = json_number_value(ast_get(e, "value"));
		return const_node(c, ty, cvt1(v, VK_F64, ty.k));
	}
	long long ref = ast_int(e, "ref");
	if (strcmp(k, "id") == 0 && json_is_integer(ast_get(e, "ref")) &&
		ref >= 0 && ref <= c->p->max_id && c->p->enum_ok[ref]) {
		rcomp v;
		v.l = (int64_t)c->p->enum_val[ref];
		return const_node(c, ty, cvt1(v, VK_S64, ty.k));
	}
	if (strcmp(k, "id") == 0 || strcmp(k, "index") == 0 ||
		(strcmp(k, "member") == 0 && is_access(c, e))) {
		racc *a = cacc(c, e);
		if (!a || acc_complete(c, e, a) != 0)
			return NULL;
		if (a->st) {
			cfail(c, e, "the interpreter uses a struct only in "
				"assignments and through its fields");
			return NULL;
		}
		rnode *n = new_node(c, ev_load, ty);
		n->acc = a;
		return n;
	}
	if (strcmp(k, "member") == 0) {
		json_t *sw = ast_arr(e, "swizzle");
		size_t nsw = json_array_size(sw);
		if (nsw == 0 || nsw > 4) {
			cfail(c, e, "the interpreter does not support struct "
				"members");
			return NULL;
		}
		rnode *n = new_node(c, ev_swizzle, ty);
		n->k[0] = cexpr(c, ast_get(e, "e"));
		if (!n->k[0])
			return NULL;
		for (size_t i = 0; i < nsw; i++) {
			int x = (int)json_integer_value(json_array_get(sw, i));
			if (x < 0 || x >= n->k[0]->ty.n) {
				cfail(c, e, "bad swizzle");
				return NULL;
			}
			n->sw[i] = (uint8_t)x;
		}
		return n;
	}
	/* C: an operation on a scalar smaller than int is done in int
	   and has type int (the generated code's), whatever "ty" says */
	rtype pty = ty;
	if (pty.n == 1 && pty.k < VK_S32)
		pty.k = VK_S32;
	if (strcmp(k, "binop") == 0) {
		int op = binop_code(ast_str(e, "op"));
		rnode *n = new_node(c, ev_binop, pty);
		n->op = op;
		n->k[0] = cexpr(c, ast_get(e, "l"));
		n->k[1] = cexpr(c, ast_get(e, "r"));
		if (op < 0 || !n->k[0] || !n->k[1])
			return op < 0 ? (cfail(c, e, "unknown operator"), NULL) :
				NULL;
		n->opty = common_type(n->k[0]->ty, n->k[1]->ty);
		if (op == B_SHL || op == B_SHR) {
			/* C: the type of the promoted left operand */
			n->opty = n->k[0]->ty;
			if (n->opty.n == 1 && n->opty.k < VK_S32)
				n->opty.k = VK_S32;
			n->opty.n = n->k[0]->ty.n > n->k[1]->ty.n ?
				n->k[0]->ty.n : n->k[1]->ty.n;
		}
		return n;
	}
	if (strcmp(k, "assign") == 0) {
		int op = assign_code(ast_str(e, "op"));
		if (op < 0) {
			cfail(c, e, "unknown operator");
			return NULL;
		}
		rnode *n = new_node(c, ev_assign, ty);
		n->op = op;
		n->acc = cacc(c, ast_get(e, "l"));
		n->k[1] = cexpr(c, ast_get(e, "r"));
		if (!n->acc || !n->k[1] || acc_complete(c, e, n->acc) != 0)
			return NULL;
		n->opty = common_type(acc_type(n->acc), n->k[1]->ty);
		if (op == B_SHL || op == B_SHR)
			n->opty = acc_type(n->acc);
		if (n->opty.k < VK_S32 && n->opty.n == 1)
			n->opty.k = VK_S32;
		return n;
	}
	if (strcmp(k, "unop") == 0 || strcmp(k, "postfix") == 0) {
		const char *op = ast_str(e, "op");
		if (strcmp(op, "++") == 0 || strcmp(op, "--") == 0) {
			rnode *n = new_node(c, ev_incdec, ty);
			n->op = op[0] == '+' ? B_ADD : B_SUB;
			n->slot = strcmp(k, "postfix") == 0;
			n->acc = cacc(c, ast_get(e, "e"));
			if (!n->acc || acc_complete(c, e, n->acc) != 0)
				return NULL;
			return n;
		}
		int u = strcmp(op, "-") == 0 ? U_NEG : strcmp(op, "+") == 0 ?
			U_PLUS : strcmp(op, "!") == 0 ? U_NOT :
			strcmp(op, "~") == 0 ? U_BITNOT : -1;
		if (u < 0) {
			cfail(c, e, "the interpreter does not support unary '%s' "
				"(pointers are not allowed in kernels, spec 4.4)",
				op);
			return NULL;
		}
		rnode *n = new_node(c, ev_unop, pty);
		n->op = u;
		n->k[0] = cexpr(c, ast_get(e, "e"));
		if (!n->k[0])
			return NULL;
		n->opty = n->k[0]->ty;
		if (n->opty.n == 1 && n->opty.k < VK_S32)
			n->opty.k = VK_S32;
		return n;
	}
	if (strcmp(k, "cond") == 0) {
		rnode *n = new_node(c, ev_cond, ty);
		n->k[0] = cexpr(c, ast_get(e, "c"));
		n->k[1] = cexpr(c, ast_get(e, "t"));
		n->k[2] = cexpr(c, ast_get(e, "f"));
		return n->k[0] && n->k[1] && n->k[2] ? n : NULL;
	}
	if (strcmp(k, "comma") == 0) {
		rnode *n = new_node(c, ev_comma, ty);
		n->k[0] = cexpr(c, ast_get(e, "l"));
		n->k[1] = cexpr(c, ast_get(e, "r"));
		return n->k[0] && n->k[1] ? n : NULL;
	}
	if (strcmp(k, "cast") == 0) {
		rnode *n = new_node(c, ev_cast, ty);
		n->k[0] = cexpr(c, ast_get(e, "e"));
		return n->k[0] ? n : NULL;
	}
	if (strcmp(k, "ctor") == 0) {
		json_t *args = ast_arr(e, "args");
		rnode *n = new_node(c, ev_ctor, ty);
		n->nargs = (int)json_array_size(args);
		n->args = carena(c->p, ((size_t)n->nargs + 1) * sizeof *n->args);
		for (int i = 0; i < n->nargs; i++)
			if (!(n->args[i] = cexpr(c, json_array_get(args,
				(size_t)i))))
				return NULL;
		return n;
	}
	if (strcmp(k, "indexof") == 0) {
		rnode *n = new_node(c, ev_indexof, ty);
		n->slot = -1;
		racc *a = cacc(c, ast_get(e, "e"));
		if (!a)
			return NULL;
		if (a->kind == ACC_ARG || a->kind == ACC_SLOT) {
			/* the argument index of a kernel parameter (the
			   kernel's own slots: params[].slot is set after) */
			for (int i = 0; c->fn && c->fn->node ==
				c->p->sig->func && i < c->fn->nparams; i++)
				if (c->fn->pslot[i] == a->base)
					n->slot = i;
		}
		return n;
	}
	if (strcmp(k, "sizeof") == 0) {
		const json_t *t = ast_get(e, "type");
		brt_type bt;
		if (!t || json_is_null(t))
			t = ast_get(ast_get(e, "e"), "ty");
		if (run_elem_type(c->doc, t, &bt) != 0) {
			cfail(c, e, "the interpreter supports sizeof only of "
				"scalar and vector types");
			return NULL;
		}
		rcomp v;
		v.q = bt.size;
		return const_node(c, ty, cvt1(v, VK_U64, ty.k));
	}
	cfail(c, e, "the interpreter does not support '%s' expressions", k);
	return NULL;
}

/* One level deeper into N (WHAT: "expression", "statements"); fails past
 * MAX_NEST, reported once (the other operands of the nodes above would
 * each repeat it). The caller leaves with c->depth--. brcheck refuses
 * kernel code deeper than its CHK_KERNEL_DEPTH (200) first. */
static int nest_in(cctx *c, const json_t *n, const char *what)
{
	if (++c->depth <= MAX_NEST)
		return 0;
	c->depth--;
	if (c->too_deep)
		return -1;
	c->too_deep = 1;
	return cfail(c, n, "%s nested too deeply for the interpreter (more "
		"than %d levels)", what, MAX_NEST);
}

static rnode *cexpr(cctx *c, const json_t *e)
{
	if (!e || json_is_null(e)) {
		cfail(c, e, "missing expression");
		return NULL;
	}
	if (nest_in(c, e, "expression") != 0)
		return NULL;
	rnode *n = cexpr_in(c, e);
	c->depth--;
	return n;
}

/* ---- statements ----------------------------------------------------- */

static int exec_block(const rstmt *s, int from, rframe *f)
{
	for (int i = from; i < s->n; i++) {
		int r = exec(s->items[i], f);
		if (r != X_NORMAL)
			return r;
	}
	return X_NORMAL;
}

static int exec(const rstmt *s, rframe *f)
{
	rval v;
	switch (s->kind) {
	case S_EXPR:
		s->e->ev(s->e, f, &v);
		return X_NORMAL;
	case S_INIT:
		memset(f->slots + s->slot, 0, (size_t)s->nslots * sizeof(rval));
		if (s->e)
			s->e->ev(s->e, f, &v);
		return X_NORMAL;
	case S_BLOCK:
		return exec_block(s, 0, f);
	case S_IF:
		s->e->ev(s->e, f, &v);
		if (truth(&v, s->e->ty))
			return exec(s->s1, f);
		return s->s2 ? exec(s->s2, f) : X_NORMAL;
	case S_WHILE:
	case S_FOR:
		if (s->s2) {
			int r = exec(s->s2, f);
			if (r != X_NORMAL)
				return r;
		}
		for (;;) {
			if (s->e) {
				s->e->ev(s->e, f, &v);
				if (!truth(&v, s->e->ty))
					break;
			}
			int r = exec(s->s1, f);
			if (r == X_BREAK)
				break;
			if (r == X_RETURN)
				return r;
			if (s->e2)
				s->e2->ev(s->e2, f, &v);
		}
		return X_NORMAL;
	case S_DO:
		for (;;) {
			int r = exec(s->s1, f);
			if (r == X_BREAK)
				break;
			if (r == X_RETURN)
				return r;
			s->e->ev(s->e, f, &v);
			if (!truth(&v, s->e->ty))
				break;
		}
		return X_NORMAL;
	case S_BREAK:
		return X_BREAK;
	case S_CONTINUE:
		return X_CONTINUE;
	case S_RETURN:
		if (s->e) {
			s->e->ev(s->e, f, &v);
			f->ret = v;
		}
		return X_RETURN;
	case S_SWITCH: {
		s->e->ev(s->e, f, &v);
		int64_t x = cvt1(v.c[0], s->e->ty.k, VK_S64).l;
		int from = -1;
		for (int i = 0; i < s->n; i++)
			if (s->case_kind[i] == 1 && s->cases[i] == x)
				from = i;
		for (int i = 0; from < 0 && i < s->n; i++)
			if (s->case_kind[i] == 2)
				from = i;
		if (from < 0)
			return X_NORMAL;
		int r = exec_block(s, from, f);
		return r == X_BREAK ? X_NORMAL : r;
	}
	default:
		return X_NORMAL;
	}
}

static rstmt *new_stmt(cctx *c, int kind)
{
	rstmt *s = carena(c->p, sizeof *s);
	s->kind = kind;
	return s;
}

/* The definition of struct TAG at file scope (a decl whose type has its
 * fields). */
static const json_t *struct_def(const json_t *doc, const char *tag)
{
	size_t i;
	json_t *d;
	json_array_foreach(ast_arr(doc, "decls"), i, d) {
		const json_t *t = ast_get(d, "type");
		if (ast_is(d, "decl") && ast_arr(t, "fields") &&
			(strcmp(ast_str(t, "t"), "struct") == 0) &&
			strcmp(ast_str(t, "tag"), tag) == 0)
			return t;
	}
	return NULL;
}

/* The struct type TY names (through typedefs and tags), or NULL. */
static const json_t *struct_type(cctx *c, const json_t *ty)
{
	for (int depth = 0; depth < 32 && ty; depth++) {
		const char *t = ast_str(ty, "t");
		if (strcmp(t, "typedef") == 0) {
			const json_t *found = NULL;
			size_t i, j;
			json_t *d, *v;
			json_array_foreach(ast_arr(c->doc, "decls"), i, d) {
				if (strcmp(ast_str(d, "storage"), "typedef") != 0)
					continue;
				json_array_foreach(ast_arr(d, "vars"), j, v)
					if (strcmp(ast_str(v, "name"),
						ast_str(ty, "name")) == 0)
						found = ast_get(v, "type");
			}
			ty = found;
			continue;
		}
		if (strcmp(t, "struct") != 0)
			return NULL;
		if (ast_arr(ty, "fields"))
			return ty;
		return struct_def(c->doc, ast_str(ty, "tag"));
	}
	return NULL;
}

/* Lays out struct type TY: its fields one after the other. */
static const rstruct *struct_layout(cctx *c, const json_t *where,
	const json_t *ty, int depth)
{
	json_t *fields = ast_arr(ty, "fields");
	rstruct *st = carena(c->p, sizeof *st);
	st->nfields = (int)json_array_size(fields);
	st->f = carena(c->p, ((size_t)st->nfields + 1) * sizeof *st->f);
	if (depth > 16) {
		cfail(c, where, "structs nested too deeply");
		return NULL;
	}
	int nslots = 0;
	for (int i = 0; i < st->nfields; i++) {
		const json_t *fd = json_array_get(fields, (size_t)i);
		rfield *fl = &st->f[i];
		const json_t *ft = ast_get(fd, "type");
		const json_t *sub = struct_type(c, ft);
		fl->name = ast_str(fd, "name");
		fl->off = st->nslots;
		if (sub) {
			if (!(fl->st = struct_layout(c, where, sub, depth + 1)))
				return NULL;
			st->nslots += fl->st->nslots;
		} else if (rtype_of(c, ft, &fl->ty) == 0 &&
			fl->ty.k != VK_VOID) {
			st->nslots++;
		} else {
			cfail(c, where, "the interpreter supports struct fields "
				"of scalar, vector and struct types only ('%s')",
				fl->name);
			return NULL;
		}
	}
	st->slot_ty = carena(c->p, ((size_t)st->nslots + 1) *
		sizeof *st->slot_ty);
	for (int i = 0; i < st->nfields; i++) {
		const rfield *fl = &st->f[i];
		if (fl->st)
			memcpy(st->slot_ty + nslots, fl->st->slot_ty,
				(size_t)fl->st->nslots * sizeof *st->slot_ty);
		else
			st->slot_ty[nslots] = fl->ty;
		nslots += fl->st ? fl->st->nslots : 1;
	}
	return st;
}

/* Slots for a local variable: one per element; arrays get an access path
 * with their extents, and shared arrays live in the group's slots. */
static int declare_var(cctx *c, const json_t *var, int *slot, int *nslots,
	rtype *ty)
{
	const json_t *t = ast_get(var, "type");
	long long id = ast_int(var, "id");
	if (!json_is_integer(ast_get(var, "id")) || id < 0 || id > c->p->max_id)
		return cfail(c, var, "'%s' has no id: is the AST checked?",
			ast_str(var, "name"));
	racc *a = carena(c->p, sizeof *a);
	int64_t n = 1;
	while (strcmp(ast_str(t, "t"), "array") == 0) {
		long long sz;
		if (a->ndims == BRT_MAX_RANK)
			return cfail(c, var, "the interpreter runs local "
				"arrays of up to %d dimensions ('%s')",
				BRT_MAX_RANK, ast_str(var, "name"));
		if (run_const_int(ast_get(t, "size"), &sz, NULL, NULL) != 0 ||
			sz <= 0)
			return cfail(c, var, "the interpreter needs a constant "
				"size for the local array '%s'",
				ast_str(var, "name"));
		if (sz > RUN_MAX_VALUES || (n *= sz) > RUN_MAX_VALUES)
			return cfail(c, var, "local array '%s' too large: the "
				"interpreter holds up to %d elements an array",
				ast_str(var, "name"), RUN_MAX_VALUES);
		a->dims[a->ndims++] = sz;
		t = ast_get(t, "of");
	}
	const json_t *sty = struct_type(c, t);
	a->esize = 1;
	if (sty) {
		if (!(a->st = struct_layout(c, var, sty, 0)))
			return -1;
		a->esize = a->st->nslots;
		n *= a->esize;
		a->elty.k = VK_VOID;
		a->elty.n = 0;
	} else if (rtype_of(c, t, &a->elty) != 0 || a->elty.k == VK_VOID) {
		return cfail(c, var, "the interpreter does not support local "
			"variables of this type ('%s')", ast_str(var, "name"));
	}
	int shared = 0;
	size_t qi;
	json_t *q;
	json_array_foreach(ast_arr(var, "quals"), qi, q)
		if (json_string_value(q) && strcmp(json_string_value(q),
			"shared") == 0)
			shared = 1;
	if (n > RUN_MAX_VALUES || n + (shared ? c->p->shared_slots :
		c->fn->nslots) > RUN_MAX_VALUES)
		return cfail(c, var, "the %s of '%s' take more than the "
			"interpreter's %d values with '%s'", shared ? "shared "
			"variables" : "locals", ast_str(c->fn->node, "name"),
			RUN_MAX_VALUES, ast_str(var, "name"));
	if (shared) {
		a->kind = ACC_SHARED;
		a->base = c->p->shared_slots;
		c->p->shared_slots += (int)n;
	} else {
		a->kind = ACC_SLOT;
		a->base = c->fn->nslots;
		c->fn->nslots += (int)n;
	}
	if (a->ndims)
		a->name = ast_str(var, "name");
	c->p->var_acc[id] = a;
	c->p->slot_of[id] = a->base;
	*slot = a->base;
	*nslots = shared ? 0 : (int)n;
	*ty = a->elty;
	return 0;
}

/* decl = type var [ "=" init ] { "," var [ "=" init ] } ";" */
static rstmt *cdecl(cctx *c, const json_t *decl)
{
	rstmt *b = new_stmt(c, S_BLOCK);
	json_t *vars = ast_arr(decl, "vars");
	const char *storage = ast_str(decl, "storage");
	if (strcmp(storage, "typedef") == 0)
		return new_stmt(c, S_EMPTY);
	b->n = (int)json_array_size(vars);
	b->items = carena(c->p, ((size_t)b->n + 1) * sizeof *b->items);
	for (int i = 0; i < b->n; i++) {
		json_t *var = json_array_get(vars, (size_t)i);
		rstmt *s = new_stmt(c, S_INIT);
		rtype ty = {VK_S32, 1};
		if (declare_var(c, var, &s->slot, &s->nslots, &ty) != 0)
			return NULL;
		b->items[i] = s;
		const json_t *init = ast_get(var, "init");
		if (!init || json_is_null(init))
			continue;
		racc *a = c->p->var_acc[ast_int(var, "id")];
		if (a->st && !ast_is(init, "initlist")) {
			if (a->ndims || !(s->e = struct_copy(c, init, a, init)))
				return a->ndims ? (cfail(c, init, "an array needs "
					"a {..} initializer"), NULL) : NULL;
			continue;
		}
		if (ast_is(init, "initlist")) {
			/* a flat list of element values, in order */
			rstmt *blk = new_stmt(c, S_BLOCK);
			json_t *items = ast_arr(init, "items");
			int64_t total = a->st ? a->st->nfields : 1;
			for (int d = 0; d < a->ndims; d++)
				total *= a->dims[d];
			if (a->st && a->ndims) {
				cfail(c, init, "the interpreter does not initialize "
					"arrays of structs");
				return NULL;
			}
			blk->n = (int)json_array_size(items) + 1;
			if (blk->n - 1 > total) {
				cfail(c, init, "too many initializers");
				return NULL;
			}
			blk->items = carena(c->p, ((size_t)blk->n + 1) *
				sizeof *blk->items);
			blk->items[0] = s;
			for (int j = 1; j < blk->n; j++) {
				json_t *it = json_array_get(items, (size_t)j - 1);
				const json_t *v = ast_get(it, "value");
				if (json_array_size(ast_arr(it, "desig")) ||
					ast_is(v, "initlist")) {
					cfail(c, it, "the interpreter supports only "
						"flat initializer lists");
					return NULL;
				}
				rnode *val = cexpr(c, v);
				if (!val)
					return NULL;
				racc *ea = carena(c->p, sizeof *ea);
				*ea = *a;
				ea->ndims = 0;
				ea->base = a->base + j - 1;
				if (a->st) {	/* field j - 1 */
					const rfield *fl = &a->st->f[j - 1];
					if (fl->st) {
						cfail(c, it, "the interpreter does not "
							"initialize nested structs");
						return NULL;
					}
					ea->st = NULL;
					ea->esize = 1;
					ea->base = a->base + fl->off;
					ea->elty = fl->ty;
				}
				rnode *as = new_node(c, ev_assign, ea->elty);
				as->op = B_NONE;
				as->acc = ea;
				as->k[1] = val;
				rstmt *st = new_stmt(c, S_EXPR);
				st->e = as;
				blk->items[j] = st;
			}
			b->items[i] = blk;
			continue;
		}
		if (a->ndims) {
			cfail(c, init, "an array needs a {..} initializer");
			return NULL;
		}
		rnode *val = cexpr(c, init);
		if (!val)
			return NULL;
		rnode *as = new_node(c, ev_assign, ty);
		as->op = B_NONE;
		as->acc = a;
		as->k[1] = val;
		s->e = as;
	}
	return b;
}

static rstmt *cexpr_stmt(cctx *c, int kind, const json_t *e)
{
	rstmt *s = new_stmt(c, kind);
	if (kind == S_RETURN && c->fn->rst && e && !json_is_null(e)) {
		/* a struct returned: into the frame's return slots */
		racc *r = carena(c->p, sizeof *r);
		*r = slots_acc(c->fn->ret_slot, c->fn->rst);
		return (s->e = struct_copy(c, e, r, e)) ? s : NULL;
	}
	if (e && !json_is_null(e) && !(s->e = cexpr(c, e)))
		return NULL;
	return s;
}

/* The switch body: the items of its block, with their case labels
 * (case labels nested in other statements are not supported). */
static rstmt *cswitch(cctx *c, const json_t *st)
{
	rstmt *s = new_stmt(c, S_SWITCH);
	if (!(s->e = cexpr(c, ast_get(st, "cond"))))
		return NULL;
	const json_t *body = ast_get(st, "body");
	json_t *items = ast_arr(body, "items");
	size_t n = ast_is(body, "block") ? json_array_size(items) : 1;
	s->items = carena(c->p, (n + 1) * sizeof *s->items);
	s->cases = carena(c->p, (n + 1) * sizeof *s->cases);
	s->case_kind = carena(c->p, (n + 1) * sizeof *s->case_kind);
	c->loops++;
	for (size_t i = 0; i < n; i++) {
		const json_t *it = ast_is(body, "block") ?
			json_array_get(items, i) : body;
		int kind = 0;
		int64_t val = 0;
		while (ast_is(it, "case") || ast_is(it, "default")) {
			if (kind) {
				cfail(c, it, "the interpreter supports one label "
					"per statement in a switch");
				return NULL;
			}
			if (ast_is(it, "case")) {
				long long v;
				if (run_const_int(ast_get(it, "e"), &v, enum_id,
						c->p) != 0) {
					cfail(c, it, "case label is not a constant "
						"the interpreter knows");
					return NULL;
				}
				val = v;
				kind = 1;
			} else {
				kind = 2;
			}
			it = ast_get(it, "stmt");
		}
		s->case_kind[s->n] = kind;
		s->cases[s->n] = val;
		if (!(s->items[s->n++] = cstmt(c, it)))
			return NULL;
	}
	c->loops--;
	return s;
}

static rstmt *cstmt_in(cctx *c, const json_t *st)
{
	const char *k = ast_kind(st);
	rstmt *s;
	if (strcmp(k, "block") == 0) {
		json_t *items = ast_arr(st, "items");
		s = new_stmt(c, S_BLOCK);
		s->n = (int)json_array_size(items);
		s->items = carena(c->p, ((size_t)s->n + 1) * sizeof *s->items);
		for (int i = 0; i < s->n; i++)
			if (!(s->items[i] = cstmt(c, json_array_get(items,
				(size_t)i))))
				return NULL;
		return s;
	}
	if (strcmp(k, "decl") == 0)
		return cdecl(c, st);
	if (strcmp(k, "expr") == 0)
		return cexpr_stmt(c, S_EXPR, ast_get(st, "e"));
	if (strcmp(k, "empty") == 0 || strcmp(k, "directive") == 0)
		return new_stmt(c, S_EMPTY);
	if (strcmp(k, "return") == 0)
		return cexpr_stmt(c, S_RETURN, ast_get(st, "e"));
	if (strcmp(k, "break") == 0 || strcmp(k, "continue") == 0)
		return new_stmt(c, k[0] == 'b' ? S_BREAK : S_CONTINUE);
	if (strcmp(k, "if") == 0) {
		s = cexpr_stmt(c, S_IF, ast_get(st, "cond"));
		if (!s || !(s->s1 = cstmt(c, ast_get(st, "then"))))
			return NULL;
		const json_t *el = ast_get(st, "else");
		if (el && !json_is_null(el) && !(s->s2 = cstmt(c, el)))
			return NULL;
		return s;
	}
	if (strcmp(k, "while") == 0 || strcmp(k, "do") == 0) {
		s = cexpr_stmt(c, k[0] == 'w' ? S_WHILE : S_DO,
			ast_get(st, "cond"));
		if (!s)
			return NULL;
		c->loops++;
		s->s1 = cstmt(c, ast_get(st, "body"));
		c->loops--;
		return s->s1 ? s : NULL;
	}
	if (strcmp(k, "for") == 0) {
		s = new_stmt(c, S_FOR);
		const json_t *init = ast_get(st, "init");
		if (init && !json_is_null(init)) {
			s->s2 = ast_is(init, "decl") ? cdecl(c, init) :
				cexpr_stmt(c, S_EXPR, init);
			if (!s->s2)
				return NULL;
		}
		const json_t *cond = ast_get(st, "cond");
		const json_t *step = ast_get(st, "step");
		if (cond && !json_is_null(cond) && !(s->e = cexpr(c, cond)))
			return NULL;
		if (step && !json_is_null(step) && !(s->e2 = cexpr(c, step)))
			return NULL;
		c->loops++;
		s->s1 = cstmt(c, ast_get(st, "body"));
		c->loops--;
		return s->s1 ? s : NULL;
	}
	if (strcmp(k, "switch") == 0)
		return cswitch(c, st);
	cfail(c, st, "the interpreter does not support '%s' statements here",
		k);
	return NULL;
}

static rstmt *cstmt(cctx *c, const json_t *st)
{
	if (nest_in(c, st, "statements") != 0)
		return NULL;
	rstmt *s = cstmt_in(c, st);
	c->depth--;
	return s;
}

/* A parameter's slot: gathers and scatters hold their argument index,
 * the rest their element value. */
static int declare_param(cctx *c, const json_t *pn, rtype *ty)
{
	long long id = ast_int(pn, "id");
	if (!json_is_integer(ast_get(pn, "id")) || id < 0 || id > c->p->max_id)
		return cfail(c, pn, "parameter '%s' has no id: is the AST "
			"checked?", ast_str(pn, "name"));
	const json_t *t = ast_get(pn, "type");
	racc *a = carena(c->p, sizeof *a);
	a->base = c->fn->nslots++;
	const char *tt = ast_str(t, "t");
	if (strcmp(tt, "array") == 0) {
		a->kind = ACC_ARG;
		a->name = ast_str(pn, "name");
		for (unsigned i = 0; c->fn->node == c->p->sig->func &&
		     i < c->p->sig->nparams; i++)
			if (c->p->sig->params[i].node == pn)
				a->role = c->p->sig->params[i].desc.kind ==
					BRT_ARG_SCATTER ? 2 : 1;
		while (strcmp(ast_str(t, "t"), "array") == 0 &&
			a->ndims < BRT_MAX_RANK) {
			a->ndims++;
			t = ast_get(t, "of");
		}
		ty->k = VK_VOID;
		ty->n = 0;
	} else {
		a->kind = ACC_SLOT;
		if (strcmp(tt, "stream") == 0)
			t = ast_get(t, "of");
	}
	const json_t *sty = struct_type(c, t);
	if (sty) {
		/* a struct parameter: its fields in slots, or read and
		 * written in the argument's memory */
		if (!(a->st = struct_layout(c, pn, sty, 0)))
			return -1;
		a->esize = a->st->nslots;
		if (a->kind == ACC_SLOT)
			c->fn->nslots += a->st->nslots - 1;
		ty->k = VK_VOID;
		ty->n = 0;
	} else if (rtype_of(c, t, &a->elty) != 0 || a->elty.k == VK_VOID) {
		return cfail(c, pn, "the interpreter does not support parameters "
			"of this type ('%s')", ast_str(pn, "name"));
	}
	if (a->kind == ACC_SLOT && !a->st)
		*ty = a->elty;
	c->p->var_acc[id] = a;
	c->p->slot_of[id] = a->base;
	return a->base;
}

/* func = params body; compiled once, memoised by its id. */
static rfunc *cfunc(cctx *c, const json_t *fnode)
{
	long long id = ast_int(fnode, "id");
	int has_id = json_is_integer(ast_get(fnode, "id")) && id >= 0 &&
		id <= c->p->max_id;
	if (has_id && c->p->funcs[id]) {
		if (c->p->funcs[id]->compiling) {
			cfail(c, fnode, "recursion is not allowed in kernels "
				"(spec 4.3)");
			return NULL;
		}
		return c->p->funcs[id];
	}
	rfunc *fn = carena(c->p, sizeof *fn);
	fn->node = fnode;
	fn->compiling = 1;
	if (has_id)
		c->p->funcs[id] = fn;
	rfunc *outer = c->fn;
	int outer_loops = c->loops, outer_depth = c->depth;
	int outer_need = c->site_need, outer_calls = c->site_calls;
	c->fn = fn;
	c->loops = 0;
	c->depth = 0;	/* a subkernel nests from its own body, not its call */
	c->site_need = c->site_calls = 0;
	json_t *params = ast_arr(ast_get(fnode, "type"), "params");
	fn->nparams = (int)json_array_size(params);
	fn->pslot = carena(c->p, ((size_t)fn->nparams + 1) * sizeof(int));
	fn->ptype = carena(c->p, ((size_t)fn->nparams + 1) * sizeof(rtype));
	fn->pst = carena(c->p, ((size_t)fn->nparams + 1) * sizeof *fn->pst);
	const json_t *ret = ast_get(ast_get(fnode, "type"), "ret");
	const json_t *rsty = struct_type(c, ret);
	int ok;
	if (rsty) {
		/* a struct returned: slots of the frame hold it */
		ok = (fn->rst = struct_layout(c, fnode, rsty, 0)) != NULL;
		fn->ret.k = VK_VOID;
		fn->ret.n = 0;
		if (ok) {
			fn->ret_slot = fn->nslots;
			fn->nslots += fn->rst->nslots;
		}
	} else {
		ok = rtype_of(c, ret, &fn->ret) == 0 ||
			cfail(c, fnode, "the interpreter does not support this "
				"return type") == 0;
	}
	for (int i = 0; ok && i < fn->nparams; i++) {
		const json_t *pn = json_array_get(params, (size_t)i);
		fn->pslot[i] = declare_param(c, pn, &fn->ptype[i]);
		ok = fn->pslot[i] >= 0;
		const racc *pa = ok ? c->p->var_acc[ast_int(pn, "id")] : NULL;
		if (pa && pa->st && pa->kind == ACC_SLOT)
			fn->pst[i] = pa->st;
	}
	if (ok)
		fn->body = cstmt(c, ast_get(fnode, "body"));
	fn->need = fn->nslots + c->site_need;
	fn->calls = c->site_calls;
	if (fn->body && fn->need > RUN_MAX_VALUES) {
		cfail(c, fnode, "the locals of '%s' and of the calls in it "
			"take more than the interpreter's %d values",
			ast_str(fnode, "name"), RUN_MAX_VALUES);
		fn->body = NULL;
	}
	c->fn = outer;
	c->loops = outer_loops;
	c->depth = outer_depth;
	c->site_need = outer_need;
	c->site_calls = outer_calls;
	fn->compiling = 0;
	return ok && fn->body ? fn : NULL;
}

/* The constants of the enumerations that TY defines, itself or in its
 * fields: each the value given, else one more than the one before. */
static void enum_scan_type(run_prog *p, const json_t *ty, int depth)
{
	size_t j;
	json_t *it;
	long long next = 0;
	int known = 1;

	while (strcmp(ty_kind(ty), "array") == 0 && depth++ < MAX_NEST)
		ty = ast_get(ty, "of");
	if (depth > MAX_NEST)
		return;
	ast_array_foreach(ast_arr(ty, "fields"), j, it)
		enum_scan_type(p, ast_get(it, "type"), depth + 1);
	if (strcmp(ty_kind(ty), "enum") != 0)
		return;
	ast_array_foreach(ast_arr(ty, "items"), j, it) {
		long long id = ast_int(it, "id"), v = next;
		const json_t *val = ast_get(it, "value");
		if (val && !json_is_null(val))
			known = run_const_int(val, &v, enum_id, p) == 0;
		if (!json_is_integer(ast_get(it, "id")) || id < 0 ||
			id > p->max_id)
			continue;
		p->enum_ok[id] = (unsigned char)known;
		p->enum_val[id] = v;
		next = v + 1;
	}
}

/* The enumeration constants defined at file scope, which kernels may
 * use. */
static void enum_scan(run_prog *p, const json_t *doc)
{
	size_t i;
	json_t *d;

	ast_array_foreach(ast_arr(doc, "decls"), i, d)
		if (ast_is(d, "decl"))
			enum_scan_type(p, ast_get(d, "type"), 0);
}

/* The largest "id" in the document, so tables can be indexed by id. */
static long long max_id(const json_t *j, int depth)
{
	long long m = -1;
	if (depth > 10000)
		return m;
	if (json_is_object(j)) {
		const char *key;
		json_t *v;
		json_object_foreach((json_t *)j, key, v) {
			if (strcmp(key, "id") == 0 && json_is_integer(v) &&
				json_integer_value(v) > m)
				m = json_integer_value(v);
			long long x = max_id(v, depth + 1);
			if (x > m)
				m = x;
		}
	} else if (json_is_array(j)) {
		size_t i;
		json_t *v;
		json_array_foreach(j, i, v) {
			long long x = max_id(v, depth + 1);
			if (x > m)
				m = x;
		}
	}
	return m;
}

run_prog *run_interp_compile(const json_t *doc, const run_sig *sig,
	int checked, diag_ctx *d)
{
	run_prog *p = xcalloc(1, sizeof *p);
	pthread_mutex_init(&p->lock, NULL);
	p->sig = sig;
	p->checked = checked;
	long long m = max_id(doc, 0);
	if (m > 50000000)
		m = -1;
	p->max_id = (int)m;
	size_t nid = (size_t)(m + 2);
	p->funcs = xcalloc(nid, sizeof *p->funcs);
	p->slot_of = xcalloc(nid, sizeof *p->slot_of);
	p->var_acc = xcalloc(nid, sizeof *p->var_acc);
	p->enum_val = xcalloc(nid, sizeof *p->enum_val);
	p->enum_ok = xcalloc(nid, sizeof *p->enum_ok);
	enum_scan(p, doc);
	p->reduce_arg = p->in_arg = -1;
	p->nparams = (int)sig->nparams;
	p->params = xcalloc((size_t)p->nparams + 1, sizeof *p->params);
	cctx c = {0};
	c.doc = doc;
	c.d = d;
	c.p = p;
	p->main = cfunc(&c, sig->func);
	if (p->main && sig->kclass == BRT_KERNEL_GROUP &&
		(int64_t)sig->group[0] * sig->group[1] * sig->group[2] *
		p->main->need > RUN_GROUP_VALUES) {
		cfail(&c, sig->func, "the locals of a work-group of '%s' and "
			"of the calls in it take more than the interpreter's %d "
			"values", ast_str(sig->func, "name"), RUN_GROUP_VALUES);
		p->main = NULL;
	}
	if (!p->main) {
		run_interp_free(p);
		return NULL;
	}
	for (int i = 0; i < p->nparams; i++) {
		rparam *rp = &p->params[i];
		rp->kind = sig->params[i].desc.kind;
		rp->type = sig->params[i].desc.type;
		rp->rt = p->main->ptype[i];
		rp->slot = p->main->pslot[i];
		const racc *pa = p->var_acc[ast_int(sig->params[i].node, "id")];
		rp->st = pa->st;
		rp->fields = sig->params[i].fields;
		/* an AST that was checked elsewhere may disagree with itself:
		 * arrays are gathers and scatters, and only they; a struct
		 * is one of the fields brrun found */
		int array = pa->kind == ACC_ARG;
		if ((rp->st != NULL) != (rp->fields != NULL) || (rp->st &&
			rp->st->nslots != (int)sig->params[i].nfields)) {
			cfail(&c, sig->params[i].node, "parameter '%s': its struct "
				"layout does not fit", sig->params[i].name);
			run_interp_free(p);
			return NULL;
		}
		if (array != (rp->kind == BRT_ARG_GATHER ||
			rp->kind == BRT_ARG_SCATTER)) {
			cfail(&c, sig->params[i].node, "parameter '%s': its type "
				"does not fit its role", sig->params[i].name);
			run_interp_free(p);
			return NULL;
		}
		if (rp->kind == BRT_ARG_REDUCE && p->reduce_arg < 0)
			p->reduce_arg = i;
		if (rp->kind == BRT_ARG_IN && p->in_arg < 0)
			p->in_arg = i;
	}
	p->reduce_op = sig->reduce_op ? binop_code(sig->reduce_op) : -1;
	if (sig->kclass == BRT_KERNEL_REDUCE) {
		if (p->reduce_arg < 0) {
			cfail(&c, sig->func, "a reduce kernel needs a reduce "
				"parameter");
			run_interp_free(p);
			return NULL;
		}
		if (sig->reduce_init == BRT_REDUCE_VALUE && p->reduce_op < 0) {
			cfail(&c, sig->func, "no update of the reduce variable "
				"(+=, *=, |=, ^=, &=) found");
			run_interp_free(p);
			return NULL;
		}
	}
	return p;
}

void run_interp_free(run_prog *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nblocks; i++)
		free(p->blocks[i]);
	free(p->blocks);
	free(p->funcs);
	free(p->slot_of);
	free(p->var_acc);
	free(p->enum_val);
	free(p->enum_ok);
	free(p->params);
	free(p->sites);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

const brt_site *run_interp_sites(const run_prog *p, unsigned *n)
{
	*n = p->nsites;
	return p->sites;
}

int run_interp_failed(const run_prog *p, const char **message)
{
	*message = p->message;
	return p->failed;
}

/* ---- running -------------------------------------------------------- */

/* Coordinates of linear index I over DIMS (x fastest). */
static void coords(int64_t i, const int64_t *dims, int64_t *x)
{
	for (int a = 0; a < 4; a++) {
		int64_t d = dims[a] > 0 ? dims[a] : 1;
		x[a] = i % d;
		i /= d;
	}
}

/* The element offset of the point in F through view V (brt.h,
 * "Addressing through a view"). */
static int64_t view_offset(const brt_view *v, const rframe *f)
{
	const int64_t *D = f->call->dims;
	if (v->map == BRT_MAP_SAME)
		return v->base + f->lin;
	int64_t off = v->base;
	for (int i = 0; i < 4; i++) {
		int64_t x = f->coord[i];
		if (v->map == BRT_MAP_RESIZE && D[i] > 0)
			x = x * v->dims[i] / D[i];
		off += x * v->pitch[i];
	}
	return off;
}

/* The value of an iterator stream at the point. */
static void iter_value(const brt_view *v, const rframe *f, brt_type bt,
	rtype rt, rval *o)
{
	const int64_t *D = f->call->dims;
	rval r;
	memset(&r, 0, sizeof r);
	for (unsigned j = 0; j < bt.ncomp && j < 4; j++) {
		int ax = v->rank == 1 ? 0 : (int)j;
		int64_t e = f->coord[ax];
		if (D[ax] > 0 && v->dims[ax] != D[ax])
			e = e * v->dims[ax] / D[ax];
		r.c[j].f = v->lo[j] + v->step[j] * (float)e;
	}
	rtype ft = {VK_F32, (uint8_t)bt.ncomp};
	cvt(o, rt, &r, ft);
}

/* Loads one element of parameter RP (a struct: every field) from MEM
 * into its slots S. */
static void load_value(const rparam *rp, const char *mem, rval *s)
{
	if (!rp->st) {
		load_mem(mem, rp->type, rp->rt, s);
		return;
	}
	for (int k = 0; k < rp->st->nslots; k++)
		sfield_load(NULL, (char *)mem, rp->fields, k,
			rp->st->slot_ty[k], &s[k]);
}

/* Stores one element of parameter RP from its slots S at MEM. */
static void store_value(const rparam *rp, char *mem, const rval *s)
{
	if (!rp->st) {
		store_mem(mem, rp->type, rp->rt, s);
		return;
	}
	for (int k = 0; k < rp->st->nslots; k++)
		sfield_store(NULL, mem, rp->fields, k, rp->st->slot_ty[k],
			&s[k]);
}

/* Loads the kernel's parameters for the point in F. */
static void load_params(const run_prog *p, rframe *f)
{
	const brt_cpu_call *c = f->call;
	for (int i = 0; i < p->nparams; i++) {
		const rparam *rp = &p->params[i];
		rval *s = &f->slots[rp->slot];
		if (rp->kind == BRT_ARG_VALUE) {
			load_value(rp, c->data[i], s);
			continue;
		}
		if (rp->st && (rp->kind == BRT_ARG_IN || rp->kind == BRT_ARG_OUT)) {
			char *mem = c->data[i] + view_offset(&c->views[i], f) *
				(int64_t)rp->type.size;
			for (int k = 0; k < rp->st->nslots; k++)
				if (rp->kind == BRT_ARG_OUT)
					memset(&s[k], 0, sizeof *s);
				else
					sfield_load(NULL, mem, rp->fields, k,
						rp->st->slot_ty[k], &s[k]);
			continue;
		}
		switch (rp->kind) {
		case BRT_ARG_IN:
			if (c->views[i].map == BRT_MAP_ITER)
				iter_value(&c->views[i], f, rp->type, rp->rt, s);
			else
				load_mem(c->data[i] + view_offset(&c->views[i], f) *
					(int64_t)rp->type.size, rp->type, rp->rt, s);
			break;
		case BRT_ARG_GATHER:
		case BRT_ARG_SCATTER:
			memset(s, 0, sizeof *s);
			s->c[0].i = i;
			break;
		default:
			memset(s, 0, sizeof *s);
			break;
		}
	}
}

static void store_outputs(const run_prog *p, rframe *f)
{
	const brt_cpu_call *c = f->call;
	for (int i = 0; i < p->nparams; i++) {
		const rparam *rp = &p->params[i];
		if (rp->kind != BRT_ARG_OUT)
			continue;
		store_value(rp, c->data[i] + view_offset(&c->views[i], f) *
			(int64_t)rp->type.size, &f->slots[rp->slot]);
	}
}

/* A thread's frame slots: the kernel's, and CAP in all for the frames of
 * the subkernels it calls. */
static void thread_init(rthread *th, const run_prog *p, int cap)
{
	memset(th, 0, sizeof *th);
	th->prog = p;
	th->cap = cap;
	th->stack = xcalloc((size_t)th->cap, sizeof *th->stack);
	th->sp = p->main->nslots;
}

/* One map or scatter point at linear index I. */
static void run_point(rthread *th, rframe *f, int64_t i)
{
	const run_prog *p = th->prog;
	f->lin = i;
	coords(i, f->call->dims, f->coord);
	load_params(p, f);
	exec(p->main->body, f);
	store_outputs(p, f);
}

/* The identity of the reduce variable's operator, as the reduction's
 * first value (DESIGN.md reading 8). */
static void reduce_identity(const run_prog *p, rtype t, rval *o)
{
	rval one = {{{.i = 1}}}, zero = {{{.i = 0}}}, ones = {{{.i = -1}}};
	rtype it = {VK_S32, 1};
	switch (p->reduce_op) {
	case B_MUL: cvt(o, t, &one, it); break;
	case B_AND: cvt(o, t, &ones, it); break;
	default: cvt(o, t, &zero, it); break;
	}
}

/* The reduction of [begin, end) of the block into data[r] (brt.h: the
 * CPU call protocol, REDUCE). */
static void run_reduce(rthread *th, rframe *f, int64_t begin, int64_t end,
	int first)
{
	const run_prog *p = th->prog;
	const rparam *rr = &p->params[p->reduce_arg];
	char *acc = f->call->data[p->reduce_arg];
	rval *rs = &f->slots[rr->slot];
	for (int64_t i = begin; i < end; i++) {
		f->lin = i;
		coords(i, f->call->dims, f->coord);
		load_params(p, f);
		if (i == begin && first) {
			if (p->sig->reduce_init == BRT_REDUCE_FIRST &&
				p->in_arg >= 0) {
				/* the first element itself (a struct: the same
				 * type, spec 4.1.2, so the same slots) */
				const rparam *ri = &p->params[p->in_arg];
				if (rr->st)
					memcpy(rs, &f->slots[ri->slot],
						(size_t)rr->st->nslots * sizeof *rs);
				else
					cvt(rs, rr->rt, &f->slots[ri->slot], ri->rt);
				store_value(rr, acc, rs);
				continue;
			}
			if (rr->st)	/* brcheck: E-reduce-var-type */
				memset(rs, 0, (size_t)rr->st->nslots * sizeof *rs);
			else
				reduce_identity(p, rr->rt, rs);
		} else {
			load_value(rr, acc, rs);
		}
		exec(p->main->body, f);
		store_value(rr, acc, rs);
	}
}

/* ---- group kernels: one thread per work-item, syncGroup a barrier ---- */

typedef struct rgroup {
	pthread_mutex_t m;
	pthread_cond_t cv;
	int active;		/* work-items still running */
	int waiting;
	unsigned gen;
} rgroup;

/* syncGroup(): waits until every work-item still running reaches it. */
static void group_barrier(rframe *f)
{
	rgroup *g = f->th->group;
	if (!g)
		return;
	pthread_mutex_lock(&g->m);
	unsigned gen = g->gen;
	if (++g->waiting >= g->active) {
		g->waiting = 0;
		g->gen++;
		pthread_cond_broadcast(&g->cv);
	} else {
		while (gen == g->gen)
			pthread_cond_wait(&g->cv, &g->m);
	}
	pthread_mutex_unlock(&g->m);
}

/* A work-item that has finished no longer holds the others back. */
static void group_leave(rgroup *g)
{
	pthread_mutex_lock(&g->m);
	g->active--;
	if (g->waiting > 0 && g->waiting >= g->active) {
		g->waiting = 0;
		g->gen++;
		pthread_cond_broadcast(&g->cv);
	}
	pthread_mutex_unlock(&g->m);
}

typedef struct ritem {
	rthread th;
	rframe f;
	int inside;		/* the point is inside the domain */
	pthread_t tid;
} ritem;

static void *item_main(void *arg)
{
	ritem *it = arg;
	rframe *f = &it->f;
	const run_prog *p = it->th.prog;
	/* a work-item of a partial group outside the domain runs nothing,
	 * as in the generated code (only active threads run the phases):
	 * it leaves the group, whose barriers then wait for it no more */
	if (it->inside) {
		load_params(p, f);
		exec(p->main->body, f);
		store_outputs(p, f);
	}
	group_leave(it->th.group);
	return NULL;
}

static void run_group(const run_prog *p, const brt_cpu_call *c, int64_t g)
{
	const unsigned *gs = p->sig->group;
	int64_t ng[4] = {1, 1, 1, 1}, gc[4];
	for (int i = 0; i < 3; i++)
		ng[i] = (c->dims[i] + gs[i] - 1) / gs[i];
	coords(g, ng, gc);
	size_t n = (size_t)gs[0] * gs[1] * gs[2];
	ritem *items = xcalloc(n, sizeof *items);
	rval *shared = xcalloc((size_t)p->shared_slots + 1, sizeof *shared);
	uint8_t *sflags = p->checked ? xcalloc((size_t)p->shared_slots + 1,
		4) : NULL;
	rgroup grp;
	pthread_mutex_init(&grp.m, NULL);
	pthread_cond_init(&grp.cv, NULL);
	grp.active = (int)n;
	grp.waiting = 0;
	grp.gen = 0;
	size_t started = 0;
	for (size_t t = 0; t < n; t++) {
		ritem *it = &items[t];
		thread_init(&it->th, p, p->main->need);
		it->th.group = &grp;
		it->f.slots = it->th.stack;
		it->f.call = c;
		it->f.th = &it->th;
		it->f.shared = shared;
		it->f.sflags = sflags;
		int64_t lc[4] = {(int64_t)(t % gs[0]),
			(int64_t)(t / gs[0] % gs[1]),
			(int64_t)(t / gs[0] / gs[1]), 0};
		it->inside = 1;
		int64_t lin = 0, mul = 1;
		for (int a = 0; a < 4; a++) {
			it->f.local[a] = lc[a];
			it->f.coord[a] = a < 3 ? gc[a] * gs[a] + lc[a] : 0;
			int64_t d = c->dims[a] > 0 ? c->dims[a] : 1;
			if (it->f.coord[a] >= d)
				it->inside = 0;
			lin += it->f.coord[a] * mul;
			mul *= d;
		}
		it->f.lin = lin;
	}
	if (!p->has_sync) {
		/* no barrier: the work-items one after the other */
		for (size_t t = 0; t < n; t++)
			item_main(&items[t]);
		started = n;
	}
	for (; started < n; started++)
		if (pthread_create(&items[started].tid, NULL, item_main,
			&items[started]) != 0)
			break;
	if (started < n) {
		/* the work-items that got no thread never arrive */
		pthread_mutex_lock(&grp.m);
		grp.active -= (int)(n - started);
		pthread_mutex_unlock(&grp.m);
		rframe f0 = items[0].f;
		call_fail(&f0, "could not start the threads of a work-group");
	}
	for (size_t t = 0; p->has_sync && t < started; t++)
		pthread_join(items[t].tid, NULL);
	for (size_t t = 0; t < n; t++)
		free(items[t].th.stack);
	pthread_cond_destroy(&grp.cv);
	pthread_mutex_destroy(&grp.m);
	free(shared);
	free(sflags);
	free(items);
}

void run_interp_cpu(const brt_cpu_call *c, int64_t begin, int64_t end,
	int first)
{
	const run_prog *p = c->kernel_data;
	if (p->sig->kclass == BRT_KERNEL_GROUP) {
		for (int64_t g = begin; g < end; g++)
			run_group(p, c, g);
		return;
	}
	rthread th;
	thread_init(&th, p, p->main->need);
	rframe f;
	memset(&f, 0, sizeof f);
	f.slots = th.stack;
	f.call = c;
	f.th = &th;
	if (p->sig->kclass == BRT_KERNEL_REDUCE) {
		run_reduce(&th, &f, begin, end, first);
	} else {
		for (int64_t i = begin; i < end; i++)
			run_point(&th, &f, i);
	}
	free(th.stack);
}

/* *acc = acc (op) *val: a reduce function's body with a = val, b = acc
 * and the call's constant arguments (brt.h, combine_call: c->data holds
 * the VALUE arguments, c->kernel_data the program); a reduce variable's
 * operator. */
void run_interp_combine(const brt_cpu_call *c, const void *val, void *acc)
{
	const run_prog *p = c->kernel_data;
	const rparam *rr = &p->params[p->reduce_arg];
	rval a, b, r;
	if (p->sig->reduce_init == BRT_REDUCE_VALUE && !rr->st) {
		load_mem(val, rr->type, rr->rt, &a);
		load_mem(acc, rr->type, rr->rt, &b);
		rtype t = rr->rt;
		if (t.n == 1 && t.k < VK_S32)
			t.k = VK_S32;
		rval x, y;
		cvt(&x, t, &b, rr->rt);
		cvt(&y, t, &a, rr->rt);
		arith(p->reduce_op, t, rr->rt, &x, &y, &r);
		store_mem(acc, rr->type, rr->rt, &r);
		return;
	}
	if (p->in_arg < 0)
		return;
	rthread th;
	thread_init(&th, p, p->main->need);
	rframe f;
	memset(&f, 0, sizeof f);
	f.slots = th.stack;
	f.th = &th;
	brt_cpu_call call;
	memset(&call, 0, sizeof call);
	call.errors = c->errors;	/* --checked: the launch's records */
	f.call = &call;
	for (int i = 0; i < p->nparams; i++)
		if (p->params[i].kind == BRT_ARG_VALUE && c->data && c->data[i])
			load_value(&p->params[i], c->data[i],
				&f.slots[p->params[i].slot]);
	/* a = val, b = acc: the input and the reduce variable are of the
	 * same type (spec 4.1.2), loaded alike */
	const rparam *ri = &p->params[p->in_arg];
	if (rr->st) {
		load_value(rr, val, &f.slots[ri->slot]);
	} else {
		load_mem(val, rr->type, rr->rt, &a);
		cvt(&f.slots[ri->slot], ri->rt, &a, rr->rt);
	}
	load_value(rr, acc, &f.slots[rr->slot]);
	exec(p->main->body, &f);
	store_value(rr, acc, &f.slots[rr->slot]);
	free(th.stack);
}
