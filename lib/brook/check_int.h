/* check_int.h - what the parts of brcheck's checker share (check.c and
 * check_*.c): symbols, functions, the context, and each file's entry
 * points. Private to lib/brook/check*.c. */
#ifndef BROOK_CHECK_INT_H
#define BROOK_CHECK_INT_H

#include "brook/json.h"

#include "brook/check.h"
#include "brook/diag.h"

#define CHK_MAX_DEPTH 500
/* Kernel code: the weighted nesting of chk_kernel_depth. OpenCL C
 * compilers (clang) stop at 256 nested brackets of a kind; brgen adds a
 * few around a body (its function's braces, a group kernel's phases,
 * conversions), which the 56 left over cover. brrun's interpreter takes
 * 400 (run_interp.c MAX_NEST). */
#define CHK_KERNEL_DEPTH 200
#define CHK_HASH 4096

/* ---- symbols ------------------------------------------------------------ */

typedef enum chk_symkind {
	SYM_VAR, SYM_PARAM, SYM_FUNC, SYM_TYPEDEF, SYM_ENUM, SYM_TAG
} chk_symkind;

/* Kernel parameter roles (ast.h "role"). */
typedef enum chk_role {
	ROLE_NONE, ROLE_IN, ROLE_OUT, ROLE_GATHER, ROLE_SCATTER, ROLE_VALUE,
	ROLE_REDUCE
} chk_role;

/* The names of ast.h "role", indexed by chk_role. */
extern const char *const chk_role_names[];

typedef struct chk_sym {
	const char *name;
	chk_symkind kind;
	json_t *node;		/* var, param, func node or enum item */
	json_t *type;		/* resolved type as code sees the name */
	chk_role role;		/* kernel parameters */
	int global;		/* declared at file scope */
	int constq;		/* const-qualified */
	int shared;		/* shared local array */
	int local_array;	/* C array declared in a kernel */
	long long shared_size;
	json_t *value;		/* a kernel's local variable: the one value
				   written so far (its initializer or a plain
				   assignment), NULL after another write */
	int writes;		/* ... and how many writes there were */
	struct chk_sym *shadow;	/* the binding this one hides */
	struct chk_sym *next;	/* next symbol of the same scope */
	struct chk_name *entry;
	struct chk_scope *scope;	/* where it is declared */
} chk_sym;

typedef struct chk_name {
	const char *name;
	chk_sym *top;
	struct chk_name *hnext;
} chk_name;

typedef struct chk_table {
	chk_name *bucket[CHK_HASH];
} chk_table;

typedef struct chk_scope {
	chk_sym *syms;
	struct chk_scope *up;
} chk_scope;

/* ---- functions ---------------------------------------------------------- */

typedef enum chk_class {
	CLASS_NONE, CLASS_MAP, CLASS_REDUCE, CLASS_SCATTER, CLASS_GROUP
} chk_class;

/* The names of ast.h "class", indexed by chk_class. */
extern const char *const chk_class_names[];

typedef struct chk_fn {
	const char *name;
	json_t *first;		/* first declaration */
	json_t *def;		/* the definition, or NULL */
	int kernel;		/* kernel or reduce keyword */
	int defined;		/* definition already checked (in order) */
	int sub;		/* called from kernel code */
	chk_class cls;
	long long groupsize;	/* product of GroupSize, 0 if none */
	long long group_x;	/* its first value: instanceInGroup().x is
				   below it */
	json_t *group_use;	/* first instanceInGroup()/syncGroup() */
	const char *group_what;
	int nshared;
	const char *reduce_op;	/* the reduction variable's first operator
				   (an ordinary kernel: its partials' too) */
} chk_fn;

typedef struct chk_edge {
	int from, to;
	json_t *call;
} chk_edge;

/* ---- the context -------------------------------------------------------- */

