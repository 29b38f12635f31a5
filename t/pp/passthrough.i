# 1 "passthrough.br"
# 1 "passthrough.br"
#include <stdio.h>
# 3 "passthrough.br"
#include <stdlib.h>
# 4 "passthrough.br"
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
# 6 "passthrough.br"
#pragma omp parallel for
int main(void)
{
# 9 "passthrough.br"
#pragma once_is_not_once
	return 0;
}
