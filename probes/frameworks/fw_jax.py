"""JAX: the whole training step (fwmodels.functional_step: the model, its gradients, clipping and
Adam) under jax.jit, in jax.numpy with no other package (no Flax, no Optax). Matrix products at
full fp32 precision, as the engine computes them.
"""
import sys

import fwharness
import fwmodels


def setup(spec):
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_default_matmul_precision", "highest")

    class JaxOps(fwmodels.ArrayOps):
        def matmul_t(self, a, b):
            return a @ jnp.swapaxes(b, -1, -2)

        def split3(self, x):
            return jnp.split(x, 3, axis=-1)

        def causal(self, s):
            T = s.shape[-1]
            return jnp.where(jnp.tril(jnp.ones((T, T), bool)), s, -jnp.inf)

        def softmax(self, x):
            return jax.nn.softmax(x, axis=-1)

        def relu(self, x):
            return jax.nn.relu(x)

        def gelu(self, x):
            return jax.nn.gelu(x, approximate=True)

        def cross_entropy(self, logits, y):
            logp = jax.nn.log_softmax(logits, axis=-1)
            return -jnp.take_along_axis(logp, y[..., None], axis=-1).mean()

        def mean_last(self, x):
            return x.mean(-1, keepdims=True)

        def rsqrt(self, x):
            return jax.lax.rsqrt(x)

        def tanh(self, x):
            return jnp.tanh(x)

        def sqrt(self, x):
            return jnp.sqrt(x)

        def sum(self, x):
            return jnp.sum(x)

        def minimum(self, a, b):
            return jnp.minimum(a, b)

    o = JaxOps()

    class Jax:
        version = jax.__version__
        devices = [{"name": "cpu", "kind": "cpu", "label": "CPU"}]
        modes = [("jit", "")]
        handles = {"cpu": jax.devices("cpu")[0]}

        def why_not(self, kind):
            return "jax.devices() lists no %s device: a jaxlib without its plug-in (jax[cuda12], jax[tpu], ...)" % kind

        def train(self, mode, device, model):
            dev = self.handles[device["name"]]
            put = lambda a: jax.device_put(jnp.asarray(a), dev)  # noqa: E731
            step_fn = jax.jit(fwmodels.functional_step(o, model, jax.value_and_grad))
            p = fwmodels.params(model, put)
            zeros = fwmodels.rebuild(p, iter([jnp.zeros_like(w) for w in fwmodels.leaves(p)]))
            state = {"p": p, "m": zeros, "v": zeros}
            batches = [(put(x), put(y)) for x, y in (model.batch_at(k) for k in range(model.warmup + model.steps))]

            def step(k):
                x, y = batches[k]
                p, m, v, loss = step_fn(state["p"], state["m"], state["v"], float(k + 1), x, y)
                state.update(p=p, m=m, v=v)
                return loss

            def to_float(loss):
                jax.block_until_ready((state["p"], loss))
                return float(loss)
            return step, to_float

    fw = Jax()
    if spec.get("devices") != "cpu":
        others = [d for d in jax.devices() if d.platform != "cpu"]
        index = int(spec.get("accelerator", 0))
        if index < len(others):
            d = others[index]
            kinds = {"gpu": "nvidia", "cuda": "nvidia", "rocm": "amd", "tpu": "tpu", "metal": "apple"}
            platform = d.platform.lower()
            if platform == "gpu" and "rocm" in getattr(d.client, "platform_version", "").lower():
                platform = "rocm"
            name = "%s:%d" % ("cuda" if platform in ("gpu", "cuda") else platform, index)
            fw.handles[name] = d
            fw.devices = fw.devices + [{"name": name, "kind": kinds.get(platform, platform),
                                        "label": getattr(d, "device_kind", platform)}]
    return fw


if __name__ == "__main__":
    sys.exit(fwharness.run("jax", setup))
