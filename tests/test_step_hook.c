/* The training loops' per-step hook (eng_train_loop, eng_gpt_train_loop), the one summary of
 * timed samples (probe_stats), and the vendor table both detections walk (quick_vendors). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/engine.h"
#include "engine/gpt.h"
#include "probes/probe.h"
#include "probes/quick.h"

static char err[256];

/* What the hook saw, and the step after which it asks to stop (-1: never). */
struct seen {
    int calls, stop_after;
    int steps[16];
    float losses[16];
    double secs[16];
};

static int record(void *ctx, int step, float loss, double seconds)
{
    struct seen *s = ctx;
    if (s->calls < 16) s->steps[s->calls] = step, s->losses[s->calls] = loss, s->secs[s->calls] = seconds;
    s->calls++;
    return step == s->stop_after;
}

/* `fwadvisor train --layers 16,32,4 --batch 8 --seed 3 --threads 1`'s model and data. */
static struct eng_model *mlp(struct eng_data *d)
{
    struct eng_config c;
    eng_config_defaults(&c);
    cr_assert_eq(eng_parse_layers(&c, "16,32,4", err, sizeof err), 0, "%s", err);
    c.batch = 8, c.threads = 1;
    struct eng_model *m;
    cr_assert_eq(eng_model_create(&c, eng_cpu_backend(), &m, err, sizeof err), ENG_OK, "%s", err);
    eng_model_init(m, 3);
    cr_assert_eq(eng_data_synthetic(d, 1024, 16, 4, ENG_LOSS_CE, 3, err, sizeof err), ENG_OK, "%s", err);
    return m;
}

/* The losses `fwadvisor train` printed for it. */
static const float mlp_losses[5] = {1.3228887f, 1.384022f, 1.3485096f, 1.3624988f, 1.4037952f};

Test(step_hook, mlp_once_per_step_with_the_losses_of_train)
{
    struct eng_data d;
    struct eng_model *m = mlp(&d);
    struct seen s = {.stop_after = -1};
    float losses[5];
    double secs[5];
    struct eng_run run = {.steps = 5, .losses = losses, .step_seconds = secs};
    struct eng_loop loop = {.on_step = record, .ctx = &s};
    cr_assert_eq(eng_train_loop(m, &d, &run, &loop, err, sizeof err), ENG_OK, "%s", err);
    cr_expect_eq(run.steps, 5);
    cr_assert_eq(s.calls, 5);
    for (int i = 0; i < 5; i++) {
        cr_expect_eq(s.steps[i], i);
        cr_expect_float_eq(s.losses[i], mlp_losses[i], 1e-6, "step %d: %.9g", i, s.losses[i]);
        cr_expect_eq(s.losses[i], losses[i]);
        cr_expect_eq(s.secs[i], secs[i]);
        cr_expect_geq(s.secs[i], 0);
    }
    eng_data_free(&d);
    eng_model_free(m);
}

Test(step_hook, mlp_stops_after_the_step_that_asked)
{
    struct eng_data d;
    struct eng_model *m = mlp(&d);
    struct seen s = {.stop_after = 2};
    struct eng_run run = {.steps = 5};
    struct eng_loop loop = {.on_step = record, .ctx = &s};
    cr_assert_eq(eng_train_loop(m, &d, &run, &loop, err, sizeof err), ENG_OK, "%s", err);
    cr_expect_eq(run.steps, 3, "the step that asked counts: %d", run.steps);
    cr_expect_eq(s.calls, 3);
    cr_expect_float_eq(s.losses[2], mlp_losses[2], 1e-6);
    eng_data_free(&d);
    eng_model_free(m);
}

/* A loss that is not finite: the hook still sees that step, and the run ends with the steps before
 * it counted. Row 8 (in step 1's batch) overflows the first layer. */
