/* rowsum.c - a probe, not a benchmark case: what bounds rowsum's
 * bandwidth (<4096,4096> to <4096,1>, 64 MB read) on an OpenCL GPU.
 * Times, in one process on one device, the copy of 256 MB (the table's
 * copy) and of 64 MB, a read-only pass over 64 MB (the most any
 * reduction of that input can reach) and rowsum written several ways,
 * each as one call waited for and as runs of 16 calls with one wait
 * (the table's rowsum and rowsum_x16), as one call waited for by asking
 * its event's status in a loop (calls=1s), and each kernel's device time
 * from profiling events.
 *
 *     cc -O2 rowsum.c -lOpenCL -o rowsum-probe && ./rowsum-probe [SIDE]
 *
 * SIDE (default 4096, a multiple of 256) is the matrix's side; the copies
 * move 16 and 4 times its SIDE^2 floats. Prints one line per
 * measurement: name, bytes moved per call, ms per call (median of 15
 * runs), GB/s, and the share of the large copy timed the same way; and
 * for each rowsum whether its sums are right. Runs on a GPU, else on any
 * OpenCL device. Exit status 1 when a sum is wrong or OpenCL fails.
 * With PROBE_BINARY=FILE in the environment, the program's binary (PTX
 * on NVIDIA) is written to FILE, for reading the compiled loops. */
#define PROBE_NAME "rowsum-probe"
#include "probe.h"

#include <string.h>

static long side;
#define SIDE side
#define RUNS 15

