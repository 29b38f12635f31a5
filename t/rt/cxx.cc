// cxx.cc - brt.h from C++ host code (extern "C", the vector constructors).
#include <cstdio>
#include "brt.h"

int main()
{
	float4 v = float4_(1, 2, 3, 4);
	unsigned n = 3;
	brt_stream *s = brt_stream_new(brt_type_make(BRT_FLOAT, 4), 1, &n);
	brt_stream_fill(s, &v);
	streamPrint(s);
	std::printf("error %d\n", (int)brt_stream_error(s));
	brt_stream_free(s);
	return 0;
}
