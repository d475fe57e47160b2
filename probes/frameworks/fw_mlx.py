"""MLX: the whole training step (fwmodels.functional_step: the model, its gradients, clipping and
Adam) compiled with mx.compile, on the Apple GPU and on the CPU.
"""
import sys

import fwharness
import fwmodels


def setup(spec):
    import mlx.core as mx

    class MlxOps(fwmodels.ArrayOps):
        def matmul_t(self, a, b):
            return a @ mx.swapaxes(b, -1, -2)

        def split3(self, x):
            return mx.split(x, 3, axis=-1)

        def causal(self, s):
            T = s.shape[-1]
            return mx.where(mx.tril(mx.ones((T, T))) > 0, s, float("-inf"))

        def softmax(self, x):
            return mx.softmax(x, axis=-1)

        def relu(self, x):
            return mx.maximum(x, 0)

        def cross_entropy(self, logits, y):
            logp = logits - mx.logsumexp(logits, axis=-1, keepdims=True)
            return -mx.mean(mx.take_along_axis(logp, mx.expand_dims(y, -1), axis=-1))

        def mean_last(self, x):
            return mx.mean(x, axis=-1, keepdims=True)

        def rsqrt(self, x):
            return mx.rsqrt(x)

        def tanh(self, x):
            return mx.tanh(x)

        def sqrt(self, x):
            return mx.sqrt(x)

        def sum(self, x):
            return mx.sum(x)

        def minimum(self, a, b):
            return mx.minimum(a, b)

    o = MlxOps()

    class Mlx:
        version = getattr(mx, "__version__", "?")
        devices = [{"name": "cpu", "kind": "cpu", "label": "CPU"}]
        modes = [("compile", "mx.compile")]

        def train(self, mode, device, model):
            mx.set_default_device(mx.cpu if device["kind"] == "cpu" else mx.gpu)
            step_fn = mx.compile(fwmodels.functional_step(o, model, mx.value_and_grad))
            p = fwmodels.params(model, mx.array)
            zeros = fwmodels.rebuild(p, iter([mx.zeros_like(w) for w in fwmodels.leaves(p)]))
            state = {"p": p, "m": zeros, "v": zeros}
            batches = [tuple(mx.array(a) for a in model.batch_at(k)) for k in range(model.warmup + model.steps)]

            def step(k):
                x, y = batches[k]
                p, m, v, loss = step_fn(state["p"], state["m"], state["v"], mx.array(float(k + 1)), x, y)
                state.update(p=p, m=m, v=v)
                return loss

            def to_float(loss):
                mx.eval(loss, state["p"], state["m"], state["v"])
                return float(loss.item())
            return step, to_float

    fw = Mlx()
    if spec.get("devices") != "cpu" and mx.metal.is_available():
        fw.devices = fw.devices + [{"name": "gpu", "kind": "apple", "label": "Apple GPU (Metal)"}]
    return fw


if __name__ == "__main__":
    sys.exit(fwharness.run("mlx", setup))
