/* stencil.c - a probe, not a benchmark case: what separates the Brook
 * stencil (bench/br/stencil.br) from the hand-written one on an OpenCL
 * GPU. Times the hand-written kernel of kernels.cl under several
 * work-group shapes (the driver's choice, and libbrt's rows of 64), and
 * the same kernel with what the generated fast path adds (the clamps of
 * the row indices, a base and pitch read from a parameter block, a 3-D
 * guard and output index), one call waited for, as the table does.
 *
 *     cc -O2 stencil.c -lOpenCL -o stencil-probe && ./stencil-probe [SIDE]
 *
 * SIDE (default 8192, a multiple of 256). Prints one line per kernel and
 * shape: ms per call (median of 15 runs), device ms (profiling events),
 * and whether the result is right. Exit status 1 when one is wrong. */
#define PROBE_NAME "stencil-probe"
#include "probe.h"

#include <string.h>

#define RUNS 15

static const char *src =
"__kernel void hand(__global const float *in, __global float *out,\n"
"	const int side, const long base, const long pitch)\n"
"{\n"
"	int x = get_global_id(0), y = get_global_id(1);\n"
"	int xm = max(x - 1, 0), xp = min(x + 1, side - 1);\n"
"	int ym = max(y - 1, 0), yp = min(y + 1, side - 1);\n"
"	out[y * side + x] = 0.2f * (in[y * side + x] + in[ym * side + x] +\n"
"		in[yp * side + x] + in[y * side + xm] + in[y * side + xp]);\n"
"}\n"
/* the row indices clamped again to the array's rows, as brg_ci does */
"int ci(int i, int n) { int c = i > 0 ? i : 0; return c < n - 1 ? c : n - 1; }\n"
"__kernel void clampy(__global const float *in, __global float *out,\n"
"	const int side, const long base, const long pitch)\n"
"{\n"
"	int x = get_global_id(0), y = get_global_id(1);\n"
"	int xm = max(x - 1, 0), xp = min(x + 1, side - 1);\n"
"	int ym = y > 0 ? y - 1 : 0, yp = y < side - 1 ? y + 1 : y;\n"
"	out[y * side + x] = 0.2f * (in[ci(y, side) * side + x] +\n"
"		in[ci(ym, side) * side + x] + in[ci(yp, side) * side + x] +\n"
"		in[ci(y, side) * side + xm] + in[ci(y, side) * side + xp]);\n"
"}\n"
/* and the base and pitch of a view, the 3-D guard and output index */
"__kernel void view(__global const float *in, __global float *out,\n"
"	const int side, const long base, const long pitch)\n"
"{\n"
"	long gx = get_global_id(0), gy = get_global_id(1), gz = get_global_id(2);\n"
"	if (gx >= side || gy >= side || gz >= 1) return;\n"
"	int x = (int)gx, y = (int)gy;\n"
"	int xm = max(x - 1, 0), xp = min(x + 1, side - 1);\n"
"	int ym = y > 0 ? y - 1 : 0, yp = y < side - 1 ? y + 1 : y;\n"
"	long i = gx + side * (gy + side * gz);\n"
"	out[base + i] = 0.2f * (in[base + x + ci(y, side) * pitch] +\n"
"		in[base + x + ci(ym, side) * pitch] +\n"
"		in[base + x + ci(yp, side) * pitch] +\n"
"		in[base + xm + ci(y, side) * pitch] +\n"
"		in[base + xp + ci(y, side) * pitch]);\n"
"}\n";

int main(int argc, char **argv)
{
	long side = probe_arg(argc, argv, 8192, "SIDE");
	cl_device_id dev;
	cl_int err;
	char name[256] = "";

	if (!side)
		return 2;
	dev = probe_device(name, sizeof name);
	printf("device: %s\n", name);
	cl_context ctx = probe_context(dev);
	cl_command_queue q = probe_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
	cl_program prog = probe_program(ctx, dev, src);
	size_t nn = (size_t)side * side;
	float *h = malloc(4 * nn), *r = malloc(4 * nn);
	for (size_t i = 0; i < nn; i++)
		h[i] = (float)(i % 29) - 14.0f;
	cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
		4 * nn, h, &err);
	cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4 * nn, NULL, &err);
	if (err)
		die("clCreateBuffer", err);
	static const char *const kernels[] = { "hand", "clampy", "view" };
	static const size_t shapes[][2] = { { 0, 0 }, { 64, 4 }, { 32, 8 },
		{ 128, 2 }, { 256, 1 }, { 32, 4 }, { 16, 16 } };
	int wrong = 0;
	cl_int iside = (cl_int)side;
	cl_long base = 0, pitch = side;
	for (size_t ki = 0; ki < 3; ki++) {
		cl_kernel k = probe_kernel(prog, kernels[ki]);
		probe_set(k, 0, sizeof a, &a);
		probe_set(k, 1, sizeof b, &b);
		probe_set(k, 2, sizeof iside, &iside);
		probe_set(k, 3, sizeof base, &base);
		probe_set(k, 4, sizeof pitch, &pitch);
		for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
			size_t g[3] = { (size_t)side, (size_t)side, 1 };
			size_t l[3] = { shapes[si][0], shapes[si][1], 1 };
			double t[RUNS], d[RUNS];
			for (int run = -1; run < RUNS; run++) {
				cl_event ev;
				double t0 = now_ms();
				if ((err = clEnqueueNDRangeKernel(q, k, 3, NULL, g,
					l[0] ? l : NULL, 0, NULL, &ev)))
					die(kernels[ki], err);
				clFinish(q);
				double t1 = now_ms();
				double dev_ms = probe_event_ms(ev);
				if (run >= 0) {
					t[run] = t1 - t0;
					d[run] = dev_ms;
				}
			}
			qsort(t, RUNS, sizeof t[0], cmp);
			qsort(d, RUNS, sizeof d[0], cmp);
			clEnqueueReadBuffer(q, b, CL_TRUE, 0, 4 * nn, r, 0, NULL,
				NULL);
			int bad = 0;
			for (long y = 0; y < side && !bad; y += side / 64 + 1)
				for (long x = 0; x < side && !bad; x++) {
					long xm = x > 0 ? x - 1 : 0;
					long xp = x < side - 1 ? x + 1 : x;
					long ym = y > 0 ? y - 1 : 0;
					long yp = y < side - 1 ? y + 1 : y;
					float want = 0.2f * (h[y * side + x] +
						h[ym * side + x] + h[yp * side + x] +
						h[y * side + xm] + h[y * side + xp]);
					bad = r[y * side + x] != want;
				}
			wrong += bad;
			char shape[32] = "driver";
			if (l[0])
				snprintf(shape, sizeof shape, "%zux%zu", l[0],
					l[1]);
			printf("%-7s local=%-7s ms=%.4f device_ms=%.4f check: %s\n",
				kernels[ki], shape, t[RUNS / 2], d[RUNS / 2],
				bad ? "WRONG" : "ok");
			memset(r, 0, 4 * nn);
			clEnqueueWriteBuffer(q, b, CL_TRUE, 0, 4 * nn, r, 0, NULL,
				NULL);
		}
		clReleaseKernel(k);
	}
	free(h);
	free(r);
	return wrong > 0;
}