static const char *src =
PROBE_CL_COPY_READ
/* ROWS rows a group, LSZ/ROWS work-items a row, a tree in local memory */
"__kernel void rowsum(__global const float *in, const long cols,\n"
"	__global float *out, __local float *tmp, const int rows)\n"
"{\n"
"	size_t lid = get_local_id(0), lsz = get_local_size(0) / rows;\n"
"	size_t r = lid / lsz, l = lid % lsz;\n"
"	size_t row = get_group_id(0) * rows + r;\n"
"	__global const float4 *p = (__global const float4 *)(in + row * cols);\n"
"	float acc = 0.0f;\n"
"	for (long i = l; i < cols / 4; i += lsz) {\n"
"		float4 v = p[i]; acc += (v.x + v.y) + (v.z + v.w); }\n"
"	tmp[lid] = acc;\n"
"	barrier(CLK_LOCAL_MEM_FENCE);\n"
"	for (size_t s = lsz / 2; s > 0; s >>= 1) {\n"
"		if (l < s) tmp[lid] += tmp[lid + s];\n"
"		barrier(CLK_LOCAL_MEM_FENCE);\n"
"	}\n"
"	if (l == 0) out[row] = tmp[lid];\n"
"}\n"
/* 64 work-items a row, its 16 loads each issued before any add */
"__kernel void rowsum16(__global const float *in, const long cols,\n"
"	__global float *out, __local float *tmp, const int rows)\n"
"{\n"
"	size_t lid = get_local_id(0);\n"
"	__global const float4 *p = (__global const float4 *)\n"
"		(in + get_group_id(0) * cols);\n"
"	float4 v[16];\n"
"	for (int i = 0; i < 16; i++) v[i] = p[lid + 64 * i];\n"
"	float acc = 0.0f;\n"
"	for (int i = 0; i < 16; i++) acc += (v[i].x + v[i].y) + (v[i].z + v[i].w);\n"
"	tmp[lid] = acc;\n"
"	barrier(CLK_LOCAL_MEM_FENCE);\n"
"	for (size_t s = 32; s > 0; s >>= 1) {\n"
"		if (lid < s) tmp[lid] += tmp[lid + s];\n"
"		barrier(CLK_LOCAL_MEM_FENCE);\n"
"	}\n"
"	if (lid == 0) out[get_group_id(0)] = tmp[0];\n"
"	(void)rows;\n"
"}\n"
/* the loop of rowsum, U vector loads issued before their adds */
"#define ROWSUM_U(NAME, U) \\\n"
"__kernel void NAME(__global const float *in, const long cols,\\\n"
"	__global float *out, __local float *tmp, const int rows)\\\n"
"{\\\n"
"	size_t lid = get_local_id(0), lsz = get_local_size(0);\\\n"
"	__global const float4 *p = (__global const float4 *)\\\n"
"		(in + get_group_id(0) * cols);\\\n"
"	float acc = 0.0f;\\\n"
"	long i = lid, n4 = cols / 4;\\\n"
"	for (; i + (U - 1) * lsz < n4; i += U * lsz) {\\\n"
"		float4 v[U];\\\n"
"		for (int u = 0; u < U; u++) v[u] = p[i + u * lsz];\\\n"
"		for (int u = 0; u < U; u++)\\\n"
"			acc += (v[u].x + v[u].y) + (v[u].z + v[u].w);\\\n"
"	}\\\n"
"	for (; i < n4; i += lsz) {\\\n"
"		float4 v = p[i]; acc += (v.x + v.y) + (v.z + v.w); }\\\n"
"	tmp[lid] = acc;\\\n"
"	barrier(CLK_LOCAL_MEM_FENCE);\\\n"
"	for (size_t s = lsz / 2; s > 0; s >>= 1) {\\\n"
"		if (lid < s) tmp[lid] += tmp[lid + s];\\\n"
"		barrier(CLK_LOCAL_MEM_FENCE);\\\n"
"	}\\\n"
"	if (lid == 0) out[get_group_id(0)] = tmp[0];\\\n"
"	(void)rows;\\\n"
"}\n"
"ROWSUM_U(rowsum_u2, 2)\n"
"ROWSUM_U(rowsum_u4, 4)\n"
"ROWSUM_U(rowsum_u8, 8)\n"
/* persistent groups: each takes rows G, G + ngroups, ... */
"__kernel void rowsum_loop(__global const float *in, const long cols,\n"
"	__global float *out, __local float *tmp, const int rows)\n"
"{\n"
"	size_t lid = get_local_id(0), lsz = get_local_size(0);\n"
"	for (long row = get_group_id(0); row < rows; row += get_num_groups(0)) {\n"
"		__global const float4 *p = (__global const float4 *)(in + row * cols);\n"
"		float acc = 0.0f;\n"
"		for (long i = lid; i < cols / 4; i += lsz) {\n"
"			float4 v = p[i]; acc += (v.x + v.y) + (v.z + v.w); }\n"
"		tmp[lid] = acc;\n"
"		barrier(CLK_LOCAL_MEM_FENCE);\n"
"		for (size_t s = lsz / 2; s > 0; s >>= 1) {\n"
"			if (lid < s) tmp[lid] += tmp[lid + s];\n"
"			barrier(CLK_LOCAL_MEM_FENCE);\n"
"		}\n"
"		if (lid == 0) out[row] = tmp[0];\n"
"		barrier(CLK_LOCAL_MEM_FENCE);\n"
"	}\n"
"}\n";

static cl_context ctx;
static cl_command_queue q, qp;
static cl_program prog;
static double copy_ms[3];	/* the 256 MB copy: one call, runs of 16,
				   one call waited for by spinning */

/* The host waits for EV by asking its status until it is complete, as
 * a runtime may for a short command, instead of sleeping in clFinish. */
static void spin(cl_event ev)
{
	cl_int st = CL_QUEUED;
	do
		if (clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS,
			sizeof st, &st, NULL))
			break;
	while (st > CL_COMPLETE);
	clReleaseEvent(ev);
}

/* median ms per call of RUNS runs of CALLS launches and one clFinish
 * (calls=1, calls=16), and of one launch waited for by spin() (calls=1s);
 * then the median device time of one launch (profiling queue) */
