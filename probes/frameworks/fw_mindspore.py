"""MindSpore: PyNative (eager) training of fwmodels.py's models, gradients from
mindspore.value_and_grad over the engine's tensors as Parameters; nn.Adam for the MLP, and
nn.AdamWeightDecay (decay on the tensors of two or more dimensions; MindSpore's formula has no
bias correction) with ops.clip_by_global_norm for the GPT. On the CPU, and on an Ascend NPU
when MindSpore can use one.
"""
import sys

import fwharness
import fwmodels


def setup(spec):
    import mindspore as ms
    from mindspore import nn, ops

    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")

    class MsOps(fwmodels.ArrayOps):
        def matmul(self, a, b):
            return ops.matmul(a, b)

        def matmul_t(self, a, b):
            return ops.matmul(a, b.swapaxes(-1, -2))

        def embed(self, table, idx):
            return ops.gather(table, idx, 0)

        def split3(self, x):
            return ops.split(x, x.shape[-1] // 3, axis=-1)

        def causal(self, s):
            T = s.shape[-1]
            return ops.masked_fill(s, ops.triu(ops.ones((T, T), ms.int32), 1).astype(ms.bool_), float("-inf"))

        def softmax(self, x):
            return ops.softmax(x, -1)

        def relu(self, x):
            return ops.relu(x)

        def cross_entropy(self, logits, y):
            logp = ops.log_softmax(logits, -1)
            return -ops.gather_elements(logp, -1, y.reshape(y.shape + (1,))).mean()

        def mean_last(self, x):
            return x.mean(-1, keep_dims=True)

        def rsqrt(self, x):
            return ops.rsqrt(x)

        def tanh(self, x):
            return ops.tanh(x)

    o = MsOps()

    class MindSpore:
        version = ms.__version__
        devices = [{"name": "cpu", "kind": "cpu", "label": "CPU"}]
        modes = [("pynative", "PyNative mode")]

        def train(self, mode, device, model):
            ms.set_context(device_target="CPU" if device["kind"] == "cpu" else "Ascend")
            made = []

            def param(a):
                made.append(ms.Parameter(ms.Tensor(a), name="fw_p%d" % len(made)))
                return made[-1]
            p = fwmodels.params(model, param)
            if model.optimizer == "adamw":
                groups = [{"params": [w for w in made if len(w.shape) >= 2], "weight_decay": model.weight_decay},
                          {"params": [w for w in made if len(w.shape) < 2], "weight_decay": 0.0}]
                opt = nn.AdamWeightDecay(groups, learning_rate=model.lr, beta1=0.9, beta2=0.999, eps=1e-8)
            else:
                opt = nn.Adam(made, learning_rate=model.lr, beta1=0.9, beta2=0.999, eps=1e-8)
            loss_of = fwmodels.loss_for(model)
            grad_fn = ms.value_and_grad(lambda x, y: loss_of(o, p, x, y), None, opt.parameters)
            clip = model.clip
            batches = [(ms.Tensor(x), ms.Tensor(y.astype("int32")))
                       for x, y in (model.batch_at(k) for k in range(model.warmup + model.steps))]

            def step(k):
                loss, grads = grad_fn(*batches[k])
                if clip > 0:
                    grads = ops.clip_by_global_norm(grads, clip)
                opt(grads)
                return loss
            return step, lambda loss: float(loss.asnumpy())

    fw = MindSpore()
    if spec.get("devices") != "cpu":
        try:
            ms.set_context(device_target="Ascend")
            fw.devices = fw.devices + [{"name": "npu:0", "kind": "ascend", "label": "Ascend NPU"}]
        except Exception:  # no Ascend here: the CPU only
            pass
        ms.set_context(device_target="CPU")
    return fw


if __name__ == "__main__":
    sys.exit(fwharness.run("mindspore", setup))
