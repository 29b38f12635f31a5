/* cpu.c - the plain C versions of the benchmark cases, on all cores
 * (BENCH_THREADS, else every online CPU) through par.h.
 *
 *     bench-c CASE [SIZE [RUNS]]
 *
 * Each case is the same algorithm as its .br file and its OpenCL kernel,
 * written as a C programmer would for -O3, and timed around par_for. */
#include "bench.h"
#include "par.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

struct args {
	long n, n2;		/* sizes: elements, or side and depth */
	float a;
	const float *x, *y;
	float *out;
	double sum[64];		/* per-thread partial sums */
	long parts;
};

typedef int case_fn(struct bench *b, struct par *p);

static void cpu_device(struct bench *b, struct par *p)
{
	char name[64];

	snprintf(name, sizeof name, "plain C, %d threads", par_threads(p));
	bench_device(b, "cpu", name);
}

/* --- copy and saxpy ------------------------------------------------------ */
static void copy_part(void *ctx, long lo, long hi)
{
	struct args *a = ctx;

	memcpy(a->out + lo, a->x + lo, (size_t)(hi - lo) * sizeof(float));
}

static int run_copy(struct bench *b, struct par *p)
{
	long n = bench_size(b);
	struct args a = { .n = n, .x = bench_floats(n, 1, -1, 1),
		.out = bench_zeros(n) };
	int calls = bench_calls(b);

	for (int i = 0; i < bench_iterations(b); i++) {
		bench_start(b);
		for (int c = 0; c < calls; c++)
			par_for(p, n, copy_part, &a);
		bench_stop(b);
	}
	bench_work(b, 8.0 * n, 0);
	ref_copy(b, n, a.x, a.out);
	bench_free((void *)a.x);
	bench_free(a.out);
	return 0;
}

static void saxpy_part(void *ctx, long lo, long hi)
{
	struct args *a = ctx;

	for (long i = lo; i < hi; i++)
		a->out[i] = a->a * a->x[i] + a->y[i];
}

static int run_saxpy(struct bench *b, struct par *p)
{
	long n = bench_size(b);
	struct args a = { .n = n, .a = BENCH_SAXPY_A,
		.x = bench_floats(n, 1, -1, 1), .y = bench_floats(n, 2, -1, 1),
		.out = bench_zeros(n) };
	int calls = bench_calls(b);

	for (int i = 0; i < bench_iterations(b); i++) {
		bench_start(b);
		for (int c = 0; c < calls; c++)
			par_for(p, n, saxpy_part, &a);
		bench_stop(b);
	}
	bench_work(b, 12.0 * n, 2.0 * n);
	ref_saxpy(b, n, a.a, a.x, a.y, a.out);
	bench_free((void *)a.x);
	bench_free((void *)a.y);
	bench_free(a.out);
	return 0;
}

/* --- reductions ------------------------------------------------------------ */
/* Sum of X[lo, hi) with eight accumulators, so -O3 vectorises it without
 * -ffast-math. The final tree is a loop: written as one expression it
 * kept GCC 12 (-march=znver4) from holding the eight in one vector
 * register, at 21 GB/s a thread against 38. */
static float sum_range(const float *x, long lo, long hi)
{
	float s[8] = { 0 };
	long i = lo;

	for (; i + 8 <= hi; i += 8)
		for (int k = 0; k < 8; k++)
			s[k] += x[i + k];
	for (; i < hi; i++)
		s[0] += x[i];
	for (int w = 1; w < 8; w *= 2)
		for (int k = 0; k < 8; k += 2 * w)
			s[k] += s[k + w];
	return s[0];
}

static void sum_part(void *ctx, long lo, long hi)
{
	struct args *a = ctx;

	for (long k = lo; k < hi; k++)
		a->sum[k] = sum_range(a->x, a->n * k / a->parts,
			a->n * (k + 1) / a->parts);
}

