/* type.h - the type system of Brook+ over the JSON type objects of ast.h.
 *
 * Types are the {"t": ...} objects of ast.h. These helpers read them; they
 * never resolve typedefs (the checker does that and writes resolved types
 * into "ty", which is what brgen reads). All accept NULL.
 *
 * Scalar names are the canonical ones of ast.h: "char", "uchar", "short",
 * "ushort", "int", "uint", "long", ..., "float", "double", "bool". A vector
 * type is a scalar name followed by its component count: "float4".
 */
#ifndef BROOK_TYPE_H
#define BROOK_TYPE_H

#include "brook/json.h"
#include <string.h>

/* A == B for B a short name (a type, kind, role, storage class or
 * built-in), the test brgen and astprint make everywhere: the first
 * letter rules out most others before a call. A NULL (ty_scalar and
 * gen_scalar of a type that is no scalar) equals nothing. */
static inline int ty_streq(const char *a, const char *b)
{
	return a && b && a[0] == b[0] && strcmp(a, b) == 0;
}

/* The kind of type T: its "t" string ("float4", "stream", "ptr"), or ""
 * when T is not a type object. */
const char *ty_kind(const json_t *t);

/* Component count: 1 for an arithmetic scalar, N for a vector, 0 for any
 * other type (struct, array, stream, pointer, void, unknown). */
int ty_ncomp(const json_t *t);

/* Canonical scalar name of a scalar or vector type ("float" for float4),
 * or NULL for other types. */
const char *ty_scalar(const json_t *t);

int ty_is_scalar(const json_t *t);	/* arithmetic scalar (bool included) */
int ty_is_vector(const json_t *t);	/* float2 .. ulong4 */
int ty_is_arith(const json_t *t);	/* scalar or vector */
int ty_is_stream(const json_t *t);
int ty_is_array(const json_t *t);
int ty_is_ptr(const json_t *t);
int ty_is_void(const json_t *t);
int ty_is_unknown(const json_t *t);	/* {"t":"unknown"}, typedefs unknown */
int ty_is_struct(const json_t *t);	/* struct or union */

/* Element type of a stream ("of") or array ("of"); NULL otherwise. */
const json_t *ty_elem(const json_t *stream_or_array);

/* Number of dimensions: of a stream ("dims"), or of nested C arrays
 * (float a[2][3] has 2). 0 for other types. */
int ty_rank(const json_t *t);

/* The innermost element of a stream or of nested arrays. */
const json_t *ty_base(const json_t *t);

/* Scalar kinds. */
int ty_scalar_is_integer(const char *s);	/* char .. ullong, bool */
int ty_scalar_is_float(const char *s);		/* float double ldouble */
int ty_scalar_is_reserved(const char *s);	/* spec 6.1.2: long, ulong .. */
int ty_scalar_bits(const char *s);		/* 8 .. 128, 0 if unknown */

/* Name of the type with scalar S and N components ("float", "float4");
 * a static string, or NULL when no such type exists (bool4, double5). */
const char *ty_vector_name(const char *s, int n);

/* spec 6.3.3: the promotion table. Rank of a scalar in the order char <
 * uchar < short < ushort < int < uint < float < double; 0 for a scalar the
 * table does not list. ty_promoted(l, r): the type of L or R that both
 * operands of a binary operator are brought to. ty_promotes(a, b): A can
 * be promoted to B (A != B). */
int ty_promo_rank(const char *s);
const json_t *ty_promoted(const json_t *l, const json_t *r);
int ty_promotes(const char *from, const char *to);

/* Structural equality of two resolved types (qualifiers ignored; array
 * sizes and stream dims compared only for being present). */
int ty_equal(const json_t *a, const json_t *b);

/* The type as a reader would write it: "float4", "float<>", "float[][]",
 * "struct s", "int *". Returns a malloc'd string. */
char *ty_name(const json_t *t);

/* spec 6.3.12: the operator table. OP is a binop, unop or assign operator
 * ("+", "+=", "!", "++"); S a scalar name. 1 when OP accepts operands of S. */
int ty_op_accepts(const char *op, const char *s);
/* What OP needs, for the message: "Integer" or "Arithmetic". */
const char *ty_op_needs(const char *op);

/* ast.h: 1 when OP is an operator of expression nodes of kind KIND
 * ("binop", "assign", "unop" or "postfix"). */
int ty_op_of_kind(const char *op, const char *kind);

/* spec 5: the built-in functions of kernel code. */
typedef enum ty_bsig {
	TY_B_FLOAT1,	/* T f(T): T a float scalar or vector */
	TY_B_FLOAT2,	/* T f(T, T) */
	TY_B_FLOAT3,	/* T f(T, T, T) */
	TY_B_NUM1,	/* T f(T): any arithmetic T (abs, sign) */
	TY_B_NUM2,	/* T f(T, T) (min, max) */
	TY_B_NUM3,	/* T f(T, T, T) (clamp) */
	TY_B_PRED,	/* intN f(T): isnan, isinf, isfinite */
	TY_B_DOT,	/* S f(T, T): dot, distance: scalar of a float vector */
	TY_B_LENGTH,	/* S f(T): length */
	TY_B_CROSS	/* float3 f(float3, float3) */
} ty_bsig;

typedef struct ty_builtin {
	const char *name;
	ty_bsig sig;
	int nargs;
} ty_builtin;

/* The built-in named NAME, or NULL. */
const ty_builtin *ty_builtin_find(const char *name);
/* The whole table, terminated by a NULL name (for brgen and the man page). */
const ty_builtin *ty_builtins(void);

#endif