Test(step_hook, mlp_a_diverged_step_ends_the_run)
{
    struct eng_data d;
    struct eng_model *m = mlp(&d);
    for (int k = 0; k < 16; k++) d.x[8 * 16 + k] = 3e38f;
    struct seen s = {.stop_after = -1};
    float losses[5];
    struct eng_run run = {.steps = 5, .losses = losses};
    struct eng_loop loop = {.on_step = record, .ctx = &s};
    cr_expect_eq(eng_train_loop(m, &d, &run, &loop, err, sizeof err), ENG_ERR_RUNTIME);
    cr_expect(strstr(err, "at step 2") != NULL, "%s", err);
    cr_expect_eq(run.steps, 1, "the steps before it: %d", run.steps);
    cr_expect_eq(s.calls, 2);
    cr_expect_float_eq(s.losses[0], mlp_losses[0], 1e-6);
    cr_expect(isnan(s.losses[1]));
    eng_data_free(&d);
    eng_model_free(m);
}

/* every_step (data parallel: the ranks must take the same steps): the same diverged data runs all
 * five steps and says nothing is wrong; the loss past the overflow stays non-finite. */
Test(step_hook, mlp_every_step_runs_on_past_a_diverged_step)
{
    struct eng_data d;
    struct eng_model *m = mlp(&d);
    for (int k = 0; k < 16; k++) d.x[8 * 16 + k] = 3e38f;
    struct seen s = {.stop_after = -1};
    float losses[5];
    struct eng_run run = {.steps = 5, .losses = losses};
    struct eng_loop loop = {.on_step = record, .ctx = &s, .every_step = 1};
    cr_expect_eq(eng_train_loop(m, &d, &run, &loop, err, sizeof err), ENG_OK, "%s", err);
    cr_expect_eq(run.steps, 5);
    cr_expect_eq(s.calls, 5);
    cr_expect_float_eq(s.losses[0], mlp_losses[0], 1e-6);
    cr_expect(!isfinite(s.losses[1]));
    eng_data_free(&d);
    eng_model_free(m);
}

/* The gradients between the two halves of a step: left as they are, the losses are the plain
 * step's; zeroed from the start (no moments yet), Adam moves nothing. */
static void keep_grads(void *ctx, float *g, size_t n)
{
    (*(int *)ctx)++;
    (void)g, (void)n;
}

static void zero_grads(void *ctx, float *g, size_t n)
{
    (*(int *)ctx)++;
    memset(g, 0, n * sizeof *g);
}

Test(step_hook, mlp_gradients_between_backward_and_update)
{
    struct eng_data d;
    struct eng_model *m = mlp(&d);
    int calls = 0;
    float losses[5];
    struct eng_run run = {.steps = 5, .losses = losses};
    struct eng_loop loop = {.ctx = &calls, .on_grads = keep_grads};
    cr_assert_eq(eng_train_loop(m, &d, &run, &loop, err, sizeof err), ENG_OK, "%s", err);
    cr_expect_eq(calls, 5);
    for (int i = 0; i < 5; i++) cr_expect_float_eq(losses[i], mlp_losses[i], 1e-6, "step %d: %.9g", i, losses[i]);
    eng_data_free(&d);
    eng_model_free(m);
    m = mlp(&d);
    size_t np = eng_model_param_count(m);
    float *before = malloc(np * sizeof *before), *after = malloc(np * sizeof *after);
    cr_assert(before && after);
    eng_model_get_params(m, before);
    loop.on_grads = zero_grads;
    run.steps = 3;
    cr_assert_eq(eng_train_loop(m, &d, &run, &loop, err, sizeof err), ENG_OK, "%s", err);
    cr_expect_eq(calls, 8);
    eng_model_get_params(m, after);
    cr_expect(memcmp(before, after, np * sizeof *before) == 0, "zero gradients moved the weights");
    free(before);
    free(after);
    eng_data_free(&d);
    eng_model_free(m);
}

Test(step_hook, batch_numbers)
{
    struct eng_loop plain = {0}, rank = {.first_batch = 3, .batch_stride = 2};
    cr_expect_eq(eng_loop_batch(NULL, 4), 4);
    cr_expect_eq(eng_loop_batch(&plain, 4), 4);
    cr_expect_eq(eng_loop_batch(&rank, 0), 3);
    cr_expect_eq(eng_loop_batch(&rank, 4), 11);
    /* a run that starts at batch 2 trains on the batches a run from 0 reaches at its step 2:
     * with zero gradients (weights fixed) its first loss is that step's loss of a fixed model */
    struct eng_data d;
    struct eng_model *m = mlp(&d);
    int calls = 0;
    float all[3], later[1];
    struct eng_run run = {.steps = 3, .losses = all};
    struct eng_loop loop = {.ctx = &calls, .on_grads = zero_grads};
    cr_assert_eq(eng_train_loop(m, &d, &run, &loop, err, sizeof err), ENG_OK, "%s", err);
    struct eng_run one = {.steps = 1, .losses = later};
    loop.first_batch = 2;
    cr_assert_eq(eng_train_loop(m, &d, &one, &loop, err, sizeof err), ENG_OK, "%s", err);
    cr_expect_eq(later[0], all[2]);
    cr_expect_neq(all[1], all[2]);
    eng_data_free(&d);
    eng_model_free(m);
}

