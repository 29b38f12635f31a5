/* timing.c - brt_profileKernels and brt_lastKernelTime (brt(3), Timing):
 * a device time for a map kernel and a reduction on OpenCL, none on the
 * CPU backend, none after a failed run, and the setting fixed once the
 * runtime runs. */
#include "kernels.h"

/* "timed" when the last run has a device time on OpenCL, or none on the
 * CPU backend, as brt(3) says; else what went wrong. */
static const char *timed(void)
{
	double s = -1;
	int r = brt_lastKernelTime(&s);
	int ocl = strcmp(brt_device_type(brt_currentDevice()), "opencl") == 0;
	if (ocl)
		return r == 0 && s > 0 && s < 60 ? "timed" : "no time on OpenCL";
	return r == -1 ? "timed" : "a time on the CPU backend";
}

int main(void)
{
	printf("profileKernels(1) first: %d\n", brt_profileKernels(1));
	printf("before any run: %d\n", brt_lastKernelTime(&(double){0}));
	static float a[100000];
	for (unsigned i = 0; i < 100000; i++)
		a[i] = 1;
	brt_stream *s = rt_new1(100000), *t = rt_new1(100000);
	brt_stream_read(s, a, NULL);
	brt_arg add[3] = { { .s = s }, { .s = s }, { .s = t } };
	brt_run(&k_add, add, NULL);
	printf("map: %s\n", timed());
	float sum = 0;
	brt_arg red[2] = { { .s = t }, { .target = &sum } };
	brt_run(&k_sum_scalar, red, NULL);
	printf("reduction: %s, sum %.0f\n", timed(), sum);
	brt_arg bad[3] = { { .s = s }, { .s = NULL }, { .s = t } };
	brt_run(&k_add, bad, NULL);
	printf("failed run: %d\n", brt_lastKernelTime(&(double){0}));
	brt_stream_error(t);
	printf("profileKernels(1) again: %d, (0) now: %d\n",
		brt_profileKernels(1), brt_profileKernels(0));
	printf("NULL: %d\n", brt_lastKernelTime(NULL));
	brt_stream_free(s);
	brt_stream_free(t);
	return 0;
}
