/* gen_int.h - what the parts of brgen share: the generator's context, the
 * kernel-code printer (one printer, two targets: OpenCL C and the CPU
 * backend's C99) and type helpers. Not installed; see gen.h for the API. */
#ifndef BROOK_GEN_INT_H
#define BROOK_GEN_INT_H

#include "brook/json.h"

#include "brook/diag.h"
#include "brook/gen.h"
#include "brook/util.h"

typedef enum gen_target {
	GEN_CL,		/* OpenCL C, for the OpenCL backend */
	GEN_CPU		/* C99, for the CPU backend (in PREFIX.c) */
} gen_target;

/* A streamGatherOp or streamScatterOp of host code (gen_ops.c). */
typedef struct gen_op {
	const json_t *call;
	int scatter;
	const json_t *elem, *index;	/* element and index types */
	const json_t *out;		/* gather: t's element type (elem, or
					   what fn gives) */
	const json_t *fn;		/* scatter's reduce function, gather's
					   kernel, or NULL */
} gen_op;

/* What brgen finds out once about a kernel and asks again per target,
 * entry point and mode of a domain point (gen.c, gen_fn_info). */
typedef struct gen_fninfo {
	const json_t *fn;
	int pos;		/* its body reads the point's position
				   (gen_entry.c, needs_position); -1: not
				   yet known */
	int records;		/* gen_records: -1 not yet known */
	int nolv;		/* gen_nolv's loop test: -1 not yet known */
	int aff_known;		/* aff below is known */
	struct gen_aff *aff;	/* its row interior (gen_aff_scan) */
} gen_fninfo;

/* Kernels whose CPU code gen_program's second thread prints (gen.c). */
typedef struct gen_pieces gen_pieces;

/* The whole run. */
typedef struct gen_ctx {
	const json_t *doc;
	const gen_options *o;
	diag_ctx *d;
	util_map byid;		/* N -> the declaration with "id": N (a
				   table: gen_decl asks it at every name) */
	json_t *typedefs;	/* typedef name -> its type */
	json_t *tags;		/* struct/union tag -> its defining type */
	json_t *enum_int;	/* {"t":"int"}: what gen_resolve makes of an
				   enum (C gives enums int's size here) */
	json_t *done[2];	/* helper names already defined, per target */
	strbuf help[2];		/* helper definitions, per target */
	json_t *idxof;		/* "func id" -> object of param names that
				   indexof() names in that function */
	int uses_double;	/* the OpenCL program needs cl_khr_fp64 */
	json_t *sites;		/* --checked: the instrumented accesses, in
				   order: [{file, line, kernel, array,
				   scatter, node}], the same on both targets
				   (brt.h, brt_site) */
	gen_op *ops;		/* the stream operators, in order */
	int nops, capops;
	int nerrors;
	int i32;		/* printing the CPU's 32-bit instance of kernel
				   code (brt.h, brt_cpu_call.index32) */
	const struct gen_aff *aff; /* ... and its row interior (gen_affine.c) */
	const struct gen_aff *interior; /* the row interior of the kernel
				   whose CPU entries are printed */
	gen_fninfo *fns;	/* per kernel, in the order asked */
	size_t nfns, capfns;
	json_t *kept;		/* the helper names handed out (gen_kept) */
	gen_pieces *pieces;	/* kernels whose CPU code the second thread
				   prints (gen_cpu_kernel_at), or NULL */
	struct gen_late *late;	/* a context of a thread of gen_program: its
				   diagnostics, kept for the end (gen.c) */
	size_t nlate, caplate;
	int keep_late;		/* ... while this is set */
} gen_ctx;

/* --- gen_affine.c: row interiors of the CPU's packed path ------------- */
typedef struct gen_aff gen_aff;
/* A guard of the interior: a condition E that holds there when ARG is 1
 * and fails when 0 (PARAM NULL), or coordinate ARG of gather PARAM, at
 * index expression E, inside the array. */
