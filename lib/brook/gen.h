/* gen.h - brgen's code generator: from a checked AST (ast.h, stage
 * "checked") to the host C, the OpenCL C and the CPU C of a Brook+ program.
 * See brgen(1) for the output's layout. */
#ifndef BROOK_GEN_H
#define BROOK_GEN_H

#include "brook/json.h"

#include "brook/diag.h"
#include "brook/util.h"

typedef struct gen_options {
	int line_directives;	/* -l: #line directives to the .br */
	int checked;		/* --checked: report out-of-range gathers and
				   scatters */
	const char *prefix;	/* -o PREFIX: names PREFIX.h in PREFIX.c */
	int fp_contract;	/* --fp-contract=fast: the OpenCL C may fuse
				   a * b + c (FP_CONTRACT ON) */
	int fast_math;		/* --fast-math: that, and OpenCL's own rsqrt */
	int jobs;		/* -j: threads for the host C and the OpenCL
				   C at once (2) or not (1); 0: 2 where the
				   process has more than one processor */
	json_t **sites;		/* not NULL, with checked: receives the
				   accesses the code instruments, in the
				   order it numbers them (brt.h, brt_site):
				   a new array of {file, line, kernel, array,
				   scatter} the caller releases; NULL after
				   errors */
} gen_options;

/* Writes the program: C_OUT receives PREFIX.c (host code, the OpenCL C as
 * a string, the CPU kernels, one C function per kernel), H_OUT PREFIX.h
 * (declarations with extern "C" guards), CL_OUT the OpenCL C alone. Any of
 * the three may be NULL. Returns 0, or 1 after reporting errors through D
 * (an AST that is not checked, or a construct brgen cannot translate). */
int gen_program(const json_t *doc, const gen_options *o, strbuf *c_out,
	strbuf *h_out, strbuf *cl_out, diag_ctx *d);

/* brgen's index of a document's declarations, made while the document is
 * read: gen_prep_decl is ast_read_fd_each's EACH (ast.h), with the
 * gen_prep as its ARG. gen_program_prepared takes it where it indexed the
 * declarations of DOC, every one, and changes the nodes it notes then;
 * otherwise (a document read again, or checked again after reading) it
 * indexes DOC itself, as gen_program does. The caller frees PREP after. */
typedef struct gen_prep gen_prep;
gen_prep *gen_prep_new(void);
void gen_prep_decl(void *prep, json_t *decl, size_t i);
void gen_prep_free(gen_prep *prep);
int gen_program_prepared(const json_t *doc, gen_prep *prep,
	const gen_options *o, strbuf *c_out, strbuf *h_out, strbuf *cl_out,
	diag_ctx *d);

/* The name of kernel NAME in the OpenCL program: NAME itself, or
 * "brk_NAME" when NAME is an OpenCL C built-in or reserved word (a kernel
 * called mad, as in spec 4.1.1). Returns BUF. */
const char *gen_cl_name(const char *name, char *buf, size_t len);

#endif
