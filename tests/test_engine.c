/* The training engine: gradients against finite differences, optimizers against hand-computed
 * steps, the FLOP count, data generation and training behaviour. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

static char err[512];

static struct eng_model *build_lr(const char *layers, enum eng_act act, enum eng_loss loss, enum eng_opt opt, int batch,
                                  float lr)
{
    struct eng_config c;
    eng_config_defaults(&c);
    cr_assert_eq(eng_parse_layers(&c, layers, err, sizeof err), 0, "%s", err);
    c.act = act;
    c.loss = loss;
    c.opt = opt;
    c.batch = batch;
    c.threads = 1;
    c.lr = lr;
    struct eng_model *m;
    cr_assert_eq(eng_model_create(&c, eng_cpu_backend(), &m, err, sizeof err), ENG_OK, "%s", err);
    return m;
}

static struct eng_model *build(const char *layers, enum eng_act act, enum eng_loss loss, enum eng_opt opt, int batch)
{
    return build_lr(layers, act, loss, opt, batch, 1e-3f);
}

struct grad_case {
    enum eng_act act;
    enum eng_loss loss;
    char name[16];
};

static struct grad_case grad_cases[] = {
    {ENG_ACT_RELU, ENG_LOSS_CE, "relu-ce"},   {ENG_ACT_GELU, ENG_LOSS_CE, "gelu-ce"},
    {ENG_ACT_TANH, ENG_LOSS_CE, "tanh-ce"},   {ENG_ACT_RELU, ENG_LOSS_MSE, "relu-mse"},
    {ENG_ACT_GELU, ENG_LOSS_MSE, "gelu-mse"}, {ENG_ACT_TANH, ENG_LOSS_MSE, "tanh-mse"},
};

ParameterizedTestParameters(engine, gradients_match_finite_differences)
{
    return cr_make_param_array(struct grad_case, grad_cases, sizeof grad_cases / sizeof grad_cases[0]);
}

/* Central differences in fp32 with h = 1e-3. The loss carries fp32 rounding of about 1e-7
 * relative, so the difference quotient is good to about 1e-7 / 1e-3 = 1e-4 absolute; the O(h^2)
 * truncation error is far smaller. Tolerance: 1e-3 absolute plus 1% relative. The fixed seed keeps
 * every ReLU pre-activation away from its kink by more than the perturbation can move it. */
ParameterizedTest(struct grad_case *gc, engine, gradients_match_finite_differences)
{
    const int batch = 4;
    struct eng_model *m = build("5,7,6,3", gc->act, gc->loss, ENG_OPT_SGD, batch);
    eng_model_init(m, 11);
    struct eng_data d;
    cr_assert_eq(eng_data_synthetic(&d, batch, 5, 3, gc->loss, 3, err, sizeof err), ENG_OK);
    float x[4 * 5], t[4 * 3];
    eng_data_batch(&d, 0, batch, x, t);
    size_t n = eng_model_param_count(m);
    float *p = malloc(n * sizeof *p), *g = malloc(n * sizeof *g);
    eng_model_forward_backward(m, x, t);
    eng_model_get_grads(m, g);
    eng_model_get_params(m, p);
    const float h = 1e-3f;
    int checked = 0;
    for (size_t i = 0; i < n; i++) {
        float keep = p[i];
        p[i] = keep + h;
        eng_model_set_params(m, p);
        float up = eng_model_forward_backward(m, x, t);
        p[i] = keep - h;
        eng_model_set_params(m, p);
        float down = eng_model_forward_backward(m, x, t);
        p[i] = keep;
        float fd = (up - down) / (2 * h);
        cr_expect(fabsf(fd - g[i]) <= 1e-3f + 1e-2f * fabsf(g[i]), "%s: parameter %zu: analytic %.6g, numeric %.6g",
                  gc->name, i, g[i], fd);
        checked++;
    }
    cr_expect_eq(checked, 5 * 7 + 7 + 7 * 6 + 6 + 6 * 3 + 3);
    free(p);
    free(g);
    eng_data_free(&d);
    eng_model_free(m);
}

