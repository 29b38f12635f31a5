/* devices.c - the device list (guide 1.16.1) and the default device
 * (BRT_RUNTIME, BRT_ADAPTER): prints the current device's type and the
 * counts by kind; device names vary by machine and are not printed. */
#include "kernels.h"

int main(void)
{
	unsigned nall, nocl, ncpu, ncal;
	brt_device *const *all = brt_getDevices("all", &nall);
	brt_getDevices("opencl", &nocl);
	brt_getDevices("cal", &ncal);
	brt_device *const *cpu = brt_getDevices("cpu", &ncpu);
	printf("current %s\n", brt_device_type(brt_currentDevice()));
	printf("all %u = opencl %u + cpu %u; cal %u\n", nall, nocl, ncpu, ncal);
	int ok = nall == nocl + ncpu && ncpu == 1 && ncal == nocl
		&& all[nall - 1] == cpu[0];
	for (unsigned i = 0; i < nall; i++)
		ok &= strcmp(brt_device_type(all[i]), i < nocl ? "opencl"
			: "cpu") == 0 && brt_device_units(all[i]) > 0
			&& brt_device_name(all[i])[0]
			&& brt_device_platform(all[i])[0];
	printf("list consistent: %s\n", ok ? "yes" : "no");
	printf("type(NULL) \"%s\" units(NULL) %u\n", brt_device_type(NULL),
		brt_device_units(NULL));
	rt_copy123();	/* a kernel runs on whatever the default is */
	return 0;
}
