"""The harness every framework script shares: the run's description, the engine's weights and
batches read with numpy alone, the timing loop, and the lines that go back to fwadvisor.

A framework script is started by `fwadvisor probe --workload frameworks` in its own process:

    python fw_NAME.py SPEC.json [ARG]

SPEC.json (written by the program, beside the weights) holds the thread count, the devices to
use, and for each model its shape, optimizer, the safetensors file of its initial weights, the
.npy files of every step's batch (row block k is step k), the warm-up and timed step counts and
a time budget per mode. The script answers on standard output with one JSON object per line:

    {"event": "framework", "id", "version", "devices": [{"name", "kind", "label"}]}
    {"event": "start", "mode", "device", "kind", "model"}       (before each measurement)
    {"event": "row", "id", "mode", "device", "kind", "model", "first_loss", "step_s": [...],
     "first_step_s", "note"}              (or "error" in place of the figures)
    {"event": "error", "id", "stage": "import", "error"}        (the framework cannot be imported)
    {"event": "done"}

Everything else the frameworks print goes to standard error (file descriptor 1 is pointed there
before any framework loads), so their log lines cannot spoil the answer. Nothing is installed or
downloaded; only numpy and the framework itself are imported.
"""
import json
import math
import os
import struct
import sys
import time
import traceback

_OUT = None


def _take_stdout():
    """The answer channel: a private copy of fd 1; fd 1 itself then points at stderr."""
    global _OUT
    if _OUT is None:
        sys.stdout.flush()
        _OUT = os.fdopen(os.dup(1), "w", buffering=1)
        os.dup2(2, 1)
    return _OUT


def emit(record):
    out = _take_stdout()
    out.write(json.dumps(record, allow_nan=False) + "\n")
    out.flush()


def error_text(exc):
    """One line for a row: the exception's type and first line, and where in the script."""
    text = "%s: %s" % (type(exc).__name__, str(exc).strip().splitlines()[0] if str(exc).strip() else "")
    return text[:300]


def set_threads(n):
    """Thread pools sized before a framework loads, and the process held to n cores."""
    n = int(n)
    if n < 1:
        return
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "TF_NUM_INTRAOP_THREADS",
                "NUMEXPR_NUM_THREADS"):
        os.environ[var] = str(n)
    os.environ.setdefault("TF_NUM_INTEROP_THREADS", "1")
    if n == 1:
        os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") +
                                   " --xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1").strip()
    try:
        cores = sorted(os.sched_getaffinity(0))
        if n < len(cores):
            os.sched_setaffinity(0, set(cores[:n]))
    except (AttributeError, OSError):
        pass


def load_spec(path):
    with open(path) as f:
        spec = json.load(f)
    base = os.path.dirname(os.path.abspath(path))
    for model in spec["models"]:
        for key in ("weights", "x", "y"):
            model[key] = os.path.join(base, model[key])
    return spec


def read_safetensors(path):
    """F32 tensors of a safetensors file as numpy arrays (the engine writes only F32)."""
    import numpy as np
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    data = raw[8 + n:]
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if info["dtype"] != "F32":
            raise ValueError("%s: dtype %s, expected F32" % (name, info["dtype"]))
        begin, end = info["data_offsets"]
        out[name] = np.frombuffer(data[begin:end], dtype="<f4").reshape(info["shape"]).astype(np.float32)
    return out


class Model:
    """One model of the spec with its weights and batches in host memory (numpy)."""

    def __init__(self, m):
        import numpy as np
        self.spec = m
        self.name = m["name"]          # "mlp" or "gpt"
        self.weights = read_safetensors(m["weights"])
        self.x = np.load(m["x"])
        self.y = np.load(m["y"])
        self.batch = int(m["batch"])
        self.warmup = int(m["warmup"])
        self.steps = int(m["steps"])
        self.budget = float(m.get("budget_s", 0))
        self.lr = float(m["lr"])
        self.weight_decay = float(m.get("weight_decay", 0))
        self.clip = float(m.get("clip", 0))
        self.optimizer = m["optimizer"]  # "adam" or "adamw"

    def nbatches(self):
        return self.x.shape[0] // self.batch

    def batch_at(self, k):
        """Step k's inputs and targets (rows k B .. k B + B - 1 of the files)."""
        k = k % self.nbatches()
        lo, hi = k * self.batch, (k + 1) * self.batch
        return self.x[lo:hi], self.y[lo:hi]

    def mlp_layers(self):
        """[(weight [out, in], bias [out]), ...] in order."""
        out, i = [], 0
        while "layers.%d.weight" % i in self.weights:
            out.append((self.weights["layers.%d.weight" % i], self.weights["layers.%d.bias" % i]))
            i += 1
        return out

    def gpt_blocks(self):
        """GPT tensors by short names: wte, wpe, ln_f and per block ln_1, c_attn, attn_proj, ln_2,
        c_fc, mlp_proj, each a (weight, bias) pair (embeddings alone)."""
        w = self.weights
        s = self.spec
        blocks = []
        for i in range(int(s["n_layer"])):
            p = "transformer.h.%d." % i
            blocks.append({
                "ln_1": (w[p + "ln_1.weight"], w[p + "ln_1.bias"]),
                "c_attn": (w[p + "attn.c_attn.weight"], w[p + "attn.c_attn.bias"]),
                "attn_proj": (w[p + "attn.c_proj.weight"], w[p + "attn.c_proj.bias"]),
                "ln_2": (w[p + "ln_2.weight"], w[p + "ln_2.bias"]),
                "c_fc": (w[p + "mlp.c_fc.weight"], w[p + "mlp.c_fc.bias"]),
                "mlp_proj": (w[p + "mlp.c_proj.weight"], w[p + "mlp.c_proj.bias"]),
            })
        return {"wte": w["transformer.wte.weight"], "wpe": w["transformer.wpe.weight"],
                "ln_f": (w["transformer.ln_f.weight"], w["transformer.ln_f.bias"]), "h": blocks}


