#!/usr/bin/env python3
"""PyTorch eager on a CUDA GPU, on the workloads that scripts/gpu-check.sh measures with fwadvisor.

(a) torch.matmul of two N x N random matrices in bf16, fp16, tf32 and fp32 (TF32 off) at the
probe's sizes, in TFLOP/s (2 N^3 per product); (b) device-to-device copy, dst.copy_(src) of 1 GiB,
in GB/s counting the bytes read and written; (c) host<->device copies of 256 MiB from pinned and
pageable memory, in GB/s; (d) MLPs of four Linear layers (ReLU between), width W and batch W,
cross-entropy on W classes, Adam, bf16 autocast over fp32 weights, in samples/s and TFLOP/s (W
8192 as `fwadvisor train` runs it, W 4096 as the probe's train-mlp); (e) Linear(100,10), batch
32, Adam, cross-entropy, fp32, in microseconds per step. Inputs are random and made before
timing; each case warms up, then is timed with CUDA events (back-to-back repeats between one
pair where a single run is short) and the median over the repeats is reported. Adam is
PyTorch's default (foreach on CUDA).

Training FLOPs count as fwadvisor counts them: 2*batch*in*out for each layer's forward and weight
gradient, and for the input gradient of every layer but the first.

Usage: bench_torch_gpu.py [--quick] [--gemm-sizes N,N,...] [--out FILE] [--device N]
  --quick: no transfers, and fewer repeats of the rest (the probe's default mode measures no
  transfers either).
-> one JSON object on stdout or in FILE. Exit status 3 (one line on stderr) when PyTorch or a
CUDA device is missing.
"""
import argparse
import json
import statistics
import sys

torch = None  # imported by main(), after the arguments are read


