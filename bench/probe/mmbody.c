/* mmbody.c - a probe, not a benchmark case: what the generated
 * simple_matmult costs on an OpenCL device beside the hand-written
 * matmult_simple of bench/kernels.cl, in one process, in turn. Each FILE
 * is OpenCL C as brgen writes it (--target=opencl) for
 * bench/br/matmult_simple.br, or that text with its body changed
 * (mmbody.sh makes both); its simple_matmult__grid runs over SIDE x SIDE
 * as libbrt launches it there (32-bit indices, groups of 64 x 4, the
 * views and the domain as arguments), and the hand kernel in groups of
 * 16 x 16 as bench/ocl.c launches it. Each round runs every FILE's kernel
 * and then the hand kernel, each once, timed to its clFinish.
 *
 *     cc -O2 mmbody.c -lOpenCL -o mmbody-probe
 *     ./mmbody-probe SIDE ROUNDS FILE.cl...
 *
 * SIDE a multiple of 64 from 64 to 8192, ROUNDS 1 to 1000. The device: a
 * GPU, else any (PoCL); the program is built with libbrt's options there
 * (-DBRG_CPU on a CPU device, NVIDIA's register limit where the driver
 * takes it). Prints the device, then a line a FILE:
 * FILE brook_ms=MEDIAN hand_ms=MEDIAN ratio=HAND/BROOK ok=1 (medians of
 * the rounds); a result unlike the hand kernel's is ok=0 and exit
 * status 1. */
#define PROBE_NAME "mmbody-probe"
#include "probe.h"

#include <stdint.h>
#include <string.h>

/* libbrt's brt_view in a 32-bit program (brt.h): BRG_L is int */
struct view32 {
	int32_t dims[4], pitch[4], base, rank, map;
	float lo[4], step[4];
};

static const char hand_src[] =
"__kernel void matmult_simple(const int n, __global const float *A,\n"
"	__global const float *B, __global float *C)\n"
"{\n"
"	int x = get_global_id(0), y = get_global_id(1);\n"
"	float acc = 0.0f;\n"
"\n"
"	for (int k = 0; k < n; k++)\n"
"		acc += A[y * n + k] * B[k * n + x];\n"
"	C[y * n + x] = acc;\n"
"}\n";

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s = NULL;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0
	    || fseek(f, 0, SEEK_SET) || !(s = malloc(n + 1))
	    || fread(s, 1, n, f) != (size_t)n) {
		fprintf(stderr, PROBE_NAME ": cannot read %s\n", path);
		exit(1);
	}
	s[n] = '\0';
	fclose(f);
	return s;
}

