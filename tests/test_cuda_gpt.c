/* The GPT decoder on the CUDA plug-in: its kernels are all there (wherever the plug-in is built),
 * and on a machine with an NVIDIA GPU: fp32 trains to the CPU engine's numbers within 1e-4, bf16
 * within its documented tolerance, and a step replayed as a CUDA graph gives the same bits as the
 * same step run eagerly, and the tensor-core attention is within the bf16 bound of its host
 * emulation (numerics.h). Without a GPU those skip with the reason. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/cuda/numerics.h"
#include "engine/cuda/plugin.h"
#include "engine/gpt.h"
#include "engine/gpt_ops.h"

TestSuite(cuda_gpt, .timeout = 180);

static const struct eng_cuda_plugin *plugin_or_skip(void)
{
    const char *p = getenv("FWADVISOR_CUDA_PLUGIN");
    char err[512];
    if (!p || access(p, F_OK) != 0) cr_skip_test("the CUDA plug-in is not built here (no nvcc, or CUDA=0)");
    const struct eng_cuda_plugin *plugin = eng_cuda_load(err, sizeof err);
    cr_assert_not_null(plugin, "%s", err);
    return plugin;
}

Test(cuda_gpt, the_plugin_has_every_transformer_kernel)
{
    const struct eng_cuda_plugin *p = plugin_or_skip();
    const struct eng_gpt_ops *o = p->backend->gpt;
    cr_assert_not_null(o);
    cr_expect(o->attention_state_floats && o->scratch_floats && o->encoder_forward && o->encoder_backward &&
              o->layernorm_forward && o->residual_layernorm_forward && o->layernorm_backward && o->matmul_forward &&
              o->matmul_backward && o->bias_gelu_forward && o->gelu_backward && o->attention_forward &&
              o->attention_backward && o->crossentropy && o->global_norm && o->adam_step && o->sgd_step &&
              o->graph_begin && o->graph_end && o->graph_forget);
    /* Flash attention keeps one log-sum-exp per row, never T x T: B 4 x NH 12 x T 1024. */
    cr_expect_eq(o->attention_state_floats(4, 1024, 12), (size_t)4 * 12 * 1024);
}

static const struct eng_backend *gpu_or_skip(enum eng_precision prec)
{
    plugin_or_skip();
    char err[512];
    const struct eng_backend *be = eng_device_open(0, prec, NULL, err, sizeof err);
    if (!be) cr_skip_test("no GPU: %s", err);
    return be;
}

struct run {
    float losses[20];
    float *weights[64]; /* per tensor, host copies after the steps */
    int ntensors;
};

/* Builds the model on `be`, gives it the CPU model's initialisation (seed 1), trains `steps` on
 * the same synthetic tokens. */
static void train(const struct eng_backend *be, const struct eng_gpt_config *c, int steps, struct run *out)
{
    char err[512];
    struct eng_gpt *cpu, *m;
    cr_assert_eq(eng_gpt_create(c, eng_cpu_backend(), &cpu, err, sizeof err), ENG_OK, "%s", err);
    cr_assert_eq(eng_gpt_create(c, be, &m, err, sizeof err), ENG_OK, "%s", err);
    eng_gpt_init(cpu, 1);
    out->ntensors = eng_gpt_tensor_count(m);
    for (int i = 0; i < out->ntensors; i++) {
        size_t n = eng_gpt_tensor_at(m, i)->count;
        out->weights[i] = malloc(n * sizeof(float));
        eng_gpt_read_tensor(cpu, i, out->weights[i]);
        eng_gpt_write_tensor(m, i, out->weights[i]);
    }
    struct eng_tokens t;
    cr_assert_eq(eng_tokens_synthetic(&t, 4096, c->vocab, 3, err, sizeof err), ENG_OK);
    struct eng_run r = {steps, out->losses, NULL, NULL};
    cr_assert_eq(eng_gpt_train(m, &t, &r, NULL, NULL, err, sizeof err), ENG_OK, "%s", err);
    const char *e = eng_device_error();
    cr_assert_null(e, "CUDA error: %s", e);
    for (int i = 0; i < out->ntensors; i++) eng_gpt_read_tensor(m, i, out->weights[i]);
    eng_tokens_free(&t);
    eng_gpt_free(m);
    eng_gpt_free(cpu);
}

static void run_free(struct run *r)
{
    for (int i = 0; i < r->ntensors; i++) free(r->weights[i]);
}

/* Largest |a - b| / max|b| over the tensors, the key third of c_attn.bias left out: its gradient
 * is rounding noise on any device (softmax ignores a per-row constant), which Adam turns into
 * steps of up to lr that no two implementations share. */
