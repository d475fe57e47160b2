#!/usr/bin/env python3
"""The summary of scripts/gpu-check.sh: reads what the run left in its work folder (preflight.tsv,
test.log, probe-cuda.json, train-*.json, probe-gpt.json, torch.json), writes summary.json and
prints every figure beside PyTorch's. Only the standard library.

Usage: gpu-summary.py WORKDIR SUMMARY.json MODE STEPS_JSON FAILED_JSON EXIT_STATUS
"""
import json
import os
import re
import sys
import time

H200_BF16_DENSE_TFLOPS = 989.4  # NVIDIA's H200 SXM datasheet, dense bf16, when the probe has no peak


def load(work, name):
    try:
        with open(os.path.join(work, name)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def num(x):
    return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else None


def preflight(work):
    rows = []
    try:
        with open(os.path.join(work, "preflight.tsv"), errors="replace") as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) == 4:
                    rows.append(dict(zip(("name", "status", "requirement", "detail"), parts)))
    except OSError:
        pass
    return rows


def tests(work):
    try:
        with open(os.path.join(work, "test.log"), errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    text = re.sub(r"\x1b\[[0-9;]*m", "", text)
    lines = [l for l in text.splitlines() if "Synthesis:" in l]
    if not lines:
        return None
    counts = {k.lower(): int(v) for k, v in re.findall(r"([A-Za-z]+):\s*(\d+)", lines[-1].split("Synthesis:", 1)[1])}
    counts["failed"] = re.findall(r"^\[FAIL\] (\S+?):", text, re.M)
    counts["skipped"] = re.findall(r"^\[SKIP\] (cuda\w*::\S+?): (.*)$", text, re.M)
    return counts


def gpu_rows(probe):
    return [r for r in (probe or {}).get("results", []) if str(r.get("device", "")).startswith("cuda")]


def bf16_peak(probe):
    """Dense bf16 peak in TFLOP/s: the probe's accelerator catalog entry, else the H200 datasheet."""
    for acc in (probe or {}).get("accelerators") or []:
        cat = acc.get("catalog") or {}
        if num(cat.get("bf16_tflops")):
            return num(cat["bf16_tflops"]), f"probe accelerators[].catalog.bf16_tflops ({cat.get('id', '?')})"
    return H200_BF16_DENSE_TFLOPS, "no peak in the probe JSON: H200 SXM datasheet dense bf16"


def figure(name, unit, ours, torch, higher_is_better=True, note=None):
    ratio = None
    if ours is not None and torch is not None and ours > 0 and torch > 0:
        ratio = ours / torch if higher_is_better else torch / ours
    f = {"name": name, "unit": unit, "ours": ours, "torch": torch,
         "ratio": ratio, "ratio_is": "ours/torch" if higher_is_better else "torch/ours (time: lower is better)"}
    if note:
        f["note"] = note
    return f


def figures(probe, wide, tiny, gpt, th):
    th = th or {}
    matmul = {(m.get("dtype"), m.get("n")): num(m.get("tflops")) for m in th.get("matmul") or []}
    transfer = {(t.get("direction"), t.get("pinned")): num(t.get("gbs")) for t in th.get("transfer") or []}
    mlp = {(m.get("layers") or [0])[0]: m for m in th.get("mlp_bf16") or []}
    tiny_torch = num((th.get("tiny") or {}).get("step_us_loss_read"))
    out = []
    for r in gpu_rows(probe):
        w, metric, p = r.get("workload"), r.get("metric"), r.get("params") or {}
        ok, median = r.get("status") == "ok", num(r.get("median"))
        ours = median if ok else None
        note = None if ok else r.get("reason") or r.get("status")
        if w == "gemm":
            out.append(figure(f"gemm {p.get('dtype')} n={p.get('n')}", "TFLOP/s", ours / 1000 if ours else None,
                              matmul.get((p.get("dtype"), p.get("n"))), note=note))
        elif w == "stream":
            out.append(figure(f"device {metric.replace('_gbs', '')}", "GB/s (read + written)", ours, num((th.get("copy") or {}).get("gbs")),
                              note=note))
        elif w == "transfer":
            direction = metric.split("_")[0]
            out.append(figure(f"{direction} {'pinned' if p.get('pinned') else 'pageable'}", "GB/s", ours,
                              transfer.get((direction, bool(p.get("pinned")))), note=note))
        elif w == "train-tiny":
            out.append(figure("tiny step (probe), loss read each step", "us", ours, tiny_torch, False, note))
        elif w == "train-mlp":
            width = int(str(p.get("layers", "0")).split(",")[0] or 0)
            t = mlp.get(width) or {}
            if metric == "samples_per_s":
                out.append(figure(f"mlp {p.get('layers')} bf16 (probe)", "samples/s", ours, num(t.get("samples_per_s")),
                                  note=note))
            else:
                out.append(figure(f"mlp {p.get('layers')} bf16 (probe)", "TFLOP/s", ours / 1000 if ours else None,
                                  num(t.get("tflops")), note=note))
        else:
            out.append(figure(f"{w} {metric}", r.get("unit") or "", ours, None, note=note))
    t8 = mlp.get(8192) or {}
    out.append(figure("mlp 8192x5 bf16, batch 8192 (train)", "samples/s", num((wide or {}).get("samples_per_s")),
                      num(t8.get("samples_per_s"))))
    gf = num((wide or {}).get("gflops"))
    out.append(figure("mlp 8192x5 bf16, batch 8192 (train)", "TFLOP/s", gf / 1000 if gf else None, num(t8.get("tflops"))))
    ms = num(((tiny or {}).get("step_ms") or {}).get("median"))
    out.append(figure("tiny step (train, 2000 steps), loss read each step", "us", ms * 1000 if ms else None, tiny_torch,
                      False))
    # The GPT step's figures; PyTorch's side is in the targets (gpt-torch.json).
    for r in gpu_rows(gpt):
        if r.get("workload") == "train-gpt":
            ok = r.get("status") == "ok"
            out.append(figure(f"gpt {r.get('metric')}", r.get("unit") or "", num(r.get("median")) if ok else None, None,
                              note=None if ok else r.get("reason")))
    return out


def targets(probe, wide, tiny, th, gpt=None, gpt_torch=None):
    th = th or {}

    def target(ours, torch, goal, unit, ratio_is="ours/torch", judge="ratio"):
        ratio = None
        if ours is not None and torch is not None and ours > 0 and torch > 0:
            ratio = ours / torch if ratio_is == "ours/torch" else torch / ours
        value = ratio if judge == "ratio" else ours
        return {"ours": ours, "torch": torch, "unit": unit, "ratio": ratio, "ratio_is": ratio_is,
                "target": goal, "judged_on": judge, "met": value is not None and value >= goal}

    def row(workload, metric, **params):
        for r in gpu_rows(probe):
            if (r.get("workload") == workload and r.get("metric") == metric and r.get("status") == "ok"
                    and all((r.get("params") or {}).get(k) == v for k, v in params.items())):
                return num(r.get("median"))
        return None

    matmul = {(m.get("dtype"), m.get("n")): num(m.get("tflops")) for m in th.get("matmul") or []}
    mlp = {(m.get("layers") or [0])[0]: m for m in th.get("mlp_bf16") or []}
    g, s = row("gemm", "gflops", n=8192, dtype="bf16"), row("stream", "copy_gbs")
    peak, peak_source = bf16_peak(probe)
    gf = num((wide or {}).get("gflops"))
    torch_tflops = num((mlp.get(8192) or {}).get("tflops"))
    tiny_ms = num(((tiny or {}).get("step_ms") or {}).get("median"))
    t = {
        "gemm_bf16_8192_tflops": target(g / 1000 if g else None, matmul.get(("bf16", 8192)), 0.95, "TFLOP/s"),
        "device_copy_gbs": target(s, num((th.get("copy") or {}).get("gbs")), 0.90, "GB/s (read + written)"),
        "mlp_bf16_wide_samples_per_s": target(num((wide or {}).get("samples_per_s")),
                                              num((mlp.get(8192) or {}).get("samples_per_s")), 1.2, "samples/s"),
        "mlp_bf16_wide_mfu": target(gf / 1000 / peak if gf else None, torch_tflops / peak if torch_tflops else None,
                                    0.55, "fraction of the dense bf16 peak", judge="ours"),
        "tiny_step_us": target(tiny_ms * 1000 if tiny_ms is not None else None,
                               num((th.get("tiny") or {}).get("step_us")), 10.0, "us per step", ratio_is="torch/ours"),
    }
    t["mlp_bf16_wide_mfu"]["peak_tflops"] = peak
    t["mlp_bf16_wide_mfu"]["peak_source"] = peak_source
    # The GPT step (GPT-2 124M's shape, T 1024, bf16): at least PyTorch eager's tokens/s and 40% MFU.
    def gpt_row(metric):
        for r in gpu_rows(gpt):
            if r.get("workload") == "train-gpt" and r.get("metric") == metric and r.get("status") == "ok":
                return num(r.get("median"))
        return None
    tokens, tflops = gpt_row("tokens_per_s"), gpt_row("tflops")
    per_token = tflops * 1e12 / tokens if tokens and tflops else None
    torch_tokens = num((gpt_torch or {}).get("tokens_per_s"))
    t["gpt_124m_bf16_tokens_per_s"] = target(tokens, torch_tokens, 1.0, "tokens/s")
    t["gpt_124m_bf16_mfu"] = target(tflops / peak if tflops and peak else None,
                                    torch_tokens * per_token / 1e12 / peak if torch_tokens and per_token and peak else None,
                                    0.40, "fraction of the dense bf16 peak", judge="ours")
    t["gpt_124m_bf16_mfu"]["peak_tflops"] = peak
    t["gpt_124m_bf16_mfu"]["peak_source"] = peak_source
    return t


def fmt(x):
    return "n/a" if x is None else f"{x:.4g}"


def main():
    work, path, mode, steps, failed, status = sys.argv[1:7]
    steps, failed = json.loads(steps), json.loads(failed)
    probe, wide, tiny = load(work, "probe-cuda.json"), load(work, "train-bf16-wide.json"), load(work, "train-tiny.json")
    gpt, th = load(work, "probe-gpt.json"), load(work, "torch.json")
    summary = {"schema": "fwadvisor.gpu-check/1", "mode": mode, "exit_status": int(status),
               "written_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "gpu": (th or {}).get("device") or os.environ.get("GPU_NAME"), "torch_version": (th or {}).get("torch"),
               "preflight": preflight(work), "tests": tests(work), "steps": steps, "failed_steps": failed,
               "archive": "results.tar.gz"}
    if "preflight" in failed:
        summary["stopped"] = "the preflight found something required missing: nothing was built or measured"
    elif mode != "no-gpu":
        summary["figures"] = figures(probe, wide, tiny, gpt, th)
        summary["gpt_step"] = "measured" if gpt else "failed" if "train-gpt" in steps else "not run"
        t = targets(probe, wide, tiny, th, gpt, load(work, "gpt-torch.json"))
        summary["targets"] = t
        summary["targets_met"] = sum(1 for v in t.values() if v["met"])
        summary["targets_total"] = len(t)
    with open(path + ".tmp", "w") as f:
        json.dump(summary, f, indent=2)
        f.write("\n")
    os.replace(path + ".tmp", path)
    for f in summary.get("figures", []):
        line = f"gpu-check: {f['name']}: ours {fmt(f['ours'])} {f['unit']}, torch {fmt(f['torch'])}"
        if f["ratio"] is not None:
            line += f", {f['ratio_is'].split(' ')[0]} {f['ratio']:.3g}"
        if f.get("note"):
            line += f" ({f['note']})"
        print(line)
    for name, v in summary.get("targets", {}).items():
        print(f"gpu-check: target {name}: {v['ratio_is'] if v['judged_on'] == 'ratio' else 'ours'} "
              f"{fmt(v['ratio'] if v['judged_on'] == 'ratio' else v['ours'])} (>= {v['target']}): "
              f"{'met' if v['met'] else 'MISSED'}")
    if summary.get("tests"):
        tc = summary["tests"]
        print(f"gpu-check: tests: {tc.get('passing', 0)} passed, {tc.get('failing', 0)} failed, "
              f"{tc.get('crashing', 0)} crashed of {tc.get('tested', 0)}; skipped GPU tests: {len(tc['skipped'])}")


if __name__ == "__main__":
    main()
