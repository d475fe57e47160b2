/* What the advice depends on: a team's own framework outweighs stage defaults unless it cannot
 * meet a need; changing only team, priority or deploy_hardware changes what it should and
 * nothing else; an empty team is unknown, not "knows nothing". */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knowledge/advisor.h"
#include "tests/support.h"

static struct ts_advisor fx;
static struct adv_kb *akb;
static struct adv_result *res, *other;
static char err[1024];

static void setup(void)
{
    cr_assert_eq(ts_advisor_open(&fx, err, sizeof err), 0, "%s", err);
    akb = fx.akb;
    res = fx.res;
    other = calloc(1, sizeof *other);
}

static void teardown(void)
{
    free(other);
    ts_advisor_close(&fx);
}

TestSuite(sensitivity, .init = setup, .fini = teardown);

static int build(struct answers *a, const char *sets) { return ts_answers_sets(a, sets, err, sizeof err); }

static void recommend_into(struct adv_result *r, const char *sets)
{
    struct answers a;
    cr_assert_eq(build(&a, sets), 0, "%s: %s", sets, err);
    cr_assert_eq(adv_recommend(akb, &a, NULL, r, err, sizeof err), KB_OK, "%s: %s", sets, err);
}

static const struct adv_framework *item(const struct adv_result *r, const char *id)
{
    for (int i = 0; i < r->ranking.count; i++)
        if (strcmp(r->ranking.items[i].id, id) == 0) return &r->ranking.items[i];
    return NULL;
}

/* A hard blocker or a need the framework cannot meet, as the ranking states it. */
static int blocked(const struct adv_result *r, const char *fw)
{
    const struct adv_framework *f = item(r, fw);
    if (!f || f->excluded) return 1;
    for (int i = 0; i < f->nreasons; i++) {
        const char *l = f->reasons[i].label;
        if (!strncmp(l, "Cannot ", 7) || (strstr(l, " support") && (strstr(l, "experimental") || strstr(l, "community"))))
            return 1;
    }
    return 0;
}

/* Seed 000: choose what the team knows. Over stages, hardware, priorities, model kinds,
 * deployment targets and scales, a team fluent in one framework gets that framework first
 * whenever nothing blocks it; the loop counts how often a blocker was the reason. */
Test(sensitivity, a_known_framework_comes_first_unless_blocked)
{
    static const char *const teams[] = {"pytorch", "tensorflow", "jax", "keras"};
    static const char *const stages[] = {"learning", "research", "prototype", "production"};
    static const char *const hardware[] = {"nvidia os=linux", "amd os=linux", "tpu os=linux", "apple os=macos",
                                           "intel os=linux", "ascend os=linux", "cpu os=linux", "nvidia os=windows"};
    static const char *const priorities[] = {"iteration", "cost", "stability"};
    static const char *const kinds[] = {"vision model_params=2.5e7", "llm model_params=7e9", "recsys model_params=1e9"};
    static const char *const deploys[] = {"none", "server", "mobile"};
    static const char *const scales[] = {"devices=1", "devices=8"};
    int checked = 0, blocked_runs = 0;
    char sets[512];
    for (size_t t = 0; t < 4; t++)
        for (size_t s = 0; s < 4; s++)
            for (size_t h = 0; h < 8; h++)
                for (size_t p = 0; p < 3; p++)
                    for (size_t k = 0; k < 3; k++)
                        for (size_t d = 0; d < 3; d++)
                            for (size_t n = 0; n < 2; n++) {
                                snprintf(sets, sizeof sets, "team=%s stage=%s hardware=%s priority=%s model_kind=%s deploy=%s %s",
                                         teams[t], stages[s], hardware[h], priorities[p], kinds[k], deploys[d], scales[n]);
                                recommend_into(res, sets);
                                if (blocked(res, teams[t])) {
                                    blocked_runs++;
                                    continue;
                                }
                                checked++;
                                cr_expect_str_eq(res->ranking.items[0].id, teams[t], "%s: %s first (%.1f), %s %.1f", sets,
                                                 res->ranking.items[0].id, res->ranking.items[0].score_tenths / 10.0,
                                                 teams[t], item(res, teams[t])->score_tenths / 10.0);
                            }
    /* Both sides happen: most situations let the team's framework win, some block it. */
    cr_expect_gt(checked, 2000, "%d checked", checked);
    cr_expect_gt(blocked_runs, 100, "%d blocked", blocked_runs);
}