def events_median_ms(fn, repeats, warmup, inner=1):
    """Median and minimum milliseconds of one fn() over `repeats` timings, each a pair of CUDA
    events around `inner` back-to-back calls (so that launch latency does not count)."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    pairs = []
    for _ in range(repeats):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(inner):
            fn()
        end.record()
        pairs.append((start, end))
    torch.cuda.synchronize()
    times = [s.elapsed_time(e) / inner for s, e in pairs]
    return statistics.median(times), min(times)


def bench_matmul(n, dtype_name):
    dtype = {"bf16": torch.bfloat16, "fp16": torch.float16, "tf32": torch.float32, "fp32": torch.float32}[dtype_name]
    previous = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = dtype_name == "tf32"
    try:
        a = torch.rand(n, n, device="cuda", dtype=dtype) * 2 - 1
        b = torch.rand(n, n, device="cuda", dtype=dtype) * 2 - 1
        c = torch.empty(n, n, device="cuda", dtype=dtype)
        inner = max(1, min(1024, int(4e11 / (2.0 * n ** 3))))  # as the probe batches its products
        med, mn = events_median_ms(lambda: torch.matmul(a, b, out=c), 10, 3, inner)
    finally:
        torch.backends.cuda.matmul.allow_tf32 = previous
    flops = 2.0 * n ** 3
    del a, b, c
    return {"dtype": dtype_name, "n": n, "ms": med, "min_ms": mn, "tflops": flops / med / 1e9}


def bench_copy(nbytes):
    src = torch.rand(nbytes // 4, device="cuda", dtype=torch.float32)
    dst = torch.empty_like(src)
    med, mn = events_median_ms(lambda: dst.copy_(src), 20, 3)
    moved = 2 * src.numel() * src.element_size()
    del src, dst
    return {"bytes": moved, "ms": med, "min_ms": mn, "gbs": moved / med / 1e6}


def bench_transfer(nbytes, pinned, to_device):
    host = torch.rand(nbytes // 4, dtype=torch.float32)
    if pinned:
        host = host.pin_memory()
    dev = torch.empty(nbytes // 4, device="cuda", dtype=torch.float32)
    fn = (lambda: dev.copy_(host, non_blocking=pinned)) if to_device else (lambda: host.copy_(dev, non_blocking=pinned))
    med, mn = events_median_ms(fn, 10, 2)
    del host, dev
    return {"direction": "h2d" if to_device else "d2h", "pinned": pinned, "bytes": nbytes, "ms": med,
            "min_ms": mn, "gbs": nbytes / med / 1e6}


def train_flops(widths, batch):
    flops = 0
    for i, (w_in, w_out) in enumerate(zip(widths, widths[1:])):
        mm = 2.0 * batch * w_in * w_out
        flops += 2 * mm if i == 0 else 3 * mm
    return flops


def mlp(widths):
    layers = []
    for i, (w_in, w_out) in enumerate(zip(widths, widths[1:])):
        if i:
            layers.append(torch.nn.ReLU())
        layers.append(torch.nn.Linear(w_in, w_out))
    return torch.nn.Sequential(*layers).cuda()


def bench_mlp_bf16(widths, batch, steps):
    model = mlp(widths)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = torch.nn.CrossEntropyLoss()
    x = torch.randn(batch, widths[0], device="cuda")
    y = torch.randint(0, widths[-1], (batch,), device="cuda")

    def step():
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()

    med, mn = events_median_ms(step, steps, 3)
    flops = train_flops(widths, batch)
    del model, opt, x, y
    torch.cuda.empty_cache()
    return {"layers": widths, "batch": batch, "optimizer": "adam", "precision": "bf16 autocast, fp32 weights",
            "step_ms": med, "min_ms": mn, "samples_per_s": batch / med * 1e3,
            "flops_per_step": flops, "tflops": flops / med / 1e9}


def bench_tiny(blocks, block_steps):
    """Linear(100,10), batch 32: steps run back to back as a training loop would (no host sync),
    blocks of block_steps timed with CUDA events; also the step with loss.item() after each,
    as a loop that reads every loss does (fwadvisor's engine reads every loss)."""
    model = torch.nn.Linear(100, 10).cuda()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = torch.nn.CrossEntropyLoss()
    x = torch.randn(32, 100, device="cuda")
    y = torch.randint(0, 10, (32,), device="cuda")

    def step():
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        return loss

    def block():
        for _ in range(block_steps):
            step()

    med, mn = events_median_ms(block, blocks, 2)
    synced, _ = events_median_ms(lambda: step().item(), blocks * block_steps // 2, 100)
    return {"layers": [100, 10], "batch": 32, "optimizer": "adam", "precision": "fp32",
            "step_us": med / block_steps * 1e3, "min_us": mn / block_steps * 1e3,
            "step_us_loss_read": synced * 1e3, "steps_timed": blocks * block_steps}


def nccl_version():
    """The NCCL PyTorch carries, "2.21.5", or None."""
    try:
        v = torch.cuda.nccl.version()
    except Exception:  # built without NCCL, or an older interface
        return None
    return ".".join(str(x) for x in v) if isinstance(v, tuple) else str(v)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", help="write the JSON object here instead of stdout")
    ap.add_argument("--device", type=int, default=0, help="CUDA device index (default 0)")
    ap.add_argument("--quick", action="store_true", help="no transfers, fewer repeats")
    ap.add_argument("--gemm-sizes", default="1024,4096,8192", help="matmul sizes (default: the probe's)")
    args = ap.parse_args()
    try:
        sizes = [int(s) for s in args.gemm_sizes.split(",") if s]
        if not sizes or min(sizes) <= 0:
            raise ValueError
    except ValueError:
        print(f"--gemm-sizes {args.gemm_sizes}: expected positive integers separated by commas", file=sys.stderr)
        sys.exit(2)
    global torch
    try:
        import torch
    except ImportError:
        print("PyTorch is not installed", file=sys.stderr)
        sys.exit(3)
    if not torch.cuda.is_available() or args.device >= torch.cuda.device_count():
        print("no CUDA device", file=sys.stderr)
        sys.exit(3)
    torch.cuda.set_device(args.device)
    torch.manual_seed(0)
    results = {
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "nccl": nccl_version(),
        "device": torch.cuda.get_device_name(args.device),
        "mode": "quick" if args.quick else "full",
        "matmul": [bench_matmul(n, d) for d in ("fp32", "tf32", "bf16", "fp16") for n in sizes],
        "copy": bench_copy(1 << 30),
    }
    if not args.quick:
        results["transfer"] = [bench_transfer(256 << 20, pinned, to_device)
                               for pinned in (True, False) for to_device in (True, False)]
    torch.cuda.empty_cache()
    results["mlp_bf16"] = [bench_mlp_bf16([w] * 5, w, 10 if args.quick else 20) for w in (8192, 4096)]
    results["tiny"] = bench_tiny(10 if args.quick else 20, 100)
    text = json.dumps(results, indent=2)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    else:
        print(text)


if __name__ == "__main__":
    main()
