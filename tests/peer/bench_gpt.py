#!/usr/bin/env python3
"""A GPT training step in PyTorch eager or JAX jit, timed for make bench's side-by-side figures.

The model is the engine's (nanoGPT's, gpt_torch.py; the same written in jax.numpy below) and so
is the step: forward, backward, clipping to global norm 1, AdamW (lr 1e-3, weight decay 0.01 on
matrices and embeddings). Tokens are made before timing; the step warms up (JAX compiles), then
single steps are timed and the median reported.

Usage: bench_gpt.py torch|jax THREADS L,H,C,T,V,B [STEPS]   -> one JSON object on stdout
THREADS is set before the framework loads (OpenMP, OpenBLAS, MKL, XLA's CPU thread pool), and the
process is held to that many cores.

       bench_gpt.py torch-cuda 0 L,H,C,T,V,B [STEPS]
PyTorch eager on GPU 0 with bf16 autocast (fp32 master weights, as the engine's bf16), for the
GPU check: adds tokens_per_s and the device's name.
"""
import json
import os
import statistics
import sys
import time


def set_threads(n):
    """Thread pools sized before the framework loads, and the process held to n cores, so that a
    runtime which sizes its pool otherwise (XLA's) still runs on n."""
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(n)
    if n == 1:
        os.environ["XLA_FLAGS"] = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
    cores = sorted(os.sched_getaffinity(0))
    if n < len(cores):
        os.sched_setaffinity(0, set(cores[:n]))


def time_loop(step, steps, warmup):
    times = []
    for i in range(warmup + steps):
        t0 = time.perf_counter()
        step()
        t1 = time.perf_counter()
        if i >= warmup:
            times.append(t1 - t0)
    return times


def bench_torch(threads, cfg, steps):
    import torch
    from gpt_torch import GPT, optimizer, train_step
    torch.set_num_threads(threads)
    L, H, C, T, V, B = cfg
    torch.manual_seed(0)
    model = GPT(L, H, C, V, T)
    opt = optimizer(model, "adamw", 1e-3, 0.01)
    x, y = torch.randint(0, V, (B, T)), torch.randint(0, V, (B, T))
    return torch.__version__, time_loop(lambda: train_step(model, opt, x, y, 1.0), steps, 3)


def bench_torch_cuda(threads, cfg, steps):
    import torch
    from gpt_torch import GPT, optimizer
    L, H, C, T, V, B = cfg
    torch.manual_seed(0)
    model = GPT(L, H, C, V, T).cuda()
    opt = optimizer(model, "adamw", 1e-3, 0.01)
    x, y = torch.randint(0, V, (B, T), device="cuda"), torch.randint(0, V, (B, T), device="cuda")

    def step():
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = model(x, y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        torch.cuda.synchronize()
    return torch.__version__ + " on " + torch.cuda.get_device_name(0), time_loop(step, steps, 3)


def bench_jax(threads, cfg, steps):
    import jax
    import jax.numpy as jnp
    import numpy as np
    L, H, C, T, V, B = cfg
    rng = np.random.default_rng(0)

    def normal(shape, std):
        return jnp.asarray(rng.standard_normal(shape).astype(np.float32) * std)

    proj = 0.02 / np.sqrt(2 * L)
    params = {"wte": normal((V, C), 0.02), "wpe": normal((T, C), 0.02), "ln_f": (jnp.ones(C), jnp.zeros(C)), "h": [
        {"ln_1": (jnp.ones(C), jnp.zeros(C)), "ln_2": (jnp.ones(C), jnp.zeros(C)),
         "c_attn": (normal((3 * C, C), 0.02), jnp.zeros(3 * C)), "attn_proj": (normal((C, C), proj), jnp.zeros(C)),
         "c_fc": (normal((4 * C, C), 0.02), jnp.zeros(4 * C)), "mlp_proj": (normal((C, 4 * C), proj), jnp.zeros(C))}
        for _ in range(L)]}

    def layernorm(x, wb):
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) * jax.lax.rsqrt(var + 1e-5) * wb[0] + wb[1]

    def linear(x, wb):
        return x @ wb[0].T + wb[1]

    mask = jnp.tril(jnp.ones((T, T), bool))

    def loss_fn(p, x, y):
        h = p["wte"][x] + p["wpe"][None, :T]
        for blk in p["h"]:
            q, k, v = jnp.split(linear(layernorm(h, blk["ln_1"]), blk["c_attn"]), 3, axis=-1)
            q, k, v = (t.reshape(B, T, H, C // H).transpose(0, 2, 1, 3) for t in (q, k, v))
            s = jnp.where(mask, q @ k.transpose(0, 1, 3, 2) / np.sqrt(C // H), -jnp.inf)
            a = (jax.nn.softmax(s, axis=-1) @ v).transpose(0, 2, 1, 3).reshape(B, T, C)
            h = h + linear(a, blk["attn_proj"])
            h = h + linear(jax.nn.gelu(linear(layernorm(h, blk["ln_2"]), blk["c_fc"]), approximate=True), blk["mlp_proj"])
        logits = layernorm(h, p["ln_f"]) @ p["wte"].T
        logp = jax.nn.log_softmax(logits, axis=-1)
        return -jnp.take_along_axis(logp, y[..., None], axis=-1).mean()

    @jax.jit
    def step(p, m, v, t, x, y):
        loss, g = jax.value_and_grad(loss_fn)(p, x, y)
        leaves = jax.tree_util.tree_leaves(g)
        norm = jnp.sqrt(sum(jnp.sum(l * l) for l in leaves))
        scale = jnp.minimum(1.0, 1.0 / (norm + 1e-6))
        g = jax.tree_util.tree_map(lambda l: l * scale, g)
        m = jax.tree_util.tree_map(lambda a, b: 0.9 * a + 0.1 * b, m, g)
        v = jax.tree_util.tree_map(lambda a, b: 0.999 * a + 0.001 * b * b, v, g)
        bc1, bc2 = 1 - 0.9 ** t, 1 - 0.999 ** t

        def update(w, mi, vi):
            decay = 1 - 1e-3 * 0.01 if w.ndim >= 2 else 1.0
            return w * decay - 1e-3 / bc1 * mi / (jnp.sqrt(vi / bc2) + 1e-8)
        return jax.tree_util.tree_map(update, p, m, v), m, v, loss

    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    state = {"p": params, "m": zeros, "v": zeros, "t": 0}
    x = jnp.asarray(rng.integers(0, V, (B, T)), dtype=jnp.int32)
    y = jnp.asarray(rng.integers(0, V, (B, T)), dtype=jnp.int32)

    def run():
        state["t"] += 1
        p, m, v, loss = step(state["p"], state["m"], state["v"], float(state["t"]), x, y)
        loss.block_until_ready()
        state.update(p=p, m=m, v=v)
    return jax.__version__, time_loop(run, steps, 3)


def main():
    benches = {"torch": bench_torch, "jax": bench_jax, "torch-cuda": bench_torch_cuda}
    if len(sys.argv) < 4 or sys.argv[1] not in benches:
        print(__doc__, file=sys.stderr)
        return 2
    threads = int(sys.argv[2])
    cfg = tuple(int(v) for v in sys.argv[3].split(","))
    steps = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    if threads > 0:
        set_threads(threads)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    version, times = benches[sys.argv[1]](threads, cfg, steps)
    step = statistics.median(times)
    print(json.dumps({"framework": sys.argv[1], "version": version, "threads": threads, "step_s": step,
                      "min_s": min(times), "max_s": max(times), "steps": len(times),
                      "tokens_per_s": cfg[5] * cfg[3] / step}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
