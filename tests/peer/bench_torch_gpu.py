#!/usr/bin/env python3
"""PyTorch eager on a CUDA GPU, on the workloads that scripts/gpu-check.sh compares with fwadvisor.

(a) torch.matmul of two N x N matrices (N 8192) in bf16, fp16, tf32 and fp32 (TF32 off), in
TFLOP/s (2 N^3 per product); (b) device-to-device copy, dst.copy_(src) of 1 GiB, in GB/s counting
the bytes read and written; (c) MLP 8192-8192-8192-8192-8192 (four Linear layers, ReLU between),
batch 8192, cross-entropy on 8192 classes, Adam, bf16 autocast over fp32 weights, in samples/s
and TFLOP/s; (d) Linear(100,10), batch 32, Adam, cross-entropy, fp32, in microseconds per step.
Inputs are random and made before timing; each case warms up, then is timed with CUDA events
and the median over the repeats is reported. Adam is PyTorch's default (foreach on CUDA).

Training FLOPs count as fwadvisor counts them: 2*batch*in*out for each layer's forward and weight
gradient, and for the input gradient of every layer but the first.

Usage: bench_torch_gpu.py [--out FILE] [--device N] -> one JSON object on stdout or in FILE.
Exit status 3 (one line on stderr) when PyTorch or a CUDA device is missing.
"""
import argparse
import json
import statistics
import sys

torch = None  # imported by main(), after the arguments are read


def events_median_ms(fn, repeats, warmup):
    """Median milliseconds of fn() over repeats, each timed with its own pair of CUDA events."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    pairs = []
    for _ in range(repeats):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        pairs.append((start, end))
    torch.cuda.synchronize()
    times = [s.elapsed_time(e) for s, e in pairs]
    return statistics.median(times), min(times)


def bench_matmul(n, dtype, tf32):
    previous = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = tf32
    try:
        a = torch.randn(n, n, device="cuda", dtype=dtype)
        b = torch.randn(n, n, device="cuda", dtype=dtype)
        c = torch.empty(n, n, device="cuda", dtype=dtype)
        med, mn = events_median_ms(lambda: torch.matmul(a, b, out=c), 20, 5)
    finally:
        torch.backends.cuda.matmul.allow_tf32 = previous
    flops = 2.0 * n ** 3
    del a, b, c
    return {"n": n, "ms": med, "min_ms": mn, "tflops": flops / med / 1e9}


def bench_copy(nbytes):
    src = torch.randn(nbytes // 4, device="cuda", dtype=torch.float32)
    dst = torch.empty_like(src)
    med, mn = events_median_ms(lambda: dst.copy_(src), 20, 3)
    moved = 2 * src.numel() * src.element_size()
    del src, dst
    return {"bytes": moved, "ms": med, "min_ms": mn, "gbs": moved / med / 1e6}


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
    return {"layers": widths, "batch": batch, "optimizer": "adam", "precision": "bf16 autocast, fp32 weights",
            "step_ms": med, "min_ms": mn, "samples_per_s": batch / med * 1e3,
            "flops_per_step": flops, "tflops": flops / med / 1e9}


def bench_tiny(blocks, block_steps):
    """Linear(100,10), batch 32: steps run back to back as a training loop would (no host sync),
    blocks of block_steps timed with CUDA events; also the step with loss.item() after each,
    as a loop that reads every loss does."""
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", help="write the JSON object here instead of stdout")
    ap.add_argument("--device", type=int, default=0, help="CUDA device index (default 0)")
    args = ap.parse_args()
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
    n = 8192
    results = {
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "device": torch.cuda.get_device_name(args.device),
        "matmul": {
            "bf16": bench_matmul(n, torch.bfloat16, False),
            "fp16": bench_matmul(n, torch.float16, False),
            "tf32": bench_matmul(n, torch.float32, True),
            "fp32": bench_matmul(n, torch.float32, False),
        },
        "copy": bench_copy(1 << 30),
    }
    torch.cuda.empty_cache()
    results["mlp_bf16"] = bench_mlp_bf16([8192] * 5, 8192, 20)
    torch.cuda.empty_cache()
    results["tiny"] = bench_tiny(20, 100)
    text = json.dumps(results, indent=2)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    else:
        print(text)


if __name__ == "__main__":
    main()
