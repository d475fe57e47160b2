#!/usr/bin/env bash
# Proves fwadvisor's CUDA back-end on a machine with an NVIDIA GPU, in at most 8 minutes: builds
# with CUDA=1, runs the unit tests, measures the GPU with `fwadvisor probe` and `fwadvisor train`,
# runs the same workloads in PyTorch (tests/peer/bench_torch_gpu.py) and writes the two side by
# side, against their targets, to OUTDIR/summary.json.
#
#   scripts/gpu-check.sh OUTDIR            the whole check (exit 3 when there is no GPU)
#   scripts/gpu-check.sh --no-gpu OUTDIR   set-up, build and unit tests only (no GPU needed)
#
# Where gpu-bundle/ (or $FWADVISOR_BUNDLE) holds the .deb files of scripts/gpu-bundle.sh, they are
# unpacked into a private prefix ($FWADVISOR_PREFIX, default /tmp/fwadvisor-bundle-UID) and the
# compiler, linker and pkg-config are pointed at it; no root and no package registry are needed.
# Otherwise the system's packages are used.
#
# OUTDIR receives: gpu-check.log (everything), nvidia-smi.txt, build.log, test.log,
# probe-cuda.json, train-bf16-wide.json, train-tiny.json, torch.json, the GPT step's probe-gpt.json
# and gpt-torch.json (GPT-2 124M's shape, T 1024, bf16), and summary.json. The GPT's GPU unit tests
# (fp32 against the CPU engine, bf16's tolerance, graph replay against eager) run with the tests.
# Exit status: 0 when the check ran to the end (missed targets are reported in summary.json, not
# an error), 1 when the build or the unit tests failed, 2 on a usage error, 3 with no GPU.
set -u -o pipefail

