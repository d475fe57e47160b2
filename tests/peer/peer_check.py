#!/usr/bin/env python3
"""Peer check: fwadvisor's engine against PyTorch on the same initialisation and data.

For every optimizer and loss (and each activation), builds an initialisation with PyTorch's
nn.Linear, writes it as .safetensors and the data as .npy, runs `fwadvisor train` and the same
training in PyTorch, and compares the per-step losses and the final weights. Both must agree to a
relative 1e-4 after 20 steps: losses |a - b| / max(|b|, 1e-3), weights max|a - b| / max|b| per
tensor. Prints one line per case and a closing 'N passed, N failed' line; exits 1 on a failure.

Usage: peer_check.py PATH-TO-fwadvisor
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch

from st_io import read_safetensors, write_safetensors

STEPS = 20
TOLERANCE = 1e-4


def torch_run(layers, act, loss, opt, lr, wd, mom, batch, x, y, init):
    torch.set_num_threads(1)
    mods = []
    for i in range(len(layers) - 1):
        lin = torch.nn.Linear(layers[i], layers[i + 1])
        with torch.no_grad():
            lin.weight.copy_(torch.from_numpy(init[f"layers.{i}.weight"]))
            lin.bias.copy_(torch.from_numpy(init[f"layers.{i}.bias"]))
        mods.append(lin)
        if i < len(layers) - 2:
            mods.append({"relu": torch.nn.ReLU(), "gelu": torch.nn.GELU(), "tanh": torch.nn.Tanh()}[act])
    model = torch.nn.Sequential(*mods)
    if opt == "sgd":
        optim = torch.optim.SGD(model.parameters(), lr=lr, weight_decay=wd)
    elif opt == "momentum":
        optim = torch.optim.SGD(model.parameters(), lr=lr, momentum=mom, weight_decay=wd)
    elif opt == "adam":
        optim = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=wd)
    else:
        optim = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=wd)
    criterion = torch.nn.CrossEntropyLoss() if loss == "ce" else torch.nn.MSELoss()
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    n, losses = x.shape[0], []
    for step in range(STEPS):
        rows = [(step * batch + b) % n for b in range(batch)]
        optim.zero_grad()
        out = criterion(model(xt[rows]), yt[rows])
        out.backward()
        optim.step()
        losses.append(out.item())
    weights = {}
    for i, lin in enumerate(m for m in model if isinstance(m, torch.nn.Linear)):
        weights[f"layers.{i}.weight"] = lin.weight.detach().numpy()
        weights[f"layers.{i}.bias"] = lin.bias.detach().numpy()
    return losses, weights


def case(binary, tmp, name, layers, act, loss, opt, lr, wd, batch=8, rows=40, seed=7):
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    init = {}
    for i in range(len(layers) - 1):
        lin = torch.nn.Linear(layers[i], layers[i + 1])
        init[f"layers.{i}.weight"] = lin.weight.detach().numpy().copy()
        init[f"layers.{i}.bias"] = lin.bias.detach().numpy().copy()
    x = rng.standard_normal((rows, layers[0])).astype(np.float32)
    if loss == "ce":
        y = rng.integers(0, layers[-1], rows).astype(np.int64)
    else:
        y = rng.standard_normal((rows, layers[-1])).astype(np.float32)
    paths = {k: os.path.join(tmp, f"{name}-{k}") for k in ("init.safetensors", "x.npy", "y.npy", "out.safetensors")}
    write_safetensors(paths["init.safetensors"], init)
    np.save(paths["x.npy"], x)
    np.save(paths["y.npy"], y)
    cmd = [binary, "train", "--layers", ",".join(map(str, layers)), "--activation", act, "--loss", loss,
           "--optimizer", opt, "--lr", repr(lr), "--weight-decay", repr(wd),
           *(["--momentum", "0.9"] if opt == "momentum" else []),  # refused where it would change nothing
           "--batch", str(batch), "--steps", str(STEPS), "--threads", "1", "--json",
           "--init", paths["init.safetensors"], "--data", paths["x.npy"], "--targets", paths["y.npy"],
           "--save", paths["out.safetensors"]]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        return False, f"fwadvisor train failed ({res.returncode}): {res.stderr.strip()}"
    ours = json.loads(res.stdout)["losses"]
    ours_w = read_safetensors(paths["out.safetensors"])
    theirs, theirs_w = torch_run(layers, act, loss, opt, lr, wd, 0.9, batch, x, y, init)
    loss_err = max(abs(a - b) / max(abs(b), 1e-3) for a, b in zip(ours, theirs))
    weight_err = max(float(np.max(np.abs(ours_w[k] - theirs_w[k])) / max(float(np.max(np.abs(theirs_w[k]))), 1e-12))
                     for k in theirs_w)
    ok = loss_err <= TOLERANCE and weight_err <= TOLERANCE
    return ok, f"loss rel err {loss_err:.2e}, weight rel err {weight_err:.2e}, final loss {ours[-1]:.6f} vs {theirs[-1]:.6f}"


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    binary = os.path.abspath(sys.argv[1])
    cases = []
    acts = ["relu", "gelu", "tanh"]
    for i, opt in enumerate(["sgd", "momentum", "adam", "adamw"]):
        for loss in ["ce", "mse"]:
            lr = 0.05 if opt in ("sgd", "momentum") else 0.01
            act = acts[(i + (loss == "mse")) % 3]
            cases.append((f"{opt}-{loss}-{act}", [20, 32, 16, 5], act, loss, opt, lr, 0.01))
    cases.append(("adam-ce-deep-nowd", [12, 24, 24, 24, 3], "gelu", "ce", "adam", 0.003, 0.0))
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, layers, act, loss, opt, lr, wd in cases:
            ok, detail = case(binary, tmp, name, layers, act, loss, opt, lr, wd)
            print(f"{'PASS' if ok else 'FAIL'} {name:24s} {detail}")
            passed += ok
            failed += not ok
    print(f"peer: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
