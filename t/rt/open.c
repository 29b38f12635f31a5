/* open.c - OpenCL devices are opened when first used (brt(3), "Devices"):
 * runs a kernel on the current device, then brt_useDevices each OpenCL
 * device in turn, twice, and runs it there; prints each step's outcome
 * (device names vary by machine and are not printed). */
#include "kernels.h"

/* copies 1 2 3 on the current device and prints the result */
static void run_copy(void)
{
	brt_stream *a = rt_new1(3), *b = rt_new1(3);
	float in[3] = { 1, 2, 3 };
	brt_stream_read(a, in, NULL);
	brt_arg args[2] = { { .s = a }, { .s = b } };
	brt_run(&k_copy, args, NULL);
	streamPrint(b);
	brt_stream_free(a);
	brt_stream_free(b);
}

int main(void)
{
	unsigned nocl;
	brt_device *const *ocl = brt_getDevices("opencl", &nocl);
	printf("current %s\n", brt_device_type(brt_currentDevice()));
	run_copy();
	for (unsigned i = 0; i < nocl; i++)
		for (int again = 0; again < 2; again++) {
			brt_useDevices(ocl + i, 1, NULL);
			const char *m = "";
			BRerror e = brt_lastError(&m);
			printf("use opencl %u: error %d%s%s\n", i, (int)e,
				*m ? ": " : "", m);
			printf("current %s\n",
				brt_device_type(brt_currentDevice()));
			run_copy();
		}
	return 0;
}
