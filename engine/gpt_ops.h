/* gpt_ops: the transformer's kernels that a back-end supplies beside its GEMM (backend.h), as
 * llm.c's forward/backward pairs. The GPT model (gpt.c) calls them in order; they hold no state.
 *
 * All pointers are device pointers from the back-end's alloc, row-major float32 unless said;
 * N is rows (batch x tokens), C the width, NH the heads. Kernels neither allocate nor fail.
 * "+=" means a kernel adds to what is there; every other output is overwritten. Scalars a
 * later kernel needs (the loss, the gradient norm) stay in device memory, so a whole step can be
 * replayed as one CUDA graph. `scratch` is the model's scratch buffer (scratch_floats); a kernel
 * may use all of it, as no two kernels run at once. Plain C, included by the CUDA plug-in too. */
#ifndef FWADVISOR_ENGINE_GPT_OPS_H
#define FWADVISOR_ENGINE_GPT_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "engine/backend.h"

struct eng_gpt_ops {
    /* Threads for the kernels (the CPU's pool); NULL where it means nothing. */
    void (*set_threads)(int threads);
    /* Floats of attention state a layer keeps from forward to backward (the CPU: the softmax
     * probabilities, B x NH x T x T; a GPU: each row's log-sum-exp, B x NH x T), and of the
     * scratch. */
    size_t (*attention_state_floats)(int B, int T, int NH);
    size_t (*scratch_floats)(int B, int T, int C, int NH, int V);

    /* out[b,t,:] = wte[tokens[b,t],:] + wpe[t,:] (tokens: int32 [B x T]). */
    void (*encoder_forward)(float *out, const int32_t *tokens, const float *wte, const float *wpe, int B, int T, int C);
    /* dwte[tokens[b,t],:] += dout[b,t,:]; dwpe[t,:] = sum over b of dout[b,t,:]. */
    void (*encoder_backward)(float *dwte, float *dwpe, const float *dout, const int32_t *tokens, int B, int T, int C,
                             float *scratch);

    /* LayerNorm over each row (eps 1e-5, biased variance, as nn.LayerNorm); mean and rstd [N]
     * kept for backward. */
    void (*layernorm_forward)(float *out, float *mean, float *rstd, const float *in, const float *w, const float *b,
                              int N, int C);
    /* The end of a block fused with the next LayerNorm: residual += bias + skip (the block's
     * projection, already in residual, plus its bias and the block's input), then out =
     * LayerNorm(residual). */
    void (*residual_layernorm_forward)(float *residual, float *out, float *mean, float *rstd, const float *skip,
                                       const float *bias, const float *w, const float *b, int N, int C);
    /* din += dL/din (accumulate), or din = dL/din; dw, db written. */
    void (*layernorm_backward)(float *din, float *dw, float *db, const float *dout, const float *in, const float *w,
                               const float *mean, const float *rstd, int N, int C, int accumulate, float *scratch);

    /* A linear layer: out [N x OC] = in [N x IC] W^T + bias (W [OC x IC], nn.Linear's layout;
     * bias may be NULL). */
    void (*matmul_forward)(float *out, const float *in, const float *w, const float *bias, int N, int IC, int OC);
    /* dw = dout^T in; dbias = the column sums of dout and din = dout W, each unless NULL. */
    void (*matmul_backward)(float *din, float *dw, float *dbias, const float *dout, const float *in, const float *w,
                            int N, int IC, int OC, float *scratch);
    /* pre[r,:] += bias; out = GELU(pre), tanh form (GPT-2's, nn.GELU(approximate='tanh')). */
    void (*bias_gelu_forward)(float *out, float *pre, const float *bias, int N, int C);
    /* d *= GELU'(pre), elementwise over n values. */
    void (*gelu_backward)(float *d, const float *pre, size_t n);

    /* Causal self-attention. qkv [B x T x 3C]: q, k, v side by side, head h in columns
     * h*C/NH .. (h+1)*C/NH of each; scores scaled by 1/sqrt(C/NH). out [B x T x C]; state as
     * attention_state_floats. */
    void (*attention_forward)(float *out, float *state, const float *qkv, float *scratch, int B, int T, int C, int NH);
    /* dqkv written from dout; state may be overwritten (it is not needed again). */
    void (*attention_backward)(float *dqkv, const float *dout, const float *qkv, const float *out, float *state,
                               float *scratch, int B, int T, int C, int NH);

    /* Mean cross-entropy of logits [N x V] against targets (int32 [N]) into *loss; dlogits (may be
     * logits itself) = its gradient: (softmax - one-hot) / N. */
    void (*crossentropy)(float *loss, float *dlogits, const float *logits, const int32_t *targets, int N, int V,
                         float *scratch);

    /* *norm = the Euclidean norm of g[0..n). */
    void (*global_norm)(float *norm, const float *g, size_t n, float *scratch);
    /* torch.optim's Adam/AdamW and SGD (backend.h) over n values, on gradients first scaled as
     * clip_grad_norm_ does: by clip / (*norm + 1e-6) when that is below 1 (clip > 0). */
    void (*adam_step)(float *p, const float *g, float *m, float *v, size_t n, const struct eng_adam_args *a,
                      const float *norm, float clip);
    void (*sgd_step)(float *p, const float *g, float *buf, size_t n, const struct eng_sgd_args *a, const float *norm,
                     float clip);

    /* Optional (NULL on the CPU): the step as one CUDA graph. Between graph_begin and graph_end
     * the model issues a whole step's calls as always; the back-end runs them, captures them
     * (capture_ok: the model has taken a step before, so every buffer exists), or, holding the
     * graph for `key`, takes only the optimizer's new scalars from them and replays the graph at
     * graph_end. graph_forget drops the graph of a model about to be freed. */
    void (*graph_begin)(const void *key, int capture_ok);
    void (*graph_end)(void);
    void (*graph_forget)(const void *key);
};

/* The CPU's kernels (gpt_cpu.c): the worker pool (pool.h), OpenBLAS single-threaded inside it. The
 * CUDA plug-in's are eng_cuda_gpt_ops (engine/cuda/gpt_kernels.cu), reached through its back-end. */
extern const struct eng_gpt_ops eng_cpu_gpt_ops;

#endif
