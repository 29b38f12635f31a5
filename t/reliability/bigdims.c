/* brt_stream_new with dimensions whose product overflows size_t, or that
 * no device can hold: NULL with BR_ERROR_DECLARATION and a message from
 * brt_lastError, or a stream in that error state; never a crash. */
#include <limits.h>
#include <stdio.h>

#include "brt.h"

static void try(unsigned rank, const unsigned *dims)
{
	const char *msg = NULL;
	brt_stream *s = brt_stream_new(brt_type_make(BRT_FLOAT, 4), rank, dims);
	BRerror e = s ? brt_stream_error(s) : brt_lastError(&msg);
	if (s)
		msg = brt_stream_errorLog(s);
	printf("%s %d %s\n", s ? "stream" : "null", (int)e,
		msg && *msg ? "message" : "no message");
	brt_stream_free(s);
}

int main(void)
{
	unsigned huge[4] = { UINT_MAX, UINT_MAX, UINT_MAX, UINT_MAX };
	unsigned big[3] = { 65536, 65536, 65536 };
	unsigned wide[2] = { UINT_MAX, 2 };
	unsigned zero[2] = { 0, 5 };
	unsigned five[5] = { 2, 2, 2, 2, 2 };
	try(4, huge);
	try(3, big);
	try(2, wide);
	try(2, zero);
	try(5, five);	/* rank past BRT_MAX_RANK */
	return 0;
}
