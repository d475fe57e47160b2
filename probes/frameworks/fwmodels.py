"""The engine's two models and its optimizer, written once over a few array operations that each
framework script supplies, so that every framework trains the same computation:

  MLP   linear layers (nn.Linear layout: weight [out, in]) with ReLU between, mean cross-entropy
  GPT   nanoGPT's decoder: token and position embeddings, pre-LayerNorm blocks (eps 1e-5) of causal
        multi-head attention and a tanh-GELU MLP with residual connections, a final LayerNorm, the
        LM head tied to the token embedding, mean cross-entropy over every position
  Adam  torch.optim's Adam and AdamW formulas (betas 0.9, 0.999, eps 1e-8; AdamW's decay on
        tensors of two or more dimensions only, as nanoGPT groups them), gradients clipped to a
        global norm as torch.nn.utils.clip_grad_norm_ does (for frameworks whose own optimizer
        is not used)

A framework's `Ops` subclass fills in the operations; those with a default here are written from
the others and a framework overrides them with its own fused version where it has one (as its
users would write the model).
"""
import math


class Ops:
    """Array operations on the framework's tensors. x: [..., n]; wb: (weight [out, in], bias [out])."""

    def matmul(self, a, b):          # a @ b over the last two axes
        raise NotImplementedError

    def matmul_t(self, a, b):        # a @ b^T over the last two axes
        raise NotImplementedError

    def embed(self, table, idx):     # table[idx]
        raise NotImplementedError

    def split3(self, x):             # three equal parts of the last axis
        raise NotImplementedError

    def heads(self, x, B, T, H, D):  # [B, T, H*D] -> [B, H, T, D]
        raise NotImplementedError

    def merge(self, x, B, T, C):     # [B, H, T, D] -> [B, T, C]
        raise NotImplementedError

    def causal(self, s):             # -inf above the diagonal of the last two axes
        raise NotImplementedError

    def softmax(self, x):            # over the last axis
        raise NotImplementedError

    def relu(self, x):
        raise NotImplementedError

    def cross_entropy(self, logits, y):  # mean over every leading position
        raise NotImplementedError

    def mean_last(self, x):          # mean over the last axis, kept
        raise NotImplementedError

    def rsqrt(self, x):
        raise NotImplementedError

    def tanh(self, x):
        raise NotImplementedError

    def sqrt(self, x):
        raise NotImplementedError

    def sum(self, x):
        raise NotImplementedError

    def minimum(self, a, b):
        raise NotImplementedError

    def linear(self, x, wb):
        return self.matmul_t(x, wb[0]) + wb[1]

    def layernorm(self, x, wb):
        mean = self.mean_last(x)
        var = self.mean_last((x - mean) * (x - mean))
        return (x - mean) * self.rsqrt(var + 1e-5) * wb[0] + wb[1]

    def gelu(self, x):  # the tanh approximation, as GPT-2
        return 0.5 * x * (1.0 + self.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x * x * x)))


class ArrayOps(Ops):
    """For tensors with numpy's operators and methods (JAX, MLX, MindSpore): @, indexing by an
    array, reshape(*shape) and transpose(*axes)."""

    def matmul(self, a, b):
        return a @ b

    def embed(self, table, idx):
        return table[idx]

    def heads(self, x, B, T, H, D):
        return x.reshape(B, T, H, D).transpose(0, 2, 1, 3)

    def merge(self, x, B, T, C):
        return x.transpose(0, 2, 1, 3).reshape(B, T, C)


def mlp_logits(o, layers, x):
    for i, wb in enumerate(layers):
        x = o.linear(x, wb)
        if i + 1 < len(layers):
            x = o.relu(x)
    return x


def gpt_logits(o, p, x, n_head):
    B, T = int(x.shape[0]), int(x.shape[1])
    C = int(p["wte"].shape[1])
    D = C // n_head
    h = o.embed(p["wte"], x) + p["wpe"][:T]
    for blk in p["h"]:
        q, k, v = (o.heads(t, B, T, n_head, D) for t in o.split3(o.linear(o.layernorm(h, blk["ln_1"]), blk["c_attn"])))
        s = o.causal(o.matmul_t(q, k) * (1.0 / math.sqrt(D)))
        h = h + o.linear(o.merge(o.matmul(o.softmax(s), v), B, T, C), blk["attn_proj"])
        h = h + o.linear(o.gelu(o.linear(o.layernorm(h, blk["ln_2"]), blk["c_fc"])), blk["mlp_proj"])
    return o.matmul_t(o.layernorm(h, p["ln_f"]), p["wte"])