def time_steps(model, step, to_float):
    """Runs the warm-up and the timed steps. step(k) trains on batch k and returns its loss (a
    framework value); to_float(loss) waits for the device and returns a Python float. Returns the
    first step's loss (before any update), its seconds (compilation included) and the seconds
    of each timed step. Timing stops early once the mode's budget is spent and three timed steps
    are done."""
    first_loss, first_s, times = None, 0.0, []
    start = time.perf_counter()
    for k in range(model.warmup + model.steps):
        t0 = time.perf_counter()
        loss = to_float(step(k))
        dt = time.perf_counter() - t0
        if not math.isfinite(loss):
            raise FloatingPointError("the loss is %r at step %d" % (loss, k + 1))
        if k == 0:
            first_loss, first_s = loss, dt
        if k >= model.warmup:
            times.append(dt)
        if model.budget > 0 and len(times) >= 3 and time.perf_counter() - start > model.budget:
            break
    return first_loss, first_s, times


def run(framework_id, setup):
    """The script's body: setup(spec) imports the framework and returns an object with
    `version`, `devices` ([{"name", "kind", "label"}]) and `modes` ([(mode, note)]) and
    train(mode, device, model) -> (step(k), to_float(loss)); optionally skip(mode, device, model)
    (why a mode cannot run, or None), why_not(kind) (why it cannot use an accelerator the
    machine has) and cpu_only (measured on the CPU by design). Any failure becomes a row that
    says why; an import failure ends the script with an error event."""
    spec = load_spec(sys.argv[1])
    _take_stdout()
    set_threads(spec.get("threads", 0))
    try:
        fw = setup(spec)
    except BaseException as exc:  # ImportError, a missing library's OSError, SystemExit from a C extension
        traceback.print_exc()
        emit({"event": "error", "id": framework_id, "stage": "import", "error": error_text(exc)})
        return 1
    devices = [d for d in fw.devices if spec.get("devices") != "accel" or d["kind"] != "cpu"]
    emit({"event": "framework", "id": framework_id, "version": fw.version, "devices": devices})
    # An accelerator the machine has and this framework cannot use: one row that says so (not
    # for one measured on the CPU by design).
    wanted = spec.get("accelerators", []) if spec.get("devices") != "cpu" and not getattr(fw, "cpu_only", False) else []
    for kind in wanted:
        if not any(d["kind"] == kind for d in devices):
            why = fw.why_not(kind) if hasattr(fw, "why_not") else None
            emit({"event": "row", "id": framework_id, "mode": "-", "device": kind, "kind": kind,
                  "error": why or "sees no %s device (a build without it, or a driver it cannot use)" % kind})
    models = [Model(m) for m in spec["models"]]
    for device in devices:
        for mode, note in fw.modes:
            for model in models:
                row = {"event": "row", "id": framework_id, "mode": mode, "device": device["name"],
                       "kind": device["kind"], "model": model.name}
                emit({"event": "start", "mode": mode, "device": device["name"], "kind": device["kind"],
                      "model": model.name})
                if note:
                    row["note"] = note
                try:
                    skip = fw.skip(mode, device, model) if hasattr(fw, "skip") else None
                    if skip:
                        row["error"] = skip
                    else:
                        step, to_float = fw.train(mode, device, model)
                        first, first_s, times = time_steps(model, step, to_float)
                        row.update(first_loss=first, first_step_s=first_s, step_s=times)
                except Exception as exc:
                    traceback.print_exc()
                    row["error"] = error_text(exc)
                emit(row)
    emit({"event": "done"})
    return 0
