/* charsel.c - a probe, not a case: brgen's helpers for a char2 maximum
 * and remainder on an OpenCL GPU. fuzz/difftest_gpu.py found an H200
 * (NVIDIA's driver) giving v4.y = 0 where the C and PoCL give -37, and
 * 90 where they give 3, for
 *   char2 v4 = (char2)((int2)a2.yz % 128) % max((char2)(127, 0), (char2)a2.yy)
 * The probe builds that expression with its helpers written several
 * ways (-DV=N: the maximum; -DW=1: the char2 remainder through int2s,
 * -DW=2: the int remainder by a divisor never 0; and the first with
 * -cl-opt-disable) and prints v4 for six inputs beside the value C
 * computes.
 *
 *   cc -O2 charsel.c -lOpenCL -o charsel-probe && ./charsel-probe */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <stdio.h>
#include <stdlib.h>

static const char *src =
"#if V == 1\n"
"/* the maximum through ints, as brgen writes it since */\n"
"char brg_f_max_char(char a, char b) { const int x = a, y = b; return (char)(y > x ? y : x); }\n"
"#elif V == 2\n"
"/* OpenCL's max */\n"
"char brg_f_max_char(char a, char b) { return max(a, b); }\n"
"#elif V == 3\n"
"/* as brgen wrote it, not inlined */\n"
"__attribute__((noinline)) char brg_f_max_char(char a, char b) { return b > a ? b : a; }\n"
"#else\n"
"/* as brgen wrote it */\n"
"char brg_f_max_char(char a, char b) { return b > a ? b : a; }\n"
"#endif\n"
"#if W == 2\n"
"/* the remainder by a divisor never 0 or -1, then the choice */\n"
"int brg_mod_int(int a, int b) { const int d = b == 0 || b == -1 ? 1 : b; const int q = a % d; return b == 0 ? a : b == -1 ? 0 : q; }\n"
"#else\n"
"int brg_mod_int(int a, int b) { return b == 0 ? a : b == -1 ? 0 : a % b; }\n"
"#endif\n"
"int2 brg_vmod_int_int2(int2 a, int2 b) { int2 r; r.x = (int)brg_mod_int(a.x, b.x); r.y = (int)brg_mod_int(a.y, b.y); return r; }\n"
"#if W == 1\n"
"/* the remainder of char2s through int2s */\n"
"char2 brg_vmod_int_char2(char2 a, char2 b) { return convert_char2(brg_vmod_int_int2(convert_int2(a), convert_int2(b))); }\n"
"#else\n"
"char2 brg_vmod_int_char2(char2 a, char2 b) { char2 r; r.x = (char)brg_mod_int(a.x, b.x); r.y = (char)brg_mod_int(a.y, b.y); return r; }\n"
"#endif\n"
"char2 brg_f_max_char2(char2 a, char2 b) { char2 r; r.x = brg_f_max_char(a.x, b.x); r.y = brg_f_max_char(a.y, b.y); return r; }\n"
"ushort2 brg_vmod_int_ushort2(ushort2 a, ushort2 b) { ushort2 r; r.x = (ushort)brg_mod_int(a.x, b.x); r.y = (ushort)brg_mod_int(a.y, b.y); return r; }\n"
"__kernel void k(__global const float *in, __global char *out, __global char *mx)\n"
"{\n"
"	const size_t i = get_global_id(0);\n"
"	const float3 a2 = vload3(i, in);\n"
"	char2 v4 = (brg_vmod_int_char2(convert_char2((brg_vmod_int_int2(convert_int2(a2.yz), (int2)(128, 128)))), brg_f_max_char2(convert_char2((brg_vmod_int_ushort2((ushort2)(((ushort)65535), ((ushort)0)), (ushort2)(((ushort)128), ((ushort)128))))), convert_char2(a2.yy))));\n"
"	vstore2(v4, i, out);\n"
"	vstore2(brg_f_max_char2((char2)(127, 0), convert_char2(a2.yy)), i, mx);\n"
"}\n";

static void die(const char *what, cl_int err)
{
	fprintf(stderr, "charsel: %s: OpenCL error %d\n", what, (int)err);
	exit(1);
}

static int cmod(int a, int b)
{
	return b == 0 ? a : b == -1 ? 0 : a % b;
}

int main(void)
{
	static const float a2[] = { 45, -28, -37, -61, 87, 90, -92, -42, -39,
		40, 95, 54, -1, -77, 11, 63, 48, -54 };
	enum { N = 6 };
	cl_platform_id pl[8];
	cl_uint np = 0, i;
	cl_device_id dev = NULL;
	cl_int err;

	if (clGetPlatformIDs(8, pl, &np) != CL_SUCCESS)
		die("clGetPlatformIDs", -1);
	for (i = 0; i < np && !dev; i++)
		if (clGetDeviceIDs(pl[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL)
				!= CL_SUCCESS)
			dev = NULL;
	for (i = 0; i < np && !dev; i++)
		if (clGetDeviceIDs(pl[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL)
				!= CL_SUCCESS)
			dev = NULL;
	if (!dev)
		die("no device", -1);
	char name[256];
	clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
	printf("device: %s\n", name);
	cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	if (!ctx)
		die("clCreateContext", err);
	cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
	if (!q)
		die("clCreateCommandQueue", err);
	cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
		sizeof a2, (void *)a2, &err);
	cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, 2 * N, NULL, &err);
	cl_mem mx = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, 2 * N, NULL, &err);
	printf("C:   ");
	for (i = 0; i < N; i++) {
		int y = (signed char)(int)a2[3 * i + 1];
		int z = (signed char)((int)a2[3 * i + 2] % 128);
		int m = y > 0 ? y : 0;
		printf(" %d,%d", (signed char)cmod((signed char)((int)a2[3 * i
			+ 1] % 128), 127 > y ? 127 : y), (signed char)cmod(z, m));
	}
	printf("\n");
	for (int t = 0; t <= 12; t++) {
		int v = t % 4, w = (t / 4 + 2) % 3, noopt = t == 12;
		char opt[64];
		signed char r[2 * N], m[2 * N];
		size_t g = N;
		snprintf(opt, sizeof opt, "-DV=%d -DW=%d%s", v, w, noopt ?
			" -cl-opt-disable" : "");
		cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL,
			&err);
		if (clBuildProgram(p, 1, &dev, opt, NULL, NULL) != CL_SUCCESS) {
			char log[4096];
			clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG,
				sizeof log, log, NULL);
			printf("%s: build failed: %s\n", opt, log);
			continue;
		}
		cl_kernel k = clCreateKernel(p, "k", &err);
		clSetKernelArg(k, 0, sizeof in, &in);
		clSetKernelArg(k, 1, sizeof out, &out);
		clSetKernelArg(k, 2, sizeof mx, &mx);
		err = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL,
			NULL);
		if (err != CL_SUCCESS)
			die("clEnqueueNDRangeKernel", err);
		clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof r, r, 0, NULL,
			NULL);
		clEnqueueReadBuffer(q, mx, CL_TRUE, 0, sizeof m, m, 0, NULL,
			NULL);
		printf("%-32s", opt);
		for (i = 0; i < N; i++)
			printf(" %d,%d", r[2 * i], r[2 * i + 1]);
		printf("   max:");
		for (i = 0; i < N; i++)
			printf(" %d,%d", m[2 * i], m[2 * i + 1]);
		printf("\n");
		clReleaseKernel(k);
		clReleaseProgram(p);
	}
	clReleaseMemObject(in);
	clReleaseMemObject(out);
	clReleaseMemObject(mx);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	return 0;
}
