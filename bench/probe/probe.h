/* probe.h - what the probes of this folder share: the command line, the
 * device, its context and queues, the program, its kernels and their
 * arguments, the clock. Each probe defines PROBE_NAME before including
 * it and still builds alone: cc -O2 NAME.c -lOpenCL. The functions are
 * static inline: a probe that leaves one unused builds without a
 * warning. */
#ifndef PROBE_H
#define PROBE_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* OpenCL C of two kernels for the probes that measure against the copy:
 * copy (B = A, float4 work-items) and readonly (every float4 of IN read
 * once, a strided loop; one store per work-item, never taken) */
#define PROBE_CL_COPY_READ \
"__kernel void copy(__global const float4 *a, __global float4 *b)\n" \
"{ size_t i = get_global_id(0); b[i] = a[i]; }\n" \
"__kernel void readonly(__global const float4 *in, long n4,\n" \
"	__global float *out)\n" \
"{\n" \
"	float acc = 0.0f;\n" \
"	for (long i = get_global_id(0); i < n4; i += get_global_size(0)) {\n" \
"		float4 v = in[i]; acc += (v.x + v.y) + (v.z + v.w); }\n" \
"	if (acc == -1.2345f) out[get_global_id(0)] = acc;\n" \
"}\n"

static inline void die(const char *what, cl_int err)
{
	fprintf(stderr, PROBE_NAME ": %s: OpenCL error %d\n", what, (int)err);
	exit(1);
}

static inline double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* for qsort of doubles */
static inline int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The probe's one argument, named WHAT in the usage message, from the
 * command line (DEF without one): a multiple of 256; 0 after the usage
 * message when it is not */
static inline long probe_arg(int argc, char **argv, long def, const char *what)
{
	long v = argc > 1 ? atol(argv[1]) : def;

	if (v < 256 || v % 256) {
		fprintf(stderr, "usage: " PROBE_NAME " [%s]: %s a multiple "
			"of 256\n", what, what);
		return 0;
	}
	return v;
}

/* a GPU, else any device (for trying the probe on PoCL); its name in
 * NAME */
static inline cl_device_id probe_device(char *name, size_t n)
{
	cl_platform_id plats[16];
	cl_uint np = 0, nd = 0;
	cl_device_id dev = NULL;

	clGetPlatformIDs(16, plats, &np);
	for (int t = 0; t < 2 && !nd; t++)
		for (cl_uint i = 0; i < np && !nd; i++)
			if (clGetDeviceIDs(plats[i], t ? CL_DEVICE_TYPE_ALL
				: CL_DEVICE_TYPE_GPU, 1, &dev, &nd))
				nd = 0;
	if (!nd)
		die("no OpenCL device", CL_DEVICE_NOT_FOUND);
	clGetDeviceInfo(dev, CL_DEVICE_NAME, n, name, NULL);
	return dev;
}

/* a context on DEV alone */
static inline cl_context probe_context(cl_device_id dev)
{
	cl_int err;
	cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);

	if (err)
		die("clCreateContext", err);
	return ctx;
}

/* an in-order queue on DEV in CTX with PROPS (0, or profiling) */
static inline cl_command_queue probe_queue(cl_context ctx, cl_device_id dev,
	cl_command_queue_properties props)
{
	cl_int err;
	cl_command_queue q = clCreateCommandQueue(ctx, dev, props, &err);

	if (err)
		die("clCreateCommandQueue", err);
	return q;
}

/* SRC built for DEV with build options OPTS; its build log on failure */
static inline cl_program probe_program_opts(cl_context ctx, cl_device_id dev,
	const char *src, const char *opts)
{
	cl_int err;
	cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);

	if (err)
		die("clCreateProgramWithSource", err);
	if ((err = clBuildProgram(prog, 1, &dev, opts, NULL, NULL))) {
		char log[8192] = "";
		clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG,
			sizeof log - 1, log, NULL);
		fprintf(stderr, "%s\n", log);
		die("clBuildProgram", err);
	}
	return prog;
}

/* SRC built for DEV; its build log on failure */
static inline cl_program probe_program(cl_context ctx, cl_device_id dev,
	const char *src)
{
	return probe_program_opts(ctx, dev, src, "");
}

/* the device time of command EV in ms (profiling events), after it has
 * run; EV is released */
static inline double probe_event_ms(cl_event ev)
{
	cl_ulong a = 0, b = 0;

	clWaitForEvents(1, &ev);
	clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof a, &a,
		NULL);
	clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof b, &b,
		NULL);
	clReleaseEvent(ev);
	return (b - a) / 1e6;
}

/* kernel NAME of PROG */
static inline cl_kernel probe_kernel(cl_program prog, const char *name)
{
	cl_int err;
	cl_kernel k = clCreateKernel(prog, name, &err);

	if (err)
		die(name, err);
	return k;
}

/* argument I of K: SIZE bytes at V */
static inline void probe_set(cl_kernel k, cl_uint i, size_t size, const void *v)
{
	cl_int err = clSetKernelArg(k, i, size, v);

	if (err)
		die("clSetKernelArg", err);
}

#endif