/* Optimizers on one parameter p = 1 with gradients 0.5 then 0.25, lr 0.1. */
static void run_optimizer(enum eng_opt opt, float wd, float out[2])
{
    const struct eng_backend *be = eng_cpu_backend();
    float p = 1.0f, m = 0, v = 0, grads[2] = {0.5f, 0.25f};
    for (int t = 1; t <= 2; t++) {
        if (opt == ENG_OPT_ADAM || opt == ENG_OPT_ADAMW) {
            struct eng_adam_args a = {0.1f, 0.9f, 0.999f, 1e-8f, wd, opt == ENG_OPT_ADAMW, 1 - pow(0.9, t), 1 - pow(0.999, t)};
            be->adam_step(&p, &grads[t - 1], &m, &v, 1, &a);
        } else {
            struct eng_sgd_args a = {0.1f, opt == ENG_OPT_MOMENTUM ? 0.9f : 0.0f, wd, t == 1};
            be->sgd_step(&p, &grads[t - 1], &m, 1, &a);
        }
        out[t - 1] = p;
    }
}

Test(engine, sgd_by_hand)
{
    float p[2];
    /* g' = g + wd p: 0.5 + 0.1 = 0.6 -> p = 1 - 0.06 = 0.94; g' = 0.25 + 0.094 = 0.344 -> 0.94 - 0.0344 */
    run_optimizer(ENG_OPT_SGD, 0.1f, p);
    cr_expect_float_eq(p[0], 0.94f, 1e-6);
    cr_expect_float_eq(p[1], 0.9056f, 1e-6);
}

Test(engine, momentum_by_hand)
{
    float p[2];
    /* buf = g' = 0.6 -> p = 0.94; g' = 0.25 + 0.094 = 0.344, buf = 0.9 * 0.6 + 0.344 = 0.884 ->
     * p = 0.94 - 0.0884 = 0.8516 */
    run_optimizer(ENG_OPT_MOMENTUM, 0.1f, p);
    cr_expect_float_eq(p[0], 0.94f, 1e-6);
    cr_expect_float_eq(p[1], 0.8516f, 1e-6);
}

Test(engine, adam_by_hand)
{
    float p[2];
    /* t=1: m = 0.05, v = 0.00025, m^ = 0.5, v^ = 0.25 -> p = 1 - 0.1 * 0.5 / (0.5 + 1e-8) = 0.9.
     * t=2: m = 0.045 + 0.025 = 0.07, v = 0.00024975 + 0.0000625 = 0.00031225,
     *      m^ = 0.07 / 0.19 = 0.368421, sqrt(v^) = 0.0176706 / 0.0447102 = 0.395226,
     *      p = 0.9 - 0.1 * 0.368421 / 0.395226 = 0.806782 */
    run_optimizer(ENG_OPT_ADAM, 0.0f, p);
    cr_expect_float_eq(p[0], 0.9f, 1e-6);
    cr_expect_float_eq(p[1], 0.806782f, 2e-6);
    /* L2 weight decay enters the gradient: t=1 g' = 0.6 -> still a unit step, p = 0.9;
     * t=2 g' = 0.25 + 0.09 = 0.34 -> p = 0.805010 */
    run_optimizer(ENG_OPT_ADAM, 0.1f, p);
    cr_expect_float_eq(p[0], 0.9f, 1e-6);
    cr_expect_float_eq(p[1], 0.805010f, 2e-6);
}

Test(engine, adamw_by_hand)
{
    float p[2];
    /* decoupled: p *= 1 - lr wd = 0.99 first. t=1: 0.99 - 0.1 = 0.89; t=2: 0.89 * 0.99 = 0.8811,
     * minus the same Adam step as above (0.0932180) = 0.787882 */
    run_optimizer(ENG_OPT_ADAMW, 0.1f, p);
    cr_expect_float_eq(p[0], 0.89f, 1e-6);
    cr_expect_float_eq(p[1], 0.787882f, 2e-6);
}

