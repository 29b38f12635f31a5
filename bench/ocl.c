/* ocl.c - the hand-written OpenCL versions of the benchmark cases: the
 * plain OpenCL 1.2 C API, the device picked by type (a GPU first, else a
 * CPU such as PoCL, else any), the kernels of kernels.cl.
 *
 *     bench-opencl CASE [SIZE [RUNS]]
 *
 * A run is timed on the host clock around the enqueue and clFinish (for
 * the scalar sum: and the read of the 4-byte result), as the Brook
 * versions are timed around the kernel call and the finish. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "bench.h"
#include "kernels.cl.h"		/* bench_kernels_cl: kernels.cl as a string */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ocl {
	cl_device_id dev;
	cl_context ctx;
	cl_command_queue q;
	cl_program prog;
	struct bench *b;
	char name[256];
};

/* Records the first OpenCL failure on the bench; returns ERR == 0. */
static int ocl_ok(struct ocl *o, cl_int err, const char *what)
{
	char msg[128];

	if (err == CL_SUCCESS)
		return 1;
	snprintf(msg, sizeof msg, "%s failed: OpenCL error %d", what,
		(int)err);
	bench_fail(o->b, msg);
	return 0;
}

/* The first device of the first type in GPU, CPU, ALL on any platform. */
static int ocl_pick(struct ocl *o)
{
	static const cl_device_type types[] = { CL_DEVICE_TYPE_GPU,
		CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_ALL };
	cl_platform_id plats[16];
	cl_uint np = 0;

	if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS)
		np = 0;
	for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
		for (cl_uint i = 0; i < np && i < 16; i++) {
			cl_uint nd = 0;

			if (clGetDeviceIDs(plats[i], types[t], 1, &o->dev,
				&nd) == CL_SUCCESS && nd > 0)
				return 1;
		}
	bench_fail(o->b, "no OpenCL device");
	return 0;
}

/* BENCH_CL_PRELUDE, when set, is put before kernels.cl: for measuring
 * what a line of generated code costs, e.g. "#pragma OPENCL FP_CONTRACT
 * OFF"; BENCH_CL_OPTIONS are the build options (default none), e.g. the
 * ones libbrt passes (diagnosis only; the table's runs leave both
 * unset). */
static int ocl_open(struct ocl *o, struct bench *b)
{
	const char *pre = getenv("BENCH_CL_PRELUDE");
	const char *src[2] = { pre ? pre : "", bench_kernels_cl };
	cl_int err;

	memset(o, 0, sizeof *o);
	o->b = b;
	if (!ocl_pick(o))
		return 0;
	clGetDeviceInfo(o->dev, CL_DEVICE_NAME, sizeof o->name, o->name, NULL);
	bench_device(b, "opencl", o->name);
	o->ctx = clCreateContext(NULL, 1, &o->dev, NULL, NULL, &err);
	if (!ocl_ok(o, err, "clCreateContext"))
		return 0;
	o->q = clCreateCommandQueue(o->ctx, o->dev, 0, &err);
	if (!ocl_ok(o, err, "clCreateCommandQueue"))
		return 0;
	o->prog = clCreateProgramWithSource(o->ctx, 2, src, NULL, &err);
	if (!ocl_ok(o, err, "clCreateProgramWithSource"))
		return 0;
	err = clBuildProgram(o->prog, 1, &o->dev, getenv("BENCH_CL_OPTIONS") ?
		getenv("BENCH_CL_OPTIONS") : "", NULL, NULL);
	if (err != CL_SUCCESS) {
		char log[4096] = "";

		clGetProgramBuildInfo(o->prog, o->dev, CL_PROGRAM_BUILD_LOG,
			sizeof log - 1, log, NULL);
		fprintf(stderr, "kernels.cl:\n%s\n", log);
	}
	return ocl_ok(o, err, "clBuildProgram");
}

static void ocl_close(struct ocl *o)
{
	if (o->prog)
		clReleaseProgram(o->prog);
	if (o->q)
		clReleaseCommandQueue(o->q);
	if (o->ctx)
		clReleaseContext(o->ctx);
}

static cl_kernel ocl_kernel(struct ocl *o, const char *name)
{
	cl_int err = CL_INVALID_PROGRAM;
	cl_kernel k = o->prog ? clCreateKernel(o->prog, name, &err) : NULL;

	ocl_ok(o, err, name);
	return k;
}

