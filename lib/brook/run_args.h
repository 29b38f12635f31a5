/* run_args.h - brrun's argument values: NAME=VALUE parsing, shapes, data
 * sources (numbers, [..] literals, @file.npy, @file.txt, @file.bin:DIMS),
 * generators (iota, zeros, ones, rand[:seed]), and --flops expressions. */
#ifndef BROOK_RUN_ARGS_H
#define BROOK_RUN_ARGS_H

#include "brt.h"
#include "brook/diag.h"
#include "brook/run_data.h"

/* "1024x768" (x, the width, first) as a NumPy shape, slowest first:
 * (768, 1024). Returns 0, or -1 when it is not such a list of 1 to 4
 * positive numbers. */
int run_parse_dims(const char *s, size_t *shape, unsigned *ndim);

/* True when S ends with SUFFIX (file name extensions). */
int run_has_suffix(const char *s, const char *suffix);

/* True when TEXT names a generator (iota, zeros, ones, rand, rand:SEED). */
int run_is_generator(const char *text);

/* Loads a literal or a file (TEXT starting with '@') for parameter PNAME
 * of element type ET. The result is a NumPy-style array: untyped for text
 * and literals, of the file's own type for .npy, of ET for .bin. */
int run_load(const char *text, brt_type et, const char *pname,
	run_array *out, diag_ctx *d);

/* True when TEXT is an iterator, iter(START, END). */
int run_is_iter(const char *text);
/* The start and end of iterator TEXT for elements of type ET (float,
 * float2, float3 or float4): a number, or [x, y, ..] of ET's components. */
int run_parse_iter(const char *text, brt_type et, const char *pname,
	float *lo, float *hi, diag_ctx *d);

/* Fills OUT with generator TEXT for elements of type ET in shape ESHAPE
 * (element axes, slowest first; ERANK of them). */
int run_generate(const char *text, brt_type et, const size_t *eshape,
	unsigned erank, run_array *out, diag_ctx *d);

/* Makes A the data of parameter PNAME, element type ET: checks that a
 * vector type's components are the last axis, converts untyped numbers
 * (refusing a fraction for an integer type) and refuses typed data of
 * another type. Sets the element shape. */
int run_to_elements(run_array *a, brt_type et, const char *pname,
	size_t *eshape, unsigned *erank, diag_ctx *d);

/* Appends the vector axis to an element shape: the NumPy shape of data of
 * type ET. Returns the number of axes. */
unsigned run_full_shape(const size_t *eshape, unsigned erank, brt_type et,
	size_t *shape);

/* --flops EXPR: numbers, n (the number of domain points), + - * / and
 * parentheses. Returns 0, or -1 when EXPR is malformed. */
int run_flops_eval(const char *expr, double n, double *out);

#endif
