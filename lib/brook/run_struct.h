/* run_struct.h - elements of struct type (spec 2) as brrun reads, writes
 * and prints them: an element is the numbers of its fields in declaration
 * order, nested structs flattened (struct { float a; float2 b; } is 3
 * numbers, a, b.x, b.y), on the data's last axis as a vector's components
 * are; in memory it is the host layout of run_sig.h's run_field. See
 * brrun(1), "Struct parameters". */
#ifndef BROOK_RUN_STRUCT_H
#define BROOK_RUN_STRUCT_H

#include "brook/diag.h"
#include "brook/run_data.h"
#include "brook/run_sig.h"

/* Makes A the data of struct parameter P, in place: numbers (text,
 * literals) with P->ncomp on the last axis are checked field by field as
 * run_to_elements checks a parameter and packed; raw .bin data is taken
 * as it is. A becomes BRT_STRUCT data: SHAPE the element shape, COUNT the
 * elements, DATA P->desc.type.size bytes an element. Sets the element
 * shape. Returns 0, or -1 after reporting. */
int run_struct_pack(const run_param *p, run_array *a, size_t *eshape,
	unsigned *erank, diag_ctx *d);

/* Generator TEXT (run_generate) for struct parameter P: each field
 * generated as its own type. */
int run_struct_generate(const char *text, const run_param *p,
	const size_t *eshape, unsigned erank, run_array *out, diag_ctx *d);

/* The numbers of the elements of P at BYTES, shape ESHAPE: doubles,
 * P->ncomp on the last axis, each printed as its field's type (the
 * array's KINDS point into P, which must outlive it). */
void run_struct_unpack(const run_param *p, const void *bytes,
	const size_t *eshape, unsigned erank, run_array *out);

/* The .npy file of packed elements of P: a structured dtype of the
 * flattened fields at their host offsets, padding as void fields. */
void run_struct_npy(const run_param *p, const run_array *packed,
	char **bytes, size_t *len);

#endif
