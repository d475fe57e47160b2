#!/usr/bin/env python3
"""Peer check of the engine's GPT decoder against PyTorch (gpt_torch.py, nanoGPT's model).

For each configuration, PyTorch makes the initial weights (nanoGPT's initialisation) and writes
them as safetensors under nanoGPT's names; `fwadvisor train --model gpt` and PyTorch then train 20
steps on the bytes of the same text file (the engine's batching rule, written out in gpt_torch.py).
Per-step losses and the final weights must agree to a relative 1e-4: losses |a - b| / max(|b|,
1e-3), weights max|a - b| / max|b| per tensor. The engine's saved file must load into the PyTorch
class with strict=True. One case hands the engine a file as nanoGPT's own code may write it (the
tied weight under lm_head.weight only, and PyTorch 1.x's causal-mask buffers).

One slice is held to a bound instead: the key third of attn.c_attn.bias. Its gradient is zero in
exact arithmetic (adding one vector to every key adds a constant to each row of scores, which
the softmax ignores), so both sides compute rounding noise there, and Adam, dividing by the
noise's own magnitude, moves it by up to lr per step in a direction neither side can reproduce.
It must stay within steps x lr of where it started, on both sides.

Prints one line per case and a closing 'N passed, N failed' line; exits 1 on a failure.

Usage: peer_gpt.py PATH-TO-fwadvisor
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch

from gpt_torch import GPT, batch, optimizer, train_step
from st_io import read_safetensors, write_safetensors

STEPS = 20
TOLERANCE = 1e-4

# name, n_layer, n_head, n_embd, ctx, vocab, batch, optimizer, lr, weight decay, clip, nanoGPT-style file
CASES = [
    ("L2-H2-C64-T32-adamw", 2, 2, 64, 32, 256, 4, "adamw", 1e-3, 0.1, 1.0, False),
    ("L2-H3-C48-T37-adam", 2, 3, 48, 37, 256, 3, "adam", 2e-3, 0.01, 0.5, True),
    ("L1-H4-C32-T70-momentum", 1, 4, 32, 70, 256, 2, "momentum", 0.05, 0.01, 0.0, False),
    ("L3-H1-C32-T16-V300-sgd", 3, 1, 32, 16, 300, 5, "sgd", 0.1, 0.0, 1.0, False),
]


def text_bytes(n, seed):
    """Text-like bytes: words of a small alphabet, so the loss can fall."""
    rng = np.random.default_rng(seed)
    words = [bytes(rng.integers(97, 110, rng.integers(2, 7))) for _ in range(40)]
    out = bytearray()
    while len(out) < n:
        out += words[rng.integers(0, len(words))] + b" "
    return bytes(out[:n])


def case(binary, tmp, spec):
    name, layers, heads, width, ctx, vocab, bsz, opt, lr, wd, clip, nanogpt_file = spec
    torch.manual_seed(11)
    model = GPT(layers, heads, width, vocab, ctx)
    init = {k: v.detach().numpy().copy() for k, v in model.state_dict().items()}
    if nanogpt_file:
        del init["transformer.wte.weight"]  # the tied weight under one name only
        for i in range(layers):
            init[f"transformer.h.{i}.attn.bias"] = np.tril(np.ones((ctx, ctx), np.float32)).reshape(1, 1, ctx, ctx)
    paths = {k: os.path.join(tmp, f"{name}-{k}") for k in ("init.safetensors", "text.txt", "out.safetensors")}
    write_safetensors(paths["init.safetensors"], init)
    data = text_bytes(4000, 5)
    with open(paths["text.txt"], "wb") as f:
        f.write(data)
    cmd = [binary, "train", "--model", "gpt", "--n-layer", str(layers), "--n-head", str(heads), "--n-embd", str(width),
           "--ctx", str(ctx), "--vocab", str(vocab), "--batch", str(bsz), "--steps", str(STEPS), "--optimizer", opt,
           "--lr", repr(lr), "--weight-decay", repr(wd), *(["--momentum", "0.9"] if opt == "momentum" else []),
           "--clip", repr(clip), "--json",
           "--text", paths["text.txt"], "--init", paths["init.safetensors"], "--save", paths["out.safetensors"]]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        return False, f"fwadvisor train failed ({res.returncode}): {res.stderr.strip()}"
    ours = json.loads(res.stdout)["losses"]
    ours_w = read_safetensors(paths["out.safetensors"])

    opt_t = optimizer(model, opt, lr, wd)
    theirs = []
    for step in range(STEPS):
        x, y = batch(data, step, bsz, ctx)
        theirs.append(train_step(model, opt_t, x, y, clip).item())
    theirs_w = {k: v.detach().numpy() for k, v in model.state_dict().items()}

    strict = GPT(layers, heads, width, vocab, ctx)
    strict.load_state_dict({k: torch.from_numpy(v) for k, v in ours_w.items()}, strict=True)
    loss_err = max(abs(a - b) / max(abs(b), 1e-3) for a, b in zip(ours, theirs))
    weight_err, worst, key_bias_ok = 0.0, "", True
    for k, v in theirs_w.items():
        a, b = ours_w[k], v
        if k.endswith("attn.c_attn.bias"):
            keys = slice(width, 2 * width)
            bound = STEPS * lr * 1.001
            key_bias_ok &= bool(np.all(np.abs(a[keys] - init[k][keys]) <= bound))
            key_bias_ok &= bool(np.all(np.abs(b[keys] - init[k][keys]) <= bound))
            a, b = np.delete(a, np.arange(width, 2 * width)), np.delete(b, np.arange(width, 2 * width))
        err = float(np.max(np.abs(a - b)) / max(float(np.max(np.abs(b))), 1e-12))
        if err > weight_err:
            weight_err, worst = err, k
    ok = loss_err <= TOLERANCE and weight_err <= TOLERANCE and key_bias_ok
    return ok, (f"loss rel err {loss_err:.2e}, weight rel err {weight_err:.2e} ({worst}), key bias "
                f"{'bounded' if key_bias_ok else 'OUT OF BOUND'}, "
                f"loss {ours[0]:.4f} -> {ours[-1]:.4f} vs {theirs[-1]:.4f}")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    binary = os.path.abspath(sys.argv[1])
    torch.set_num_threads(1)
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for spec in CASES:
            ok, detail = case(binary, tmp, spec)
            print(f"{'PASS' if ok else 'FAIL'} gpt {spec[0]:24s} {detail}")
            passed += ok
            failed += not ok
    print(f"peer-gpt: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
