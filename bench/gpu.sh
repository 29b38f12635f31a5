#!/bin/sh
# gpu.sh - runs the whole benchmark suite on an NVIDIA GPU machine from
# the prebuilt programs of this folder (bench/pack-gpu.sh made it); no
# compiler needed there.
#
#   sh bench/gpu-pack/gpu.sh [run.sh options]
#
# Registers the NVIDIA OpenCL driver with the ICD loader of this folder,
# measures cuBLAS SGEMM through PyTorch when python3 has it (the stretch
# target's reference), runs run.sh with the GPU profile (the OpenCL rows
# only; --cpu adds the CPU rows) and prints the table and the CSV. With
# OUT set, the results are also left in $OUT. --diagnose then times the
# hand-written mandel and nbody again with "#pragma OPENCL FP_CONTRACT OFF"
# put before them, as brgen's OpenCL has it, and every hand-written case
# with the build options libbrt gives NVIDIA's compiler (lines in
# $OUT/diagnose.txt).
set -u
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH="$here${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export BRT_CACHE_DIR=${BRT_CACHE_DIR:-/tmp/brt-cache}
mkdir -p /etc/OpenCL/vendors &&
	echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 \
		>/etc/OpenCL/vendors/nvidia.icd
res=${OUT:-/tmp/bench-gpu}
mkdir -p "$res"
cpu=--no-cpu args= diagnose=
for a in "$@"; do
	case $a in
	--cpu) cpu= ;;
	--diagnose) diagnose=1 ;;
	*) args="$args $a" ;;
	esac
done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv 2>/dev/null
# the CSV is named after the GPU: results-nvidia-h200.csv
name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null |
	head -n 1 | tr 'A-Z ' 'a-z-' | tr -cd 'a-z0-9-')
export BENCH_HOST=${BENCH_HOST:-${name:-gpu}}

# cuBLAS SGEMM (FP32, no TF32), CUDA events, median of 20 after 3 warm-ups
python3 - >"$res/extra.txt" 2>"$res/cublas.err" <<'PY' || echo "no cuBLAS reference: $(tail -n 1 "$res/cublas.err")"
import torch
torch.backends.cuda.matmul.allow_tf32 = False
torch.set_float32_matmul_precision("highest")
dev = torch.cuda.get_device_name()
for n in (2048, 4096):
    a = torch.rand(n, n, device="cuda") * 2 - 1
    b = torch.rand(n, n, device="cuda") * 2 - 1
    for _ in range(3):
        c = a @ b
    torch.cuda.synchronize()
    ts = []
    for _ in range(20):
        s = torch.cuda.Event(enable_timing=True)
        e = torch.cuda.Event(enable_timing=True)
        s.record(); c = a @ b; e.record()
        torch.cuda.synchronize()
        ts.append(s.elapsed_time(e))
    ts.sort()
    med = (ts[9] + ts[10]) / 2
    # the reference of both matrix multiplies with groups and shared memory
    for case in ('matmult_tiled', 'matmult_reg'):
        print(f'case={case} size={n} impl=cublas backend=opencl '
              f'device="{dev} (cuBLAS through torch)" runs=20 '
              f'median_ms={med:.4f} min_ms={ts[0]:.4f} gbs=0 '
              f'gflops={2 * n**3 / med * 1e-6:.3f} ok=1')
PY
[ -s "$res/cublas.err" ] || rm -f "$res/cublas.err"
sh "$here/run.sh" --profile gpu --bin "$here" --out "$res" \
	--extra "$res/extra.txt" $cpu $args
echo
cat "$res"/results-*.csv
if [ -n "$diagnose" ]; then
	echo
	echo "== the hand-written kernels with FP_CONTRACT OFF, as brgen emits:"
	for c in "mandel 8192" "nbody 65536"; do
		# shellcheck disable=SC2086
		BENCH_CL_PRELUDE='#pragma OPENCL FP_CONTRACT OFF
' "$here/bench-opencl" $c 10
	done | tee "$res/diagnose.txt"
	echo "== the hand-written kernels with libbrt's build options" \
		"on NVIDIA (-cl-nv-maxrregcount=128):"
	for c in "copy 67108864" "saxpy 67108864" "sum 67108864" \
		"rowsum 4096" "matmult_simple 2048" "matmult_simple 4096" \
		"matmult_opt 2048" "matmult_opt 4096" "matmult_tiled 2048" \
		"matmult_tiled 4096" "matmult_reg 2048" "matmult_reg 4096" \
		"bsearch 16777216" "mandel 8192" \
		"nbody 65536" "stencil 8192"; do
		# shellcheck disable=SC2086
		BENCH_CL_OPTIONS=-cl-nv-maxrregcount=128 \
			"$here/bench-opencl" $c 10
	done | tee -a "$res/diagnose.txt"
fi