static void timeit(const char *name, cl_kernel k, size_t g, size_t l,
	double bytes, int which)
{
	static const int calls[3] = { 1, 16, 1 };
	double t[RUNS], dev[RUNS];
	cl_int err;

	for (int c = 0; c < 3; c++) {
		for (int r = -1; r < RUNS; r++) {
			cl_event ev = NULL;
			double t0 = now_ms();
			for (int i = 0; i < calls[c]; i++)
				if ((err = clEnqueueNDRangeKernel(q, k, 1, NULL,
					&g, l ? &l : NULL, 0, NULL,
					c == 2 ? &ev : NULL)))
					die(name, err);
			if (c == 2) {
				clFlush(q);
				spin(ev);
			} else {
				clFinish(q);
			}
			if (r >= 0)
				t[r] = (now_ms() - t0) / calls[c];
		}
		qsort(t, RUNS, sizeof t[0], cmp);
		double ms = t[RUNS / 2];
		if (which == 1)
			copy_ms[c] = ms;
		/* shares of the 256 MB copy waited for by clFinish */
		double cgbs = 2.0 * SIDE * SIDE * 16 / copy_ms[c == 2 ? 0 : c] / 1e6;
		double gbs = bytes / ms / 1e6;
		printf("%-28s calls=%-2d%s bytes=%.0f ms=%.4f GB/s=%.0f of_copy=%.1f%%\n",
			name, calls[c], c == 2 ? "s" : "", bytes, ms, gbs,
			100 * gbs / cgbs);
	}
	for (int r = 0; r < RUNS; r++) {
		cl_event ev;
		if ((err = clEnqueueNDRangeKernel(qp, k, 1, NULL, &g,
			l ? &l : NULL, 0, NULL, &ev)))
			die(name, err);
		dev[r] = probe_event_ms(ev);
	}
	qsort(dev, RUNS, sizeof dev[0], cmp);
	printf("%-28s device_ms=%.4f device_GB/s=%.0f\n", name, dev[RUNS / 2],
		bytes / dev[RUNS / 2] / 1e6);
}

/* "1MB", "256KB": BYTES for a name */
static const char *mb(size_t bytes)
{
	static char s[4][32];
	static int i;
	i = (i + 1) % 4;
	if (bytes >= 1 << 20)
		snprintf(s[i], sizeof s[i], "%zuMB", bytes >> 20);
	else
		snprintf(s[i], sizeof s[i], "%zuKB", bytes >> 10);
	return s[i];
}