typedef struct gen_aff_guard {
	const json_t *e;
	int arg;
	const char *param;
} gen_aff_guard;
/* The scan of map kernel FN; NULL when no gather has a coordinate x + c. */
gen_aff *gen_aff_scan(gen_ctx *g, const json_t *fn);
void gen_aff_free(gen_aff *a);
/* ... scanned once for both targets, freed with the context */
const gen_aff *gen_aff_of(gen_ctx *g, const json_t *fn);
/* 1 when E is x + *C in the interior (int or float) */
int gen_aff_value(const gen_aff *a, const json_t *e, long *c);
/* 1 when E is the point's y + *C in the interior (int or float) */
int gen_aff_yvalue(const gen_aff *a, const json_t *e, long *c);
/* a conditional's branch in the interior (1 true, 0 false), -1 none */
int gen_aff_branch(const gen_aff *a, const json_t *e);
/* 1 when gather read E is read without clamps in the interior */
int gen_aff_gather(const gen_aff *a, const json_t *e);
/* 1 when local VAR (a "var" node) is one the scan follows */
int gen_aff_local(const gen_aff *a, const json_t *var);
const gen_aff_guard *gen_aff_guards(const gen_aff *a, size_t *n);

/* One function of kernel code being printed. */
typedef struct gen_fn {
	gen_ctx *g;
	gen_target t;
	const json_t *fn;	/* the "func" node */
	json_t *names;		/* "id" -> how a name prints ("(*c)", "a_e[t]") */
	int group;		/* a GroupSize kernel printed inline */
	int phase_split;	/* top-level syncGroup() splits phases */
	int depth;		/* statement nesting, for indentation */
	const json_t *discard;	/* the expression of an expression statement
				   or a for loop's step being printed: its
				   value is not used */
	const char *ret_flag;	/* a group kernel with return: the thread's
				   "has returned" flag, else NULL */
	int phase, nphase;	/* ... the current phase's label number */
	int phase_ret;		/* ... and whether a return jumps to it */
	int sync_loop;		/* ... on the CPU, in the phases of a loop
				   with syncGroup() whose body breaks or
				   continues: 1 + the number of its flags
				   brg_brkN and brg_cntN; else 0 */
	int jump_nest;		/* ... loops and switches around the
				   statement printed, inside those phases */
	const json_t *fast_ctr;	/* the counter (its decl) of a counted loop
				   being printed in its unclamped copy */
	int unclamped;		/* a gather read in a row interior without
				   clamps (gen_affine.c) */
	int copy_in;		/* printing the copy of an out argument that
				   sub_call writes back: no --checked site */
	const json_t *shadow;	/* a float local (its decl) that gathers
				   read as the integers brg_sh_NAME in
				   this copy of a loop (shadow_loop) */
	int sh_fast;		/* ... without clamps nor cap, in the loop's
				   counted copy (sh_counted) */
	int sh_keepf;		/* ... which keeps the float's own steps */
	const json_t *skip;	/* a statement that copy leaves out: the
				   float counter's step */
	json_t *smode;		/* --checked, a group kernel: "%p" of the
				   index node of a 1-D shared array's
				   element -> how the statement uses it
				   (gen_kcode.c, shared_mode); built at
				   the first such index */
	struct gen_gplan *gplan; /* a group kernel on the CPU: its uniform
				   loops (gen_group.c), else NULL */
	const char *tmask;	/* ... the test of a thread that runs a phase */
	const char *tprolog;	/* ... the lines that start a thread's phase */
	int tloop;		/* ... printing a uniform loop's body */
	int tseg;		/* ... or a phase's split thread loop */
	long tsplit;		/* ... whose thread loop is split by this */
	json_t *gin;		/* ... "%p" of the gather coordinates known
				   to lie inside their arrays */
	json_t *soa;		/* ... its shared arrays kept by components
				   (gen_soa_plan), else NULL */
	json_t *gdep;		/* "id" of each local a gathered value
				   reaches (gen_kcode.c, gathered_dep),
				   made at the first question */
} gen_fn;