/* A buffer of BYTES, filled from HOST when not NULL. */
static cl_mem ocl_buffer(struct ocl *o, size_t bytes, const void *host)
{
	cl_int err = CL_INVALID_CONTEXT;
	cl_mem m = NULL;

	if (o->ctx)
		m = clCreateBuffer(o->ctx, CL_MEM_READ_WRITE |
			(host ? CL_MEM_COPY_HOST_PTR : 0), bytes, (void *)host,
			&err);
	ocl_ok(o, err, "clCreateBuffer");
	return m;
}

static void ocl_read(struct ocl *o, cl_mem m, size_t bytes, void *host)
{
	if (m)
		ocl_ok(o, clEnqueueReadBuffer(o->q, m, CL_TRUE, 0, bytes, host,
			0, NULL, NULL), "clEnqueueReadBuffer");
}

/* Sets the arguments of K from an array of (size, pointer) pairs. */
struct karg {
	size_t size;
	const void *ptr;
};

static void ocl_args(struct ocl *o, cl_kernel k, const struct karg *a,
	int n)
{
	for (int i = 0; k && i < n; i++)
		ocl_ok(o, clSetKernelArg(k, (cl_uint)i, a[i].size, a[i].ptr),
			"clSetKernelArg");
}

/* Enqueues K over GLOBAL (DIMS of them) in groups of LOCAL, or of the
 * default 256 (16 x 16) when LOCAL is NULL and that divides GLOBAL. */
static void ocl_launch(struct ocl *o, cl_kernel k, cl_uint dims,
	const size_t *global, const size_t *local)
{
	size_t def[2] = { dims == 1 ? 256 : 16, 16 };
	int fits = 1;

	for (cl_uint i = 0; i < dims; i++)
		fits &= global[i] % def[i] == 0;
	if (!local && fits)
		local = def;
	if (k)
		ocl_ok(o, clEnqueueNDRangeKernel(o->q, k, dims, NULL, global,
			local, 0, NULL, NULL), "clEnqueueNDRangeKernel");
}

/* Runs K over GLOBAL the bench's iterations, timing each with clFinish;
 * CALLS launches a run (bench_calls). */
static void ocl_time(struct ocl *o, cl_kernel k, cl_uint dims,
	const size_t *global, const size_t *local, int calls)
{
	for (int i = 0; i < bench_iterations(o->b); i++) {
		bench_start(o->b);
		for (int c = 0; c < calls; c++)
			ocl_launch(o, k, dims, global, local);
		clFinish(o->q);
		bench_stop(o->b);
	}
}

#define ARG(x) { sizeof(x), &(x) }
#define NARGS(a) ((int)(sizeof(a) / sizeof((a)[0])))

typedef void case_fn(struct ocl *o, struct bench *b);

static void run_copy(struct ocl *o, struct bench *b)
{
	long n = bench_size(b);
	float *x = bench_floats(n, 1, -1, 1), *r = bench_zeros(n);
	cl_mem dx = ocl_buffer(o, 4 * n, x), dr = ocl_buffer(o, 4 * n, NULL);
	cl_kernel k = ocl_kernel(o, "copy4");
	struct karg a[] = { ARG(dx), ARG(dr) };
	size_t g = (size_t)n / 4;

	ocl_args(o, k, a, NARGS(a));
	ocl_time(o, k, 1, &g, NULL, bench_calls(b));
	ocl_read(o, dr, 4 * n, r);
	bench_work(b, 8.0 * n, 0);
	ref_copy(b, n, x, r);
	clReleaseKernel(k);
	clReleaseMemObject(dx);
	clReleaseMemObject(dr);
	bench_free(x);
	bench_free(r);
}

static void run_saxpy(struct ocl *o, struct bench *b)
{
	long n = bench_size(b);
	float sa = BENCH_SAXPY_A;
	float *x = bench_floats(n, 1, -1, 1), *y = bench_floats(n, 2, -1, 1);
	float *r = bench_zeros(n);
	cl_mem dx = ocl_buffer(o, 4 * n, x), dy = ocl_buffer(o, 4 * n, y);
	cl_mem dr = ocl_buffer(o, 4 * n, NULL);
	cl_kernel k = ocl_kernel(o, "saxpy");
	struct karg a[] = { ARG(sa), ARG(dx), ARG(dy), ARG(dr) };
	size_t g = (size_t)n;

	ocl_args(o, k, a, NARGS(a));
	ocl_time(o, k, 1, &g, NULL, bench_calls(b));
	ocl_read(o, dr, 4 * n, r);
	bench_work(b, 12.0 * n, 2.0 * n);
	ref_saxpy(b, n, sa, x, y, r);
	clReleaseKernel(k);
	clReleaseMemObject(dx);
	clReleaseMemObject(dy);
	clReleaseMemObject(dr);
	bench_free(x);
	bench_free(y);
	bench_free(r);
}

