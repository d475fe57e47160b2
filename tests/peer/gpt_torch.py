"""A GPT-2-style decoder in PyTorch with nanoGPT's parameter names and training recipe, for the
peer check and the benchmark: pre-LayerNorm blocks of causal multi-head attention and a tanh-GELU
MLP, final LayerNorm, LM head tied to the token embedding; AdamW (or Adam/SGD) with weight decay
on tensors of two or more dimensions only, gradients clipped to a global norm. Works with
PyTorch 1.13 (Debian) and 2.x; on 2.x attention runs through scaled_dot_product_attention.

The causal mask is a non-persistent buffer, so state_dict() holds exactly nanoGPT's keys on
PyTorch 2 (transformer.wte.weight, transformer.h.{i}.attn.c_attn.weight, ..., lm_head.weight).
"""
import math

import torch
from torch import nn
from torch.nn import functional as F


class SelfAttention(nn.Module):
    def __init__(self, n_embd, n_head, block_size):
        super().__init__()
        self.n_head = n_head
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.fused = hasattr(F, "scaled_dot_product_attention")
        if not self.fused:
            causal = torch.tril(torch.ones(block_size, block_size, dtype=torch.bool))
            self.register_buffer("causal", causal, persistent=False)

    def forward(self, x):
        batch, seq, width = x.shape
        heads = self.n_head
        q, k, v = self.c_attn(x).split(width, dim=2)
        q, k, v = (t.view(batch, seq, heads, width // heads).transpose(1, 2) for t in (q, k, v))
        if self.fused:
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            scores = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
            scores = scores.masked_fill(~self.causal[:seq, :seq], float("-inf"))
            y = F.softmax(scores, dim=-1) @ v
        return self.c_proj(y.transpose(1, 2).contiguous().view(batch, seq, width))


class MLP(nn.Module):
    def __init__(self, n_embd):
        super().__init__()
        self.c_fc = nn.Linear(n_embd, 4 * n_embd)
        self.c_proj = nn.Linear(4 * n_embd, n_embd)

    def forward(self, x):
        return self.c_proj(F.gelu(self.c_fc(x), approximate="tanh"))


class Block(nn.Module):
    def __init__(self, n_embd, n_head, block_size):
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd)
        self.attn = SelfAttention(n_embd, n_head, block_size)
        self.ln_2 = nn.LayerNorm(n_embd)
        self.mlp = MLP(n_embd)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, n_layer, n_head, n_embd, vocab, block_size):
        super().__init__()
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(vocab, n_embd),
            wpe=nn.Embedding(block_size, n_embd),
            h=nn.ModuleList([Block(n_embd, n_head, block_size) for _ in range(n_layer)]),
            ln_f=nn.LayerNorm(n_embd),
        ))
        self.lm_head = nn.Linear(n_embd, vocab, bias=False)
        self.transformer.wte.weight = self.lm_head.weight
        # nanoGPT's initialisation: normal(0, 0.02), residual projections 0.02 / sqrt(2 n_layer).
        for name, p in self.named_parameters():
            if name.endswith("bias"):
                nn.init.zeros_(p)
            elif "ln_" in name:
                nn.init.ones_(p)
            else:
                std = 0.02 / math.sqrt(2 * n_layer) if name.endswith("c_proj.weight") else 0.02
                nn.init.normal_(p, 0.0, std)

    def forward(self, idx, targets):
        pos = torch.arange(idx.size(1), device=idx.device)
        x = self.transformer.wte(idx) + self.transformer.wpe(pos)
        for block in self.transformer.h:
            x = block(x)
        logits = self.lm_head(self.transformer.ln_f(x))
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


def optimizer(model, name, lr, weight_decay, momentum=0.9):
    """nanoGPT's two groups: decay for tensors of 2+ dimensions (matrices, embeddings)."""
    params = [p for p in model.parameters()]
    decay = [p for p in params if p.dim() >= 2]
    rest = [p for p in params if p.dim() < 2]
    groups = [{"params": decay, "weight_decay": weight_decay}, {"params": rest, "weight_decay": 0.0}]
    if name == "adamw":
        return torch.optim.AdamW(groups, lr=lr)
    if name == "adam":
        return torch.optim.Adam(groups, lr=lr)
    if name == "momentum":
        return torch.optim.SGD(groups, lr=lr, momentum=momentum)
    return torch.optim.SGD(groups, lr=lr)


def batch(data, step, batch_size, ctx):
    """Row b of step k starts at ((k B + b) T) mod len and takes T + 1 tokens, wrapping."""
    n = len(data)
    rows = []
    for b in range(batch_size):
        start = ((step * batch_size + b) * ctx) % n
        rows.append([data[(start + j) % n] for j in range(ctx + 1)])
    rows = torch.tensor(rows, dtype=torch.long)
    return rows[:, :-1].contiguous(), rows[:, 1:].contiguous()


def train_step(model, opt, x, y, clip):
    opt.zero_grad(set_to_none=True)
    loss = model(x, y)
    loss.backward()
    if clip > 0:
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
    opt.step()
    return loss