static double run(cl_command_queue q, cl_kernel k, const size_t *g,
	const size_t *l)
{
	double t = now_ms();
	cl_int err = clEnqueueNDRangeKernel(q, k, 2, NULL, g, l, 0, NULL,
		NULL);

	if (err)
		die("clEnqueueNDRangeKernel", err);
	clFinish(q);
	return now_ms() - t;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof *v, cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	int side = argc > 2 ? atoi(argv[1]) : 0;
	int rounds = argc > 2 ? atoi(argv[2]) : 0, nf = argc - 3, bad = 0;

	if (nf < 1 || side < 64 || side > 8192 || side % 64 || rounds < 1
	    || rounds > 1000) {
		fprintf(stderr, "usage: " PROBE_NAME " SIDE ROUNDS FILE.cl... "
			"(SIDE a multiple of 64 from 64 to 8192, ROUNDS 1 to "
			"1000)\n");
		return 2;
	}
	char name[256] = "";
	cl_device_id dev = probe_device(name, sizeof name);
	cl_device_type type = 0;
	clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
	printf("device: %s\n", name);
	cl_context ctx = probe_context(dev);
	cl_command_queue q = probe_queue(ctx, dev, 0);
	/* libbrt's options there (opencl.c, device_options), less
	   BRG_LOCAL_MEM, which this kernel does not read */
	char ext[8192] = "";
	clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext - 1, ext, NULL);
	const char *opts = type & CL_DEVICE_TYPE_CPU ? "-DBRG_I32 -DBRG_CPU -w"
		: strstr(ext, "cl_nv_compiler_options")
		? "-DBRG_I32 -cl-nv-maxrregcount=128 -w" : "-DBRG_I32 -w";

	size_t n = (size_t)side * side, bytes = n * sizeof(float);
	float *h = malloc(bytes), *want = malloc(bytes), *got = malloc(bytes);
	if (!h || !want || !got)
		die("out of host memory", CL_OUT_OF_HOST_MEMORY);
	for (size_t i = 0; i < n; i++)	/* small integers: sums exact */
		h[i] = (float)((int)(i * 7 % 13) - 6);
	cl_int err;
	cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
		bytes, h, &err);
	cl_mem b = err ? NULL : clCreateBuffer(ctx, CL_MEM_READ_ONLY
		| CL_MEM_COPY_HOST_PTR, bytes, h, &err);
	cl_mem c = err ? NULL : clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes,
		NULL, &err);
	if (err)
		die("clCreateBuffer", err);

	cl_program hprog = probe_program(ctx, dev, hand_src);
	cl_kernel hand = probe_kernel(hprog, "matmult_simple");
	probe_set(hand, 0, sizeof side, &side);
	probe_set(hand, 1, sizeof a, &a);
	probe_set(hand, 2, sizeof b, &b);
	probe_set(hand, 3, sizeof c, &c);

	/* the views and domain libbrt gives a SIDE x SIDE launch */
	struct view32 v;
	memset(&v, 0, sizeof v);
	v.dims[0] = v.dims[1] = side;
	v.dims[2] = v.dims[3] = 1;
	v.pitch[0] = 1;
	v.pitch[1] = side;
	v.pitch[2] = v.pitch[3] = side * side;
	v.rank = 2;
	float width = (float)side;
	cl_int dom[4] = { side, side, 1, 1 }, off[4] = { 0, 0, 0, 0 };
	cl_kernel *k = calloc(nf, sizeof *k);
	cl_program *prog = calloc(nf, sizeof *prog);
	double *tb = calloc((size_t)nf * rounds, sizeof *tb);
	double *th = calloc((size_t)nf * rounds, sizeof *th);
	if (!k || !prog || !tb || !th)
		die("out of host memory", CL_OUT_OF_HOST_MEMORY);
	for (int f = 0; f < nf; f++) {
		char *src = slurp(argv[3 + f]);
		prog[f] = probe_program_opts(ctx, dev, src, opts);
		k[f] = probe_kernel(prog[f], "simple_matmult__grid");
		free(src);
		probe_set(k[f], 0, sizeof width, &width);
		probe_set(k[f], 1, sizeof a, &a);
		probe_set(k[f], 2, sizeof v, &v);
		probe_set(k[f], 3, sizeof b, &b);
		probe_set(k[f], 4, sizeof v, &v);
		probe_set(k[f], 5, sizeof c, &c);
		probe_set(k[f], 6, sizeof v, &v);
		probe_set(k[f], 7, sizeof dom, dom);
		probe_set(k[f], 8, sizeof off, off);
	}
	size_t g[2] = { (size_t)side, (size_t)side }, lb[2] = { 64, 4 };
	size_t lh[2] = { 16, 16 };
	run(q, hand, g, lh);	/* the hand kernel's result, and a warm-up */
	if ((err = clEnqueueReadBuffer(q, c, CL_TRUE, 0, bytes, want, 0, NULL,
		NULL)))
		die("clEnqueueReadBuffer", err);
	for (int r = 0; r < rounds; r++)
		for (int f = 0; f < nf; f++) {
			tb[f * rounds + r] = run(q, k[f], g, lb);
			th[f * rounds + r] = run(q, hand, g, lh);
		}
	for (int f = 0; f < nf; f++) {
		run(q, k[f], g, lb);
		if ((err = clEnqueueReadBuffer(q, c, CL_TRUE, 0, bytes, got, 0,
			NULL, NULL)))
			die("clEnqueueReadBuffer", err);
		int ok = !memcmp(got, want, bytes);
		double mb = median(tb + f * rounds, rounds);
		double mh = median(th + f * rounds, rounds);
		printf("%s brook_ms=%.3f hand_ms=%.3f ratio=%.3f ok=%d\n",
			argv[3 + f], mb, mh, mh / mb, ok);
		bad |= !ok;
	}
	for (int f = 0; f < nf; f++) {
		clReleaseKernel(k[f]);
		clReleaseProgram(prog[f]);
	}
	clReleaseKernel(hand);
	clReleaseProgram(hprog);
	clReleaseMemObject(a);
	clReleaseMemObject(b);
	clReleaseMemObject(c);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	free(k);
	free(prog);
	free(tb);
	free(th);
	free(h);
	free(want);
	free(got);
	return bad;
}
