/* gpt: a GPT-2-style decoder in the engine, built like llm.c's train_gpt2.c and trained as
 * nanoGPT trains it: token and position embeddings, pre-LayerNorm blocks of causal multi-head
 * self-attention and a GELU (tanh) MLP with residual connections, a final LayerNorm, the LM head
 * tied to the token embedding, mean cross-entropy. Parameters, gradients, optimizer state and
 * activations are one buffer each, made when the model is built; a step allocates nothing.
 *
 * Optimizers as torch.optim (engine.h), with weight decay on the matrices and embeddings only
 * (nanoGPT's two parameter groups: biases and LayerNorm weights are not decayed) and the
 * gradients clipped to a global norm first (torch.nn.utils.clip_grad_norm_). Initialisation as
 * nanoGPT's: weights and embeddings normal(0, 0.02), the residual projections (c_proj)
 * normal(0, 0.02 / sqrt(2 n_layer)), biases 0, LayerNorm weights 1.
 *
 * Tensors carry nanoGPT's names (gpt_io.c writes and reads them as safetensors). Functions
 * return an eng_status with one line in err, as engine.h. */
#ifndef FWADVISOR_ENGINE_GPT_H
#define FWADVISOR_ENGINE_GPT_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"

struct eng_gpt_config {
    int n_layer, n_head, n_embd, vocab;
    int ctx;          /* T: tokens per sequence in a batch */
    int block_size;   /* rows of the position table (>= ctx); 0: ctx */
    int batch;        /* B: sequences per step */
    enum eng_opt opt;
    float lr, weight_decay, momentum, beta1, beta2, eps;
    float clip;       /* largest global gradient norm; 0: no clipping */
    int threads;      /* > 0: set the back-end's threads when the model is built */
};

/* Defaults: 2 layers, 2 heads, 64 wide, T 32, vocab 256, batch 4; AdamW with torch.optim's
 * lr 1e-3, betas (0.9, 0.999), eps 1e-8, weight decay 0.01; clipping at 1.0 (nanoGPT). */
void eng_gpt_config_defaults(struct eng_gpt_config *c);
/* Checks sizes (each at least 1, n_embd a multiple of n_head, ctx <= block_size, ...). 0, or -1
 * with a message naming the option (--n-embd, --ctx, ...) in err (may be NULL). */
int eng_gpt_config_check(const struct eng_gpt_config *c, char *err, size_t errsz);

struct eng_gpt;

/* Builds the model on back-end `be` (which must have transformer kernels, be->gpt); its weights
 * are zero until eng_gpt_init or eng_gpt_load. */
int eng_gpt_create(const struct eng_gpt_config *c, const struct eng_backend *be, struct eng_gpt **out, char *err,
                   size_t errsz);
void eng_gpt_free(struct eng_gpt *m);
const struct eng_gpt_config *eng_gpt_config_of(const struct eng_gpt *m);

/* Parameters, each counted once (the LM head is the token embedding). */
size_t eng_gpt_param_count(const struct eng_gpt *m);
/* Bytes of parameters + gradients + optimizer state + activations + scratch the model holds. */
size_t eng_gpt_buffer_bytes(const struct eng_gpt *m);
/* The same for a configuration on back-end `be`, before anything is allocated; 0 when the
 * configuration is invalid or the back-end has no transformer kernels. */
double eng_gpt_config_buffer_bytes(const struct eng_gpt_config *c, const struct eng_backend *be);
/* Model FLOPs per token as in the PaLM paper's appendix B: 6 N + 12 L H Q T, N the parameters
 * but the position table (which takes part in no matrix product; nanoGPT's estimate_mfu counts the
 * same), Q = n_embd / n_head, T = ctx. */
double eng_gpt_flops_per_token(const struct eng_gpt *m);

/* nanoGPT's initialisation (above) from the engine's generator seeded with `seed`. */
void eng_gpt_init(struct eng_gpt *m, uint64_t seed);

/* One training step on tokens in host memory: inputs and targets int32 [batch x ctx], each in
 * [0, vocab). Returns the loss before the update. */
float eng_gpt_step(struct eng_gpt *m, const int32_t *inputs, const int32_t *targets);
/* Forward and backward only (gradients then readable, no update); the loss. */
float eng_gpt_forward_backward(struct eng_gpt *m, const int32_t *inputs, const int32_t *targets);
/* Times the matrix products of one step's linear layers alone, on the same shapes and buffers, as
 * plain GEMM calls of the back-end (on the CPU: cblas_sgemm, threaded by OpenBLAS itself), every
 * other kernel skipped: the reference the step's own products are measured against. Seconds. */