/* The weight the ranking gave a criterion for r's resolved answers. */
static double weight_of(const struct adv_result *r, const char *criterion)
{
    double w[64];
    cr_assert_leq(adv_kb_criterion_count(akb), 64);
    adv_criterion_weights(akb, &r->answers, w);
    for (int k = 0; k < adv_kb_criterion_count(akb); k++)
        if (strcmp(adv_kb_criterion_id(akb, k), criterion) == 0) return w[k];
    cr_assert_fail("no weight for %s", criterion);
    return 0;
}

static int score_of(const struct adv_result *r, const char *id)
{
    const struct adv_framework *f = item(r, id);
    cr_assert_not_null(f, "%s not ranked", id);
    return f->score_tenths;
}

/* The resolved answers agree on every key but `except`. */
static void same_answers_but(const struct adv_result *x, const struct adv_result *y, enum ans_index except)
{
    cJSON *a = answers_to_json(&x->answers), *b = answers_to_json(&y->answers);
    for (cJSON *e = a->child; e; e = e->next) {
        if (ans_key_index(e->string) == (int)except) continue;
        cr_expect(cJSON_Compare(e, cJSON_GetObjectItem(b, e->string), 1), "answer %s differs", e->string);
    }
    cJSON_Delete(a);
    cJSON_Delete(b);
}

static int count_reasons(const struct adv_result *r, const char *prefix)
{
    int n = 0;
    for (int i = 0; i < r->ranking.count; i++)
        for (int j = 0; j < r->ranking.items[i].nreasons; j++)
            n += strncmp(r->ranking.items[i].reasons[j].label, prefix, strlen(prefix)) == 0;
    return n;
}

/* Only team changes: the known framework gains familiar_points (20) and a climbed learning
 * curve, every framework the team would have to learn loses switching_points (10), and the
 * weights, hardware, serving hardware and memory figures stay as they were. */
Test(sensitivity, team_moves_familiarity_and_nothing_else)
{
    const char *base = "stage=research hardware=nvidia model_kind=llm model_params=1e9 devices=8";
    char sets[256];
    recommend_into(other, base);
    snprintf(sets, sizeof sets, "%s team=jax", base);
    recommend_into(res, sets);
    same_answers_but(res, other, ANS_TEAM);
    for (int k = 0; k < adv_kb_criterion_count(akb); k++)
        cr_expect_float_eq(weight_of(res, adv_kb_criterion_id(akb, k)), weight_of(other, adv_kb_criterion_id(akb, k)), 1e-12,
                           "%s", adv_kb_criterion_id(akb, k));
    /* Weights here: debugging 1.5 x 2 = 3, ecosystem 1.5 x 1.5 = 2.25, multi_device_scaling 2
     * (8 devices), memory_efficiency 2 (LLM >= 1B), the other nine 1: W = 18.25. JAX's
     * learning curve goes from 3 to 10 for a team that knows it: 60 x 1 x 7 / (10 x 18.25) = 2.30
     * points; with familiarity 20 points, JAX gains 22.3. The criteria add up to the same total
     * whatever the average, so the others move by the switching cost only (one rounding of the
     * total: a tenth of slack). */
    int jax_gain = score_of(res, "jax") - score_of(other, "jax");
    cr_expect(jax_gain >= 222 && jax_gain <= 224, "JAX gains %d tenths, want 223", jax_gain);
    static const char *const unknown[] = {"pytorch", "tensorflow", "fastai", "mlx", "paddlepaddle", "mindspore"};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        int d = score_of(res, unknown[i]) - score_of(other, unknown[i]);
        cr_expect(d >= -101 && d <= -99, "%s moves %d tenths, want -100 (switching cost)", unknown[i], d);
    }
    /* Keras on the JAX backend is half familiar: +10, learning curve 9 already above 5. */
    int keras = score_of(res, "keras") - score_of(other, "keras");
    cr_expect(keras >= 99 && keras <= 101, "Keras moves %d tenths, want +100", keras);
    cr_expect_str_eq(res->ranking.items[0].id, "jax");
    cr_expect_str_eq(other->ranking.items[0].id, "pytorch");
    /* The plan follows the framework; the facts it stands on do not move. */
    cr_expect_str_eq(res->strategy, "jax-sharding");
    cr_expect_float_eq(answers_num(&res->answers, ANS_DEVICE_MEMORY_GB), answers_num(&other->answers, ANS_DEVICE_MEMORY_GB), 1e-9);
}