/* Two launches: GROUPS partial sums, then one group folds them; the run
 * ends with the 4-byte result read back, as a scalar reduce does. */
static void run_sum(struct ocl *o, struct bench *b)
{
	long n = bench_size(b), groups = 1024, np;
	size_t lsz = 256, g1 = (size_t)groups * lsz, g2 = lsz;
	float *x = bench_floats(n, 3, -1, 1), total = 0;
	cl_mem dx = ocl_buffer(o, 4 * n, x);
	cl_mem dp = ocl_buffer(o, 4 * groups, NULL), dt = ocl_buffer(o, 4, NULL);
	cl_kernel k1 = ocl_kernel(o, "sum_partial");
	cl_kernel k2 = ocl_kernel(o, "sum_partial");
	struct karg a1[] = { ARG(dx), ARG(n), ARG(dp), { 4 * lsz, NULL } };
	struct karg a2[] = { ARG(dp), ARG(np), ARG(dt), { 4 * lsz, NULL } };

	np = groups;
	ocl_args(o, k1, a1, NARGS(a1));
	ocl_args(o, k2, a2, NARGS(a2));
	for (int i = 0; i < bench_iterations(b); i++) {
		bench_start(b);
		ocl_launch(o, k1, 1, &g1, &lsz);
		ocl_launch(o, k2, 1, &g2, &lsz);
		ocl_read(o, dt, 4, &total);
		bench_stop(b);
	}
	bench_work(b, 4.0 * n, 1.0 * n);
	ref_sum(b, n, x, total);
	clReleaseKernel(k1);
	clReleaseKernel(k2);
	clReleaseMemObject(dx);
	clReleaseMemObject(dp);
	clReleaseMemObject(dt);
	bench_free(x);
}

/* SIZE is the side, a multiple of 4 */
static void run_rowsum(struct ocl *o, struct bench *b)
{
	long side = bench_size(b);
	size_t lsz = 256, g = (size_t)side * lsz;
	float *x = bench_floats(side * side, 4, -1, 1), *r = bench_zeros(side);
	cl_mem dx = ocl_buffer(o, 4 * side * side, x);
	cl_mem dr = ocl_buffer(o, 4 * side, NULL);
	cl_kernel k = ocl_kernel(o, "rowsum");
	struct karg a[] = { ARG(dx), ARG(side), ARG(dr), { 4 * lsz, NULL } };

	ocl_args(o, k, a, NARGS(a));
	ocl_time(o, k, 1, &g, &lsz, bench_calls(b));
	ocl_read(o, dr, 4 * side, r);
	bench_work(b, 4.0 * side * side + 4.0 * side, 1.0 * side * side);
	ref_rowsum(b, side, side, x, r);
	clReleaseKernel(k);
	clReleaseMemObject(dx);
	clReleaseMemObject(dr);
	bench_free(x);
	bench_free(r);
}

/* KIND: "matmult_simple" (a point per element), "matmult_opt" (per 8 x 4
 * block), "matmult_tiled" (32 x 32 tiles, groups of 256) or "matmult_reg"
 * (128 x 128 tiles, groups of 256, 8 x 8 per work-item) */
static void run_matmult_kind(struct ocl *o, struct bench *b,
	const char *kind)
{
	int n = (int)bench_size(b);
	size_t nn = (size_t)n * n;
	float *A = bench_floats(n * (long)n, 5, -1, 1);
	float *B = bench_floats(n * (long)n, 6, -1, 1), *C = bench_zeros(nn);
	cl_mem dA = ocl_buffer(o, 4 * nn, A), dB = ocl_buffer(o, 4 * nn, B);
	cl_mem dC = ocl_buffer(o, 4 * nn, NULL);
	cl_kernel k = ocl_kernel(o, kind);
	struct karg a[] = { ARG(n), ARG(dA), ARG(dB), ARG(dC) };
	size_t g[2] = { (size_t)n, (size_t)n }, l[2] = { 256, 1 };
	const size_t *local = NULL;	/* groups of 256 for the tiled kinds */

	if (!strcmp(kind, "matmult_opt")) {
		g[0] = (size_t)n / 4;
		g[1] = (size_t)n / 8;
	} else if (!strcmp(kind, "matmult_tiled")) {
		g[0] = nn / 4;
		g[1] = 1;
		local = l;
	} else if (!strcmp(kind, "matmult_reg")) {
		g[0] = nn / 64;
		g[1] = 1;
		local = l;
	}
	ocl_args(o, k, a, NARGS(a));
	ocl_time(o, k, 2, g, local, 1);
	ocl_read(o, dC, 4 * nn, C);
	bench_work(b, 12.0 * nn, 2.0 * nn * n);
	ref_matmult(b, n, A, B, C);
	clReleaseKernel(k);
	clReleaseMemObject(dA);
	clReleaseMemObject(dB);
	clReleaseMemObject(dC);
	bench_free(A);
	bench_free(B);
	bench_free(C);
}

