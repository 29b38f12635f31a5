/* open.c - OpenCL devices are opened when first used (brt(3), "Devices"):
 * runs a kernel on the current device, then brt_useDevices each OpenCL
 * device in turn, twice, and runs it there; prints each step's outcome
 * (device names vary by machine and are not printed). */
#include "kernels.h"

int main(void)
{
	unsigned nocl;
	brt_device *const *ocl = brt_getDevices("opencl", &nocl);
	printf("current %s\n", brt_device_type(brt_currentDevice()));
	rt_copy123();
	for (unsigned i = 0; i < nocl; i++)
		for (int again = 0; again < 2; again++) {
			brt_useDevices(ocl + i, 1, NULL);
			const char *m = "";
			BRerror e = brt_lastError(&m);
			printf("use opencl %u: error %d%s%s\n", i, (int)e,
				*m ? ": " : "", m);
			printf("current %s\n",
				brt_device_type(brt_currentDevice()));
			rt_copy123();
		}
	return 0;
}