static int run_sum(struct bench *b, struct par *p)
{
	long n = bench_size(b);
	struct args a = { .n = n, .x = bench_floats(n, 3, -1, 1),
		.parts = par_threads(p) };
	float total = 0;

	for (int i = 0; i < bench_iterations(b); i++) {
		bench_start(b);
		par_for(p, a.parts, sum_part, &a);
		total = 0;
		for (long k = 0; k < a.parts; k++)
			total += (float)a.sum[k];
		bench_stop(b);
	}
	bench_work(b, 4.0 * n, 1.0 * n);
	ref_sum(b, n, a.x, total);
	bench_free((void *)a.x);
	return 0;
}

static void rowsum_part(void *ctx, long lo, long hi)
{
	struct args *a = ctx;

	for (long r = lo; r < hi; r++)
		a->out[r] = sum_range(a->x, r * a->n, (r + 1) * a->n);
}

/* SIZE is the side: <SIZE, SIZE> to <SIZE, 1> */
static int run_rowsum(struct bench *b, struct par *p)
{
	long side = bench_size(b);
	struct args a = { .n = side, .x = bench_floats(side * side, 4, -1, 1),
		.out = bench_zeros(side) };
	int calls = bench_calls(b);

	for (int i = 0; i < bench_iterations(b); i++) {
		bench_start(b);
		for (int c = 0; c < calls; c++)
			par_for(p, side, rowsum_part, &a);
		bench_stop(b);
	}
	bench_work(b, 4.0 * side * side + 4.0 * side, 1.0 * side * side);
	ref_rowsum(b, side, side, a.x, a.out);
	bench_free((void *)a.x);
	bench_free(a.out);
	return 0;
}

/* --- matrix multiply (guide 1.3) ------------------------------------------ */
/* simple_matmult: one dot product per element of C */
static void matmult_simple_part(void *ctx, long lo, long hi)
{
	struct args *a = ctx;
	long n = a->n;

	for (long i = lo; i < hi; i++) {
		long y = i / n, x = i % n;
		float acc = 0;

		for (long k = 0; k < n; k++)
			acc += a->x[y * n + k] * a->y[k * n + x];
		a->out[i] = acc;
	}
}

/* optimized_matmult: each point computes an 8 x 4 block of C from 8 rows
 * of A and 4 columns of B, four k at a time (the float4 slices of the
 * guide, here read from the unsliced matrices) */
static void matmult_opt_part(void *ctx, long lo, long hi)
{
	struct args *a = ctx;
	long n = a->n, w = n / 4;

	for (long i = lo; i < hi; i++) {
		long by = i / w, bx = i % w;
		float acc[8][4] = { { 0 } };

		for (long k4 = 0; k4 < w; k4++) {
			const float *bk = a->y + 4 * k4 * n + 4 * bx;

			for (int r = 0; r < 8; r++) {
				const float *ar = a->x + (8 * by + r) * n + 4 * k4;

				for (int c = 0; c < 4; c++)
					acc[r][c] += ar[0] * bk[c] +
						ar[1] * bk[n + c] +
						ar[2] * bk[2 * n + c] +
						ar[3] * bk[3 * n + c];
			}
		}
		for (int r = 0; r < 8; r++)
			for (int c = 0; c < 4; c++)
				a->out[(8 * by + r) * n + 4 * bx + c] = acc[r][c];
	}
}

/* matmult_tiled: a 32 x 32 tile of C per point, k in steps of 32, the
 * tile's rows of B streamed so -O3 vectorises the innermost loop */
static void matmult_tiled_part(void *ctx, long lo, long hi)
{
	struct args *a = ctx;
	long n = a->n, tiles = n / 32;

	for (long t = lo; t < hi; t++) {
		long y0 = t / tiles * 32, x0 = t % tiles * 32;
		float acc[32][32] = { { 0 } };

		for (long k0 = 0; k0 < n; k0 += 32)
			for (int r = 0; r < 32; r++)
				for (long k = k0; k < k0 + 32; k++) {
					float av = a->x[(y0 + r) * n + k];
					const float *bk = a->y + k * n + x0;

					for (int c = 0; c < 32; c++)
						acc[r][c] += av * bk[c];
				}
		for (int r = 0; r < 32; r++)
			memcpy(a->out + (y0 + r) * n + x0, acc[r], sizeof acc[r]);
	}
}