/* Adam's first step inside the model, bias corrections included: m_hat = g and v_hat = g^2, so
 * each parameter with a gradient well above eps moves by lr exactly, against its gradient. */
Test(engine, one_adam_step_moves_each_parameter_by_lr)
{
    struct eng_model *m = build_lr("6,5,3", ENG_ACT_TANH, ENG_LOSS_CE, ENG_OPT_ADAM, 8, 0.01f);
    eng_model_init(m, 7);
    size_t n = eng_model_param_count(m);
    float *before = malloc(n * sizeof *before), *after = malloc(n * sizeof *after), *g = malloc(n * sizeof *g);
    float x[8 * 6];
    int32_t y[8];
    for (int i = 0; i < 48; i++) x[i] = (float)sin(i * 0.7) * 0.9f;
    for (int i = 0; i < 8; i++) y[i] = i % 3;
    eng_model_get_params(m, before);
    eng_model_forward_backward(m, x, y);
    eng_model_get_grads(m, g);
    eng_model_update(m);
    eng_model_get_params(m, after);
    int checked = 0;
    for (size_t i = 0; i < n; i++) {
        if (fabsf(g[i]) < 1e-3f) continue;
        double step = (double)before[i] - after[i];
        cr_expect_float_eq(step, g[i] > 0 ? 0.01 : -0.01, 2e-6, "parameter %zu moved %g (gradient %g)", i, step, g[i]);
        checked++;
    }
    cr_expect_gt(checked, (int)n / 2, "most parameters have a gradient well above eps");
    free(before), free(after), free(g);
    eng_model_free(m);
}

Test(engine, flop_count_of_the_reference_mlp)
{
    /* 784-1024-1024-10, batch 256: sum(in*out) = 1,861,632; 2 * 256 * (3 * sum - 784 * 1024). */
    struct eng_model *m = build("784,1024,1024,10", ENG_ACT_RELU, ENG_LOSS_CE, ENG_OPT_ADAM, 256);
    cr_expect_float_eq(eng_model_step_flops(m), 2448424960.0, 1);
    cr_expect_eq(eng_model_param_count(m), 1863690);
    eng_model_free(m);
}

Test(engine, initialisation_like_nn_linear)
{
    struct eng_model *m = build("400,50,3", ENG_ACT_RELU, ENG_LOSS_CE, ENG_OPT_ADAM, 2);
    eng_model_init(m, 42);
    float w[400 * 50], b[50];
    eng_model_get_layer(m, 0, w, b);
    float bound = 1.0f / sqrtf(400.0f), maxabs = 0;
    double mean = 0;
    for (int i = 0; i < 400 * 50; i++) {
        maxabs = fabsf(w[i]) > maxabs ? fabsf(w[i]) : maxabs;
        mean += w[i];
    }
    mean /= 400 * 50;
    cr_expect_leq(maxabs, bound);
    cr_expect_gt(maxabs, 0.99f * bound, "uniform over the whole interval");
    cr_expect_lt(fabs(mean), 0.01 * bound);
    for (int i = 0; i < 50; i++) cr_expect_leq(fabsf(b[i]), bound, "bias bound is 1/sqrt(fan_in) too");
    /* Same seed, same weights; another seed, others. */
    float w2[400 * 50];
    eng_model_init(m, 42);
    eng_model_get_layer(m, 0, w2, NULL);
    cr_expect(memcmp(w, w2, sizeof w) == 0);
    eng_model_init(m, 43);
    eng_model_get_layer(m, 0, w2, NULL);
    cr_expect(memcmp(w, w2, sizeof w) != 0);
    eng_model_free(m);
}