/* --- gen_kcode.c: the table of --checked accesses (brt.h, brt_site) ---- */
void gen_sites_table(gen_ctx *g, strbuf *b);
/* Whether kernel FN takes a brt_records (brt.h): it has a scatter
 * parameter, or --checked and it is not a reduction. */
int gen_records(gen_ctx *g, const json_t *fn);

/* --- gen.c: context, diagnostics, types -------------------------------- */
/* FN's entry in G->fns, made on the first question */
gen_fninfo *gen_fn_info(gen_ctx *g, const json_t *fn);
void gen_error(gen_ctx *g, const json_t *n, const char *id,
	const char *fmt, ...) __attribute__((format(printf, 4, 5)));
const json_t *gen_decl(gen_ctx *g, const json_t *idnode); /* by "ref" */
const json_t *gen_resolve(gen_ctx *g, const json_t *ty);  /* typedefs */
const char *gen_scalar(const json_t *ty);	/* canonical, NULL if none */
/* The name of an arithmetic type on target T ("float4", "signed char"). */
const char *gen_arith_name(gen_target t, const char *scalar, int n);
/* Prints the declaration of NAME (NULL: an abstract type) of type TY. */
void gen_type(gen_ctx *g, gen_target t, strbuf *b, const json_t *ty,
	const char *name);
/* Host layout (packed vectors, C struct rules) of an element type. */
size_t gen_size(gen_ctx *g, const json_t *ty, size_t *align);
/* The parameter's kernel role ("in", "out", ...); "" if none. */
const char *gen_role(const json_t *param);
int gen_has_qual(const json_t *n, const char *q);
/* Element type of a stream or array parameter type; the type itself
 * otherwise. */
const json_t *gen_elem(gen_ctx *g, const json_t *ty);
int gen_rank(gen_ctx *g, const json_t *ty);

/* --- gen_kcode.c: kernel code, both targets ----------------------------- */
void gen_kexpr(gen_fn *f, strbuf *b, const json_t *e);
/* E converted to type TO (an arithmetic type): casts, splats, conversions. */
void gen_kconv(gen_fn *f, strbuf *b, const json_t *e, const json_t *to);
void gen_kstmt(gen_fn *f, strbuf *b, const json_t *s);
/* The name under an assignment target (v, v.x, v[i]), if any. */
const json_t *gen_target_decl(gen_ctx *g, const json_t *e);
/* Whether N may write one of the declarations DS[0..ND): assigns or
 * steps it, or passes it to a function (an out parameter); with LOOPS,
 * also whether N holds a loop (gen_kcode.c). */
int gen_writes(gen_ctx *g, const json_t *n, const json_t *const *ds,
	int nd, int loops);
void gen_indent(strbuf *b, int depth);
/* The characters of S inside a C string literal: quotes and backslashes
 * escaped, control characters as octal escapes, and ?? as ?\? (no trigraph). */
void gen_c_chars(strbuf *b, const char *s);
/* "TY NAME = <zeros>;" and a newline: gen_zero_init's zero. */
void gen_zero_decl(gen_ctx *g, gen_target t, strbuf *b, const json_t *ty,
	const char *name);
/* S inside a comment: a star before a slash is set apart from it. */
void gen_comment_chars(strbuf *b, const char *s);
/* Whether the kernel code under N calls instance() (or indexof in a
 * subkernel), syncGroup(), or indexof on a parameter. */
int gen_uses(const json_t *n, const char *what);
/* ... any of the NULL-terminated WHAT, in one walk */
int gen_uses_any(const json_t *n, const char *const *what);
/* the first node of n that gen_uses_any() finds, or NULL */
const json_t *gen_find_any(const json_t *n, const char *const *what);
/* Whether the CPU functions of kernel FN (its bodies and map entries)
 * carry BRG_NOLV (gen_kcode.c's prelude): a map or scatter kernel whose
 * body has a loop. */
