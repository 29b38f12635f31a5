/* sum.c - a probe, not a benchmark case: where the time of a sum to a
 * host scalar goes on an OpenCL GPU, beyond the read of its input. Times,
 * in one process on one device, the copy of N floats (the "of copy"
 * reference), a read-only pass over the input, and the sum done two ways,
 * each call waited for as the table's sum waits:
 *
 *   two passes   the table's hand-written sum: a partial sum per work-
 *                group, then one work-group folds the partials
 *   one pass     one launch: the last work-group to count itself in (an
 *                atomic count) folds the partials
 *   one pass C3  the same in OpenCL C 3.0, its count an acquire-release
 *                atomic of device scope, as that memory model requires
 *                for one work-group to see another's stores; only where
 *                the device offers OpenCL C 3.0 with both features
 *                (__opencl_c_atomic_order_acq_rel and
 *                __opencl_c_atomic_scope_device)
 *
 * each ended six ways: a clFinish alone (no result: what the read costs);
 * the 4-byte result read blocking, into pageable or into pinned memory
 * (a mapped CL_MEM_ALLOC_HOST_PTR buffer, as libbrt stages small reads);
 * read without blocking, then a clFinish or a wait for the read's event;
 * a clFinish, then the blocking read; or the result's buffer mapped. The
 * first pass alone is timed too, ended by a clFinish, and as "host fold":
 * its partials read (without blocking, then clFinish) and added up on the
 * host. All of it with
 * 1,024 work-groups (the table's hand-written sum) and with 4 per
 * compute unit.
 *
 *     cc -O2 sum.c -lOpenCL -o sum-probe && ./sum-probe [N]
 *
 * N (default 2^26, a multiple of 256) is the number of floats. Prints the
 * device's atomic capabilities (OpenCL 3.0 queries), then one
 * line per measurement: what was timed, ms per call (median and least of
 * 31), GB/s and the share of the copy's GB/s (N floats read and written,
 * timed the same way); the kernels' device times (profiling events); and
 * each result's check against the sum on the host. Runs on a GPU, else on
 * any OpenCL device. Exit status 1 when a sum is wrong or OpenCL fails.
 */
#define PROBE_NAME "sum-probe"
#include "probe.h"

#include <string.h>

#define RUNS 31

static const char *src =
PROBE_CL_COPY_READ
/* the work-group's sum of its work-items' ACC, in tmp[0] for all */
"float group_sum(float acc, __local float *tmp)\n"
"{\n"
"	size_t lid = get_local_id(0);\n"
"	tmp[lid] = acc;\n"
"	barrier(CLK_LOCAL_MEM_FENCE);\n"
"	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {\n"
"		if (lid < s) tmp[lid] += tmp[lid + s];\n"
"		barrier(CLK_LOCAL_MEM_FENCE);\n"
"	}\n"
"	return tmp[0];\n"
"}\n"
/* bench/kernels.cl's sum_partial: N4 float4s, four loads before adds */
"float strided(__global const float4 *in, long n4)\n"
"{\n"
"	long i = get_global_id(0), gsz = get_global_size(0);\n"
"	float acc = 0.0f;\n"
"	for (; i + 3 * gsz < n4; i += 4 * gsz) {\n"
"		float4 v0 = in[i], v1 = in[i + gsz];\n"
"		float4 v2 = in[i + 2 * gsz], v3 = in[i + 3 * gsz];\n"
"		acc += (v0.x + v0.y) + (v0.z + v0.w);\n"
"		acc += (v1.x + v1.y) + (v1.z + v1.w);\n"
"		acc += (v2.x + v2.y) + (v2.z + v2.w);\n"
"		acc += (v3.x + v3.y) + (v3.z + v3.w);\n"
"	}\n"
"	for (; i < n4; i += gsz) {\n"
"		float4 v = in[i]; acc += (v.x + v.y) + (v.z + v.w); }\n"
"	return acc;\n"
"}\n"
"__kernel void partial(__global const float4 *in, long n4,\n"
"	__global float *out, __local float *tmp)\n"
"{\n"
"	float s = group_sum(strided(in, n4), tmp);\n"
"	if (get_local_id(0) == 0) out[get_group_id(0)] = s;\n"
"}\n"
"__kernel void fold(__global const float *part, long n,\n"
"	__global float *out, __local float *tmp)\n"
"{\n"
"	float acc = 0.0f;\n"
"	for (long i = get_local_id(0); i < n; i += get_local_size(0))\n"
"		acc += part[i];\n"
"	float s = group_sum(acc, tmp);\n"
"	if (get_local_id(0) == 0) out[0] = s;\n"
"}\n"
/* one launch: each group's partial, then the last group to count
 * itself in folds them and sets the count back to 0 */