/* `fwadvisor train --model gpt --n-layer 1 --n-head 2 --n-embd 16 --ctx 8 --vocab 32 --batch 2
 * --seed 2 --threads 1`'s model and tokens, and the losses it printed. */
static struct eng_gpt *gpt(struct eng_tokens *t)
{
    struct eng_gpt_config c;
    eng_gpt_config_defaults(&c);
    c.n_layer = 1, c.n_head = 2, c.n_embd = 16, c.ctx = 8, c.vocab = 32, c.batch = 2, c.threads = 1;
    cr_assert_eq(eng_tokens_synthetic(t, 65536, 32, 2, err, sizeof err), ENG_OK, "%s", err);
    struct eng_gpt *m;
    cr_assert_eq(eng_gpt_create(&c, eng_cpu_backend(), &m, err, sizeof err), ENG_OK, "%s", err);
    eng_gpt_init(m, 2);
    return m;
}

static const float gpt_losses[4] = {3.4516485f, 3.4533982f, 3.4505277f, 3.4968488f};

Test(step_hook, gpt_once_per_step_with_the_losses_of_train)
{
    struct eng_tokens t;
    struct eng_gpt *m = gpt(&t);
    struct seen s = {.stop_after = -1};
    struct eng_run run = {.steps = 4};
    struct eng_loop loop = {.on_step = record, .ctx = &s};
    cr_assert_eq(eng_gpt_train_loop(m, &t, &run, &loop, err, sizeof err), ENG_OK, "%s", err);
    cr_assert_eq(s.calls, 4);
    for (int i = 0; i < 4; i++) {
        cr_expect_eq(s.steps[i], i);
        cr_expect_float_eq(s.losses[i], gpt_losses[i], 1e-6, "step %d: %.9g", i, s.losses[i]);
    }
    eng_gpt_free(m);
    eng_tokens_free(&t);
}

Test(step_hook, gpt_stops_after_the_step_that_asked)
{
    struct eng_tokens t;
    struct eng_gpt *m = gpt(&t);
    struct seen s = {.stop_after = 1};
    float losses[4] = {0};
    struct eng_run run = {.steps = 4, .losses = losses};
    cr_assert_eq(eng_gpt_train(m, &t, &run, record, &s, err, sizeof err), ENG_OK, "%s", err);
    cr_expect_eq(run.steps, 2);
    cr_expect_eq(s.calls, 2);
    cr_expect_float_eq(losses[1], gpt_losses[1], 1e-6);
    cr_expect_eq(losses[2], 0, "no third step");
    eng_gpt_free(m);
    eng_tokens_free(&t);
}

/* --- the summary of timed samples ------------------------------------------------------------ */

/* Samples worked by hand: the median of an odd count is the middle one, of an even count the mean
 * of the two middle ones; the spread is 1.4826 x the median absolute deviation / the median. */
static const struct {
    int n;
    double v[4];
    double median, min, max, mean, cv;
} by_hand[] = {
    /* deviations from 2: 1, 1, 0, their median 1 */
    {3, {3, 1, 2}, 2, 1, 3, 2, 1.4826 * 1 / 2},
    /* sorted 1 3 4 10; deviations from 3.5: 2.5, 0.5, 0.5, 6.5, their median (0.5 + 2.5) / 2 */
    {4, {4, 1, 3, 10}, 3.5, 1, 10, 4.5, 1.4826 * 1.5 / 3.5},
};

