/* binary_search_host.c - the host code of the guide's binary search
 * (section 1.10, Table 1.2, right column) in C: the guide's C++ Stream
 * objects become brt_stream handles of brt.h, and the kernel is called
 * through the header that brgen writes for binary_search.br:
 *
 *   brpp binary_search.br | brparse | brcheck | brgen -o binary_search
 *   cc -std=c99 binary_search_host.c binary_search.c \
 *       $(pkg-config --cflags --libs brt) -o binary_search
 */
#include <stdio.h>
#include <stdlib.h>

#include "binary_search.h"

typedef struct BinarySearch {
	unsigned int _length, _width, _lgWidth, iterations;
	float *_array, *_searchValues, *_indices[2];
} BinarySearch;

static int run(BinarySearch *bs)
{
	unsigned int retVal = 0;

	/* Brook code block */
	{
		unsigned int arrayDim[] = { bs->_length };
		unsigned int searchDim[] = { bs->_width };
		brt_type f = brt_type_make(BRT_FLOAT, 1);
		brt_stream *searchValueStream = brt_stream_new(f, 1, searchDim);
		brt_stream *indicesStream = brt_stream_new(f, 1, searchDim);
		brt_stream *arrayStream = brt_stream_new(f, 1, arrayDim);
		unsigned int i;

		for (i = 0; i < bs->iterations; ++i) {
			/* Copy searchable data and search keys to streams */
			brt_stream_read(arrayStream, bs->_array, NULL);
			brt_stream_read(searchValueStream, bs->_searchValues,
				NULL);

			/* Execute parallel binary search */
			binary_search(searchValueStream, arrayStream,
				indicesStream, (float)(bs->_length),
				(int)bs->_lgWidth);

			/* Copy results from stream */
			brt_stream_write(indicesStream, bs->_indices[0], NULL);

			/* Handle errors if occurred */
			if (brt_stream_error(indicesStream)) {
				printf("Error occurred\n%s\n",
					brt_stream_errorLog(indicesStream));
				retVal = 1;
			}
		}
		brt_stream_free(searchValueStream);
		brt_stream_free(indicesStream);
		brt_stream_free(arrayStream);
	}
	return (int)retVal;
}

int main(void)
{
	BinarySearch bs;
	unsigned int i, found = 0, wrong = 0;

	bs._length = 1024;
	bs._lgWidth = 10;
	bs._width = 16;
	bs.iterations = 2;
	bs._array = malloc(bs._length * sizeof(float));
	bs._searchValues = malloc(bs._width * sizeof(float));
	bs._indices[0] = malloc(bs._width * sizeof(float));
	bs._indices[1] = NULL;
	for (i = 0; i < bs._length; i++)
		bs._array[i] = 2.0f * (float)i;
	for (i = 0; i < bs._width; i++)
		bs._searchValues[i] = (float)(i * 131 % 2048);
	if (run(&bs) != 0)
		return 1;
	for (i = 0; i < bs._width; i++) {
		float v = bs._searchValues[i], idx = bs._indices[0][i];
		float want = ((int)v % 2 == 0) ? v / 2.0f : -1.0f;
		printf("%g%s", idx, i + 1 < bs._width ? " " : "\n");
		found += idx >= 0.0f;
		wrong += idx != want;
	}
	printf("%u found, %u wrong\n", found, wrong);
	free(bs._array);
	free(bs._searchValues);
	free(bs._indices[0]);
	return wrong != 0;
}