"__kernel void once(__global const float4 *in, long n4,\n"
"	volatile __global float *part, volatile __global uint *count,\n"
"	__global float *out, __local float *tmp)\n"
"{\n"
"	__local uint last;\n"
"	size_t lid = get_local_id(0), ng = get_num_groups(0);\n"
"	float s = group_sum(strided(in, n4), tmp);\n"
"	if (lid == 0) {\n"
"		part[get_group_id(0)] = s;\n"
"		mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
"		last = atomic_inc(count) == ng - 1;\n"
"	}\n"
"	barrier(CLK_LOCAL_MEM_FENCE);\n"
"	if (!last) return;\n"
"	mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
"	float acc = 0.0f;\n"
"	for (size_t i = lid; i < ng; i += get_local_size(0))\n"
"		acc += part[i];\n"
"	barrier(CLK_LOCAL_MEM_FENCE);\n"
"	s = group_sum(acc, tmp);\n"
"	if (lid == 0) { out[0] = s; *count = 0; }\n"
"}\n";

/* one pass, OpenCL C 3.0: the count's read-modify-write releases this
 * group's partial and acquires the others' (device scope); the barrier
 * hands what work-item 0 acquired to its group */
static const char *src_c3 =
"#if defined(__opencl_c_atomic_order_acq_rel) && \\\n"
"	defined(__opencl_c_atomic_scope_device)\n"
"__kernel void once_c3(__global const float4 *in, long n4,\n"
"	__global float *part, volatile __global atomic_uint *count,\n"
"	__global float *out, __local float *tmp)\n"
"{\n"
"	__local uint last;\n"
"	size_t lid = get_local_id(0), ng = get_num_groups(0);\n"
"	float s = group_sum(strided(in, n4), tmp);\n"
"	if (lid == 0) {\n"
"		part[get_group_id(0)] = s;\n"
"		last = atomic_fetch_add_explicit(count, 1u,\n"
"			memory_order_acq_rel, memory_scope_device) == ng - 1;\n"
"	}\n"
"	barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n"
"	if (!last) return;\n"
"	float acc = 0.0f;\n"
"	for (size_t i = lid; i < ng; i += get_local_size(0))\n"
"		acc += part[i];\n"
"	barrier(CLK_LOCAL_MEM_FENCE);\n"
"	s = group_sum(acc, tmp);\n"
"	if (lid == 0) {\n"
"		out[0] = s;\n"
"		atomic_store_explicit(count, 0u, memory_order_relaxed,\n"
"			memory_scope_device);\n"
"	}\n"
"}\n"
"#endif\n";

/* OpenCL 3.0 device queries and capability bits, by value: probe.h
 * targets the 1.2 headers */
enum {
	Q_ATOMIC_MEMORY = 0x1063, Q_ATOMIC_FENCE = 0x1064,
	Q_C_ALL_VERSIONS = 0x1066, Q_C_FEATURES = 0x106F
};
typedef struct { cl_uint version; char name[64]; } name_version;

static cl_context ctx;
static cl_command_queue q, qp;
static cl_program prog;
static double copy_gbs;	/* the copy's, the first timed */

/* how a call ends: a clFinish; the 4-byte result read, blocking, into
 * the caller's (pageable) float or into pinned memory (a mapped
 * CL_MEM_ALLOC_HOST_PTR buffer, as libbrt stages small reads); read
 * without blocking, then a clFinish or a wait for the read's event;
 * clFinish, then the blocking read; or mapped (an ALLOC_HOST_PTR result) */
enum { FINISH, READ, READ_PINNED, READ_NB_FINISH, READ_NB_EVENT, FINISH_READ,
	MAP, HOST_FOLD };
static const char *const wait_name[] = { "finish", "read", "read pinned",
	"read nb+finish", "read nb+event", "finish+read", "map",
	"host fold" };
static long nparts;	/* HOST_FOLD: the partials in OUT */
static float *pinned;	/* mapped for good: libbrt's staging */
static char last[96];	/* the name of the last measurement */

/* median ms per call of RUNS calls of the launches K[0..NK-1], each call
 * ended as WAIT says (OUT the 4-byte result, read into *RES); BYTES moved
 * per call */
