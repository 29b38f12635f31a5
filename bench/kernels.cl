/* kernels.cl - the hand-written OpenCL C of the benchmark cases: the same
 * algorithms as the .br files, written as one would by hand. */

__kernel void copy4(__global const float4 *in, __global float4 *out)
{
	size_t i = get_global_id(0);
	out[i] = in[i];
}

__kernel void saxpy(const float a, __global const float *x,
	__global const float *y, __global float *r)
{
	size_t i = get_global_id(0);
	r[i] = a * x[i] + y[i];
}

/* Each work-item folds a strided share of IN, four floats a load, then
 * the work-group folds its work-items' sums in local memory: one partial
 * sum per group. The last N % 4 floats go to work-item 0. */
__kernel void sum_partial(__global const float *in, const long n,
	__global float *out, __local float *tmp)
{
	size_t lid = get_local_id(0), lsz = get_local_size(0);
	long i = get_global_id(0), gsz = get_global_size(0);
	float acc = 0.0f;

	/* four loads issued before their adds, while four are left */
	for (; i + 3 * gsz < n / 4; i += 4 * gsz) {
		float4 v0 = vload4(i, in), v1 = vload4(i + gsz, in);
		float4 v2 = vload4(i + 2 * gsz, in), v3 = vload4(i + 3 * gsz, in);
		acc += (v0.x + v0.y) + (v0.z + v0.w);
		acc += (v1.x + v1.y) + (v1.z + v1.w);
		acc += (v2.x + v2.y) + (v2.z + v2.w);
		acc += (v3.x + v3.y) + (v3.z + v3.w);
	}
	for (; i < n / 4; i += gsz) {
		float4 v = vload4(i, in);
		acc += (v.x + v.y) + (v.z + v.w);
	}
	if (get_global_id(0) == 0)
		for (long i = n / 4 * 4; i < n; i++)
			acc += in[i];
	tmp[lid] = acc;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = lsz / 2; s > 0; s >>= 1) {
		if (lid < s)
			tmp[lid] += tmp[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = tmp[0];
}

/* One work-group per row of a ROWS x COLS matrix (COLS a multiple of 4). */
__kernel void rowsum(__global const float *in, const long cols,
	__global float *out, __local float *tmp)
{
	size_t lid = get_local_id(0), lsz = get_local_size(0);
	__global const float *row = in + get_group_id(0) * cols;
	long i = lid;
	float acc = 0.0f;

	/* four loads issued before their adds, while four are left: in
	   runs of calls on an H100, 81% of the copy's bandwidth one load at
	   a time, 88% so (bench/probe/rowsum.c) */
	for (; i + 3 * (long)lsz < cols / 4; i += 4 * lsz) {
		float4 v0 = vload4(i, row), v1 = vload4(i + lsz, row);
		float4 v2 = vload4(i + 2 * lsz, row);
		float4 v3 = vload4(i + 3 * lsz, row);
		acc += (v0.x + v0.y) + (v0.z + v0.w);
		acc += (v1.x + v1.y) + (v1.z + v1.w);
		acc += (v2.x + v2.y) + (v2.z + v2.w);
		acc += (v3.x + v3.y) + (v3.z + v3.w);
	}
	for (; i < cols / 4; i += lsz) {
		float4 v = vload4(i, row);
		acc += (v.x + v.y) + (v.z + v.w);
	}
	tmp[lid] = acc;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = lsz / 2; s > 0; s >>= 1) {
		if (lid < s)
			tmp[lid] += tmp[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = tmp[0];
}

/* guide 1.3.1: one dot product per element of C */
__kernel void matmult_simple(const int n, __global const float *A,
	__global const float *B, __global float *C)
{
	int x = get_global_id(0), y = get_global_id(1);
	float acc = 0.0f;

	for (int k = 0; k < n; k++)
		acc += A[y * n + k] * B[k * n + x];
	C[y * n + x] = acc;
}

/* guide 1.3.2: each work-item an 8 x 4 block of C, float4 fetches; the
 * guide's slices A1..A8, B1..B4 are rows of the float4 views of A, B */
__kernel void matmult_opt(const int n, __global const float4 *A,
	__global const float4 *B, __global float4 *C)
{
	int x = get_global_id(0), y = get_global_id(1), w = n / 4;
	float4 acc[8];

	for (int r = 0; r < 8; r++)
		acc[r] = (float4)(0.0f);
	for (int k = 0; k < w; k++) {
		float4 b0 = B[(4 * k) * w + x], b1 = B[(4 * k + 1) * w + x];
		float4 b2 = B[(4 * k + 2) * w + x], b3 = B[(4 * k + 3) * w + x];
		for (int r = 0; r < 8; r++) {
			float4 a = A[(8 * y + r) * w + k];
			acc[r] += a.xxxx * b0 + a.yyyy * b1 + a.zzzz * b2 +
				a.wwww * b3;
		}
	}
	for (int r = 0; r < 8; r++)
		C[(8 * y + r) * w + x] = acc[r];
}

/* matmult_tiled.br by hand: a group of 256 work-items computes a 32 x 32
 * tile of C, each 2 x 2 elements, from 32 x 32 tiles of A and B in local
 * memory as float4 (A: four consecutive k of a row; B: four consecutive k
 * of a column), so a step of the inner loop is four dot products. */
__kernel void matmult_tiled(const int n, __global const float4 *A,
	__global const float *B, __global float *C)
{
	__local float4 As[256], Bs[256];
	int tid = get_local_id(0), grp = get_group_id(0), tiles = n / 32;
	int y0 = grp / tiles * 32, x0 = grp % tiles * 32;
	int ty = tid / 16, tx = tid % 16, ar = tid / 8, ak = tid % 8;
	int bk = 4 * (tid / 32), bc = x0 + tid % 32;
	float c00 = 0.0f, c01 = 0.0f, c10 = 0.0f, c11 = 0.0f;

	for (int k0 = 0; k0 < n; k0 += 32) {
		As[tid] = A[(y0 + ar) * (n / 4) + k0 / 4 + ak];
		Bs[tid] = (float4)(B[(k0 + bk) * n + bc],
			B[(k0 + bk + 1) * n + bc], B[(k0 + bk + 2) * n + bc],
			B[(k0 + bk + 3) * n + bc]);
		barrier(CLK_LOCAL_MEM_FENCE);
		for (int k4 = 0; k4 < 8; k4++) {
			float4 a0 = As[ty * 8 + k4], a1 = As[(ty + 16) * 8 + k4];
			float4 b0 = Bs[k4 * 32 + tx], b1 = Bs[k4 * 32 + tx + 16];
			c00 += dot(a0, b0);
			c01 += dot(a0, b1);
			c10 += dot(a1, b0);
			c11 += dot(a1, b1);
		}
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	C[(y0 + ty) * n + x0 + tx] = c00;
	C[(y0 + ty) * n + x0 + tx + 16] = c01;
	C[(y0 + ty + 16) * n + x0 + tx] = c10;
	C[(y0 + ty + 16) * n + x0 + tx + 16] = c11;
}

/* matmult_reg.br by hand: a group of 256 work-items computes a 128 x 128
 * tile of C, each an 8 x 8 block in sixteen float4 accumulators (rows
 * 4 ty.. and 64+4 ty.., columns 4 tx.. and 64+4 tx..), k in slabs of 8
 * staged in local memory as float4: As[m4 * 8 + k] holds rows 4 m4..4 m4+3
 * of column k of A, Bs[k * 32 + c4] columns 4 c4..4 c4+3 of row k of B.
 * The next slab is fetched into registers while the current one is used,
 * without a branch: past the last slab the last one is fetched again and
 * never stored (the Brook version's gathers clamp instead). */
__kernel void matmult_reg(const int n, __global const float *A,
	__global const float4 *B, __global float4 *C)
{
	__local float4 As[256], Bs[256];
	int tid = get_local_id(0), grp = get_group_id(0), tiles = n / 128;
	int w = n / 4, y0 = grp / tiles * 128, x4 = grp % tiles * 32;
	int ty = tid / 16, tx = tid % 16;
	__global const float *ap = A + (y0 + 4 * (tid / 8)) * n + tid % 8;
	__global const float4 *bp = B + (tid / 32) * w + x4 + tid % 32;
	float4 c[8][2], sa, sb;

	for (int r = 0; r < 8; r++)
		c[r][0] = c[r][1] = (float4)(0.0f);
	sa = (float4)(ap[0], ap[n], ap[2 * n], ap[3 * n]);
	sb = bp[0];
	for (int k0 = 0; k0 < n; k0 += 8) {
		As[tid] = sa;
		Bs[tid] = sb;
		barrier(CLK_LOCAL_MEM_FENCE);
		int kn = min(k0 + 8, n - 8);

		sa = (float4)(ap[kn], ap[kn + n], ap[kn + 2 * n],
			ap[kn + 3 * n]);
		sb = bp[kn * w];
		for (int k = 0; k < 8; k++) {
			float4 a0 = As[ty * 8 + k], a1 = As[(ty + 16) * 8 + k];
			float4 b0 = Bs[k * 32 + tx], b1 = Bs[k * 32 + tx + 16];
			float a[8] = { a0.x, a0.y, a0.z, a0.w,
				a1.x, a1.y, a1.z, a1.w };

			for (int r = 0; r < 8; r++) {
				c[r][0] += a[r] * b0;
				c[r][1] += a[r] * b1;
			}
		}
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	for (int r = 0; r < 8; r++) {
		int row = y0 + (r < 4 ? 4 * ty + r : 64 + 4 * ty + r - 4);

		C[row * w + x4 + tx] = c[r][0];
		C[row * w + x4 + tx + 16] = c[r][1];
	}
}

/* guide 1.10, the C++ API version of the kernel */
__kernel void bsearch(__global const float *keys, __global const float *arr,
	__global float *index, const float size, const int lg)
{
	size_t i = get_global_id(0);
	float v = keys[i], stride, idx, c;

	idx = stride = floor(size * 0.5f + 0.5f);
	for (int k = 0; k < lg; k++) {
		stride = floor(stride * 0.5f + 0.5f);
		c = arr[(int)idx];
		idx += (v <= c) ? -stride : stride;
	}
	c = arr[(int)idx];
	idx += (v <= c) ? -1.0f : 1.0f;
	c = arr[(int)idx];
	idx += (v <= c) ? 0.0f : 1.0f;
	if (idx < 0.0f)
		idx = 0.0f;
	c = arr[(int)idx];
	index[i] = (v == c) ? idx : -1.0f;
}

__kernel void mandel(__global float *out, const float scale, const int maxit)
{
	int px = get_global_id(0), py = get_global_id(1);
	float cr = -2.0f + (float)px * scale, ci = -1.5f + (float)py * scale;
	float x = 0.0f, y = 0.0f;
	int it = 0;

	while (it < maxit && x * x + y * y <= 4.0f) {
		float t = x * x - y * y + cr;
		y = 2.0f * x * y + ci;
		x = t;
		it++;
	}
	out[py * get_global_size(0) + px] = (float)it;
}

/* all pairs: each body gathers every other body's position and mass */
__kernel void nbody(__global const float4 *pos, __global float4 *acc,
	const int n, const float eps2)
{
	size_t i = get_global_id(0);
	float4 p = pos[i];
	float3 a = (float3)(0.0f);

	for (int j = 0; j < n; j++) {
		float4 q = pos[j];
		float3 d = q.xyz - p.xyz;
		float r2 = dot(d, d) + eps2;
		float inv = rsqrt(r2);
		a += d * (q.w * inv * inv * inv);
	}
	acc[i] = (float4)(a, 0.0f);
}

/* 5 points, edges clamped */
__kernel void stencil(__global const float *in, __global float *out,
	const int side)
{
	int x = get_global_id(0), y = get_global_id(1);
	int xm = max(x - 1, 0), xp = min(x + 1, side - 1);
	int ym = max(y - 1, 0), yp = min(y + 1, side - 1);

	out[y * side + x] = 0.2f * (in[y * side + x] + in[ym * side + x] +
		in[yp * side + x] + in[y * side + xm] + in[y * side + xp]);
}

__kernel void inc(__global const float *in, __global float *out)
{
	size_t i = get_global_id(0);
	out[i] = in[i] + 1.0f;
}