static double weight_error(const struct run *a, const struct run *b, const struct eng_gpt_config *c)
{
    double worst = 0;
    char err[512];
    struct eng_gpt *names;
    cr_assert_eq(eng_gpt_create(c, eng_cpu_backend(), &names, err, sizeof err), ENG_OK);
    for (int i = 0; i < a->ntensors; i++) {
        const struct eng_gpt_tensor *t = eng_gpt_tensor_at(names, i);
        int key_bias = strstr(t->name, "attn.c_attn.bias") != NULL;
        double diff = 0, mag = 0;
        for (size_t k = 0; k < t->count; k++) {
            if (key_bias && k >= (size_t)c->n_embd && k < 2 * (size_t)c->n_embd) continue;
            diff = fmax(diff, fabs((double)a->weights[i][k] - b->weights[i][k]));
            mag = fmax(mag, fabs((double)b->weights[i][k]));
        }
        worst = fmax(worst, diff / fmax(mag, 1e-12));
    }
    eng_gpt_free(names);
    return worst;
}

static const int configs[][6] = {{2, 2, 64, 32, 256, 4}, {2, 3, 48, 37, 256, 3}};

static void config_of(int k, struct eng_gpt_config *c)
{
    eng_gpt_config_defaults(c);
    c->n_layer = configs[k][0], c->n_head = configs[k][1], c->n_embd = configs[k][2], c->ctx = configs[k][3];
    c->vocab = configs[k][4], c->batch = configs[k][5];
}

/* fp32 on the GPU (TF32 off) against the CPU engine: 20 AdamW steps within 1e-4 relative, as the
 * CPU engine is to PyTorch. */
Test(cuda_gpt, fp32_matches_the_cpu_engine)
{
    const struct eng_backend *gpu = gpu_or_skip(ENG_PREC_FP32);
    for (int k = 0; k < 2; k++) {
        struct eng_gpt_config c;
        config_of(k, &c);
        struct run on_gpu, on_cpu;
        train(gpu, &c, 20, &on_gpu);
        train(eng_cpu_backend(), &c, 20, &on_cpu);
        for (int s = 0; s < 20; s++)
            cr_expect(fabsf(on_gpu.losses[s] - on_cpu.losses[s]) <= 1e-4f * fabsf(on_cpu.losses[s]),
                      "config %d step %d: GPU %.7f, CPU %.7f", k, s + 1, on_gpu.losses[s], on_cpu.losses[s]);
        double w = weight_error(&on_gpu, &on_cpu, &c);
        cr_expect_leq(w, 1e-4, "config %d: weights differ by %.3g relative", k, w);
        run_free(&on_gpu);
        run_free(&on_cpu);
    }
    eng_device_close();
}

/* bf16 matrix inputs (8 significant bits: each product's inputs rounded by up to 2^-9) over 20
 * steps: the losses stay within 2% of fp32's, the documented bf16 tolerance. */
Test(cuda_gpt, bf16_stays_within_its_tolerance)
{
    const struct eng_backend *gpu = gpu_or_skip(ENG_PREC_BF16);
    struct eng_gpt_config c;
    config_of(0, &c);
    struct run on_gpu, on_cpu;
    train(gpu, &c, 20, &on_gpu);
    train(eng_cpu_backend(), &c, 20, &on_cpu);
    for (int s = 0; s < 20; s++)
        cr_expect(fabsf(on_gpu.losses[s] - on_cpu.losses[s]) <= 0.02f * fabsf(on_cpu.losses[s]),
                  "step %d: bf16 %.5f, fp32 %.5f", s + 1, on_gpu.losses[s], on_cpu.losses[s]);
    cr_expect_lt(on_gpu.losses[19], on_gpu.losses[0]);
    run_free(&on_gpu);
    run_free(&on_cpu);
    eng_device_close();
}

/* Eager steps (FWADVISOR_CUDA_GRAPHS=0) against the same steps replayed as a CUDA graph (the
 * first step runs eagerly, the second is captured, the rest replay): the same bits. */
Test(cuda_gpt, graph_replay_equals_eager_bit_for_bit)
{
    struct eng_gpt_config c;
    config_of(1, &c);
    struct run eager, graph;
    setenv("FWADVISOR_CUDA_GRAPHS", "0", 1);
    const struct eng_backend *gpu = gpu_or_skip(ENG_PREC_BF16);
    train(gpu, &c, 6, &eager);
    eng_device_close();
    unsetenv("FWADVISOR_CUDA_GRAPHS");
    gpu = gpu_or_skip(ENG_PREC_BF16);
    train(gpu, &c, 6, &graph);
    eng_device_close();
    cr_expect_eq(memcmp(eager.losses, graph.losses, 6 * sizeof(float)), 0);
    for (int i = 0; i < eager.ntensors; i++) {
        size_t n = 0;
        char err[64];
        struct eng_gpt *names;
        cr_assert_eq(eng_gpt_create(&c, eng_cpu_backend(), &names, err, sizeof err), ENG_OK);
        n = eng_gpt_tensor_at(names, i)->count;
        cr_expect_eq(memcmp(eager.weights[i], graph.weights[i], n * sizeof(float)), 0, "%s",
                     eng_gpt_tensor_at(names, i)->name);
        eng_gpt_free(names);
    }
    run_free(&eager);
    run_free(&graph);
}