static void timeit(const char *name, cl_kernel *k, const size_t *g,
	const size_t *l, int nk, int wait, cl_mem out, float *res,
	double bytes)
{
	double t[RUNS];
	cl_int err = 0;
	char full[96];

	snprintf(full, sizeof full, "%s + %s", name, wait_name[wait]);
	memcpy(last, full, sizeof last);
	for (int r = -2; r < RUNS; r++) {
		double t0 = now_ms();
		cl_event ev;
		for (int i = 0; i < nk; i++)
			if ((err = clEnqueueNDRangeKernel(q, k[i], 1, NULL,
				&g[i], &l[i], 0, NULL, NULL)))
				die(full, err);
		switch (wait) {
		case FINISH:
			err = clFinish(q);
			break;
		case READ:
			err = clEnqueueReadBuffer(q, out, CL_TRUE, 0, 4, res, 0,
				NULL, NULL);
			break;
		case READ_PINNED:
			err = clEnqueueReadBuffer(q, out, CL_TRUE, 0, 4, pinned,
				0, NULL, NULL);
			*res = *pinned;
			break;
		case READ_NB_FINISH:
			err = clEnqueueReadBuffer(q, out, CL_FALSE, 0, 4, pinned,
				0, NULL, NULL);
			if (!err)
				err = clFinish(q);
			*res = *pinned;
			break;
		case READ_NB_EVENT:
			err = clEnqueueReadBuffer(q, out, CL_FALSE, 0, 4, pinned,
				0, NULL, &ev);
			if (!err) {
				clFlush(q);
				err = clWaitForEvents(1, &ev);
				clReleaseEvent(ev);
			}
			*res = *pinned;
			break;
		case FINISH_READ:
			err = clFinish(q);
			if (!err)
				err = clEnqueueReadBuffer(q, out, CL_TRUE, 0, 4,
					pinned, 0, NULL, NULL);
			*res = *pinned;
			break;
		case HOST_FOLD:
			err = clEnqueueReadBuffer(q, out, CL_FALSE, 0,
				4 * nparts, pinned, 0, NULL, NULL);
			if (!err)
				err = clFinish(q);
			*res = pinned[0];
			for (long i = 1; i < nparts; i++)
				*res += pinned[i];
			break;
		case MAP: {
			float *p = clEnqueueMapBuffer(q, out, CL_TRUE,
				CL_MAP_READ, 0, 4, 0, NULL, NULL, &err);
			if (p) {
				*res = *p;
				err = clEnqueueUnmapMemObject(q, out, p, 0,
					NULL, NULL);
			}
			break;
		}
		}
		if (err)
			die(full, err);
		if (r >= 0)
			t[r] = now_ms() - t0;
	}
	clFinish(q);
	qsort(t, RUNS, sizeof t[0], cmp);
	double ms = t[RUNS / 2], gbs = bytes / ms / 1e6;
	printf("%-36s ms=%.4f (min %.4f) GB/s=%.0f", full, ms, t[0], gbs);
	if (copy_gbs)
		printf(" of_copy=%.1f%%", 100 * gbs / copy_gbs);
	else
		copy_gbs = gbs;
	printf("\n");
}

/* the device time of one launch of K (median of RUNS) */
static double device_ms(cl_kernel k, size_t g, size_t l)
{
	double dev[RUNS];
	cl_int err;

	for (int r = 0; r < RUNS; r++) {
		cl_event ev;
		if ((err = clEnqueueNDRangeKernel(qp, k, 1, NULL, &g, &l, 0,
			NULL, &ev)))
			die("device_ms", err);
		dev[r] = probe_event_ms(ev);
	}
	qsort(dev, RUNS, sizeof dev[0], cmp);
	return dev[RUNS / 2];
}

/* Prints DEV's atomic memory and fence capabilities; 1 when it offers
 * OpenCL C 3.0 with acquire-release atomics of device scope */
