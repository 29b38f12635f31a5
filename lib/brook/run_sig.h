/* run_sig.h - what brrun needs to know about a kernel's parameters: name,
 * role, element type, rank, as libbrt's brt_argdesc describes them. */
#ifndef BROOK_RUN_SIG_H
#define BROOK_RUN_SIG_H

#include <jansson.h>

#include "brt.h"
#include "brook/diag.h"

typedef struct run_param {
	const char *name;
	const json_t *node;	/* the PARAM node */
	brt_argdesc desc;	/* kind, element type, declared rank */
	size_t decl_dims[BRT_MAX_RANK]; /* gather sizes as written, slowest
				   first; 0 where empty */
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

/* The identity of a reduce variable's operator: 1 for *, all ones for &,
 * else 0. */
double run_reduce_identity(const char *op, int *all_ones);

/* The kernels of DOC, one name a line, for messages. */
void run_sig_list(const json_t *doc, char *buf, size_t len);

/* The Brook type TY (a resolved "t" object, or a typedef name found in
 * DOC) as an element type; -1 when it is not a scalar or vector. */
int run_elem_type(const json_t *doc, const json_t *ty, brt_type *out);

/* Value of a constant integer expression (literals, enum-free arithmetic),
 * for array sizes; -1 when it is not one. */
int run_const_int(const json_t *e, long long *v);

#endif
