/* bench.h - what every benchmark program shares: its command line, the
 * timer, the input data, the reference checks and the one result line.
 *
 * A benchmark program is run as
 *     PROG [SIZE [RUNS [CALLS]]]
 * times its kernel work RUNS times after one warm-up run and prints one
 * line, read by bench/run.sh:
 *     case=saxpy size=16777216 impl=brook backend=opencl device="..."
 *         runs=7 median_ms=... min_ms=... gbs=... gflops=... ok=1
 * (on one line). Only types a C parser knows without this header appear in
 * the interface (struct bench, float, long, double), so Brook host code can
 * call it: a .br file says #include <bench.h>, which brpp passes through to
 * the C compiler. */
#ifndef BENCH_H
#define BENCH_H

struct bench;

/* Reads SIZE and RUNS from argv (DEFAULT_SIZE and 7 when absent). CASE is
 * the case name, IMPL "brook", "opencl" or "c". */
struct bench *bench_new(int argc, char **argv, const char *name,
	const char *impl, long default_size);
long bench_size(const struct bench *b);
/* The runs to make, the warm-up included: for (i = 0; i < bench_iterations
 * (b); i++) { bench_start(b); work; bench_stop(b); } */
int bench_iterations(const struct bench *b);
/* Calls per timed run (CALLS, default 1), for the cases whose calls need
 * not wait for each other (copy, saxpy, rowsum): a run makes them one
 * after the other and waits once, and its time is divided by CALLS, the
 * rate of a loop of calls. The result line's case is then NAME_xCALLS; a
 * case that never asks fails when CALLS is above 1. */
int bench_calls(struct bench *b);
void bench_start(struct bench *b);
void bench_stop(struct bench *b);
/* For a case measured once per process (startup): MS is the only run. */
void bench_record(struct bench *b, double ms);
/* Where it ran: BACKEND "opencl" or "cpu", DEVICE the device's name. */
void bench_device(struct bench *b, const char *backend, const char *device);
/* The same from libbrt's current device (brook_device.c, Brook versions). */
void bench_brook_device(struct bench *b);
/* Work of one run, for GB/s and GFLOP/s (0 when not meaningful). */
void bench_work(struct bench *b, double bytes, double flops);
/* Records a failed check with its message; the line says ok=0. */
void bench_fail(struct bench *b, const char *what);
/* Prints the result line and frees B; returns the exit status. */
int bench_report(struct bench *b);

double bench_now_ms(void);		/* monotonic clock */
int bench_threads(void);		/* BENCH_THREADS, else online CPUs */

/* Deterministic inputs, the same in every implementation. */
float *bench_floats(long n, unsigned seed, float lo, float hi);
float *bench_zeros(long n);
void bench_free(void *p);

/* Rows FIRST, FIRST + STEP, ... of the N x N matrix M, as a new array;
 * bench_put_rows stores them back (the guide's matrix slices, 1.3.2). */
float *bench_rows(const float *m, long n, long first, long step);
void bench_put_rows(float *m, long n, long first, long step,
	const float *rows);

/* --- reference checks (ref.c): each returns 1 when OUT is right, else
 * records why through bench_fail and returns 0. --------------------------- */
int ref_saxpy(struct bench *b, long n, float a, const float *x,
	const float *y, const float *out);
int ref_copy(struct bench *b, long n, const float *in, const float *out);
int ref_sum(struct bench *b, long n, const float *x, float sum);
int ref_rowsum(struct bench *b, long rows, long cols, const float *x,
	const float *out);
/* C = A B, all N x N row-major; checks a sample of elements. */
int ref_matmult(struct bench *b, long n, const float *A, const float *B,
	const float *C);
/* The sorted array of binary search: array[i] = 2 i; keys inside it. */
float *bench_search_array(long len);
float *bench_search_keys(long n, long len, unsigned seed);
int ref_search(struct bench *b, long n, long len, const float *keys,
	const float *index);
/* Mandelbrot over [-2, 1] x [-1.5, 1.5], SIDE x SIDE points, at most
 * MAXIT iterations; OUT holds the iteration counts. Returns the total
 * iterations (for the FLOP count) or -1 after a failed check. */
double ref_mandel(struct bench *b, long side, int maxit, const float *out);
/* nbody: POS is N float4 (x, y, z, mass); ACC N float4 (ax, ay, az, 0). */
float *bench_bodies(long n, unsigned seed);
int ref_nbody(struct bench *b, long n, const float *pos, const float *acc);
/* 5-point stencil on a SIDE x SIDE grid, edges clamped. */
int ref_stencil(struct bench *b, long side, const float *in,
	const float *out);
/* The chain: NK kernels of out = in + 1 over N floats from IN. */
int ref_chain(struct bench *b, long n, int nk, const float *in,
	const float *out);

/* Constants of the cases, the same in every implementation. */
#define BENCH_SAXPY_A 2.5f
#define BENCH_MANDEL_MAXIT 256
#define BENCH_NBODY_EPS2 0.01f
#define BENCH_CHAIN_KERNELS 1000
#define BENCH_CHAIN_SIZE 4096

#endif