static int atomics_c3(cl_device_id dev)
{
	static const char *const bit[] = { "relaxed", "acq_rel", "seq_cst",
		"work-item", "work-group", "device", "all-devices" };
	cl_ulong caps[2] = { 0, 0 };
	name_version nv[64];
	size_t sz = 0;
	int c3 = 0, acq_rel = 0, scope = 0;

	for (int f = 0; f < 2; f++) {
		printf("%s", f ? "; fences:" : "atomics:");
		if (clGetDeviceInfo(dev, f ? Q_ATOMIC_FENCE : Q_ATOMIC_MEMORY,
			sizeof caps[f], &caps[f], NULL)) {
			printf(" (not reported: OpenCL 1.2)");
			continue;
		}
		for (int b = 0; b < 7; b++)
			if (caps[f] >> b & 1)
				printf(" %s", bit[b]);
	}
	if (!clGetDeviceInfo(dev, Q_C_ALL_VERSIONS, sizeof nv, nv, &sz))
		for (size_t i = 0; i < sz / sizeof nv[0]; i++)
			c3 |= nv[i].version >> 22 == 3;
	if (!clGetDeviceInfo(dev, Q_C_FEATURES, sizeof nv, nv, &sz))
		for (size_t i = 0; i < sz / sizeof nv[0]; i++) {
			acq_rel |= !strcmp(nv[i].name,
				"__opencl_c_atomic_order_acq_rel");
			scope |= !strcmp(nv[i].name,
				"__opencl_c_atomic_scope_device");
		}
	printf("; OpenCL C 3.0: %s; acq_rel: %s; device scope: %s\n",
		c3 ? "yes" : "no", acq_rel ? "yes" : "no", scope ? "yes" : "no");
	return c3 && acq_rel && scope;
}

/* the one-pass kernel NAME of P (once or once_c3), its arguments set:
 * input A of N4 float4s, partials PART, the count, the result OUT */
static cl_kernel one_pass(cl_program p, const char *name, cl_mem a, long n4,
	cl_mem part, cl_mem count, cl_mem out)
{
	cl_kernel k = probe_kernel(p, name);

	probe_set(k, 0, sizeof a, &a);
	probe_set(k, 1, sizeof n4, &n4);
	probe_set(k, 2, sizeof part, &part);
	probe_set(k, 3, sizeof count, &count);
	probe_set(k, 4, sizeof out, &out);
	probe_set(k, 5, 4 * 256, NULL);
	return k;
}

static int check(const char *name, float got, double want, long n)
{
	/* float partial sums of N terms of at most 8 against a double sum */
	double d = got - want;
	int ok = (d < 0 ? -d : d) <= 1e-5 * 8.0 * (double)n;

	printf("%-36s check: %s (%.1f, host %.1f)\n", name, ok ? "ok" :
		"WRONG", got, want);
	return !ok;
}

static cl_mem buffer(cl_mem_flags f, size_t n, void *h)
{
	cl_int err;
	cl_mem m = clCreateBuffer(ctx, f, n, h, &err);
	if (err)
		die("clCreateBuffer", err);
	return m;
}