double eng_gpt_time_gemms(struct eng_gpt *m);

/* --- tensors by name --------------------------------------------------------------------- */

struct eng_gpt_tensor {
    char name[64];    /* nanoGPT's: transformer.h.0.attn.c_attn.weight, ... */
    int ndim;
    int64_t shape[2]; /* nn.Linear layout: [out, in] */
    size_t count;
    int decay;        /* in the weight-decay group */
};

/* The model's tensors in file order: wte, wpe, then each block's ln_1, attn.c_attn, attn.c_proj,
 * ln_2, mlp.c_fc, mlp.c_proj (weight, bias), then ln_f. lm_head.weight is wte and not listed. */
int eng_gpt_tensor_count(const struct eng_gpt *m);
const struct eng_gpt_tensor *eng_gpt_tensor_at(const struct eng_gpt *m, int i);
/* Host copies of tensor i's values or gradient; writing its values. */
void eng_gpt_read_tensor(const struct eng_gpt *m, int i, float *host);
void eng_gpt_read_grad(const struct eng_gpt *m, int i, float *host);
void eng_gpt_write_tensor(struct eng_gpt *m, int i, const float *host);

/* --- weights as safetensors (gpt_io.c) ------------------------------------------------------ */

/* Writes every tensor, and lm_head.weight (a copy of wte, so the file loads into nanoGPT's GPT
 * class with strict=True), F32, atomically. */
int eng_gpt_save(const char *path, const struct eng_gpt *m, char *err, size_t errsz);
/* Loads a file written by nanoGPT or eng_gpt_save into m: every tensor must be there (lm_head.weight
 * may stand for wte; when both are there they must be equal) with m's shape, F32; nothing else may
 * be, but for __metadata__ and nanoGPT's causal-mask buffers (*.attn.bias, 4-d). */
int eng_gpt_load(const char *path, struct eng_gpt *m, char *err, size_t errsz);
/* The shape of a file's position table (transformer.wpe.weight: rows, width), so a model can be
 * built to match it. ENG_ERR_INPUT when the file is unreadable or has no 2-d wpe. */
int eng_gpt_file_positions(const char *path, int *rows, int *width, char *err, size_t errsz);

/* --- tokens (gpt_data.c) -------------------------------------------------------------------- */

struct eng_tokens {
    size_t len;
    int vocab;
    int32_t *ids;             /* len ids (synthetic), or NULL */
    const unsigned char *bytes; /* len bytes of a file (byte-level, vocab 256), or NULL */
    void *map;                /* what to release */
};

/* Seeded synthetic tokens: a fixed random chain in which each token is followed by one of 4
 * others, so the loss can fall from ln(vocab) toward ln(4). */
int eng_tokens_synthetic(struct eng_tokens *t, size_t len, int vocab, uint64_t seed, char *err, size_t errsz);
/* The bytes of any file as tokens (vocab 256). ENG_ERR_INPUT when it is shorter than
 * min_len bytes (one batch: batch x ctx + 1), naming the file. */
int eng_tokens_from_file(struct eng_tokens *t, const char *path, size_t min_len, char *err, size_t errsz);
void eng_tokens_free(struct eng_tokens *t);
/* The batch of step k: row b starts at s = ((k*B + b) * T) mod len and takes the tokens at
 * (s + j) mod len for j = 0..T; inputs are the first T, targets the last T. */
void eng_tokens_batch(const struct eng_tokens *t, long step, int batch, int ctx, int32_t *inputs, int32_t *targets);

/* --- training ------------------------------------------------------------------------------ */

/* Runs run->steps timed steps on tokens (batches gathered before each step's timer starts);
 * run->stop, loop->on_step and the batch numbers as eng_train_loop (on the CPU the stop is seen
 * between layers too; on_step is called only for a finite loss; on_grads is not used). Stops at
 * a loss that is not finite: ENG_ERR_RUNTIME with the step number (from 1) in err, the steps
 * before it in run. */
int eng_gpt_train_loop(struct eng_gpt *m, const struct eng_tokens *t, struct eng_run *run,
                       const struct eng_loop *loop, char *err, size_t errsz);
/* eng_gpt_train_loop with on_step and ctx alone. */
int eng_gpt_train(struct eng_gpt *m, const struct eng_tokens *t, struct eng_run *run, eng_step_hook on_step,
                  void *ctx, char *err, size_t errsz);

#endif