Test(step_stats, odd_and_even_counts)
{
    for (size_t i = 0; i < sizeof by_hand / sizeof by_hand[0]; i++) {
        double v[4];
        memcpy(v, by_hand[i].v, sizeof v);
        struct probe_stats s;
        probe_stats_copy(v, by_hand[i].n, &s);
        cr_expect(memcmp(v, by_hand[i].v, sizeof v) == 0, "the copy leaves the samples as they are");
        const double got[5] = {s.median, s.min, s.max, s.mean, s.cv},
                     want[5] = {by_hand[i].median, by_hand[i].min, by_hand[i].max, by_hand[i].mean, by_hand[i].cv};
        cr_expect_eq(s.n, by_hand[i].n);
        for (int k = 0; k < 5; k++) cr_expect_float_eq(got[k], want[k], 1e-12, "case %zu, figure %d: %.12g", i, k, got[k]);
        probe_stats(v, by_hand[i].n, &s);
        cr_expect_eq(v[0], by_hand[i].min, "probe_stats sorts in place");
        cr_expect_float_eq(s.median, by_hand[i].median, 1e-12);
    }
}

Test(step_stats, one_and_none)
{
    double v[] = {5};
    struct probe_stats s;
    probe_stats_copy(v, 1, &s);
    cr_expect_eq(s.n, 1);
    cr_expect_float_eq(s.median, 5, 1e-12);
    cr_expect_eq(s.cv, 0);
    probe_stats_copy(v, 0, &s);
    cr_expect_eq(s.n, 0);
    cr_expect_eq(s.median, 0);
}

/* --- the vendor table ------------------------------------------------------------------------ */

/* A recorded tree, with the NVIDIA libraries out of reach (so its driver files are what counts)
 * and no TPU named in the environment. */
static void use_tree(const char *name)
{
    static const char *const env[][2] = {
        {"FWADVISOR_NVML_LIB", "/nonexistent/libnvidia-ml.so.1"},
        {"FWADVISOR_CUDA_LIB", "/nonexistent/libcuda.so.1"},
    };
    const char *fixtures = getenv("FWADVISOR_FIXTURES");
    char root[4200];
    snprintf(root, sizeof root, "%s/sysroot/%s", fixtures && *fixtures ? fixtures : "tests/fixtures", name);
    setenv("FWADVISOR_SYSROOT", root, 1);
    for (size_t i = 0; i < sizeof env / sizeof env[0]; i++) setenv(env[i][0], env[i][1], 1);
    unsetenv("TPU_ACCELERATOR_TYPE");
}

Test(vendors, rows_in_precedence_order)
{
    static const char *const kinds[] = {"nvidia", "amd", "tpu", "ascend", "trainium", "gaudi", "apple"};
    cr_assert_eq(quick_nvendors, 7);
    for (int v = 0; v < quick_nvendors; v++) {
        cr_expect_str_eq(quick_vendors[v].kind, kinds[v]);
        cr_expect(quick_vendors[v].quick && quick_vendors[v].full);
    }
}

/* On each recorded tree exactly its vendor's row finds something, quickly and fully, with the
 * same count; quick_detect and probe_detect report that row's kind. */
Test(vendors, each_row_on_its_recorded_tree)
{
    static const struct { const char *tree; int row, count; } cases[] = {
        {"nvidia-h100", 0, 2}, {"nvidia-no-driver", 0, 1}, {"amd-mi300x", 1, 2}, {"tpu-v5e", 2, 4}, {"ascend-910b", 3, 8},
        {"trainium2", 4, 16}, {"gaudi3", 5, 8}, {"gaudi2-hl", 5, 8},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        use_tree(cases[c].tree);
        for (int v = 0; v < quick_nvendors; v++) {
            struct quick_hw q;
            memset(&q, 0, sizeof q);
            struct probe_hw *hw = calloc(1, sizeof *hw);
            cr_assert(hw);
            int found = quick_vendors[v].quick(&q);
            quick_vendors[v].full(hw);
            if (v == cases[c].row) {
                cr_expect_eq(found, 1, "%s: %s", cases[c].tree, quick_vendors[v].kind);
                cr_expect_eq(q.count, cases[c].count, "%s: quick count %d", cases[c].tree, q.count);
                cr_expect_gt(strlen(q.evidence), 0);
                cr_expect_eq(hw->naccel, 1, "%s", cases[c].tree);
                cr_expect_str_eq(hw->accel[0].kind, quick_vendors[v].kind);
                cr_expect_eq(hw->accel[0].count, cases[c].count, "%s: full count %d", cases[c].tree, hw->accel[0].count);
            } else {
                cr_expect_eq(found, 0, "%s: %s found too", cases[c].tree, quick_vendors[v].kind);
                cr_expect_eq(hw->naccel, 0, "%s: %s found too", cases[c].tree, quick_vendors[v].kind);
            }
            free(hw);
        }
        struct quick_hw all;
        quick_detect(&all, 0);
        cr_expect_str_eq(all.kind, quick_vendors[cases[c].row].kind, "%s", cases[c].tree);
    }
}

