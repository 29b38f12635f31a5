/* run_interp.h - brrun's CPU backend: an interpreter of a checked kernel.
 *
 * run_interp_compile() turns the kernel's checked AST into a compact tree
 * (names resolved to frame slots, types to value kinds, builtins to codes)
 * once; run_interp_cpu() is the brt_cpu_fn libbrt's CPU backend calls for
 * ranges of domain points, with the compiled program as kernel_data. The
 * arithmetic follows the generated OpenCL C: float in float, int in 32-bit
 * int with wrap-around, Brook's builtins with Brook's definitions. */
#ifndef BROOK_RUN_INTERP_H
#define BROOK_RUN_INTERP_H

#include "brook/json.h"

#include "brt.h"
#include "brook/diag.h"
#include "brook/run_sig.h"

typedef struct run_prog run_prog;

/* Compiles the kernel SIG describes; CHECKED: its accesses of gather and
 * scatter arrays report as brgen --checked's do (brt.h, brt_records:
 * outside the array, write owners). Returns NULL after reporting a
 * construct the interpreter does not support. */
run_prog *run_interp_compile(const json_t *doc, const run_sig *sig,
	int checked, diag_ctx *d);
void run_interp_free(run_prog *p);

/* The entry points of brt_kernel (cpu, combine_call); kernel_data is the
 * run_prog. */
brt_cpu_fn run_interp_cpu;
brt_cpu_combine_call_fn run_interp_combine;

/* The accesses that report with CHECKED (brt_kernel.sites), N of them. */
const brt_site *run_interp_sites(const run_prog *p, unsigned *n);

/* Set when a point ran into something the interpreter stops on (a call
 * chain too deep); then MESSAGE says what. */
int run_interp_failed(const run_prog *p, const char **message);

#endif