Test(engine, generator_is_fixed_across_machines)
{
    /* xoshiro256** seeded by splitmix64 from 1: integer arithmetic only, so these bits are the
     * same on every machine; a change here changes every synthetic run. */
    struct eng_rng r;
    eng_rng_seed(&r, 1);
    uint64_t first = eng_rng_next(&r);
    struct eng_rng r2;
    eng_rng_seed(&r2, 1);
    cr_expect_eq(eng_rng_next(&r2), first);
    float u = eng_rng_uniform(&r);
    cr_expect(u >= 0.0f && u < 1.0f);
    struct eng_data a, b;
    cr_assert_eq(eng_data_synthetic(&a, 64, 10, 4, ENG_LOSS_CE, 9, err, sizeof err), ENG_OK);
    cr_assert_eq(eng_data_synthetic(&b, 64, 10, 4, ENG_LOSS_CE, 9, err, sizeof err), ENG_OK);
    cr_expect(memcmp(a.x, b.x, 64 * 10 * sizeof(float)) == 0);
    cr_expect(memcmp(a.labels, b.labels, 64 * sizeof(int32_t)) == 0);
    int counts[4] = {0};
    for (int i = 0; i < 64; i++) counts[a.labels[i]]++;
    for (int c = 0; c < 4; c++) cr_expect_gt(counts[c], 0, "every class appears");
    eng_data_free(&a);
    eng_data_free(&b);
}

Test(engine, batches_wrap_in_file_order)
{
    struct eng_data d;
    cr_assert_eq(eng_data_synthetic(&d, 10, 2, 2, ENG_LOSS_MSE, 1, err, sizeof err), ENG_OK);
    float x[4 * 2], t[4 * 2];
    eng_data_batch(&d, 2, 4, x, t); /* rows 8, 9, 0, 1 */
    cr_expect(memcmp(x, d.x + 8 * 2, 2 * 2 * sizeof(float)) == 0);
    cr_expect(memcmp(x + 4, d.x, 2 * 2 * sizeof(float)) == 0);
    cr_expect(memcmp(t + 4, d.targets, 2 * 2 * sizeof(float)) == 0);
    eng_data_free(&d);
}

Test(engine, training_lowers_the_loss)
{
    static const enum eng_opt opts[] = {ENG_OPT_SGD, ENG_OPT_MOMENTUM, ENG_OPT_ADAM, ENG_OPT_ADAMW};
    for (int o = 0; o < 4; o++) {
        float lr = opts[o] == ENG_OPT_SGD || opts[o] == ENG_OPT_MOMENTUM ? 0.1f : 0.01f;
        struct eng_model *m = build_lr("16,32,4", ENG_ACT_TANH, ENG_LOSS_CE, opts[o], 32, lr);
        eng_model_init(m, 5);
        struct eng_data d;
        cr_assert_eq(eng_data_synthetic(&d, 128, 16, 4, ENG_LOSS_CE, 5, err, sizeof err), ENG_OK);
        float losses[200];
        double secs[200];
        struct eng_run run = {200, losses, secs, NULL};
        cr_assert_eq(eng_train(m, &d, &run, NULL, NULL, err, sizeof err), ENG_OK, "%s", err);
        cr_expect_lt(losses[199], 0.6f * losses[0], "%s: %f -> %f", eng_opt_name(opts[o]), losses[0], losses[199]);
        for (int i = 0; i < 200; i++) cr_expect(secs[i] >= 0 && isfinite(losses[i]));
        eng_data_free(&d);
        eng_model_free(m);
    }
}

Test(engine, data_must_fit_the_model)
{
    struct eng_model *m = build("8,4", ENG_ACT_RELU, ENG_LOSS_CE, ENG_OPT_SGD, 2);
    struct eng_data d;
    cr_assert_eq(eng_data_synthetic(&d, 4, 9, 4, ENG_LOSS_CE, 1, err, sizeof err), ENG_OK);
    struct eng_run run = {1, NULL, NULL, NULL};
    cr_expect_eq(eng_train(m, &d, &run, NULL, NULL, err, sizeof err), ENG_ERR_INPUT);
    cr_expect(strstr(err, "does not fit") != NULL, "%s", err);
    eng_data_free(&d);
    eng_model_free(m);
}

