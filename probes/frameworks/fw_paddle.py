"""PaddlePaddle: dynamic-graph (eager) training of fwmodels.py's models, with paddle.optimizer's
Adam, and AdamW with decay on the tensors of two or more dimensions and ClipGradByGlobalNorm for
the GPT. The engine's weights keep their [out, in] layout (multiplied transposed).
"""
import math
import sys

import fwharness
import fwmodels


def setup(spec):
    import paddle
    import paddle.nn.functional as F

    paddle.disable_static()

    class PaddleOps(fwmodels.Ops):
        def matmul(self, a, b):
            return paddle.matmul(a, b)

        def matmul_t(self, a, b):
            return paddle.matmul(a, b, transpose_y=True)

        def layernorm(self, x, wb):
            return F.layer_norm(x, x.shape[-1:], wb[0], wb[1], 1e-5)

        def gelu(self, x):
            return F.gelu(x, approximate=True)

        def embed(self, table, idx):
            return F.embedding(idx, table)

        def split3(self, x):
            return paddle.split(x, 3, axis=-1)

        def heads(self, x, B, T, H, D):
            return x.reshape([B, T, H, D]).transpose([0, 2, 1, 3])

        def merge(self, x, B, T, C):
            return x.transpose([0, 2, 1, 3]).reshape([B, T, C])

        def causal(self, s):
            T = s.shape[-1]
            return paddle.where(paddle.tril(paddle.ones([T, T], dtype="bool")), s, paddle.full_like(s, -math.inf))

        def softmax(self, x):
            return F.softmax(x, axis=-1)

        def relu(self, x):
            return F.relu(x)

        def cross_entropy(self, logits, y):
            return F.cross_entropy(logits.reshape([-1, logits.shape[-1]]), y.reshape([-1]))

    o = PaddleOps()

    class Paddle:
        version = paddle.__version__
        devices = [{"name": "cpu", "kind": "cpu", "label": "CPU"}]
        modes = [("eager", "dynamic graph")]

        def train(self, mode, device, model):
            paddle.set_device("cpu" if device["kind"] == "cpu" else device["name"].replace("cuda", "gpu"))
            made = []

            def param(a):
                made.append(paddle.create_parameter(shape=list(a.shape), dtype="float32", name="fw_p%d" % len(made),
                                                    default_initializer=paddle.nn.initializer.Assign(a)))
                return made[-1]
            p = fwmodels.params(model, param)
            decay = set(w.name for w in made if len(w.shape) >= 2)
            if model.optimizer == "adamw":
                opt = paddle.optimizer.AdamW(learning_rate=model.lr, beta1=0.9, beta2=0.999, epsilon=1e-8, parameters=made,
                                             weight_decay=model.weight_decay, apply_decay_param_fun=lambda n: n in decay,
                                             grad_clip=paddle.nn.ClipGradByGlobalNorm(model.clip) if model.clip else None)
            else:
                opt = paddle.optimizer.Adam(learning_rate=model.lr, beta1=0.9, beta2=0.999, epsilon=1e-8, parameters=made)
            loss_of = fwmodels.loss_for(model)
            batches = [(paddle.to_tensor(x if x.dtype.kind == "f" else x.astype("int64")), paddle.to_tensor(y.astype("int64")))
                       for x, y in (model.batch_at(k) for k in range(model.warmup + model.steps))]

            def step(k):
                x, y = batches[k]
                loss = loss_of(o, p, x, y)
                loss.backward()
                opt.step()
                opt.clear_grad()
                return loss

            def to_float(loss):
                if device["kind"] != "cpu":
                    paddle.device.synchronize()
                return float(loss.item())
            return step, to_float

    fw = Paddle()
    if spec.get("devices") != "cpu" and paddle.device.is_compiled_with_cuda():
        index = int(spec.get("accelerator", 0))
        if index < paddle.device.cuda.device_count():
            fw.devices = fw.devices + [{"name": "cuda:%d" % index, "kind": "nvidia",
                                        "label": paddle.device.cuda.get_device_name(index)}]
    return fw


if __name__ == "__main__":
    sys.exit(fwharness.run("paddlepaddle", setup))