/* An empty team is unknown: neither the "knows nothing" rules (Keras/fastai for quick
 * validation, the doubled learning curve) nor the "knows something" ones (familiarity,
 * switching cost) apply; team none applies the first kind only. */
Test(sensitivity, empty_team_means_unknown)
{
    recommend_into(res, "stage=prototype hardware=nvidia");
    double base_lc = weight_of(res, "learning_curve");
    cr_expect_float_eq(base_lc, 1.5, 1e-12, "prototype x1.5 only");
    cr_expect_eq(count_reasons(res, "Your team"), 0);
    cr_expect_eq(count_reasons(res, "Do you need zero-barrier"), 0);
    cr_expect_eq(count_reasons(res, "Is this a startup"), 1, "seed 003's startup default applies to an unknown team");
    recommend_into(other, "stage=prototype hardware=nvidia team=none");
    cr_expect_float_eq(weight_of(other, "learning_curve"), 3.0, 1e-12, "prototype x1.5, new to frameworks x2");
    cr_expect_eq(count_reasons(other, "Your team"), 0, "knowing no framework is no switching cost");
    cr_expect_eq(count_reasons(other, "Do you need zero-barrier"), 2, "Keras and fastai");
    cr_expect_eq(count_reasons(other, "Is this a startup"), 0);
    cr_expect(strcmp(other->ranking.items[0].id, "keras") == 0 || strcmp(other->ranking.items[0].id, "fastai") == 0,
              "a team new to frameworks validating an idea: %s", other->ranking.items[0].id);
}

/* The advice for base + each priority; the resolved answers differ in priority only. */
static void by_priority(const char *base, struct adv_result *by[3])
{
    static const char *const priorities[] = {"iteration", "cost", "stability"};
    char sets[256];
    for (int p = 0; p < 3; p++) {
        by[p] = calloc(1, sizeof *by[p]);
        snprintf(sets, sizeof sets, "%s priority=%s", base, priorities[p]);
        recommend_into(by[p], sets);
        if (p) same_answers_but(by[p], by[0], ANS_PRIORITY);
    }
}

/* Only priority changes: the weights follow docs/advisor.md, the ranking visibly moves, the
 * plan leans as documented, and hardware, serving hardware and memory do not move. */
