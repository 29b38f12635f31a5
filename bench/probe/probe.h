/* probe.h - what the probes of this folder share: the command line, the
 * device, the program, the clock. Each probe defines PROBE_NAME before
 * including it and still builds alone: cc -O2 NAME.c -lOpenCL. */
#ifndef PROBE_H
#define PROBE_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void die(const char *what, cl_int err)
{
	fprintf(stderr, PROBE_NAME ": %s: OpenCL error %d\n", what, (int)err);
	exit(1);
}

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* for qsort of doubles */
static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The probe's one argument, named WHAT in the usage message, from the
 * command line (DEF without one): a multiple of 256; 0 after the usage
 * message when it is not */
static long probe_arg(int argc, char **argv, long def, const char *what)
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
static cl_device_id probe_device(char *name, size_t n)
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

/* SRC built for DEV; its build log on failure */
static cl_program probe_program(cl_context ctx, cl_device_id dev,
	const char *src)
{
	cl_int err;
	cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);

	if (err)
		die("clCreateProgramWithSource", err);
	if ((err = clBuildProgram(prog, 1, &dev, "", NULL, NULL))) {
		char log[8192] = "";
		clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG,
			sizeof log - 1, log, NULL);
		fprintf(stderr, "%s\n", log);
		die("clBuildProgram", err);
	}
	return prog;
}

#endif