int gen_nolv(gen_ctx *g, gen_target t, const json_t *fn);
/* NAME kept for as long as G: the helpers' names that the printers hand
 * back (a buffer of their own would be shared by gen_program's threads). */
const char *gen_kept(gen_ctx *g, const char *name);
/* The CPU helper that converts a scalar or vector FROM to the vector TO
 * (brg_splat_S_T, brg_cvt_F_T; in the CPU code's helpers, which come
 * before the host code). */
const char *gen_cpu_cvt(gen_ctx *g, const json_t *from, const json_t *to);
/* Whether helper NAME is still to be defined for target T: then it is
 * marked defined, its text starting at the end of G->help[T] (where
 * G->done[T] keeps its offset), and the caller appends that text at once,
 * with no other helper's inside it (gen.c merges the helpers of kernels
 * printed by another thread, cut at these offsets). */
int gen_need(gen_ctx *g, gen_target t, const char *name);
/* Helpers: defined once per target in g->help[t], named by the result. */
const char *gen_helper_elem(gen_ctx *g, gen_target t, const char *op,
	const json_t *ty);
/* The body function of every kernel and subkernel: "K__body(...)". */
void gen_body_function(gen_ctx *g, gen_target t, strbuf *b,
	const json_t *fn);
/* K__guard32 of a row interior (gen_affine.c), with G->i32 set; on
 * OpenCL K__guard. */
void gen_guard_function(gen_ctx *g, gen_target t, strbuf *b,
	const json_t *fn, const gen_aff *a);
/* The parameters of the body function (without the ctx argument). */
void gen_body_params(gen_ctx *g, gen_target t, strbuf *b, const json_t *fn);
/* Fixed prelude text shared by both targets (index arithmetic). */
void gen_prelude_common(gen_target t, strbuf *b);
/* Its parts that kernel bodies call (gathers, scatters, records), which
 * the CPU prelude repeats for the 32-bit instance. */
extern const char gen_index_helpers[];
extern const char gen_record_helpers[];
/* Host layout loads for OpenCL structs. */
int gen_is_group(const json_t *fn);
/* The shared variables of a group kernel's BODY, its top-level "shared"
 * declarations (guide 1.17.2), in order:
 *	gen_shared_foreach(body, s, v) { ... }
 * with S the cursor's name and V a json_t * set to each. */
typedef struct {
	const json_t *items;
	size_t i, j;
} gen_shared;
json_t *gen_shared_next(gen_shared *s);
#define gen_shared_foreach(body, s, v) \
	for (gen_shared s = { ast_arr((body), "items"), 0, 0 }; \
		((v) = gen_shared_next(&s)) != NULL; )
int gen_is_sync_loop(const json_t *s);
int gen_is_sync_stmt(const json_t *s);
void gen_group_split(gen_fn *f, strbuf *b, const json_t *body,
	const char *thread_loop_open, const char *thread_loop_close,
	const char *barrier);
/* The top-level locals of group kernel body BLK, those of its loops with
 * syncGroup() included (they live across phases), shared ones left out,
 * appended to OUT (gen_group.c). */
void gen_hoisted(const json_t *blk, json_t *out);

/* --- gen_group.c: uniform loops of a group kernel on the CPU ---------- */
typedef struct gen_gplan gen_gplan;
/* The plan of group kernel FN of N threads a group, GS0 of them along x
 * (0 when the group has more dimensions); NULL without memory. */
gen_gplan *gen_gplan_new(gen_ctx *g, const json_t *fn, long n, long gs0);
void gen_gplan_free(gen_gplan *p);
/* 1 when VAR (a "var" node) is a variable of a uniform loop's iteration:
 * no per-thread array for it */
int gen_gplan_local(const gen_gplan *p, const json_t *var);
/* 1 when S, a statement at the top of a phase, is a uniform loop of
 * plan P (P may be NULL): the phase that holds it ends before it, and
 * gen_group_loop prints it. */