typedef struct chk_ctx {
	json_t *doc;
	const check_options *o;
	diag_ctx *d;
	int malformed;
	int depth, too_deep;
	int loops, switches;	/* the loops and switches around a statement */
	long long next_id;
	json_t *cur;		/* innermost node with a location */
	json_t *types;		/* name -> canonical type object */
	chk_table names, tags;
	chk_scope *scope;
	chk_fn *fns;
	size_t nfns, capfns;
	json_t *fn_index;	/* name -> index into fns */
	chk_edge *edges;
	size_t nedges, capedges;
	/* the function being checked */
	chk_fn *fn;
	json_t *fnode;
	int kern;		/* inside a kernel or reduce function */
	int saw_return;
	const json_t *write_el;	/* the element the write being checked
				   stores to: no read (chk_target_expr) */
	int callee;		/* checking the name a call calls */
	int in_params;		/* in the sizes of a function's parameters:
				   see chk_id_expr */
	const json_t *stmt_e;	/* the expression of the expression statement
				   being checked, without parentheses */
	const json_t *step_e;	/* ... of the for loop's step being checked */
	json_t *undefined;	/* names E-undefined has reported in the
				   function being checked: once each */
} chk_ctx;

/* ty_name for a message; freed by the caller. */
#define TN(t) ty_name(t)

