/* backend: what the training engine needs from a device, as a struct of function pointers
 * (nvtop's vendor interface, llm.c's kernels). The CPU back-end (cpu_backend.c) runs on OpenBLAS;
 * a CUDA back-end plugs in behind the same struct. All matrices are row-major float32; pointers
 * are device pointers from `alloc`. Kernels neither allocate nor fail. */
#ifndef FWADVISOR_ENGINE_BACKEND_H
#define FWADVISOR_ENGINE_BACKEND_H

#include <stddef.h>
#include <stdint.h>

enum eng_act { ENG_ACT_NONE, ENG_ACT_RELU, ENG_ACT_GELU, ENG_ACT_TANH };
enum eng_loss { ENG_LOSS_CE, ENG_LOSS_MSE };

struct eng_adam_args {
    float lr, beta1, beta2, eps, weight_decay;
    int decoupled;            /* 1: AdamW (decay the weights), 0: Adam (L2 into the gradient) */
    double bias_correction1;  /* 1 - beta1^t, computed in double as torch.optim does */
    double bias_correction2;  /* 1 - beta2^t */
};

struct eng_sgd_args {
    float lr, momentum, weight_decay;
    int first_step; /* momentum buffer starts as the gradient, as in torch.optim.SGD */
};

struct eng_gpt_ops;

struct eng_backend {
    const char *name;
    int host_memory; /* device pointers are host pointers: inputs are read in place, not copied */

    void *(*alloc)(size_t bytes);           /* zeroed; NULL when out of memory */
    void (*release)(void *ptr);
    void (*upload)(void *dst, const void *host_src, size_t bytes);
    void (*download)(void *host_dst, const void *src, size_t bytes);
    void (*set_threads)(int threads);
    void (*synchronize)(void);

    /* C[m x n] = alpha * op(A) * op(B) + beta * C; op(A) is m x k, op(B) is k x n. */
    void (*gemm)(int trans_a, int trans_b, int m, int n, int k, float alpha, const float *a, int lda,
                 const float *b, int ldb, float beta, float *c, int ldc);

    /* pre[r][c] += bias[c]; out = act(pre) (out may equal pre when act is NONE). */
    void (*bias_act_forward)(float *out, float *pre, const float *bias, int rows, int cols, enum eng_act act);
    /* dpre = dout * act'(pre), elementwise over n values; dpre may equal dout (in place). */
    void (*act_backward)(float *dpre, const float *dout, const float *pre, size_t n, enum eng_act act);
    /* dbias[c] = sum over rows of d[r][c]. */
    void (*bias_backward)(float *dbias, const float *d, int rows, int cols);
    /* Loss of logits [rows x cols] against targets (int32 class ids for CE, float [rows x cols] for
     * MSE), mean reduction as PyTorch's defaults; writes dlogits = d loss / d logits. */
    float (*loss)(float *dlogits, const float *logits, const void *targets, int rows, int cols, enum eng_loss loss);

    /* One optimizer step over the flat parameter buffer. */
    void (*adam_step)(float *params, const float *grads, float *m, float *v, size_t n, const struct eng_adam_args *a);
    void (*sgd_step)(float *params, const float *grads, float *momentum_buf, size_t n, const struct eng_sgd_args *a);

    /* Optional (NULL on the CPU): replaying a small model's whole step as one CUDA graph, where
     * launching each kernel would cost more than running it. Between graph_begin and graph_end
     * the engine issues the step's calls as always (inputs already uploaded); the back-end either
     * runs them, captures them (capture_ok: after one ordinary step), or, when it holds the
     * graph for `key`, only takes the optimizer's new scalars from them. graph_end launches
     * what was captured; after synchronize, graph_loss gives the step's loss. graph_forget drops
     * the graph of a model about to be freed. */
    void (*graph_begin)(const void *key, int capture_ok);
    void (*graph_end)(void);
    float (*graph_loss)(void);
    void (*graph_forget)(const void *key);

    /* The transformer's kernels (gpt_ops.h), NULL where the back-end has none. */
    const struct eng_gpt_ops *gpt;
};

/* The CPU back-end: OpenBLAS for GEMM, the engine's own fused kernels on the calling thread. */
const struct eng_backend *eng_cpu_backend(void);
/* 0 when be can run: the CPU back-end once OpenBLAS is open (engine/blas.h), any other at once;
 * else -1 with one line in err. Model creation asks it; so must anything else that calls gemm. */
int eng_backend_ready(const struct eng_backend *be, char *err, size_t errsz);

#endif
