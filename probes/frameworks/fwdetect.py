"""Which frameworks this interpreter can import, and their versions, without importing any of
them (a framework that is found but fails to import says so in its own process later).

    python fwdetect.py  ->  {"event": "python", "executable", "version", "prefix",
                              "frameworks": [{"id", "module", "version", "backends"}]}
"""
import importlib.util
import platform
import sys

import fwharness

# id, module to import, distributions that carry it (the first installed one names the version)
FRAMEWORKS = (
    ("pytorch", "torch", ("torch",)),
    ("jax", "jax", ("jax",)),
    ("tensorflow", "tensorflow", ("tensorflow", "tensorflow-cpu", "tensorflow-macos", "tf-nightly", "intel-tensorflow")),
    ("keras", "keras", ("keras", "keras-nightly")),
    ("mlx", "mlx", ("mlx",)),
    ("paddlepaddle", "paddle", ("paddlepaddle", "paddlepaddle-gpu")),
    ("mindspore", "mindspore", ("mindspore", "mindspore-gpu")),
)
KERAS_BACKENDS = ("jax", "tensorflow", "torch")


def found(module):
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def version_of(dists):
    try:
        from importlib import metadata
    except ImportError:  # Python 3.7
        return "?"
    for name in dists:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return "?"


def main():
    out = []
    for fid, module, dists in FRAMEWORKS:
        if not found(module):
            continue
        entry = {"id": fid, "module": module, "version": version_of(dists)}
        if fid == "keras":
            major = entry["version"].split(".")[0]
            if major.isdigit() and int(major) < 3:
                entry["note"] = "Keras %s: Keras 2 runs as TensorFlow's tf.keras" % entry["version"]
            entry["backends"] = [b for b in KERAS_BACKENDS if found(b)]
        out.append(entry)
    fwharness.emit({"event": "python", "executable": sys.executable, "version": platform.python_version(),
                    "prefix": sys.prefix, "frameworks": out})
    return 0


if __name__ == "__main__":
    sys.exit(main())
