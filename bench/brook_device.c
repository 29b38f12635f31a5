/* brook_device.c - names libbrt's current device on a benchmark's result
 * line; linked into the Brook versions only. */
#include "bench.h"

#include <brt.h>

void bench_brook_device(struct bench *b)
{
	brt_device *d = brt_currentDevice();

	bench_device(b, d ? brt_device_type(d) : "?",
		d ? brt_device_name(d) : "no device");
}