Test(engine, layer_specs)
{
    struct eng_config c;
    eng_config_defaults(&c);
    cr_expect_eq(eng_parse_layers(&c, "784,1024,10", err, sizeof err), 0);
    cr_expect_eq(c.nsizes, 3);
    const char *bad[] = {"784", "784,,10", "784,0,10", "a,b", "784,10,", "-3,4", "5,2000000"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_expect_eq(eng_parse_layers(&c, bad[i], err, sizeof err), -1, "%s accepted", bad[i]);
}

/* Every name of the activation and optimizer tables, in any case, and the near misses of each:
 * a prefix, the name with a letter more, padded with a space, the empty string. "none" is the
 * table's first entry but internal (the output layer's), so it is refused; a refused name leaves
 * the field as it was (the sentinel 99). "adam" is a prefix of "adamw" and names Adam itself. */
Test(engine, activation_and_optimizer_names_in_full_only)
{
    static const struct {
        int opt;        /* 0: an activation name, 1: an optimizer name */
        const char *name;
        int value;      /* the enum eng_act or eng_opt value, -1 refused */
        const char *canonical;
    } names[] = {
        {0, "relu", ENG_ACT_RELU, "relu"}, {0, "RELU", ENG_ACT_RELU, "relu"}, {0, "ReLU", ENG_ACT_RELU, "relu"},
        {0, "gelu", ENG_ACT_GELU, "gelu"}, {0, "GeLU", ENG_ACT_GELU, "gelu"}, {0, "tanh", ENG_ACT_TANH, "tanh"},
        {0, "TANH", ENG_ACT_TANH, "tanh"}, {0, "none", -1, NULL},             {0, "NONE", -1, NULL},
        {0, "rel", -1, NULL},              {0, "relux", -1, NULL},            {0, "gel", -1, NULL},
        {0, "gelus", -1, NULL},            {0, "tan", -1, NULL},              {0, "tanhh", -1, NULL},
        {0, " relu", -1, NULL},            {0, "relu ", -1, NULL},            {0, "", -1, NULL},
        {0, "r", -1, NULL},                {0, "swish", -1, NULL},
        {1, "sgd", ENG_OPT_SGD, "sgd"},    {1, "SGD", ENG_OPT_SGD, "sgd"},    {1, "momentum", ENG_OPT_MOMENTUM, "momentum"},
        {1, "Momentum", ENG_OPT_MOMENTUM, "momentum"},                        {1, "adam", ENG_OPT_ADAM, "adam"},
        {1, "Adam", ENG_OPT_ADAM, "adam"}, {1, "adamw", ENG_OPT_ADAMW, "adamw"}, {1, "AdamW", ENG_OPT_ADAMW, "adamw"},
        {1, "sg", -1, NULL},               {1, "sgdm", -1, NULL},             {1, "mom", -1, NULL},
        {1, "momentums", -1, NULL},        {1, "ada", -1, NULL},              {1, "adamx", -1, NULL},
        {1, "adamw ", -1, NULL},           {1, "adam_w", -1, NULL},           {1, "adamww", -1, NULL},
        {1, "", -1, NULL},                 {1, " sgd", -1, NULL},             {1, "lion", -1, NULL},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        enum eng_act a = (enum eng_act)99;
        enum eng_opt o = (enum eng_opt)99;
        int rc = names[i].opt ? eng_opt_parse(names[i].name, &o) : eng_act_parse(names[i].name, &a);
        int got = names[i].opt ? (int)o : (int)a;
        cr_expect_eq(rc, names[i].value < 0 ? -1 : 0, "'%s': %d", names[i].name, rc);
        cr_expect_eq(got, names[i].value < 0 ? 99 : names[i].value, "'%s' -> %d", names[i].name, got);
        if (names[i].canonical)
            cr_expect_str_eq(names[i].opt ? eng_opt_name(o) : eng_act_name(a), names[i].canonical, "'%s'", names[i].name);
    }
}