int main(int argc, char **argv)
{
	cl_device_id dev;
	cl_int err;
	char name[256] = "";
	long n;

	if (!(n = probe_arg(argc, argv, 1L << 26, "N")))
		return 2;
	dev = probe_device(name, sizeof name);
	cl_uint units = 0;
	clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units,
		NULL);
	printf("device: %s, %u compute units, %ld floats\n", name, units, n);
	ctx = probe_context(dev);
	q = probe_queue(ctx, dev, 0);
	qp = probe_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
	prog = probe_program(ctx, dev, src);
	cl_program prog_c3 = NULL;
	if (atomics_c3(dev)) {
		const char *two[2] = { src, src_c3 };
		prog_c3 = clCreateProgramWithSource(ctx, 2, two, NULL, &err);
		if (err || clBuildProgram(prog_c3, 1, &dev, "-cl-std=CL3.0",
			NULL, NULL))
			die("the OpenCL C 3.0 program", err ? err :
				CL_BUILD_PROGRAM_FAILURE);
	} else {
		printf("one pass C3: not run (the device does not offer "
			"it)\n");
	}

	float *h = malloc(4 * n);
	double want = 0;
	for (long i = 0; i < n; i++)
		want += h[i] = (float)(i % 17) - 8.0f + 0.25f;
	cl_mem a = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 4 * n, h);
	cl_mem b = buffer(CL_MEM_READ_WRITE, 4 * n, NULL);
	cl_mem part = buffer(CL_MEM_READ_WRITE, 4 * 4096, NULL);
	cl_uint zero = 0;
	cl_mem count = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 4,
		&zero);
	cl_mem out = buffer(CL_MEM_READ_WRITE, 4, NULL);
	cl_mem outh = buffer(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, 4,
		NULL);
	long n4 = n / 4;
	float res = 0;
	int wrong = 0;
	char nm[64];

	cl_kernel kc = probe_kernel(prog, "copy");
	size_t gc = (size_t)n4, lc = 256;
	probe_set(kc, 0, sizeof a, &a);
	probe_set(kc, 1, sizeof b, &b);
	timeit("copy", &kc, &gc, &lc, 1, FINISH, NULL, NULL, 8.0 * n);

	cl_kernel kr = probe_kernel(prog, "readonly");
	probe_set(kr, 0, sizeof a, &a);
	probe_set(kr, 1, sizeof n4, &n4);
	probe_set(kr, 2, sizeof out, &out);
	size_t gr = (size_t)units * 2048, lr = 256;
	timeit("read-only units*2048", &kr, &gr, &lr, 1, FINISH, NULL, NULL,
		4.0 * n);

	cl_mem stage = buffer(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
		4 * 4096, NULL);
	pinned = clEnqueueMapBuffer(q, stage, CL_TRUE, CL_MAP_READ |
		CL_MAP_WRITE, 0, 4 * 4096, 0, NULL, NULL, &err);
	if (!pinned)
		die("clEnqueueMapBuffer", err);
	long gs[2] = { 1024, 4L * units < 4096 ? 4L * units : 4096 };
	for (int gi = 0; gi < 2; gi++) {
		long ng = gs[gi];
		cl_kernel k[2] = { probe_kernel(prog, "partial"),
			probe_kernel(prog, "fold") };
		size_t g[2] = { (size_t)ng * 256, 256 }, l[2] = { 256, 256 };
		probe_set(k[0], 0, sizeof a, &a);
		probe_set(k[0], 1, sizeof n4, &n4);
		probe_set(k[0], 2, sizeof part, &part);
		probe_set(k[0], 3, 4 * 256, NULL);
		probe_set(k[1], 0, sizeof part, &part);
		probe_set(k[1], 1, sizeof ng, &ng);
		probe_set(k[1], 2, sizeof out, &out);
		probe_set(k[1], 3, 4 * 256, NULL);
		snprintf(nm, sizeof nm, "first pass g=%ld", ng);
		timeit(nm, k, g, l, 1, FINISH, NULL, NULL, 4.0 * n);
		nparts = ng;
		timeit(nm, k, g, l, 1, HOST_FOLD, part, &res, 4.0 * n);
		wrong += check(last, res, want, n);
		snprintf(nm, sizeof nm, "two passes g=%ld", ng);
		for (int w = FINISH; w < MAP; w++) {
			timeit(nm, k, g, l, 2, w, out, &res, 4.0 * n);
			if (w != FINISH)
				wrong += check(last, res, want, n);
		}
		probe_set(k[1], 2, sizeof outh, &outh);
		timeit(nm, k, g, l, 2, MAP, outh, &res, 4.0 * n);
		wrong += check(last, res, want, n);
		printf("%-36s device_ms first=%.4f second=%.4f\n", "",
			device_ms(k[0], g[0], l[0]), device_ms(k[1], g[1],
			l[1]));

		cl_kernel ko = one_pass(prog, "once", a, n4, part, count, out);
		snprintf(nm, sizeof nm, "one pass g=%ld", ng);
		for (int w = FINISH; w < MAP; w++) {
			timeit(nm, &ko, g, l, 1, w, out, &res, 4.0 * n);
			if (w != FINISH)
				wrong += check(last, res, want, n);
		}
		probe_set(ko, 4, sizeof outh, &outh);
		timeit(nm, &ko, g, l, 1, MAP, outh, &res, 4.0 * n);
		wrong += check(last, res, want, n);
		printf("%-36s device_ms once=%.4f\n", "", device_ms(ko, g[0],
			l[0]));
		if (prog_c3) {
			cl_kernel k3 = one_pass(prog_c3, "once_c3", a, n4,
				part, count, out);
			snprintf(nm, sizeof nm, "one pass C3 g=%ld", ng);
			timeit(nm, &k3, g, l, 1, READ_NB_FINISH, out, &res,
				4.0 * n);
			wrong += check(last, res, want, n);
			printf("%-36s device_ms once_c3=%.4f\n", "",
				device_ms(k3, g[0], l[0]));
			clReleaseKernel(k3);
		}
		clReleaseKernel(k[0]);
		clReleaseKernel(k[1]);
		clReleaseKernel(ko);
	}
	clEnqueueUnmapMemObject(q, stage, pinned, 0, NULL, NULL);
	clFinish(q);
	free(h);
	return wrong > 0;
}