usage() { echo "usage: scripts/gpu-check.sh [--no-gpu] OUTDIR" >&2; exit 2; }
no_gpu=0
if [ "${1:-}" = "--no-gpu" ]; then no_gpu=1; shift; fi
[ $# -eq 1 ] || usage

mkdir -p "$1" || exit 2
out=$(cd "$1" && pwd) || exit 2
cd "$(dirname "$0")/.." || exit 2
log=$out/gpu-check.log
: > "$log"

BUDGET_S=${GPU_CHECK_BUDGET_S:-470}   # the whole run; each step's limit is cut to what is left
PYTHON=${PYTHON:-python3}
failed=()
steps_json=""

say() { echo "gpu-check: $*" | tee -a "$log" >&2; }

# Seconds a step may take: its own limit, cut to the time left (15 s kept for the summary).
limit_for() {
    local want=$1 left=$((BUDGET_S - SECONDS - 15))
    if [ "$want" -gt "$left" ]; then echo "$left"; else echo "$want"; fi
}

record() {   # record NAME RC SECONDS
    steps_json="$steps_json\"$1\": {\"rc\": $2, \"seconds\": $3}, "
    [ "$2" -eq 0 ] || failed+=("$1")
}

# run_step NAME LIMIT_S MODE FILE CMD...: MODE "log" sends stdout and stderr to FILE (copied into
# gpu-check.log), "json" sends stdout to FILE and stderr to gpu-check.log. Returns CMD's status,
# 124 when it ran out of time.
run_step() {
    local name=$1 want=$2 mode=$3 file=$4 limit t0 rc
    shift 4
    limit=$(limit_for "$want")
    if [ "$limit" -lt 5 ]; then
        say "$name: not run, the time budget is spent"
        record "$name" 124 0
        return 124
    fi
    say "$name: $* (limit ${limit}s)"
    t0=$SECONDS
    if [ "$mode" = log ]; then
        timeout -k 10 "$limit" "$@" > "$file" 2>&1
        rc=$?
        cat "$file" >> "$log"
    else
        timeout -k 10 "$limit" "$@" > "$file" 2>> "$log"
        rc=$?
        { echo "--- $file"; cat "$file"; } >> "$log"
    fi
    [ "$rc" -eq 124 ] && say "$name: timed out after ${limit}s"
    say "$name: exit $rc after $((SECONDS - t0))s"
    record "$name" "$rc" "$((SECONDS - t0))"
    return "$rc"
}

# --- the GPU --------------------------------------------------------------------------------
if [ "$no_gpu" -eq 0 ]; then
    if ! command -v nvidia-smi >/dev/null 2>&1 \
        || ! timeout -k 5 30 nvidia-smi > "$out/nvidia-smi.txt" 2>&1 \
        || ! ls /dev/nvidia[0-9]* >/dev/null 2>&1; then
        say "no NVIDIA GPU here (nvidia-smi failed or no /dev/nvidia0)"
        exit 3
    fi
    cat "$out/nvidia-smi.txt" >> "$log"
    GPU_NAME=$(timeout -k 5 20 nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
    export GPU_NAME
    say "GPU: $(timeout -k 5 20 nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -1)"
    if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
        export PATH="$PATH:/usr/local/cuda/bin"
    fi
fi

# --- build dependencies from the bundle -----------------------------------------------------
bundle=${FWADVISOR_BUNDLE:-gpu-bundle}
if [ -d "$bundle" ] && ls "$bundle"/*.deb >/dev/null 2>&1; then
    bundle=$(cd "$bundle" && pwd)
    R=${FWADVISOR_PREFIX:-${TMPDIR:-/tmp}/fwadvisor-bundle-$(id -u)}
    M=$(gcc -print-multiarch 2>/dev/null || true)
    M=${M:-x86_64-linux-gnu}
    debs=("$bundle"/*.deb)
    say "unpacking ${#debs[@]} packages from $bundle into $R"
    rm -rf "$R" && mkdir -p "$R"
    for deb in "${debs[@]}"; do
        if command -v dpkg-deb >/dev/null 2>&1; then
            dpkg-deb -x "$deb" "$R"
        else   # a .deb is an ar archive holding data.tar.*
            (t=$(mktemp -d) && cd "$t" && ar x "$deb" && tar -xf data.tar.* -C "$R"
             rc=$?; rm -rf "$t"; exit "$rc")
        fi || say "could not unpack $deb"
    done
    # pkg-config files name /usr: point them at the prefix. Absolute links into /usr or /lib
    # point at the prefix's copy where it has one.
    find "$R" -name '*.pc' -type f -exec sed -i "s|/usr|$R/usr|g" {} +
    while IFS= read -r link; do
        target=$(readlink "$link")
        [ -e "$R$target" ] && ln -sfn "$R$target" "$link"
    done < <(find "$R" -type l -lname '/*')
    libs="$R/usr/lib/$M:$R/lib/$M:$R/usr/lib/$M/openblas-pthread"
    export CPATH="$R/usr/include:$R/usr/include/$M:$R/usr/include/$M/openblas-pthread${CPATH:+:$CPATH}"
    export LIBRARY_PATH="$libs${LIBRARY_PATH:+:$LIBRARY_PATH}"
    export LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export PKG_CONFIG_PATH="$R/usr/lib/$M/pkgconfig:$R/usr/lib/$M/openblas-pthread/pkgconfig:$R/usr/share/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
    # The bundled pkg-config serves only where the system has none.
    export PATH="$PATH:$R/usr/bin"
    for v in CPATH LIBRARY_PATH LD_LIBRARY_PATH PKG_CONFIG_PATH PATH; do
        echo "export $v=\"${!v}\"" >> "$log"
    done
    say "the binaries built here need LD_LIBRARY_PATH=$libs (the export lines are in gpu-check.log)"
    export FWADVISOR_DB="$R/kb.sqlite3"
else
    say "no bundle at $bundle: using the system's packages"
    FWADVISOR_DB="${TMPDIR:-/tmp}/fwadvisor-gpu-check-$(id -u).sqlite3"
    export FWADVISOR_DB
fi
# Python runs with the library path it was installed for, not the bundle's.
py=(env -u LD_LIBRARY_PATH "$PYTHON")
{
    echo "pkg-config: $(command -v pkg-config || echo none)"
    scripts/deps.sh --check 2>&1 || true
} >> "$log"

# --- build and unit tests -------------------------------------------------------------------
cuda_arg=()
[ "$no_gpu" -eq 0 ] && cuda_arg=(CUDA=1)
jobs=$(nproc 2>/dev/null || echo 4)
build_ok=1
run_step build 240 log "$out/build.log" make -j"$jobs" "${cuda_arg[@]}" || build_ok=0
# A failed plug-in build must not pass for a good one: make may be told to go on past it.
if [ "$no_gpu" -eq 0 ] && { [ ! -f build/fwadvisor-cuda.so ] \
        || grep -q 'fwadvisor-cuda.so\] Error .*(ignored)' "$out/build.log"; }; then
    say "build: build/fwadvisor-cuda.so was not built"
    failed+=("build (fwadvisor-cuda.so)")
    build_ok=0
fi

tests_ok=0
if [ "$build_ok" -eq 1 ]; then
    # test-run, not test: `make test` would try to install packages first.
    run_step tests 150 log "$out/test.log" make test-run "${cuda_arg[@]}" && tests_ok=1
    grep -a 'Synthesis:' "$out/test.log" | tail -1 | sed 's/^/gpu-check: tests: /' | tee -a "$log" >&2
else
    say "tests: not run, the build failed"
fi

# --- GPU figures ----------------------------------------------------------------------------
if [ "$no_gpu" -eq 0 ]; then
    if [ "$build_ok" -eq 1 ]; then
        run_step probe 180 json "$out/probe-cuda.json" ./fwadvisor probe --device cuda \
            --workload gemm,stream,transfer,train-mlp,train-tiny --full --no-save --json
        run_step train-bf16-wide 120 json "$out/train-bf16-wide.json" ./fwadvisor train --device cuda \
            --precision bf16 --layers 8192,8192,8192,8192,8192 --batch 8192 --steps 30 --optimizer adam --json
        run_step train-tiny 60 json "$out/train-tiny.json" ./fwadvisor train --device cuda \
            --layers 100,10 --batch 32 --steps 2000 --optimizer adam --json
        # The GPT step: GPT-2 124M's shape at T 1024, bf16; tokens/s and MFU.
        run_step train-gpt 120 json "$out/probe-gpt.json" ./fwadvisor probe --device cuda \
            --workload train-gpt --no-save --json
    else
        say "probe and train: not run, the build failed"
    fi
    run_step torch 180 json "$out/torch.json" "${py[@]}" tests/peer/bench_torch_gpu.py
    run_step torch-gpt 120 json "$out/gpt-torch.json" "${py[@]}" tests/peer/bench_gpt.py torch-cuda 0 \
        12,12,768,1024,50304,8 10
fi

# --- summary --------------------------------------------------------------------------------
say "writing $out/summary.json"
failed_json=$(printf '"%s", ' "${failed[@]}")
[ ${#failed[@]} -eq 0 ] && failed_json=""
"${py[@]}" - "$out" "{${steps_json%, }}" "[${failed_json%, }]" "$no_gpu" <<'EOF' 2>&1 | tee -a "$log" >&2
import json, os, re, sys, time

out, steps, failed, no_gpu = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3]), sys.argv[4] == "1"
H200_BF16_DENSE_TFLOPS = 989.4  # NVIDIA's H200 SXM datasheet, dense bf16


def load(name):
    try:
        with open(os.path.join(out, name)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def tests():
    try:
        with open(os.path.join(out, "test.log"), errors="replace") as f:
            lines = [l for l in f if "Synthesis:" in l]
    except OSError:
        return None
    if not lines:
        return None
    text = re.sub(r"\x1b\[[0-9;]*m", "", lines[-1].split("Synthesis:", 1)[1])
    return {k.lower(): int(v) for k, v in re.findall(r"([A-Za-z]+):\s*(\d+)", text)}


def probe_result(probe, workload, metric, **params):
    for r in (probe or {}).get("results", []):
        if (r.get("workload") == workload and r.get("metric") == metric and r.get("status") == "ok"
                and str(r.get("device", "")).startswith("cuda")
                and all(r.get("params", {}).get(k) == v for k, v in params.items())):
            return r
    return None


def bf16_peak(probe):
    """Dense bf16 peak in TFLOP/s: the probe's accelerator catalog entry (or another field naming a
    bf16 peak), else the H200 datasheet."""
    def walk(obj, path):
        if isinstance(obj, dict):
            for k, v in obj.items():
                yield from walk(v, path + [str(k).lower()])
        elif isinstance(obj, (int, float)) and not isinstance(obj, bool):
            yield path, float(obj)
    accs = (probe or {}).get("accelerators") or []
    for acc in accs:
        cat = acc.get("catalog") or {}
        if num(cat.get("bf16_tflops")):
            return num(cat["bf16_tflops"]), f"probe accelerators[].catalog.bf16_tflops ({cat.get('id', '?')})"
    for acc in accs:
        for path, v in walk(acc, []):
            key = "_".join(path)
            if "peak" in key and "bf16" in key and "sparse" not in key and v > 0:
                tflops = v / 1000 if "gflops" in key or ("tflops" not in key and v > 20000) else v
                return tflops, "probe accelerators[]: " + ".".join(path)
    name = accs[0].get("name", "unknown") if accs else "unknown"
    return H200_BF16_DENSE_TFLOPS, f"no peak in the probe JSON: H200 SXM datasheet dense bf16 (GPU: {name})"


def num(x):
    return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else None


def target(ours, torch, target, unit, ratio_is="ours/torch", judge="ratio"):
    ratio = None
    if ours is not None and torch is not None and ours > 0 and torch > 0:
        ratio = ours / torch if ratio_is == "ours/torch" else torch / ours
    value = ratio if judge == "ratio" else ours
    return {"ours": ours, "torch": torch, "unit": unit, "ratio": ratio, "ratio_is": ratio_is,
            "target": target, "judged_on": judge, "met": value is not None and value >= target}


probe, wide, tiny, th = load("probe-cuda.json"), load("train-bf16-wide.json"), load("train-tiny.json"), load("torch.json")
summary = {"schema": "fwadvisor.gpu-check/1", "written_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
           "gpu": (th or {}).get("device") or os.environ.get("GPU_NAME"), "torch_version": (th or {}).get("torch"),
           "tests": tests(), "steps": steps, "failed_steps": failed}
if not no_gpu:
    g = probe_result(probe, "gemm", "gflops", n=8192, dtype="bf16")
    s = probe_result(probe, "stream", "copy_gbs")
    peak, peak_source = bf16_peak(probe)
    ours_mfu = num((wide or {}).get("gflops"))
    ours_mfu = ours_mfu / 1000 / peak if ours_mfu is not None else None
    torch_tflops = num(((th or {}).get("mlp_bf16") or {}).get("tflops"))
    tiny_ms = num(((tiny or {}).get("step_ms") or {}).get("median"))
    t = {
        "gemm_bf16_8192_tflops": target(num(g["median"]) / 1000 if g else None,
                                        num(((th or {}).get("matmul", {}).get("bf16") or {}).get("tflops")),
                                        0.95, "TFLOP/s"),
        "device_copy_gbs": target(num(s["median"]) if s else None,
                                  num(((th or {}).get("copy") or {}).get("gbs")), 0.90, "GB/s (read + written)"),
        "mlp_bf16_wide_samples_per_s": target(num((wide or {}).get("samples_per_s")),
                                              num(((th or {}).get("mlp_bf16") or {}).get("samples_per_s")),
                                              1.2, "samples/s"),
        "mlp_bf16_wide_mfu": target(ours_mfu, torch_tflops / peak if torch_tflops else None,
                                    0.55, "fraction of the dense bf16 peak", judge="ours"),
        "tiny_step_us": target(tiny_ms * 1000 if tiny_ms is not None else None,
                               num(((th or {}).get("tiny") or {}).get("step_us")),
                               10.0, "us per step", ratio_is="torch/ours"),
    }
    t["mlp_bf16_wide_mfu"]["peak_tflops"] = peak
    t["mlp_bf16_wide_mfu"]["peak_source"] = peak_source
    # The GPT step (GPT-2 124M's shape, T 1024, bf16): at least PyTorch eager's tokens/s and 40% MFU.
    gpt, gpt_torch = load("probe-gpt.json"), load("gpt-torch.json")
    gpt_tokens = probe_result(gpt, "train-gpt", "tokens_per_s")
    gpt_tflops = probe_result(gpt, "train-gpt", "tflops")
    gpt_flops_per_token = None
    if gpt_tokens and gpt_tflops and num(gpt_tokens["median"]):
        gpt_flops_per_token = num(gpt_tflops["median"]) * 1e12 / num(gpt_tokens["median"])
    torch_gpt_tokens = num((gpt_torch or {}).get("tokens_per_s"))
    t["gpt_124m_bf16_tokens_per_s"] = target(num(gpt_tokens["median"]) if gpt_tokens else None, torch_gpt_tokens,
                                             1.0, "tokens/s")
    t["gpt_124m_bf16_mfu"] = target(num(gpt_tflops["median"]) / peak if gpt_tflops else None,
                                    torch_gpt_tokens * gpt_flops_per_token / 1e12 / peak
                                    if torch_gpt_tokens and gpt_flops_per_token else None,
                                    0.40, "fraction of the dense bf16 peak", judge="ours")
    t["gpt_124m_bf16_mfu"]["peak_tflops"] = peak
    t["gpt_124m_bf16_mfu"]["peak_source"] = peak_source
    summary["targets"] = t
    summary["targets_met"] = sum(1 for v in t.values() if v["met"])
    summary["targets_total"] = len(t)
with open(os.path.join(out, "summary.json"), "w") as f:
    json.dump(summary, f, indent=2)
    f.write("\n")
for name, v in summary.get("targets", {}).items():
    fmt = lambda x: "n/a" if x is None else f"{x:.4g}"
    print(f"gpu-check: {name}: ours {fmt(v['ours'])}, torch {fmt(v['torch'])}, "
          f"{v['ratio_is'] if v['judged_on'] == 'ratio' else 'ours'} {fmt(v['ratio'] if v['judged_on'] == 'ratio' else v['ours'])}"
          f" (target >= {v['target']}): {'met' if v['met'] else 'MISSED'}")
EOF
[ -s "$out/summary.json" ] || say "summary: could not be written (see gpu-check.log)"

if [ "$build_ok" -eq 0 ] || [ "$tests_ok" -eq 0 ]; then
    say "done in ${SECONDS}s: the build or the unit tests FAILED; failed steps: ${failed[*]:-none}"
    exit 1
fi
say "done in ${SECONDS}s; failed steps: ${failed[*]:-none}"
exit 0