Test(sensitivity, priority_moves_weights_ranking_and_plan)
{
    struct adv_result *by[3];
    /* The ranking, for a research team of unknown framework: JAX (training efficiency 8,
     * memory 8) rises when cost comes first, TensorFlow (maturity 8) when stability does. */
    by_priority("stage=research hardware=nvidia model_kind=nlp model_params=3e8 devices=4", by);
    cr_expect_float_eq(weight_of(by[0], "debugging"), 3.75, 1e-12, "1.5 (research) x 2.5 (iteration)");
    cr_expect_float_eq(weight_of(by[0], "ecosystem"), 3, 1e-12, "1.5 x 2");
    cr_expect_float_eq(weight_of(by[1], "training_efficiency"), 4, 1e-12);
    cr_expect_float_eq(weight_of(by[1], "memory_efficiency"), 2, 1e-12);
    cr_expect_float_eq(weight_of(by[2], "maturity"), 4, 1e-12);
    cr_expect_float_eq(weight_of(by[2], "maintenance_cost"), 2.5, 1e-12);
    cr_expect_gt(score_of(by[1], "jax") - score_of(by[0], "jax"), 30, "JAX under cost: %d tenths",
                 score_of(by[1], "jax") - score_of(by[0], "jax"));
    cr_expect_gt(score_of(by[2], "tensorflow") - score_of(by[0], "tensorflow"), 15);
    cr_expect_lt(score_of(by[1], "pytorch") - score_of(by[0], "pytorch"), -30, "PyTorch needs tuning (training efficiency 6)");
    cr_expect_lt(score_of(by[0], "jax"), score_of(by[0], "keras"));
    cr_expect_gt(score_of(by[1], "jax"), score_of(by[1], "keras"), "the order changes, not just the numbers");
    for (int p = 0; p < 3; p++) free(by[p]);

    /* The plan, for a PyTorch team training and serving a 7B LLM on 8 GPUs: stability leans to
     * PyTorch's own FSDP2, cost to ZeRO-2 (DDP-sized communication) and TensorRT-LLM's
     * throughput, iteration takes vLLM. */
    by_priority("stage=production hardware=nvidia team=pytorch devices=8 model_kind=llm model_params=7e9 deploy=server", by);
    cr_expect_float_eq(weight_of(by[1], "memory_efficiency"), 4, 1e-12, "2 (LLM >= 1B) x 2 (cost)");
    cr_expect_float_eq(weight_of(by[1], "maintenance_cost"), 2.25, 1e-12, "1.5 (production) x 1.5 (cost)");
    cr_expect_float_eq(weight_of(by[2], "maturity"), 8, 1e-12, "2 (production) x 4 (stability)");
    cr_expect_str_eq(by[2]->strategy, "fsdp");
    cr_expect_str_eq(by[1]->strategy, "zero2");
    cr_expect_str_eq(by[1]->runtime, "tensorrt-llm");
    cr_expect_str_eq(by[0]->runtime, "vllm");
    for (int p = 1; p < 3; p++) {
        cr_expect_str_eq(answers_str(&by[p]->answers, ANS_DEPLOY_HARDWARE), "nvidia");
        cr_expect_float_eq(answers_num(&by[p]->answers, ANS_DEVICE_MEMORY_GB), answers_num(&by[0]->answers, ANS_DEVICE_MEMORY_GB), 1e-9);
        cr_expect_str_eq(by[p]->ranking.items[0].id, "pytorch", "the team's framework stays first");
    }
    for (int p = 0; p < 3; p++) free(by[p]);
}

/* Only deploy_hardware changes: the runtime follows the serving hardware; the ranking (for
 * frameworks that reach both), the strategy and the memory plan do not move. */
Test(sensitivity, deploy_hardware_moves_the_runtime_only)
{
    static const struct { const char *hw, *runtimes; } llm[] = {
        {"auto", "vllm"}, {"nvidia", "vllm"}, {"amd", "vllm,sglang"}, {"tpu", "vllm,jetstream"},
        {"ascend", "vllm,mindie"}, {"intel", "vllm,openvino"}, {"cpu", "vllm,sglang"},
    };
    const char *base = "stage=production hardware=nvidia team=pytorch devices=8 model_kind=llm model_params=7e9 deploy=server";
    char sets[256];
    recommend_into(other, base);
    for (size_t i = 0; i < sizeof llm / sizeof llm[0]; i++) {
        snprintf(sets, sizeof sets, "%s deploy_hardware=%s", base, llm[i].hw);
        recommend_into(res, sets);
        char want[64];
        snprintf(want, sizeof want, ",%s,", llm[i].runtimes);
        char got[64];
        snprintf(got, sizeof got, ",%s,", res->runtime);
        cr_expect(strstr(want, got) != NULL, "LLM served on %s: %s, want %s", llm[i].hw, res->runtime, llm[i].runtimes);
        cr_expect_str_eq(res->strategy, other->strategy);
        cr_expect_float_eq(res->memory.total_gb, other->memory.total_gb, 1e-9);
        cr_expect_str_eq(res->ranking.items[0].id, "pytorch");
        cr_expect_eq(score_of(res, "pytorch"), score_of(other, "pytorch"), "%s", llm[i].hw);
        cr_expect_neq(strcmp(res->runtime, "triton"), 0);
    }
    static const struct { const char *hw, *runtime; } edge[] = {
        {"cpu", "executorch"}, {"nvidia", "tensorrt"}, {"intel", "openvino"}, {"apple", "coreml"}, {"qualcomm", "executorch"},
    };
    const char *vision = "stage=production hardware=nvidia team=pytorch model_kind=vision model_params=5e6 deploy=edge";
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
        snprintf(sets, sizeof sets, "%s deploy_hardware=%s", vision, edge[i].hw);
        recommend_into(res, sets);
        cr_expect_str_eq(res->runtime, edge[i].runtime, "edge on %s", edge[i].hw);
        cr_expect_str_eq(res->strategy, "single");
    }
}
