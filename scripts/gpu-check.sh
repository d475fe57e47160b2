#!/usr/bin/env bash
# Proves fwadvisor's CUDA back-end on a machine with an NVIDIA GPU and puts every figure beside
# PyTorch's on the same machine (tests/peer/bench_torch_gpu.py) when PyTorch is importable there.
#
#   scripts/gpu-check.sh --quick OUTDIR    a build for this GPU only, the GPU tests, the headline
#                                          figures (bf16 GEMM, copy, MLP, tiny step): under 5 min
#   scripts/gpu-check.sh [--full] OUTDIR   every test, the full GPU probe (transfers, every GEMM
#                                          size), the same in PyTorch: about 9 minutes
#   scripts/gpu-check.sh --no-gpu OUTDIR   the preflight, the build and the unit tests only
#
# First a preflight lists what the machine has (GPU and driver, CUDA, nvcc, the compilers, make,
# pkg-config and the libraries, NCCL, Python, PyTorch) and stops before building, with the
# reason, when something the check needs is missing. Where gpu-bundle/ (or $FWADVISOR_BUNDLE)
# holds the .deb files of scripts/gpu-bundle.sh (make, pkg-config, the libraries), they are
# unpacked into a private prefix ($FWADVISOR_PREFIX, default /tmp/fwadvisor-bundle-UID) first,
# so no root and no package registry are needed.
#
# OUTDIR receives two files, whatever happens: summary.json (the preflight, each step's exit
# status and time, the tests' counts, every figure beside PyTorch's, the targets) and
# results.tar.gz (the log, the preflight, the build and test logs, every JSON document measured).
# Exit status: 0 when the check ran to the end (missed targets are in the summary, not an
# error), 1 when the build or the tests failed, 2 on a usage error, 3 when the preflight found
# something missing (no GPU included).
set -u -o pipefail

usage() { echo "usage: scripts/gpu-check.sh [--quick|--full|--no-gpu] OUTDIR" >&2; exit 2; }
mode=full
case "${1:-}" in
--quick) mode=quick; shift ;;
--full) mode=full; shift ;;
--no-gpu) mode=no-gpu; shift ;;
-*) usage ;;
esac
[ $# -eq 1 ] || usage
gpu=1
[ "$mode" = no-gpu ] && gpu=0

mkdir -p "$1" || exit 2
out=$(cd "$1" && pwd) || exit 2
cd "$(dirname "$0")/.." || exit 2
work=$(mktemp -d "${TMPDIR:-/tmp}/fwadvisor-gpu-check.XXXXXX") || exit 2
log=$work/gpu-check.log
: > "$log"

# The whole run's budget; each step's limit is cut to what is left (20 s kept for the summary).
case $mode in
quick) BUDGET_S=${GPU_CHECK_BUDGET_S:-280} ;;
full) BUDGET_S=${GPU_CHECK_BUDGET_S:-560} ;;
*) BUDGET_S=${GPU_CHECK_BUDGET_S:-1800} ;;
esac
PYTHON=${PYTHON:-python3}
failed=()
steps_json=""

say() { echo "gpu-check: $*" | tee -a "$log" >&2; }

limit_for() {
    local want=$1 left=$((BUDGET_S - SECONDS - 20))
    if [ "$want" -gt "$left" ]; then echo "$left"; else echo "$want"; fi
}

record() {   # record NAME RC SECONDS
    steps_json="$steps_json\"$1\": {\"rc\": $2, \"seconds\": $3}, "
    [ "$2" -eq 0 ] || failed+=("$1")
}

