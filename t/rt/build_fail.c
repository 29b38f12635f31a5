/* build_fail.c - an OpenCL program that does not compile: the outputs of
 * the call carry "Kernel Execution: Failed to create Program" with the
 * compiler's build log; the CPU backend runs the kernel's CPU code. */
#include "kernels.h"

static const char bad_source[] = RT_CL_PRELUDE
"__kernel void copy(__global float *a, const brt_view a_v,\n"
"  __global float *b, const brt_view b_v, const long4 dom,\n"
"  const long4 off) {\n"
"  RT_POINT b[rt_at(b_v, dom, i)] = a[rt_at(a_v, dom, i)] + undeclared_x;\n"
"}\n";
static const brt_program bad_program = { "bad.br", bad_source,
	sizeof bad_source - 1, &BRT_ABI_MARK };
static const brt_kernel k_bad = { .name = "copy", .program = &bad_program,
	.kclass = BRT_KERNEL_MAP, .nargs = 2, .args = copy_args,
	.cpu = copy_cpu };

int main(void)
{
	brt_stream *a = rt_new1(3), *b = rt_new1(3);
	float in[3] = { 1, 2, 3 };
	brt_stream_read(a, in, NULL);
	brt_arg args[2] = { { .s = a }, { .s = b } };
	for (int i = 0; i < 2; i++)	/* the failure is cached, not rebuilt */
		brt_run(&k_bad, args, NULL);
	rt_errors("b", b);
	brt_stream_free(a);
	brt_stream_free(b);
	return 0;
}
