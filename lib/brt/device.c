/* device.c - the device list and each thread's current device (guide 1.16,
 * Multi-GPU Support). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* KIND: "all", "opencl" or "cal" (OpenCL devices, GPUs first), "cpu".
 * Guide 1.16.1: any other kind gives 0 devices. Only the lists with
 * OpenCL devices load OpenCL. */
brt_device *const *brt_getDevices(const char *kind, unsigned *count)
{
	brt_runtime *rt = brt_rt();
	unsigned n = 0;
	brt_device *const *list = NULL;
	if (!kind) {
		brt_set_last(BR_ERROR_INVALID_PARAMATER,
			"Get Devices: device type can't be NULL");
	} else if (!strcmp(kind, "all")) {
		rt = brt_rt_opencl();
		list = rt->all;
		n = rt->nall;
	} else if (!strcmp(kind, "opencl") || !strcmp(kind, "cal")) {
		rt = brt_rt_opencl();
		list = rt->all;
		n = rt->nopencl;
	} else if (!strcmp(kind, "cpu")) {
		list = rt->cpu;
		n = rt->cpu ? 1 : 0;
	}
	if (count)
		*count = n;
	return n ? list : NULL;
}

/* Guide 1.16.1: only the first device of the list is used; the previous
 * list is returned when OLD_COUNT is not NULL, else NULL. */
brt_device *const *brt_useDevices(brt_device *const *devices, unsigned count,
	unsigned *old_count)
{
	brt_runtime *rt = brt_rt();
	brt_thread *t = brt_self();
	brt_device *old = brt_current();
	if (!devices || count == 0 || !devices[0]) {
		brt_set_last(BR_ERROR_INVALID_PARAMATER,
			"Use Devices: no device given");
		if (old_count)
			*old_count = 0;
		return NULL;
	}
	/* a device other than the CPU came from a list with OpenCL */
	if (!rt->cpu || devices[0] != rt->cpu[0])
		rt = brt_rt_opencl();
	unsigned i;
	for (i = 0; i < rt->nall; i++)
		if (rt->all[i] == devices[0])
			break;
	if (i == rt->nall) {
		brt_set_last(BR_ERROR_INVALID_PARAMATER,
			"Use Devices: not a device of brt_getDevices");
		if (old_count)
			*old_count = 0;
		return NULL;
	}
	brt_str msg = {0};
	if (brt_ocl_start(rt, devices[0], &msg)) {	/* opened on first use */
		brt_set_last(BR_ERROR_INVALID_PARAMATER, "Use Devices: %s "
			"could not be opened (%s)", devices[0]->name,
			msg.p ? msg.p : "");
		brt_str_free(&msg);
		if (old_count)
			*old_count = 0;
		return NULL;
	}
	brt_str_free(&msg);
	if (t)
		t->cur = devices[0];
	if (!old_count)
		return NULL;
	*old_count = old ? 1 : 0;
	if (!old)
		return NULL;
	return old->kind == BRT_DEV_CPU ? rt->cpu : rt->all + old->index;
}

brt_device *brt_currentDevice(void)
{
	return brt_current();
}

brt_device *brt_stream_device(const brt_stream *s)
{
	return s ? s->dev : NULL;
}

const char *brt_device_type(const brt_device *d)
{
	return !d ? "" : d->kind == BRT_DEV_CPU ? "cpu" : "opencl";
}

const char *brt_device_name(const brt_device *d)
{
	return d ? d->name : "";
}

const char *brt_device_platform(const brt_device *d)
{
	return d ? d->platform : "";
}

uint64_t brt_device_memory(const brt_device *d)
{
	return d ? d->memory : 0;
}

unsigned brt_device_units(const brt_device *d)
{
	return d ? d->units : 0;
}