def logits_for(model):
    """logits(o, params, x) of a harness Model."""
    if model.name == "mlp":
        return mlp_logits
    n_head = int(model.spec["n_head"])
    return lambda o, p, x: gpt_logits(o, p, x, n_head)


def loss_for(model):
    """loss(o, params, x, y): the mean cross-entropy of the model's logits."""
    logits = logits_for(model)
    return lambda o, p, x, y: o.cross_entropy(logits(o, p, x), y)


# --- parameters as a tree of dicts, lists and tuples, in one fixed order ---------------------------

def leaves(tree):
    if isinstance(tree, dict):
        return [leaf for key in sorted(tree) for leaf in leaves(tree[key])]
    if isinstance(tree, (list, tuple)):
        return [leaf for t in tree for leaf in leaves(t)]
    return [tree]


def rebuild(tree, values):
    """The tree's shape with the leaves from the iterator `values`, in leaves() order."""
    if isinstance(tree, dict):
        return {key: rebuild(tree[key], values) for key in sorted(tree)}
    if isinstance(tree, (list, tuple)):
        return type(tree)(rebuild(t, values) for t in tree)
    return next(values)


def params(model, make):
    """The model's weights as the loss functions take them, a fresh copy of each numpy array
    passed through make(array) into the framework's tensor or variable (a framework that shares
    the array's memory, as torch.from_numpy does, must not train the next mode's start)."""
    given = make
    make = lambda a: given(a.copy())  # noqa: E731
    if model.name == "mlp":
        return [(make(w), make(b)) for w, b in model.mlp_layers()]
    g = model.gpt_blocks()
    return {"wte": make(g["wte"]), "wpe": make(g["wpe"]), "ln_f": tuple(make(a) for a in g["ln_f"]),
            "h": [{key: tuple(make(a) for a in pair) for key, pair in blk.items()} for blk in g["h"]]}


# --- the optimizer, for frameworks whose own is not used ------------------------------------------

def clip(o, grads, max_norm):
    """A list of gradients scaled to a global norm of at most max_norm (clip_grad_norm_)."""
    if max_norm <= 0:
        return grads
    norm = o.sqrt(sum(o.sum(g * g) for g in grads))
    scale = o.minimum(1.0, max_norm / (norm + 1e-6))
    return [g * scale for g in grads]


def adam(o, w, m, v, g, t, lr, weight_decay):
    """One tensor's step (t counts from 1): the new (w, m, v)."""
    m = 0.9 * m + 0.1 * g
    v = 0.999 * v + 0.001 * g * g
    bc1, bc2 = 1 - 0.9 ** t, 1 - 0.999 ** t
    decay = 1 - lr * weight_decay if len(w.shape) >= 2 else 1.0
    return w * decay - lr / bc1 * m / (o.sqrt(v) / o.sqrt(bc2) + 1e-8), m, v


def functional_step(o, model, grad_fn):
    """The step of a framework that differentiates functions (JAX, MLX): step(p, m, v, t, x, y)
    -> (p, m, v, loss), with grad_fn(f) giving (loss, gradients) of f(p, x, y)."""
    loss_of = loss_for(model)
    value_and_grad = grad_fn(lambda p, x, y: loss_of(o, p, x, y))
    lr, wd, max_norm = model.lr, model.weight_decay, model.clip

    def step(p, m, v, t, x, y):
        loss, g = value_and_grad(p, x, y)
        new = [adam(o, *z, t, lr, wd) for z in zip(leaves(p), leaves(m), leaves(v), clip(o, leaves(g), max_norm))]
        return (rebuild(p, iter([n[0] for n in new])), rebuild(p, iter([n[1] for n in new])),
                rebuild(p, iter([n[2] for n in new])), loss)
    return step