# run_step NAME LIMIT_S MODE FILE CMD...: MODE "log" sends stdout and stderr to FILE (copied into
# the log), "json" sends stdout to FILE and stderr to the log. Returns CMD's status, 124 when it
# ran out of time.
run_step() {
    local name=$1 want=$2 how=$3 file=$4 limit t0 rc
    shift 4
    limit=$(limit_for "$want")
    if [ "$limit" -lt 5 ]; then
        say "$name: not run, the time budget is spent"
        record "$name" 124 0
        return 124
    fi
    say "$name: $* (limit ${limit}s)"
    t0=$SECONDS
    if [ "$how" = log ]; then
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

# The summary (Python) and the archive, then exit with $1. Every way out comes through here, so
# OUTDIR always holds its two files.
finish() {
    local status=$1 failed_json
    trap - INT TERM
    say "writing $out/summary.json and $out/results.tar.gz"
    failed_json=$(printf '"%s", ' "${failed[@]}")
    [ ${#failed[@]} -eq 0 ] && failed_json=""
    if command -v "$PYTHON" >/dev/null 2>&1; then
        env -u LD_LIBRARY_PATH "$PYTHON" scripts/gpu-summary.py "$work" "$out/summary.json" "$mode" \
            "{${steps_json%, }}" "[${failed_json%, }]" "$status" 2>&1 | tee -a "$log" >&2
    fi
    if [ ! -s "$out/summary.json" ]; then   # no Python: the bare facts, by hand
        printf '{"schema": "fwadvisor.gpu-check/1", "mode": "%s", "exit_status": %d, "steps": {%s}, "failed_steps": [%s], "note": "no %s to write the full summary; see results.tar.gz"}\n' \
            "$mode" "$status" "${steps_json%, }" "${failed_json%, }" "$PYTHON" > "$out/summary.json"
    fi
    say "done in ${SECONDS}s (exit $status); failed steps: ${failed[*]:-none}"
    tar -czf "$out/results.tar.gz" -C "$work" . 2>/dev/null || echo "gpu-check: could not write results.tar.gz" >&2
    rm -rf "$work"
    exit "$status"
}
trap 'say "interrupted"; finish 1' INT TERM
rm -f "$out/summary.json" "$out/results.tar.gz"

# --- build dependencies from the bundle -------------------------------------------------------
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
    # The bundle's tools (make, pkg-config) serve only where the system has none.
    export PATH="$PATH:$R/usr/bin:$R/bin"
    for v in CPATH LIBRARY_PATH LD_LIBRARY_PATH PKG_CONFIG_PATH PATH; do
        echo "export $v=\"${!v}\"" >> "$log"
    done
    say "the binaries built here need LD_LIBRARY_PATH=$libs (the export lines are in gpu-check.log)"
    export FWADVISOR_DB="$R/kb.sqlite3"
    from_bundle=$R
else
    say "no bundle at $bundle: using the system's packages"
    export FWADVISOR_DB="$work/kb.sqlite3"
    from_bundle=""
fi

# --- preflight --------------------------------------------------------------------------------
# One line per thing the check uses: NAME, ok | missing | old | none, required | optional in
# this mode, what was found. Anything required and not ok stops the check before the build.
preflight=$work/preflight.tsv
: > "$preflight"
missing=()
check() {   # check NAME STATUS REQUIRED|OPTIONAL DETAIL
    printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >> "$preflight"
    say "$(printf '  %-11s %-8s %s' "$1" "$2" "$4")"
    [ "$2" != ok ] && [ "$3" = required ] && missing+=("$1")
}
where() {   # where TOOL: its path, and "(from the bundle)" when it came from there
    local p
    p=$(command -v "$1" 2>/dev/null) || return 1
    if [ -n "$from_bundle" ] && [ "${p#"$from_bundle"}" != "$p" ]; then echo "$p (from the bundle)"; else echo "$p"; fi
}
first_line() { "$@" 2>&1 | head -1; }
gpu_need=optional
[ "$gpu" -eq 1 ] && gpu_need=required

say "preflight ($mode mode):"
gpu_arch=""
driver_cuda=""
torch=""
if command -v nvidia-smi >/dev/null 2>&1 && timeout -k 5 30 nvidia-smi > "$work/nvidia-smi.txt" 2>&1 \
        && ls /dev/nvidia[0-9]* >/dev/null 2>&1; then
    q=$(timeout -k 5 20 nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader 2>/dev/null | head -1)
    [ -n "$q" ] || q=$(timeout -k 5 20 nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -1)
    GPU_NAME=${q%%,*}
    export GPU_NAME
    gpu_arch=$(echo "$q" | awk -F', *' 'NF >= 4 && $4 ~ /^[0-9]+\.[0-9]+$/ { sub(/\./, "", $4); print $4 }')
    check gpu ok "$gpu_need" "$q ($(nvidia-smi -L 2>/dev/null | wc -l) GPU)"
    driver_cuda=$(sed -n 's/.*CUDA Version: *\([0-9][0-9.]*\).*/\1/p' "$work/nvidia-smi.txt" | head -1)
    check driver ok optional "runs CUDA ${driver_cuda:-?} and older"
else
    check gpu none "$gpu_need" "nvidia-smi failed or no /dev/nvidia0"
fi
NVCC=$(command -v nvcc 2>/dev/null)
for candidate in /usr/local/cuda/bin/nvcc /usr/local/cuda-*/bin/nvcc; do
    [ -z "$NVCC" ] && [ -x "$candidate" ] && NVCC=$candidate
done
if [ -n "$NVCC" ] && [ -x "$NVCC" ]; then
    release=$("$NVCC" --version 2>/dev/null | sed -n 's/.*release \([0-9][0-9.]*\).*/\1/p')
    if [ -n "$driver_cuda" ] && [ "${release%%.*}" -gt "${driver_cuda%%.*}" ] 2>/dev/null; then
        check nvcc old "$gpu_need" "release $release ($NVCC) builds for a newer CUDA than the driver's $driver_cuda: the plug-in would not start (use a CUDA ${driver_cuda%%.*} toolkit)"
    else
        check nvcc ok "$gpu_need" "release ${release:-?} ($NVCC)"
    fi
else
    NVCC=""
    check nvcc missing "$gpu_need" "no nvcc on PATH or in /usr/local/cuda*/bin (the CUDA toolkit builds the plug-in)"
fi
if w=$(where cc); then check cc ok required "$(first_line cc --version), $w"; else check cc missing required "no C compiler"; fi
if w=$(where g++); then check c++ ok "$gpu_need" "$(first_line g++ --version) (nvcc's host compiler), $w"
else check c++ missing "$gpu_need" "no g++ (nvcc compiles its host code with it)"; fi
if w=$(where make); then check make ok required "$(first_line make --version), $w"
else check make missing required "no make (scripts/gpu-bundle.sh carries one)"; fi
if w=$(where pkg-config); then check pkg-config ok required "$w"; else check pkg-config missing required "no pkg-config"; fi
if deps=$(scripts/deps.sh --check-build 2>&1); then check libraries ok required "sqlite3 cjson hwloc ncursesw openblas criterion"
else check libraries missing required "${deps#fwadvisor: }"; fi
# NCCL: the plug-in opens libnccl.so.2 at run time; PyTorch's wheel carries one too.
nccl=$(ldconfig -p 2>/dev/null | awk '/libnccl\.so\.2 / { print $NF; exit }')
if [ -z "$nccl" ] && command -v "$PYTHON" >/dev/null 2>&1; then
    nccl=$(env -u LD_LIBRARY_PATH "$PYTHON" -c 'import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], "lib", "libnccl.so.2"))' 2>/dev/null)
    [ -n "$nccl" ] && [ -f "$nccl" ] && export FWADVISOR_NCCL_LIB=$nccl || nccl=""
fi
if [ -n "$nccl" ]; then check nccl ok optional "$nccl"
else check nccl missing optional "no libnccl.so.2: the NCCL test skips and the NCCL rows say why"; fi
if command -v "$PYTHON" >/dev/null 2>&1; then
    check python ok required "$(first_line "$PYTHON" --version) (writes the summary)"
    torch=$(env -u LD_LIBRARY_PATH "$PYTHON" -c 'import torch; print(torch.__version__, "CUDA", torch.version.cuda, "GPU" if torch.cuda.is_available() else "no GPU")' 2>/dev/null)
    if [ -n "$torch" ]; then check pytorch ok optional "$torch: figures side by side"
    else check pytorch none optional "not importable: our figures alone"; fi
else
    check python missing required "no $PYTHON (writes the summary)"
fi
if [ ${#missing[@]} -gt 0 ]; then
    say "stopping before the build: missing or unusable: ${missing[*]} (see the preflight above)"
    failed+=("preflight")
    finish 3
fi

# --- build and tests --------------------------------------------------------------------------
make_args=()
if [ "$gpu" -eq 1 ]; then
    make_args=(CUDA=1 "NVCC=$NVCC")
    # quick: this GPU's architecture alone; full: the default set plus this GPU's own
    if [ -n "$gpu_arch" ]; then
        own="-gencode arch=compute_$gpu_arch,code=sm_$gpu_arch"
        if [ "$mode" = quick ]; then
            make_args+=("CUDA_ARCHS=$own")
        elif [ "$gpu_arch" != 80 ] && [ "$gpu_arch" != 90 ]; then
            make_args+=("CUDA_ARCHS=-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90 $own")
        fi
    fi
elif [ -n "$NVCC" ]; then
    make_args=("NVCC=$NVCC")
fi
jobs=$(nproc 2>/dev/null || echo 4)
build_ok=1
run_step build 240 log "$work/build.log" make -j"$jobs" "${make_args[@]}" all || build_ok=0
# A failed plug-in build must not pass for a good one: make may be told to go on past it.
if [ "$gpu" -eq 1 ] && { [ ! -f build/fwadvisor-cuda.so ] \
        || grep -q 'fwadvisor-cuda.so\] Error .*(ignored)' "$work/build.log"; }; then
    say "build: build/fwadvisor-cuda.so was not built"
    failed+=("build (fwadvisor-cuda.so)")
    build_ok=0
fi
grep -E 'warning|error' "$work/build.log" | grep -v '^make' | head -20 | sed 's/^/gpu-check: build: /' >&2

tests_ok=0
# verbose: the summary lists the GPU tests that skipped, and why; quick runs the GPU suites
# alone (cuda and cuda_gpt: "cuda/*" would leave the GPT kernels' tests out)
test_args=("TEST_ARGS=--verbose")
[ "$mode" = quick ] && test_args=("TEST_ARGS=--verbose --filter=cuda*/*")
if [ "$build_ok" -eq 1 ]; then
    # test-run, not test: `make test` would try to install packages first.
    # the whole suite (no-gpu, full) takes minutes on a small machine; the GPU suites alone do not
    run_step tests "$([ "$mode" = quick ] && echo 200 || echo 900)" log "$work/test.log" make -j"$jobs" "${make_args[@]}" test-run "${test_args[@]}" && tests_ok=1
    grep -a 'Synthesis:' "$work/test.log" | tail -1 | sed 's/^/gpu-check: tests: /' | tee -a "$log" >&2
    grep -a -E '^\[(FAIL|SKIP)\] cuda[a-z_]*::' "$work/test.log" | head -30 | sed 's/^/gpu-check: tests: /' >&2
else
    say "tests: not run, the build failed"
fi

# --- GPU figures --------------------------------------------------------------------------------
if [ "$gpu" -eq 1 ] && [ "$build_ok" -eq 1 ]; then
    if [ "$mode" = quick ]; then
        run_step probe 90 json "$work/probe-cuda.json" ./fwadvisor probe --device cuda \
            --workload gemm,stream,train-tiny,train-mlp --no-save --json
    else
        run_step probe 180 json "$work/probe-cuda.json" ./fwadvisor probe --device cuda \
            --workload gemm,stream,transfer,train-mlp,train-tiny --full --no-save --json
    fi
    run_step train-bf16-wide 90 json "$work/train-bf16-wide.json" ./fwadvisor train --device cuda \
        --precision bf16 --layers 8192,8192,8192,8192,8192 --batch 8192 --steps "$([ "$mode" = quick ] && echo 20 || echo 30)" \
        --optimizer adam --json
    run_step train-tiny 45 json "$work/train-tiny.json" ./fwadvisor train --device cuda \
        --layers 100,10 --batch 32 --steps 2000 --optimizer adam --json

    # The GPT step: GPT-2 124M's shape at T 1024, bf16; tokens/s and MFU (gpt-torch.json beside it).
    run_step train-gpt 90 json "$work/probe-gpt.json" ./fwadvisor probe --device cuda \
        --workload train-gpt --no-save --json
elif [ "$gpu" -eq 1 ]; then
    say "probe and train: not run, the build failed"
fi
if [ "$gpu" -eq 1 ] && [ -n "$torch" ]; then
    # the probe's GEMM sizes in each mode
    torch_args=(--gemm-sizes "1024,2048,4096,8192")
    [ "$mode" = quick ] && torch_args=(--quick --gemm-sizes "1024,4096,8192")
    run_step torch 150 json "$work/torch.json" env -u LD_LIBRARY_PATH "$PYTHON" tests/peer/bench_torch_gpu.py "${torch_args[@]}"
    # The same GPT step in PyTorch eager: GPT-2 124M's shape (12 layers, 12 heads, 768 wide), T 1024,
    # vocabulary 50304, batch 8, bf16, 10 steps.
    run_step torch-gpt 120 json "$work/gpt-torch.json" env -u LD_LIBRARY_PATH "$PYTHON" tests/peer/bench_gpt.py \
        torch-cuda 0 12,12,768,1024,50304,8 10
fi

if [ "$build_ok" -eq 0 ] || [ "$tests_ok" -eq 0 ]; then
    say "the build or the tests FAILED"
    finish 1
fi
finish 0