/* The Neuron and habanalabs drivers' own files name the device: the quick look and the full
 * detection both report it, and the Neuron tree's core count reaches the note. */
Test(vendors, trainium_and_gaudi_names_from_their_drivers)
{
    static const struct { const char *tree; int row; const char *name, *note; } cases[] = {
        {"trainium2", 4, "AWS Trainium2", "/sys/devices/virtual/neuron_device (16), 8 NeuronCores each"},
        {"gaudi3", 5, "Intel Gaudi (GAUDI3)", "/sys/class/accel, habanalabs vendor 0x1da3 (8)"},
        {"gaudi2-hl", 5, "Intel Gaudi (GAUDI2)", "/sys/class/habanalabs (8)"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        use_tree(cases[c].tree);
        struct quick_hw q;
        memset(&q, 0, sizeof q);
        cr_expect_eq(quick_vendors[cases[c].row].quick(&q), 1, "%s", cases[c].tree);
        cr_expect_str_eq(q.name, cases[c].name, "%s", cases[c].tree);
        struct probe_hw *hw = calloc(1, sizeof *hw);
        cr_assert(hw);
        quick_vendors[cases[c].row].full(hw);
        cr_expect_eq(hw->naccel, 1, "%s", cases[c].tree);
        cr_expect_str_eq(hw->accel[0].name, cases[c].name, "%s", cases[c].tree);
        cr_expect_str_eq(hw->accel[0].note, cases[c].note, "%s", cases[c].tree);
        free(hw);
    }
}

/* An accel-subsystem device of another vendor (a TPU's 0x1ae0) is not a Gaudi, and a Neuron
 * device node alone is still a Neuron device. */
Test(vendors, gaudi_needs_the_habanalabs_vendor)
{
    char root[] = "/tmp/fwadvisor-accel-XXXXXX";
    cr_assert(mkdtemp(root));
    char path[256];
    static const char *const dirs[] = {"/sys", "/sys/class", "/sys/class/accel", "/sys/class/accel/accel0",
                                       "/sys/class/accel/accel0/device", "/dev"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(path, sizeof path, "%s%s", root, dirs[i]);
        cr_assert_eq(mkdir(path, 0700), 0, "%s", path);
    }
    snprintf(path, sizeof path, "%s/sys/class/accel/accel0/device/vendor", root);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs("0x1ae0\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/dev/neuron0", root);
    cr_assert((f = fopen(path, "w")));
    fclose(f);
    setenv("FWADVISOR_SYSROOT", root, 1);
    struct quick_hw q;
    memset(&q, 0, sizeof q);
    cr_expect_eq(quick_vendors[5].quick(&q), 0, "a non-Habana accel device read as a Gaudi");
    memset(&q, 0, sizeof q);
    cr_expect_eq(quick_vendors[4].quick(&q), 1);
    cr_expect_eq(q.count, 1);
    cr_expect_str_eq(q.evidence, "/dev/neuron* (1)");
    unsetenv("FWADVISOR_SYSROOT");
    snprintf(path, sizeof path, "rm -rf '%s'", root);
    cr_expect_eq(system(path), 0);
}

Test(vendors, none_on_a_cpu_only_tree)
{
    use_tree("cpu-only");
    for (int v = 0; v < quick_nvendors; v++) {
        struct quick_hw q;
        memset(&q, 0, sizeof q);
        cr_expect_eq(quick_vendors[v].quick(&q), 0, "%s", quick_vendors[v].kind);
    }
    struct quick_hw all;
    quick_detect(&all, 0);
    cr_expect_str_eq(all.kind, "cpu");
}
