"""Keras 3 on one backend (the second argument: jax, tensorflow or torch): a keras.Model whose
weights are the engine's and whose call is fwmodels.py's model in keras.ops, compiled with
SparseCategoricalCrossentropy and Keras's own Adam or AdamW (decay on tensors of two or more
dimensions, global-norm clipping for the GPT); each step through train_on_batch, the step fit()
runs (XLA where the backend compiles by default: jax and tensorflow). On the CPU only.
"""
import math
import os
import sys

import fwharness
import fwmodels

BACKENDS = ("jax", "tensorflow", "torch")


def precise(backend, threads):
    """fp32 matrix products (no TF32) and the thread count, in the backend's own terms."""
    if backend == "jax":
        import jax
        jax.config.update("jax_default_matmul_precision", "highest")
    elif backend == "tensorflow":
        import tensorflow as tf
        tf.config.threading.set_intra_op_parallelism_threads(threads)
        tf.config.threading.set_inter_op_parallelism_threads(1)
        tf.config.experimental.enable_tensor_float_32_execution(False)
    elif backend == "torch":
        import torch
        torch.set_num_threads(threads)
        torch.backends.cuda.matmul.allow_tf32 = False


def setup(spec):
    backend = sys.argv[2] if len(sys.argv) > 2 else ""
    if backend not in BACKENDS:
        raise ValueError("backend %r: expected one of %s" % (backend, ", ".join(BACKENDS)))
    os.environ["KERAS_BACKEND"] = backend
    # On the CPU only: the backend would take a GPU by itself, under the CPU's name.
    os.environ["CUDA_VISIBLE_DEVICES"] = ""
    os.environ["JAX_PLATFORMS"] = "cpu"
    precise(backend, max(1, int(spec.get("threads", 1))))
    import keras
    from keras import ops
    if int(keras.__version__.split(".")[0]) < 3:
        raise ImportError("Keras %s is Keras 2 (its models run as TensorFlow's)" % keras.__version__)

    class KerasOps(fwmodels.Ops):
        def matmul(self, a, b):
            return ops.matmul(a, b)

        def matmul_t(self, a, b):
            return ops.matmul(a, ops.swapaxes(b, -1, -2))

        def embed(self, table, idx):
            return ops.take(table, idx, axis=0)

        def split3(self, x):
            return ops.split(x, 3, axis=-1)

        def heads(self, x, B, T, H, D):
            return ops.transpose(ops.reshape(x, (B, T, H, D)), (0, 2, 1, 3))

        def merge(self, x, B, T, C):
            return ops.reshape(ops.transpose(x, (0, 2, 1, 3)), (B, T, C))

        def causal(self, s):
            T = s.shape[-1]
            return ops.where(ops.tril(ops.ones((T, T), dtype="bool")), s, ops.full_like(s, -math.inf))

        def softmax(self, x):
            return ops.softmax(x, axis=-1)

        def relu(self, x):
            return ops.relu(x)

        def gelu(self, x):
            return ops.gelu(x, approximate=True)

        def mean_last(self, x):
            return ops.mean(x, axis=-1, keepdims=True)

        def rsqrt(self, x):
            return ops.rsqrt(x)

    o = KerasOps()

    class Net(keras.Model):
        def __init__(self, model):
            super().__init__()
            self.logits = fwmodels.logits_for(model)
            made = []

            def weight(a):
                w = self.add_weight(shape=a.shape, initializer="zeros", trainable=True, name="w%d" % len(made))
                w.assign(a)
                made.append(w)
                return w
            # kept out of Keras's attribute tracking: add_weight has registered each one already
            object.__setattr__(self, "tree", fwmodels.params(model, weight))
            object.__setattr__(self, "plain", [w for w in made if len(w.shape) < 2])

        def call(self, x):
            return self.logits(o, self.tree, x)

    class Keras:
        version = keras.__version__
        devices = [{"name": "cpu", "kind": "cpu", "label": "CPU"}]
        modes = [("fit-step/" + {"tensorflow": "tf"}.get(backend, backend), "train_on_batch, %s backend" % backend)]

        cpu_only = True  # its backends are measured on every device in their own scripts

        def train(self, mode, device, model):
            net = Net(model)
            if model.optimizer == "adamw":
                opt = keras.optimizers.AdamW(learning_rate=model.lr, weight_decay=model.weight_decay, beta_1=0.9,
                                             beta_2=0.999, epsilon=1e-8, global_clipnorm=model.clip or None)
                opt.exclude_from_weight_decay(var_list=net.plain)
            else:
                opt = keras.optimizers.Adam(learning_rate=model.lr, beta_1=0.9, beta_2=0.999, epsilon=1e-8)
            net.compile(optimizer=opt, loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
            batches = [model.batch_at(k) for k in range(model.warmup + model.steps)]
            if len(net.trainable_weights) != len(fwmodels.leaves(net.tree)):
                raise RuntimeError("Keras tracks %d weights, the model has %d" % (len(net.trainable_weights),
                                                                                  len(fwmodels.leaves(net.tree))))

            def step(k):
                x, y = batches[k]
                return net.train_on_batch(x, y)
            return step, float

    return Keras()


if __name__ == "__main__":
    sys.exit(fwharness.run("keras", setup))
