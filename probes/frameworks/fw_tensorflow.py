"""TensorFlow: the training step as a tf.function, once as TensorFlow's graph runs it and once
compiled by XLA (jit_compile=True). The models of fwmodels.py on tf.Variables, gradients from a
GradientTape, clipping and Adam as fwmodels writes them (no Keras version is involved). TF32 off,
as the engine computes in fp32.
"""
import math
import sys

import fwharness
import fwmodels


def setup(spec):
    import tensorflow as tf

    threads = max(1, int(spec.get("threads", 1)))
    tf.config.threading.set_intra_op_parallelism_threads(threads)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    tf.config.experimental.enable_tensor_float_32_execution(False)

    class TfOps(fwmodels.Ops):
        def matmul(self, a, b):
            return tf.matmul(a, b)

        def matmul_t(self, a, b):
            return tf.matmul(a, b, transpose_b=True)

        def embed(self, table, idx):
            return tf.gather(table, idx)

        def split3(self, x):
            return tf.split(x, 3, axis=-1)

        def heads(self, x, B, T, H, D):
            return tf.transpose(tf.reshape(x, (B, T, H, D)), (0, 2, 1, 3))

        def merge(self, x, B, T, C):
            return tf.reshape(tf.transpose(x, (0, 2, 1, 3)), (B, T, C))

        def causal(self, s):
            T = s.shape[-1]
            return tf.where(tf.linalg.band_part(tf.ones((T, T), tf.bool), -1, 0), s, tf.constant(-math.inf, s.dtype))

        def softmax(self, x):
            return tf.nn.softmax(x, axis=-1)

        def relu(self, x):
            return tf.nn.relu(x)

        def gelu(self, x):
            return tf.nn.gelu(x, approximate=True)

        def cross_entropy(self, logits, y):
            logits = tf.reshape(logits, (-1, logits.shape[-1]))
            return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.reshape(y, (-1,)), logits=logits))

        def mean_last(self, x):
            return tf.reduce_mean(x, axis=-1, keepdims=True)

        def rsqrt(self, x):
            return tf.math.rsqrt(x)

        def tanh(self, x):
            return tf.tanh(x)

        def sqrt(self, x):
            return tf.sqrt(x)

        def sum(self, x):
            return tf.reduce_sum(x)

        def minimum(self, a, b):
            return tf.minimum(a, b)

    o = TfOps()

    class TensorFlow:
        version = tf.__version__
        devices = [{"name": "cpu", "kind": "cpu", "label": "CPU"}]
        modes = [("function", "tf.function"), ("xla", "tf.function(jit_compile=True)")]
        handles = {"cpu": "/CPU:0"}

        def train(self, mode, device, model):
            handle = self.handles[device["name"]]
            with tf.device(handle):
                inner = self._train(mode, model)

            def step(k):
                with tf.device(handle):  # the function is traced at its first call: placed there too
                    return inner(k)
            return step, lambda loss: float(loss.numpy())

        def _train(self, mode, model):
            p = fwmodels.params(model, tf.Variable)
            weights = fwmodels.leaves(p)
            ms = [tf.Variable(tf.zeros_like(w)) for w in weights]
            vs = [tf.Variable(tf.zeros_like(w)) for w in weights]
            loss_of = fwmodels.loss_for(model)
            lr, wd, max_norm = model.lr, model.weight_decay, model.clip

            def train_step(x, y, t):
                with tf.GradientTape() as tape:
                    loss = loss_of(o, p, x, y)
                grads = [tf.convert_to_tensor(g) for g in tape.gradient(loss, weights)]  # the embedding's are sparse
                for w, m, v, g in zip(weights, ms, vs, fwmodels.clip(o, grads, max_norm)):
                    new_w, new_m, new_v = fwmodels.adam(o, w, m, v, g, t, lr, wd)
                    m.assign(new_m)
                    v.assign(new_v)
                    w.assign(new_w)
                return loss

            fn = tf.function(train_step, jit_compile=(mode == "xla"))
            batches = [(tf.constant(x), tf.constant(y)) for x, y in (model.batch_at(k) for k in range(model.warmup + model.steps))]

            def step(k):
                x, y = batches[k]
                return fn(x, y, tf.constant(float(k + 1)))
            return step

    fw = TensorFlow()
    if spec.get("devices") != "cpu":
        gpus = tf.config.list_logical_devices("GPU")
        index = int(spec.get("accelerator", 0))
        if index < len(gpus):
            kind = "amd" if tf.test.is_built_with_rocm() else "nvidia"
            fw.handles["cuda:%d" % index] = gpus[index].name
            fw.devices = fw.devices + [{"name": "cuda:%d" % index, "kind": kind, "label": gpus[index].name}]
    return fw


if __name__ == "__main__":
    sys.exit(fwharness.run("tensorflow", setup))