/* KIND 0: simple, 1: optimized, 2: tiled */
static int run_matmult(struct bench *b, struct par *p, int optimized)
{
	long n = bench_size(b);
	struct args a = { .n = n, .x = bench_floats(n * n, 5, -1, 1),
		.y = bench_floats(n * n, 6, -1, 1), .out = bench_zeros(n * n) };
	long points = optimized == 2 ? (n / 32) * (n / 32) :
		optimized ? n / 8 * (n / 4) : n * n;
	par_fn *fn = optimized == 2 ? matmult_tiled_part : optimized ?
		matmult_opt_part : matmult_simple_part;

	for (int i = 0; i < bench_iterations(b); i++) {
		bench_start(b);
		par_for(p, points, fn, &a);
		bench_stop(b);
	}
	bench_work(b, 12.0 * n * n, 2.0 * n * n * n);
	ref_matmult(b, n, a.x, a.y, a.out);
	bench_free((void *)a.x);
	bench_free((void *)a.y);
	bench_free(a.out);
	return 0;
}

static int run_matmult_simple(struct bench *b, struct par *p)
{
	return run_matmult(b, p, 0);
}

static int run_matmult_opt(struct bench *b, struct par *p)
{
	return run_matmult(b, p, 1);
}

static int run_matmult_tiled(struct bench *b, struct par *p)
{
	return run_matmult(b, p, 2);
}

/* matmult_reg: the same C as matmult_tiled (the register blocks are the
 * GPU's concern; the C loop is already blocked for the CPU's caches) */
static int run_matmult_reg(struct bench *b, struct par *p)
{
	return run_matmult(b, p, 2);
}

/* --- binary search (guide 1.10) -------------------------------------------- */
#define SEARCH_LG 22

static void search_part(void *ctx, long lo, long hi)
{
	struct args *a = ctx;
	const float *arr = a->y;
	float size = (float)a->n2;

	for (long i = lo; i < hi; i++) {
		float v = a->x[i], stride, idx, c;

		idx = stride = floorf(size * 0.5f + 0.5f);
		for (int k = 0; k < SEARCH_LG; k++) {
			stride = floorf(stride * 0.5f + 0.5f);
			c = arr[(long)idx];
			idx += (v <= c) ? -stride : stride;
		}
		c = arr[(long)idx];
		idx += (v <= c) ? -1.0f : 1.0f;
		c = arr[(long)idx];
		idx += (v <= c) ? 0.0f : 1.0f;
		if (idx < 0.0f)
			idx = 0.0f;
		c = arr[(long)idx];
		a->out[i] = (v == c) ? idx : -1.0f;
	}
}

/* SIZE keys searched in a sorted array of 2^22 floats */
static int run_bsearch(struct bench *b, struct par *p)
{
	long n = bench_size(b), len = 1L << SEARCH_LG;
	struct args a = { .n = n, .n2 = len,
		.x = bench_search_keys(n, len, 7),
		.y = bench_search_array(len), .out = bench_zeros(n) };

	for (int i = 0; i < bench_iterations(b); i++) {
		bench_start(b);
		par_for(p, n, search_part, &a);
		bench_stop(b);
	}
	bench_work(b, 8.0 * n, 0);
	ref_search(b, n, len, a.x, a.out);
	bench_free((void *)a.x);
	bench_free((void *)a.y);
	bench_free(a.out);
	return 0;
}

/* --- mandelbrot ------------------------------------------------------------ */
static void mandel_part(void *ctx, long lo, long hi)
{
	struct args *a = ctx;
	long side = a->n;
	float scale = a->a;

	for (long i = lo; i < hi; i++) {
		float cr = -2.0f + (float)(i % side) * scale;
		float ci = -1.5f + (float)(i / side) * scale;
		float x = 0, y = 0;
		int it = 0;

		while (it < BENCH_MANDEL_MAXIT && x * x + y * y <= 4.0f) {
			float t = x * x - y * y + cr;
			y = 2.0f * x * y + ci;
			x = t;
			it++;
		}
		a->out[i] = (float)it;
	}
}

