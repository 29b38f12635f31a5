/* run_data.h - brrun's host arrays and the file formats they come from and
 * go to: NumPy .npy (versions 1 to 3), text, raw binary. See brrun(1).
 *
 * Every reader reports a bad input through a diag_ctx (one message) and
 * returns -1; nothing here exits or crashes on bad data. */
#ifndef BROOK_RUN_DATA_H
#define BROOK_RUN_DATA_H

#include <stddef.h>

#include "brt.h"
#include "brook/diag.h"

#define RUN_MAX_AXES 5	/* BRT_MAX_RANK axes plus a vector axis */

/* An N-dimensional array of scalars, NumPy's view of data: SHAPE lists the
 * axes slowest first (rows before columns), the vector components of an
 * element, if any, on the last axis. Data read from text or written as a
 * literal is untyped: held as double, converted when bound to a kernel
 * parameter. */
typedef struct run_array {
	brt_scalar scalar;	/* kind of each scalar in DATA */
	int typed;		/* 1: the kind came with the data (.npy, .bin) */
	unsigned ndim;		/* 0: one number */
	size_t shape[RUN_MAX_AXES];
	size_t count;		/* scalars: the product of SHAPE; elements
				   for BRT_STRUCT data (run_struct.h) */
	void *data;
	brt_scalar *kinds;	/* NULL, or (owned) the kind each number of
				   the last axis prints as: NKINDS of them,
				   for the fields of structs */
	unsigned nkinds;
} run_array;

void run_array_free(run_array *a);
/* Sets COUNT from SHAPE; -1 when the product overflows. */
int run_array_count(run_array *a);
/* "3x4" style text of a shape, slowest axis first as NumPy writes it:
 * "(3, 4)". */
const char *run_shape_str(const size_t *shape, unsigned ndim, char *buf,
	size_t len);

/* Value of scalar I of A as a double, and the other way round (with C's
 * conversion, saturated for integer kinds). */
double run_get(const run_array *a, size_t i);
void run_put(brt_scalar k, void *data, size_t i, double v);
/* Converts A in place to scalar kind K (no-op when it already is). */
void run_array_convert(run_array *a, brt_scalar k);

/* The NumPy dtype of a scalar kind ("<f4"), NULL for BRT_STRUCT. */
const char *run_npy_dtype(brt_scalar k);
/* Bytes of one scalar (0 for BRT_STRUCT). */
size_t run_scalar_size(brt_scalar k);
/* "float32" and so on, for messages. */
const char *run_scalar_name(brt_scalar k);

/* .npy: reads the NumPy file format, versions 1.0, 2.0 and 3.0,
 * little-endian, C order. NAME is the file name for messages. */
int run_npy_parse(const char *bytes, size_t len, const char *name,
	run_array *out, diag_ctx *d);
/* Serialises A as a version 1.0 .npy file into *bytes (malloc'd). */
void run_npy_format(const run_array *a, char **bytes, size_t *len);
/* The same for data of any dtype: DESCR is the header's Python literal
 * ("'<f4'", or a structured dtype's list), DLEN the data's bytes. The
 * header must stay under 64 KiB. */
void run_npy_format_descr(const char *descr, const size_t *shape,
	unsigned ndim, const void *data, size_t dlen, char **bytes, size_t *len);

/* Text: numbers separated by spaces, tabs, commas or newlines; '#' starts a
 * comment to the end of the line. One line gives a 1-D array, several lines
 * of one number a 1-D array, several lines of N numbers an array of rows. */
int run_text_parse(const char *text, size_t len, const char *name,
	run_array *out, diag_ctx *d);
/* Prints A as text: one number per scalar, %g for floating kinds, the
 * components of a vector element (NCOMP > 1, the last axis) joined by
 * commas, elements separated by a space, one row a line, a blank line
 * between the planes of a 3-D array. */
void run_text_format(const run_array *a, unsigned ncomp, char **text,
	size_t *len);
/* One number in the format above (as A's KINDS say, when it has them). */
int run_format_number(const run_array *a, size_t i, char *buf, size_t len);

/* Literal: a number, or [..] lists nested up to RUN_MAX_AXES deep. */
int run_literal_parse(const char *text, const char *name, run_array *out,
	diag_ctx *d);

#endif