/* check_diag.c */
/* An error at N (or at the innermost node with a location). */
void chk_err(chk_ctx *c, const json_t *n, const char *id,
	const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* A warning of LEVEL (1..3): with -a, printed when LEVEL <= -wN; without,
 * printed at level 1 and an error (ID E-...) above (spec 9). */
void chk_warn(chk_ctx *c, int level, const json_t *n, const char *id,
	const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The AST itself is wrong (edited by hand, or another tool's bug). */
void chk_bad(chk_ctx *c, const json_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* check_scope.c */
/* The canonical type object for a simple type name (borrowed). */
json_t *chk_T(chk_ctx *c, const char *name);
int chk_has_qual(const json_t *quals, const char *q);
/* The qualifiers of a "quals" array as a set of bits, so that a node's
 * qualifiers are read once however many rules ask about them. */
enum {
	CHK_Q_CONST = 1, CHK_Q_VOLATILE = 2, CHK_Q_RESTRICT = 4, CHK_Q_OUT = 8,
	CHK_Q_VOUT = 16, CHK_Q_REDUCE = 32, CHK_Q_ITER = 64, CHK_Q_SHARED = 128
};
unsigned chk_quals(const json_t *quals);
/* Resolves typedef names and struct tags in T: a new reference. Struct
 * bodies are not entered (member access resolves field types). */
json_t *chk_resolve(chk_ctx *c, json_t *t);
/* Sets n["ty"] = t (a new reference, consumed); returns t, borrowed. */
json_t *chk_set_ty(json_t *n, json_t *t);
json_t *chk_set_ty_b(json_t *n, json_t *t);
/* Vector type of scalar S with N components (borrowed), or unknown. */
json_t *chk_vec(chk_ctx *c, const char *s, int n);
chk_sym *chk_lookup(chk_table *tab, const char *name);
void chk_table_free(chk_table *tab);

/* A name like one not found, for "did you mean": init with the name,
 * try candidates, then suffix gives "; did you mean \"best\"?" or "". */
typedef struct chk_near {
	const char *name;
	const char *best;
	int dist;
	char text[96];
} chk_near;
void chk_near_init(chk_near *n, const char *name);
void chk_near_try(chk_near *n, const char *cand);
/* Tries the names TAB has in scope whose symbols are of a kind in KINDS
 * (bits 1 << SYM_*). */
void chk_near_table(chk_near *n, chk_table *tab, unsigned kinds);
/* Tries the functions in scope and those the file declares further
 * down (a call above its callee's declaration). */
void chk_near_funcs(chk_near *n, chk_ctx *c);
const char *chk_near_suffix(chk_near *n);
void chk_push_scope(chk_ctx *c);
void chk_pop_scope(chk_ctx *c);
/* The symbol NAME declared in the innermost scope, if any. */
chk_sym *chk_in_scope(chk_ctx *c, chk_table *tab, const char *name);
/* Declares NAME in the innermost scope; TYPE is consumed. */
chk_sym *chk_declare(chk_ctx *c, chk_table *tab, const char *name,
	chk_symkind kind, json_t *node, json_t *type);
void chk_give_id(chk_ctx *c, json_t *n);
long long chk_node_id(const json_t *n);
chk_fn *chk_fn_find(chk_ctx *c, const char *name);
chk_fn *chk_fn_add(chk_ctx *c, json_t *f);
void chk_edge_add(chk_ctx *c, chk_fn *from, chk_fn *to, json_t *call);
json_t *chk_strip_paren(json_t *e);
/* instance() or instanceInGroup(), or a swizzle of it: int4 that may be
 * assigned to uint4 (DESIGN.md reading 1). */
int chk_is_instance(json_t *e);
/* The declared name an lvalue or array expression is rooted at. */
chk_sym *chk_root_sym(chk_ctx *c, json_t *e);
void chk_iter_qual(chk_ctx *c, const json_t *n);
int chk_is_lvalue(json_t *e);
/* Constant integer value of a literal size expression. 1 when E is an
 * int literal (possibly parenthesized). */
int chk_int_literal(json_t *e, long long *v);
/* The value of an int expression of literals, folded in 32-bit int; 1
 * when E is one that does not overflow. */
int chk_int_const(json_t *e, long long *v);

/* check_conv.c */
/* Where an implicit conversion happens: it picks the message of spec 7. */
typedef enum conv_site {
	CONV_ASSIGN, CONV_ELEMENT, CONV_ARG, CONV_RETURN
} conv_site;

/* spec 7.1: "Mismatched type for argument n". */
void chk_arg_type_err(chk_ctx *c, json_t *a, int n, const json_t *at,
	const json_t *pt);
/* The implicit conversion of E, of type FROM, to TO in kernel code. Strong
 * typing (the default) allows none but the promotion of a literal; with -a
 * each conversion warns at the level of what it loses. */
void chk_convert(chk_ctx *c, json_t *at, json_t *e, json_t *from,
	json_t *to, conv_site site, int n);
/* The type both operands of a binary operator are brought to
 * (ty_promoted, as brgen computes them), not const. */
json_t *chk_promoted(json_t *l, json_t *r);
/* Brings the operands of a binary operator (or the arms of ?:) to one type
 * in kernel code; returns that type (borrowed). */
json_t *chk_unify(chk_ctx *c, json_t *at, json_t *le, json_t *l,
	json_t *re, json_t *r, int cond);

/* check_expr.c */
json_t *chk_unknown(chk_ctx *c, json_t *e);
json_t *chk_opt_expr(chk_ctx *c, json_t *e);
/* A type object of the AST, resolved (new reference). Reports a missing
 * one as a malformed AST. */
json_t *chk_decl_type(chk_ctx *c, json_t *n, const char *key);
/* spec 6.3.8: a condition must be a scalar in kernel code. */
void chk_condition(chk_ctx *c, json_t *e);
json_t *chk_id_expr(chk_ctx *c, json_t *e);
json_t *chk_expr(chk_ctx *c, json_t *e);
/* chk_expr of E, the target of a write (an assignment, ++, --, a
 * subkernel's out argument): its element is stored to, not read. */
json_t *chk_target_expr(chk_ctx *c, json_t *e);

/* check_call.c */
/* Product of the constant sizes of a gather array; 0 when one is missing. */
long long chk_array_count(json_t *t);
/* The "role" a parameter was given by chk_classify(). */
chk_role chk_role_of(const json_t *p);
json_t *chk_call_expr(chk_ctx *c, json_t *e);

/* check_write.c */
/* Kernel rules on the target of an assignment, ++/-- or out argument.
 * NODE: the assign node ("reduce_op" goes there), the ++ or -- node, or
 * the subkernel call of the out argument. */
void chk_write_check(chk_ctx *c, json_t *target, json_t *node,
	const char *op);
/* The element a write to TARGET stores to: TARGET without its
 * parentheses, fields and components. */
json_t *chk_write_el(json_t *target);
/* E-shared-read-range: E, an index of shared array S read in a group
 * kernel, is out of the array. */
void chk_shared_read(chk_ctx *c, chk_sym *s, json_t *e);

/* check_decl.c */
void chk_initializer(chk_ctx *c, json_t *init, json_t *type, json_t *at);
/* Checks the size expressions inside a type (array sizes, stream dims). */
void chk_walk_sizes(chk_ctx *c, json_t *t);
/* The C qualifiers on T and the types it is made of (chk_quals). */
unsigned chk_type_quals(const json_t *t);
int chk_type_has_ptr(const json_t *t);
/* spec 3.2: what a stream may hold. */
int chk_stream_elem_ok(chk_ctx *c, json_t *t, int depth);
/* spec 6.1.2 and 2: reserved types; double vectors beyond two. */
void chk_kernel_type(chk_ctx *c, json_t *at, json_t *t);
void chk_decl(chk_ctx *c, json_t *d);
/* spec 7.1: vout is refused. */
void chk_vout(chk_ctx *c, json_t *at);
/* spec 3.2: a stream of arrays (E-unsupported-type); 1 when T is one. */
int chk_stream_of_arrays(chk_ctx *c, json_t *at, json_t *t);
/* spec 7.1: at most BRT_MAX_RANK dimensions for a stream or array T. */
void chk_stream_rank(chk_ctx *c, json_t *at, json_t *t);

/* check_stmt.c */
void chk_block_items(chk_ctx *c, json_t *b);
/* E-jump-into-stream: a goto or case label past a stream's declaration
 * in the host function whose body is BODY. */
void chk_jumps(chk_ctx *c, const json_t *body);
/* W-sync-nested, W-sync-loop: syncGroup() where brgen, which runs a
 * group kernel's threads phase by phase, refuses it. */
void chk_sync_places(chk_ctx *c, const json_t *body);
/* E-too-deep: kernel function FN nests deeper than CHK_KERNEL_DEPTH
 * (man/brcheck.1 gives the weights). */
void chk_kernel_depth(chk_ctx *c, const json_t *fn);
/* Whether control may reach the end of BODY, a function's block, without
 * a return (W-missing-return). */
int chk_falls_off(const json_t *body);

/* check_kernel.c */
/* Sets "role" on each parameter and "class" on the function (ast.h);
 * spec 4.1.2 (footnote 3: a reduce parameter makes a reduction), guide
 * 1.17 (GroupSize), 4.2 (scatter). */
void chk_classify(chk_ctx *c, chk_fn *fn, json_t *f);
/* A function: prototype or definition, kernel or not. */
void chk_func_decl(chk_ctx *c, json_t *f);
/* E-generated-name: NAME, declared anywhere, begins with brg_ or BRG_. */
void chk_brg_name(chk_ctx *c, const json_t *at, const char *name);
/* E-generated-name, E-reserved-name: NAME, a kernel's name, is one the
 * generated code takes or a word of OpenCL C or of the C headers. */
void chk_kernel_name(chk_ctx *c, const json_t *at, const char *name);
/* E-reserved-name: a typedef, tag, field or enum constant of the file or
 * of a kernel named like a word of OpenCL C. */
void chk_type_name(chk_ctx *c, const json_t *at, const char *name);
/* The same for NAME, a variable or parameter: in kernel code, also one
 * the generated code gives a parameter's view, element, ...; in host
 * code, brg_... and BRG_... only. */
void chk_generated_name(chk_ctx *c, const json_t *at, const char *name);
void chk_post_checks(chk_ctx *c);

#endif