static void run_matmult_simple(struct ocl *o, struct bench *b)
{
	run_matmult_kind(o, b, "matmult_simple");
}

static void run_matmult_opt(struct ocl *o, struct bench *b)
{
	run_matmult_kind(o, b, "matmult_opt");
}

static void run_matmult_tiled(struct ocl *o, struct bench *b)
{
	run_matmult_kind(o, b, "matmult_tiled");
}

static void run_matmult_reg(struct ocl *o, struct bench *b)
{
	run_matmult_kind(o, b, "matmult_reg");
}

#define SEARCH_LG 22

static void run_bsearch(struct ocl *o, struct bench *b)
{
	long n = bench_size(b), len = 1L << SEARCH_LG;
	float size = (float)len, *keys = bench_search_keys(n, len, 7);
	float *arr = bench_search_array(len), *r = bench_zeros(n);
	int lg = SEARCH_LG;
	cl_mem dk = ocl_buffer(o, 4 * n, keys), da = ocl_buffer(o, 4 * len, arr);
	cl_mem dr = ocl_buffer(o, 4 * n, NULL);
	cl_kernel k = ocl_kernel(o, "bsearch");
	struct karg a[] = { ARG(dk), ARG(da), ARG(dr), ARG(size), ARG(lg) };
	size_t g = (size_t)n;

	ocl_args(o, k, a, NARGS(a));
	ocl_time(o, k, 1, &g, NULL, 1);
	ocl_read(o, dr, 4 * n, r);
	bench_work(b, 8.0 * n, 0);
	ref_search(b, n, len, keys, r);
	clReleaseKernel(k);
	clReleaseMemObject(dk);
	clReleaseMemObject(da);
	clReleaseMemObject(dr);
	bench_free(keys);
	bench_free(arr);
	bench_free(r);
}

static void run_mandel(struct ocl *o, struct bench *b)
{
	long side = bench_size(b);
	float scale = 3.0f / (float)side, *r = bench_zeros(side * side);
	int maxit = BENCH_MANDEL_MAXIT;
	cl_mem dr = ocl_buffer(o, 4 * side * side, NULL);
	cl_kernel k = ocl_kernel(o, "mandel");
	struct karg a[] = { ARG(dr), ARG(scale), ARG(maxit) };
	size_t g[2] = { (size_t)side, (size_t)side };
	double iters;

	ocl_args(o, k, a, NARGS(a));
	ocl_time(o, k, 2, g, NULL, 1);
	ocl_read(o, dr, 4 * side * side, r);
	iters = ref_mandel(b, side, maxit, r);
	bench_work(b, 4.0 * side * side, iters > 0 ? 8.0 * iters : 0);
	clReleaseKernel(k);
	clReleaseMemObject(dr);
	bench_free(r);
}

static void run_nbody(struct ocl *o, struct bench *b)
{
	int n = (int)bench_size(b);
	float eps2 = BENCH_NBODY_EPS2, *pos = bench_bodies(n, 8);
	float *acc = bench_zeros(4L * n);
	cl_mem dp = ocl_buffer(o, 16 * (size_t)n, pos);
	cl_mem da = ocl_buffer(o, 16 * (size_t)n, NULL);
	cl_kernel k = ocl_kernel(o, "nbody");
	struct karg a[] = { ARG(dp), ARG(da), ARG(n), ARG(eps2) };
	size_t g = (size_t)n;

	ocl_args(o, k, a, NARGS(a));
	ocl_time(o, k, 1, &g, NULL, 1);
	ocl_read(o, da, 16 * (size_t)n, acc);
	bench_work(b, 32.0 * n, 20.0 * n * (double)n);
	ref_nbody(b, n, pos, acc);
	clReleaseKernel(k);
	clReleaseMemObject(dp);
	clReleaseMemObject(da);
	bench_free(pos);
	bench_free(acc);
}

