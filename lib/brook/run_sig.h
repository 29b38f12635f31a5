/* run_sig.h - what brrun needs to know about a kernel's parameters: name,
 * role, element type, rank, as libbrt's brt_argdesc describes them. */
#ifndef BROOK_RUN_SIG_H
#define BROOK_RUN_SIG_H

#include "brook/json.h"

#include "brt.h"
#include "brook/diag.h"

/* A scalar or vector field of a struct element (spec 2), nested structs
 * flattened in declaration order ("p.v" for field v of field p). */
typedef struct run_field {
	char name[64];
	brt_type type;		/* scalar kind and components */
	size_t off;		/* bytes into the element: the host layout of
				   brgen(1), C's struct rules with vectors
				   packed (a float3 is 12 bytes aligned to 4) */
} run_field;

typedef struct run_param {
	const char *name;
	const json_t *node;	/* the PARAM node */
	brt_argdesc desc;	/* kind, element type, declared rank; a struct
				   is BRT_STRUCT of its host size */
	size_t decl_dims[BRT_MAX_RANK]; /* gather sizes as written, slowest
				   first; 0 where empty */
	run_field *fields;	/* a struct element's fields, or NULL */
	unsigned nfields;
	unsigned ncomp;		/* numbers per element: the components of
				   every field (a vector's for the rest) */
} run_param;

typedef struct run_sig {
	const json_t *func;	/* the kernel's "func" node */
	const char *name;
	brt_kclass kclass;
	brt_reduce_init reduce_init;
	unsigned group[3];	/* GroupSize, 1 where not given */
	const char *reduce_op;	/* a reduce variable's operator ("+"), or
				   NULL */
	unsigned nparams;
	run_param *params;
} run_sig;

/* Finds kernel NAME in the checked DOC and describes it. Returns 0, or -1
 * after reporting (unknown kernel, a parameter type brrun cannot bind). */
int run_sig_build(const json_t *doc, const char *name, run_sig *sig,
	diag_ctx *d);
void run_sig_free(run_sig *sig);

/* The name of number C of an element of P, for messages: "b.y" of a
 * struct field, "y" of a vector, "" of a scalar. */
const char *run_comp_name(const run_param *p, unsigned c, char *buf,
	size_t len);

/* The identity of a reduce variable's operator: 1 for *, all ones for &,
 * else 0. */
double run_reduce_identity(const char *op, int *all_ones);

/* The kernels of DOC, one name a line, for messages. */
void run_sig_list(const json_t *doc, char *buf, size_t len);

/* The Brook type TY (a resolved "t" object, or a typedef name found in
 * DOC) as an element type; -1 when it is not a scalar or vector. */
int run_elem_type(const json_t *doc, const json_t *ty, brt_type *out);

/* The value of a name in a constant expression, found by the caller
 * (the interpreter's enumeration constants): 0, or -1 when it is not
 * one. */
typedef int (*run_const_id)(const void *ctx, const json_t *e, long long *v);

/* Folds the integer constant expression E into *V: integer and character
 * literals, parentheses, casts to the integer types but ulong (converted
 * as C converts), unary - + ~ !, and binary + - * / % << >> & | ^ && ||
 * == != < <= > >= on operands in int's range; a name through ID(CTX, ...)
 * (ID NULL: no names). 0, or -1 where E is not one it folds (a division
 * by zero, a shift out of range, a float, a call ...). */
int run_const_int(const json_t *e, long long *v, run_const_id id,
	const void *ctx);

#endif