/* Runs the back-end's attention forward and backward on host data; out and dqkv come back. */
static void device_attention(const struct eng_backend *be, float *out, float *dqkv, const float *qkv, const float *dout,
                             struct eng_attn_shape s)
{
    const struct eng_gpt_ops *o = be->gpt;
    size_t nq = (size_t)s.B * s.T * 3 * s.C * sizeof(float), no = (size_t)s.B * s.T * s.C * sizeof(float);
    size_t nst = o->attention_state_floats(s.B, s.T, s.NH) * sizeof(float);
    size_t nsc = o->scratch_floats(s.B, s.T, s.C, s.NH, 64) * sizeof(float);
    float *d_qkv = be->alloc(nq), *d_dqkv = be->alloc(nq), *d_out = be->alloc(no), *d_dout = be->alloc(no);
    float *d_state = be->alloc(nst), *d_scratch = be->alloc(nsc);
    cr_assert(d_qkv && d_dqkv && d_out && d_dout && d_state && d_scratch);
    be->upload(d_qkv, qkv, nq);
    be->upload(d_dout, dout, no);
    o->attention_forward(d_out, d_state, d_qkv, d_scratch, s.B, s.T, s.C, s.NH);
    o->attention_backward(d_dqkv, d_dout, d_qkv, d_out, d_state, d_scratch, s.B, s.T, s.C, s.NH);
    be->synchronize();
    be->download(out, d_out, no);
    be->download(dqkv, d_dqkv, nq);
    const char *e = eng_device_error();
    cr_assert_null(e, "CUDA error: %s", e);
    float *all[] = {d_qkv, d_dqkv, d_out, d_dout, d_state, d_scratch};
    for (int i = 0; i < 6; i++) be->release(all[i]);
}

/* The tensor-core attention in bf16 (B 2, T 16, NH 2, hs 8) against the host's emulation of the
 * same numerics, forward and backward, within the bf16 bound of exact attention
 * (eng_attn_bf16_bounds): both round the same operands, so they differ by the order of the fp32
 * sums and a probability rounded the other way at most. The scratch holds the T x T matrices. */
Test(cuda_gpt, bf16_attention_matches_its_host_emulation)
{
    const struct eng_backend *gpu = gpu_or_skip(ENG_PREC_BF16);
    struct eng_attn_shape s = {2, 16, 16, 2};
    size_t nq = 2 * 16 * 48, no = 2 * 16 * 16, ntt = 2 * 2 * 16 * 16;
    cr_expect_geq(gpu->gpt->scratch_floats(2, 16, 16, 2, 64), 2 * ntt);
    float *qkv = malloc(nq * sizeof(float)), *dout = malloc(no * sizeof(float)), *lse = malloc(64 * sizeof(float));
    float *out[3], *dqkv[3], *P[2], *dS[2];
    for (size_t i = 0; i < nq; i++) qkv[i] = 2.0f * sinf(0.37f * (float)i + 0.1f);
    for (size_t i = 0; i < no; i++) dout[i] = cosf(0.91f * (float)i);
    for (int k = 0; k < 3; k++) out[k] = malloc(no * sizeof(float)), dqkv[k] = malloc(nq * sizeof(float));
    for (int k = 0; k < 2; k++) {
        P[k] = malloc(ntt * sizeof(float)), dS[k] = malloc(ntt * sizeof(float));
        eng_attn_forward_emulated(out[k], lse, P[k], qkv, s, k);
        eng_attn_backward_emulated(dqkv[k], dS[k], dout, qkv, out[k], P[k], s, k);
    }
    double *bout = malloc(no * sizeof(double)), *bdqkv = malloc(nq * sizeof(double)), work[32];
    eng_attn_bf16_bounds(bout, bdqkv, work, qkv, dout, P[0], dS[0], s);
    device_attention(gpu, out[2], dqkv[2], qkv, dout, s);
    for (size_t i = 0; i < no; i++)
        cr_expect_leq(fabs((double)out[2][i] - out[1][i]), bout[i], "out[%zu]: GPU %.6f, emulated %.6f", i,
                      out[2][i], out[1][i]);
    for (size_t i = 0; i < nq; i++)
        cr_expect_leq(fabs((double)dqkv[2][i] - dqkv[1][i]), bdqkv[i], "dqkv[%zu]: GPU %.6f, emulated %.6f", i,
                      dqkv[2][i], dqkv[1][i]);
    for (int k = 0; k < 3; k++) free(out[k]), free(dqkv[k]);
    for (int k = 0; k < 2; k++) free(P[k]), free(dS[k]);
    free(qkv), free(dout), free(lse), free(bout), free(bdqkv);
    eng_device_close();
}