static int run_mandel(struct bench *b, struct par *p)
{
	long side = bench_size(b);
	struct args a = { .n = side, .a = 3.0f / (float)side,
		.out = bench_zeros(side * side) };
	double iters;

	for (int i = 0; i < bench_iterations(b); i++) {
		bench_start(b);
		par_for(p, side * side, mandel_part, &a);
		bench_stop(b);
	}
	iters = ref_mandel(b, side, BENCH_MANDEL_MAXIT, a.out);
	bench_work(b, 4.0 * side * side, iters > 0 ? 8.0 * iters : 0);
	bench_free(a.out);
	return 0;
}

/* --- nbody, all pairs ------------------------------------------------------- */
static void nbody_part(void *ctx, long lo, long hi)
{
	struct args *a = ctx;
	const float *pos = a->x;

	for (long i = lo; i < hi; i++) {
		float px = pos[4 * i], py = pos[4 * i + 1], pz = pos[4 * i + 2];
		float ax = 0, ay = 0, az = 0;

		for (long j = 0; j < a->n; j++) {
			float dx = pos[4 * j] - px, dy = pos[4 * j + 1] - py;
			float dz = pos[4 * j + 2] - pz;
			float r2 = dx * dx + dy * dy + dz * dz + BENCH_NBODY_EPS2;
			float inv = 1.0f / sqrtf(r2);
			float s = pos[4 * j + 3] * inv * inv * inv;

			ax += dx * s;
			ay += dy * s;
			az += dz * s;
		}
		a->out[4 * i] = ax;
		a->out[4 * i + 1] = ay;
		a->out[4 * i + 2] = az;
		a->out[4 * i + 3] = 0;
	}
}

static int run_nbody(struct bench *b, struct par *p)
{
	long n = bench_size(b);
	struct args a = { .n = n, .x = bench_bodies(n, 8),
		.out = bench_zeros(4 * n) };

	for (int i = 0; i < bench_iterations(b); i++) {
		bench_start(b);
		par_for(p, n, nbody_part, &a);
		bench_stop(b);
	}
	bench_work(b, 32.0 * n, 20.0 * n * n);
	ref_nbody(b, n, a.x, a.out);
	bench_free((void *)a.x);
	bench_free(a.out);
	return 0;
}

/* --- 5-point stencil ------------------------------------------------------- */
/* rows [lo, hi): the interior of a row in one loop -O3 vectorises, the
 * two edge points apart */
static void stencil_part(void *ctx, long lo, long hi)
{
	struct args *a = ctx;
	long side = a->n;
	const float *in = a->x;

	for (long y = lo; y < hi; y++) {
		const float *row = in + y * side;
		const float *up = in + (y > 0 ? y - 1 : 0) * side;
		const float *dn = in + (y < side - 1 ? y + 1 : y) * side;
		float *o = a->out + y * side;
		long e = side - 1;

		for (long x = 1; x < e; x++)
			o[x] = 0.2f * (row[x] + up[x] + dn[x] + row[x - 1] +
				row[x + 1]);
		o[0] = 0.2f * (row[0] + up[0] + dn[0] + row[0] +
			row[e > 0 ? 1 : 0]);
		if (e > 0)
			o[e] = 0.2f * (row[e] + up[e] + dn[e] + row[e - 1] +
				row[e]);
	}
}

static int run_stencil(struct bench *b, struct par *p)
{
	long side = bench_size(b);
	struct args a = { .n = side, .x = bench_floats(side * side, 9, -1, 1),
		.out = bench_zeros(side * side) };

	for (int i = 0; i < bench_iterations(b); i++) {
		bench_start(b);
		par_for(p, side, stencil_part, &a);
		bench_stop(b);
	}
	bench_work(b, 8.0 * side * side, 5.0 * side * side);
	ref_stencil(b, side, a.x, a.out);
	bench_free((void *)a.x);
	bench_free(a.out);
	return 0;
}