int gen_gplan_loop(const gen_gplan *p, const json_t *s);
int gen_group_loop(gen_fn *f, strbuf *b, const json_t *s);
/* Prints E when it has another form in a uniform loop's thread loop: 1,
 * else 0. */
int gen_group_expr(gen_fn *f, strbuf *b, const json_t *e);
/* Prints the phase ITEMS[LO..HI) when its thread loop is split: 1, else
 * 0 (nothing printed). */
int gen_group_segment(gen_fn *f, strbuf *b, const json_t *items, size_t lo,
	size_t hi);
/* 1 when gather coordinate COORD is known to lie inside its array */
int gen_group_inside(const gen_fn *f, const json_t *coord);
/* The shared arrays of vectors of group kernel FN that the CPU keeps as
 * one array per component, brg_soa_NAME_x ... ("id" -> true; NULL when
 * none, and under --checked, whose array indices are checked), and whether
 * declaration D is one of SET's. */
json_t *gen_soa_plan(gen_ctx *g, const json_t *fn);
int gen_soa_is(const json_t *set, const json_t *d);
/* " = " and the zero a kernel's local declared without an initializer
 * starts at (brook(7)): 0, (floatN)(0) in OpenCL C, or {0}. */
void gen_zero_init(gen_ctx *g, gen_target t, strbuf *b, const json_t *ty);
/* A statement of a phase (gen_kcode.c): a declaration gives its variable
 * its value (it is declared per thread before the phases). */
void gen_phase_stmt(gen_fn *f, strbuf *b, const json_t *s);

/* --- gen_ops.c: streamGatherOp, streamScatterOp ------------------------ */
/* CALL, a call in the body of a function that is not a kernel (gen.c
 * finds them in its walk, in order): a stream operator becomes a kernel */
void gen_ops_site(gen_ctx *g, const json_t *call);
int gen_ops_find(gen_ctx *g, const json_t *call);
void gen_ops_cl(gen_ctx *g, strbuf *b);
void gen_ops_cpu(gen_ctx *g, strbuf *b);
void gen_ops_protos(gen_ctx *g, strbuf *b);

/* --- gen_cl.c ----------------------------------------------------------- */
/* The OpenCL program: prelude, types, every kernel. */
void gen_cl_program(gen_ctx *g, strbuf *b);

/* --- gen_cpu.c ---------------------------------------------------------- */
/* The CPU code of kernel FN: body and brt_cpu_fn entry points. */
void gen_cpu_kernel(gen_ctx *g, strbuf *b, const json_t *fn);
/* ... that, or the same text printed by gen_program's second thread */
void gen_cpu_kernel_at(gen_ctx *g, strbuf *b, const json_t *fn);
void gen_cpu_prelude(gen_ctx *g, strbuf *b);

/* --- gen_c.c ------------------------------------------------------------ */
/* The host files in two steps: the declarations of the program, with the
 * CPU code of its kernels, which need not wait for the OpenCL program;
 * then the files, with it (CL), in C_OUT and H_OUT (either may be NULL).
 * ROWS: CL as gen_c_cl_rows writes it, made already (by the thread that
 * made CL), or NULL. gen_host_files frees GH; gen_host_free frees one not
 * used. */
typedef struct gen_host gen_host;
gen_host *gen_host_body(gen_ctx *g);
void gen_host_files(gen_host *gh, strbuf *c_out, strbuf *h_out,
	const char *cl, const strbuf *rows);
/* The OpenCL program CL as the initializer of brg_cl_source, a C string
 * a row, to OUT. */
void gen_c_cl_rows(strbuf *out, const char *cl);
void gen_host_free(gen_host *gh);

/* Iteration over the top-level kernel functions (with a body). */
int gen_is_kernel(const json_t *n);
const char *gen_kclass(const json_t *fn);	/* "map", "reduce", ... */

#endif