static void run_stencil(struct ocl *o, struct bench *b)
{
	int side = (int)bench_size(b);
	size_t nn = (size_t)side * side;
	float *x = bench_floats((long)nn, 9, -1, 1), *r = bench_zeros((long)nn);
	cl_mem dx = ocl_buffer(o, 4 * nn, x), dr = ocl_buffer(o, 4 * nn, NULL);
	cl_kernel k = ocl_kernel(o, "stencil");
	struct karg a[] = { ARG(dx), ARG(dr), ARG(side) };
	size_t g[2] = { (size_t)side, (size_t)side };

	ocl_args(o, k, a, NARGS(a));
	ocl_time(o, k, 2, g, NULL, 1);
	ocl_read(o, dr, 4 * nn, r);
	bench_work(b, 8.0 * nn, 5.0 * nn);
	ref_stencil(b, side, x, r);
	clReleaseKernel(k);
	clReleaseMemObject(dx);
	clReleaseMemObject(dr);
	bench_free(x);
	bench_free(r);
}

/* 1,000 launches ping-ponging between two buffers, one clFinish; two
 * kernel objects with their arguments set once, as raw OpenCL allows */
static void run_chain(struct ocl *o, struct bench *b)
{
	long n = bench_size(b);
	float *x = bench_floats(n, 10, -1, 1), *r = bench_zeros(n);
	cl_mem d[2] = { ocl_buffer(o, 4 * n, x), ocl_buffer(o, 4 * n, NULL) };
	cl_kernel k[2] = { ocl_kernel(o, "inc"), ocl_kernel(o, "inc") };
	struct karg a0[] = { ARG(d[0]), ARG(d[1]) }, a1[] = { ARG(d[1]),
		ARG(d[0]) };
	size_t g = (size_t)n;

	ocl_args(o, k[0], a0, NARGS(a0));
	ocl_args(o, k[1], a1, NARGS(a1));
	for (int i = 0; i < bench_iterations(b); i++) {
		bench_start(b);
		for (int j = 0; j < BENCH_CHAIN_KERNELS; j++)
			ocl_launch(o, k[j % 2], 1, &g, NULL);
		clFinish(o->q);
		bench_stop(b);
	}
	ocl_read(o, d[0], 4 * n, r);
	bench_work(b, 8.0 * n * BENCH_CHAIN_KERNELS, 1.0 * n *
		BENCH_CHAIN_KERNELS);
	ref_chain(b, n, BENCH_CHAIN_KERNELS * bench_iterations(b), x, r);
	clReleaseKernel(k[0]);
	clReleaseKernel(k[1]);
	clReleaseMemObject(d[0]);
	clReleaseMemObject(d[1]);
	bench_free(x);
	bench_free(r);
}

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

/* From main to the first kernel done: device, context, queue, program
 * (a warm driver cache), one buffer, one launch. */
static int run_startup(double t0, int argc, char **argv)
{
	struct bench *b = bench_new(argc, argv, "startup", "opencl", 1024);
	long n = bench_size(b);
	float *x = bench_floats(n, 11, -1, 1), *r = bench_zeros(n);
	struct ocl o;
	cl_mem dx, dr;
	cl_kernel k;
	size_t g = (size_t)n;

	ocl_open(&o, b);
	dx = ocl_buffer(&o, 4 * n, x);
	dr = ocl_buffer(&o, 4 * n, NULL);
	k = ocl_kernel(&o, "inc");
	{
		struct karg a[] = { ARG(dx), ARG(dr) };

		ocl_args(&o, k, a, NARGS(a));
	}
	ocl_launch(&o, k, 1, &g, NULL);
	if (o.q)
		clFinish(o.q);
	bench_record(b, bench_now_ms() - t0);
	ocl_read(&o, dr, 4 * n, r);
	ref_chain(b, n, 1, x, r);
	if (k)
		clReleaseKernel(k);
	if (dx)
		clReleaseMemObject(dx);
	if (dr)
		clReleaseMemObject(dr);
	ocl_close(&o);
	bench_free(x);
	bench_free(r);
	return bench_report(b);
}

int main(int argc, char **argv)
{
	double t0 = bench_now_ms();

	if (argc < 2) {
		fprintf(stderr, "usage: bench-opencl CASE [SIZE [RUNS]]\n");
		return 2;
	}
	if (!strcmp(argv[1], "startup"))
		return run_startup(t0, argc - 1, argv + 1);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct bench *b;
		struct ocl o;

		if (strcmp(argv[1], cases[i].name))
			continue;
		b = bench_new(argc - 1, argv + 1, cases[i].name, "opencl",
			cases[i].size);
		if (!b)
			return 2;
		if (ocl_open(&o, b))
			cases[i].run(&o, b);
		ocl_close(&o);
		return bench_report(b);
	}
	fprintf(stderr, "bench-opencl: no case %s\n", argv[1]);
	return 2;
}
