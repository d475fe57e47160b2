"""PyTorch: eager, and torch.compile where it works (PyTorch 2, and a C++ compiler on the CPU).
The models of fwmodels.py in torch.nn.functional (F.linear, F.layer_norm, F.gelu as nn.Linear,
nn.LayerNorm and nn.GELU run them), torch.optim's Adam, and AdamW in nanoGPT's two groups with
clip_grad_norm_ for the GPT. fp32 throughout: TF32 is turned off on GPUs that have it.
"""
import sys

import fwharness
import fwmodels


def setup(spec):
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(max(1, int(spec.get("threads", 1))))
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    masks = {}

    class TorchOps(fwmodels.Ops):
        def matmul(self, a, b):
            return a @ b

        def matmul_t(self, a, b):
            return a @ b.transpose(-2, -1)

        def linear(self, x, wb):
            return F.linear(x, wb[0], wb[1])

        def layernorm(self, x, wb):
            return F.layer_norm(x, (x.shape[-1],), wb[0], wb[1], 1e-5)

        def gelu(self, x):
            return F.gelu(x, approximate="tanh")

        def embed(self, table, idx):
            return F.embedding(idx, table)

        def split3(self, x):
            return x.chunk(3, dim=-1)

        def heads(self, x, B, T, H, D):
            return x.view(B, T, H, D).transpose(1, 2)

        def merge(self, x, B, T, C):
            return x.transpose(1, 2).contiguous().view(B, T, C)

        def causal(self, s):
            key = (s.shape[-1], s.device)
            if key not in masks:  # made once, as a module's buffer would be
                masks[key] = torch.ones(key[0], key[0], dtype=torch.bool, device=s.device).triu(1)
            return s.masked_fill(masks[key], float("-inf"))

        def softmax(self, x):
            return F.softmax(x, dim=-1)

        def relu(self, x):
            return F.relu(x)

        def cross_entropy(self, logits, y):
            return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))

    o = TorchOps()

    class Torch:
        version = torch.__version__
        devices = [{"name": "cpu", "kind": "cpu", "label": "CPU"}]
        modes = [("eager", ""), ("compile", "torch.compile, default mode")]

        def why_not(self, kind):
            if kind == "apple":
                return "torch.backends.mps.is_available() is False"
            return "torch.cuda.is_available() is False: PyTorch %s was built without %s, or cannot use the driver" % (
                torch.__version__, "ROCm" if kind == "amd" else "CUDA")

        def skip(self, mode, device, model):
            if mode == "compile" and not hasattr(torch, "compile"):
                return "torch.compile needs PyTorch 2 (this is %s)" % torch.__version__
            return None

        def train(self, mode, device, model):
            dev = torch.device(device["name"])
            p = fwmodels.params(model, lambda a: torch.nn.Parameter(torch.from_numpy(a).to(dev)))
            weights = fwmodels.leaves(p)
            groups = [{"params": [w for w in weights if w.dim() >= 2], "weight_decay": model.weight_decay},
                      {"params": [w for w in weights if w.dim() < 2], "weight_decay": 0.0}]
            if model.optimizer == "adamw":
                opt = torch.optim.AdamW(groups, lr=model.lr, betas=(0.9, 0.999), eps=1e-8)
            else:
                opt = torch.optim.Adam(weights, lr=model.lr, betas=(0.9, 0.999), eps=1e-8)
            loss_of = fwmodels.loss_for(model)
            forward = lambda x, y: loss_of(o, p, x, y)  # noqa: E731
            if mode == "compile":
                forward = torch.compile(forward)
            batches = [(torch.from_numpy(x).to(dev), torch.from_numpy(y).to(dev).long())
                       for x, y in (model.batch_at(k) for k in range(model.warmup + model.steps))]
            if model.name == "gpt":
                batches = [(x.long(), y) for x, y in batches]
            clip = model.clip

            def step(k):
                x, y = batches[k]
                opt.zero_grad(set_to_none=True)
                loss = forward(x, y)
                loss.backward()
                if clip > 0:
                    torch.nn.utils.clip_grad_norm_(weights, clip)
                opt.step()
                return loss

            def to_float(loss):
                if dev.type == "cuda":
                    torch.cuda.synchronize(dev)
                elif dev.type == "mps":
                    torch.mps.synchronize()
                return float(loss.item())
            return step, to_float

    fw = Torch()
    if spec.get("devices") != "cpu":
        index = int(spec.get("accelerator", 0))
        if torch.cuda.is_available() and index < torch.cuda.device_count():
            kind = "amd" if getattr(torch.version, "hip", None) else "nvidia"
            fw.devices = fw.devices + [{"name": "cuda:%d" % index, "kind": kind,
                                        "label": torch.cuda.get_device_name(index)}]
        elif getattr(getattr(torch.backends, "mps", None), "is_available", lambda: False)():
            fw.devices = fw.devices + [{"name": "mps", "kind": "apple", "label": "Apple GPU (MPS)"}]
    return fw


if __name__ == "__main__":
    sys.exit(fwharness.run("pytorch", setup))