/* --- a chain of small kernels ----------------------------------------------- */
static void inc_part(void *ctx, long lo, long hi)
{
	struct args *a = ctx;

	for (long i = lo; i < hi; i++)
		a->out[i] = a->x[i] + 1.0f;
}

/* ping-pong between two buffers; the check counts every kernel run */
static int run_chain(struct bench *b, struct par *p)
{
	long n = bench_size(b);
	float *in = bench_floats(n, 10, -1, 1);
	float *buf[2] = { bench_zeros(n), bench_zeros(n) };
	struct args a = { .n = n };

	memcpy(buf[0], in, (size_t)n * sizeof *in);
	for (int i = 0; i < bench_iterations(b); i++) {
		bench_start(b);
		for (int k = 0; k < BENCH_CHAIN_KERNELS; k++) {
			a.x = buf[k % 2];
			a.out = buf[(k + 1) % 2];
			par_for(p, n, inc_part, &a);
		}
		bench_stop(b);
	}
	bench_work(b, 8.0 * n * BENCH_CHAIN_KERNELS, 1.0 * n *
		BENCH_CHAIN_KERNELS);
	ref_chain(b, n, BENCH_CHAIN_KERNELS * bench_iterations(b), in, buf[0]);
	bench_free(in);
	bench_free(buf[0]);
	bench_free(buf[1]);
	return 0;
}

/* --- the table of cases -------------------------------------------------- */
static const struct {
	const char *name;
	case_fn *run;
	long size;
} cases[] = {
	{ "copy", run_copy, 1L << 24 },
	{ "saxpy", run_saxpy, 1L << 24 },
	{ "sum", run_sum, 1L << 24 },
	{ "rowsum", run_rowsum, 4096 },
	{ "matmult_simple", run_matmult_simple, 2048 },
	{ "matmult_opt", run_matmult_opt, 2048 },
	{ "matmult_tiled", run_matmult_tiled, 2048 },
	{ "matmult_reg", run_matmult_reg, 2048 },
	{ "bsearch", run_bsearch, 1L << 20 },
	{ "mandel", run_mandel, 2048 },
	{ "nbody", run_nbody, 8192 },
	{ "stencil", run_stencil, 4096 },
	{ "chain", run_chain, BENCH_CHAIN_SIZE },
};

/* from main to the first parallel loop done: the pool's start */
static int run_startup(double t0, int argc, char **argv)
{
	struct bench *b = bench_new(argc, argv, "startup", "c", 1024);
	long n = bench_size(b);
	float *in = bench_floats(n, 11, -1, 1), *out = bench_zeros(n);
	struct args a = { .n = n, .x = in, .out = out };
	struct par *p = par_new(bench_threads());

	par_for(p, n, inc_part, &a);
	bench_record(b, bench_now_ms() - t0);
	cpu_device(b, p);
	ref_chain(b, n, 1, in, out);
	par_free(p);
	bench_free(in);
	bench_free(out);
	return bench_report(b);
}

int main(int argc, char **argv)
{
	double t0 = bench_now_ms();
	struct par *p;
	struct bench *b;

	if (argc < 2) {
		fprintf(stderr, "usage: bench-c CASE [SIZE [RUNS]]\n");
		return 2;
	}
	if (!strcmp(argv[1], "startup"))
		return run_startup(t0, argc - 1, argv + 1);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (strcmp(argv[1], cases[i].name))
			continue;
		b = bench_new(argc - 1, argv + 1, cases[i].name, "c",
			cases[i].size);
		p = par_new(bench_threads());
		if (!b || !p)
			return 2;
		cpu_device(b, p);
		cases[i].run(b, p);
		par_free(p);
		return bench_report(b);
	}
	fprintf(stderr, "bench-c: no case %s\n", argv[1]);
	return 2;
}