int main(int argc, char **argv)
{
	cl_device_id dev;
	cl_int err;
	char name[256] = "";

	if (!(side = probe_arg(argc, argv, 4096, "SIDE")))
		return 2;
	dev = probe_device(name, sizeof name);
	cl_uint units = 0;
	clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units,
		NULL);
	printf("device: %s, %u compute units\n", name, units);
	ctx = probe_context(dev);
	q = probe_queue(ctx, dev, 0);
	qp = probe_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
	prog = probe_program(ctx, dev, src);
	/* PROBE_BINARY=FILE: the program's binary (PTX on NVIDIA) to FILE */
	if (getenv("PROBE_BINARY")) {
		size_t n = 0;
		clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof n, &n,
			NULL);
		unsigned char *bin = malloc(n);
		FILE *f = fopen(getenv("PROBE_BINARY"), "wb");
		if (bin && f && !clGetProgramInfo(prog, CL_PROGRAM_BINARIES,
			sizeof bin, &bin, NULL))
			fwrite(bin, 1, n, f);
		if (f)
			fclose(f);
		free(bin);
	}
	size_t big = 4 * SIDE * SIDE * 4, small = 4 * SIDE * SIDE;
	float *h = malloc(big);
	for (size_t i = 0; i < big / 4; i++)
		h[i] = (float)(i % 17) - 8.0f;
	cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
		big, h, &err);
	cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, big, NULL, &err);
	cl_mem o = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1 << 24, NULL, &err);
	if (err)
		die("clCreateBuffer", err);

	cl_kernel kc = probe_kernel(prog, "copy");
	probe_set(kc, 0, sizeof a, &a);
	probe_set(kc, 1, sizeof b, &b);
	char nm[64];
	snprintf(nm, sizeof nm, "copy %s", mb(big));
	timeit(nm, kc, big / 16, 256, 2.0 * big, 1);
	snprintf(nm, sizeof nm, "copy %s", mb(small));
	timeit(nm, kc, small / 16, 256, 2.0 * small, -1);

	cl_kernel kr = probe_kernel(prog, "readonly");
	long n4 = small / 16;
	probe_set(kr, 0, sizeof a, &a);
	probe_set(kr, 1, sizeof n4, &n4);
	probe_set(kr, 2, sizeof o, &o);
	for (size_t per = 4; per <= 64; per *= 4) {
		snprintf(nm, sizeof nm, "read %s %zu/item", mb(small),
			per * 4);
		timeit(nm, kr, n4 / per, 256, small, -1);
	}
	size_t gfix = (size_t)units * 2048;
	snprintf(nm, sizeof nm, "read %s units*2048", mb(small));
	timeit(nm, kr, gfix, 256, small, -1);

	long cols = SIDE;
	int rows;
	static const struct { const char *k; size_t lsz; int rows; } v[] = {
		{ "rowsum", 256, 1 }, { "rowsum", 128, 1 }, { "rowsum", 64, 1 },
		{ "rowsum", 32, 1 }, { "rowsum", 256, 4 }, { "rowsum", 128, 2 },
		{ "rowsum16", 64, 1 }, { "rowsum_u2", 64, 1 },
		{ "rowsum_u4", 64, 1 }, { "rowsum_u8", 64, 1 },
		{ "rowsum_u4", 128, 1 }, { "rowsum_u4", 256, 1 },
		{ "rowsum_u8", 256, 1 },
	};
	int wrong = 0;
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		if (!strcmp(v[i].k, "rowsum16") && SIDE != 4096)
			continue;	/* written for rows of 4,096 */
		cl_kernel k = probe_kernel(prog, v[i].k);
		rows = v[i].rows;
		probe_set(k, 0, sizeof a, &a);
		probe_set(k, 1, sizeof cols, &cols);
		probe_set(k, 2, sizeof o, &o);
		probe_set(k, 3, 4 * v[i].lsz, NULL);
		probe_set(k, 4, sizeof rows, &rows);
		snprintf(nm, sizeof nm, "%s lsz=%zu rows/group=%d", v[i].k,
			v[i].lsz, v[i].rows);
		timeit(nm, k, SIDE / v[i].rows * v[i].lsz, v[i].lsz,
			small + 4.0 * SIDE, -1);
		float *r = malloc(4 * SIDE);
		clEnqueueReadBuffer(q, o, CL_TRUE, 0, 4 * SIDE, r, 0, NULL, NULL);
		int bad = 0;
		for (long row = 0; row < SIDE && !bad; row++) {
			double s = 0;
			for (long c = 0; c < SIDE; c++)
				s += h[row * SIDE + c];
			bad = s != r[row];
		}
		printf("%s check: %s\n", nm, bad ? "WRONG" : "ok");
		wrong += bad;
		free(r);
		clReleaseKernel(k);
	}
	cl_kernel kl = probe_kernel(prog, "rowsum_loop");
	rows = SIDE;
	probe_set(kl, 0, sizeof a, &a);
	probe_set(kl, 1, sizeof cols, &cols);
	probe_set(kl, 2, sizeof o, &o);
	probe_set(kl, 4, sizeof rows, &rows);
	for (size_t per = 4; per <= 16; per *= 2) {
		size_t lsz = 256;
		probe_set(kl, 3, 4 * lsz, NULL);
		snprintf(nm, sizeof nm, "rowsum_loop groups=units*%zu", per);
		timeit(nm, kl, units * per * lsz, lsz, small + 4.0 * SIDE, -1);
	}
	free(h);
	return wrong > 0;
}
