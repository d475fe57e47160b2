/* The job kind: how `job` is derived when left out, the tokens each job defaults to, the bad
 * values and combinations of the new keys, a fine-tune's batch in sequences (and the launch
 * files' accumulation steps it gives), the serving-only answer with no training plan in the plan,
 * JSON, HTML and verdict, QLoRA's back-end per hardware, and offload counted on the trainable
 * parameters only. Every number is worked by hand beside it. GB are 10^9 bytes. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/html.h"
#include "knowledge/advisor_kb.h"
#include "knowledge/launch_files.h"
#include "knowledge/report_html.h"
#include "tests/support.h"

static struct ts_advisor fx;
static char err[1024];

static void setup(void) { cr_assert_eq(ts_advisor_open(&fx, err, sizeof err), 0, "%s", err); }
static void teardown(void) { ts_advisor_close(&fx); }

TestSuite(job, .init = setup, .fini = teardown);

/* The plan of sets (KEY=VALUE separated by spaces), on no probe run. */
static const struct adv_result *plan(const char *sets)
{
    struct answers a;
    cr_assert_eq(ts_answers_sets(&a, sets, err, sizeof err), 0, "%s: %s", sets, err);
    struct adv_hw hw;
    memset(&hw, 0, sizeof hw);
    cr_assert_eq(adv_recommend(fx.akb, &a, &hw, fx.res, err, sizeof err), KB_OK, "%s: %s", sets, err);
    return fx.res;
}

static const char *job_of(const char *sets) { return answers_str(&plan(sets)->answers, ANS_JOB); }

Test(job, derived_from_the_answers_on_both_sides_of_each_rule)
{
    /* finetune lora or qlora, dataset_tokens or epochs: fine-tuning */
    cr_expect_str_eq(job_of("model_kind=llm finetune=lora"), "finetune");
    cr_expect_str_eq(job_of("model_kind=llm finetune=qlora deploy=server"), "finetune", "fine-tuning asked outweighs deploy");
    cr_expect_str_eq(job_of("model_kind=llm dataset_tokens=1e7"), "finetune");
    /* finetune full is every parameter trained: today's pre-training plan unless job says otherwise */
    cr_expect_str_eq(job_of("model_kind=llm finetune=full"), "pretrain");
    /* a deploy target without tokens or fine-tuning: serving only; with tokens: training */
    cr_expect_str_eq(job_of("model_kind=llm deploy=server"), "serve");
    cr_expect_str_eq(job_of("model_kind=vision deploy=mobile"), "serve");
    cr_expect_str_eq(job_of("model_kind=llm deploy=server tokens=1e9"), "pretrain");
    cr_expect_str_eq(job_of("model_kind=llm deploy=server finetune=full"), "pretrain", "finetune given is training asked");
    cr_expect_str_eq(job_of("model_kind=llm deploy=none"), "pretrain");
    cr_expect_str_eq(job_of("model_kind=llm"), "pretrain");
    cr_expect(fx.res->job_derived);
    /* answered: taken as it is */
    cr_expect_str_eq(job_of("model_kind=llm deploy=server job=pretrain"), "pretrain");
    cr_expect(!fx.res->job_derived);
    cr_expect_eq(fx.res->job, ADV_JOB_PRETRAIN);
}

Test(job, tokens_default_by_job)
{
    /* a fine-tune: dataset_tokens x epochs = 1e7 x 3 = 3e7; epochs left out counts 1 */
    cr_expect_float_eq(answers_num(&plan("model_kind=llm dataset_tokens=1e7 epochs=3")->answers, ANS_TOKENS), 3e7, 1);
    cr_expect_float_eq(answers_num(&plan("model_kind=llm finetune=lora dataset_tokens=2.5e6")->answers, ANS_TOKENS), 2.5e6, 1);
    /* a fine-tune without a data set has no invented tokens, nor has serving */
    cr_expect(!answers_has(&plan("model_kind=llm model_params=7e9 finetune=lora")->answers, ANS_TOKENS));
    cr_expect(!fx.res->has_hours);
    cr_expect(!answers_has(&plan("model_kind=llm model_params=7e9 deploy=server")->answers, ANS_TOKENS));
    /* pre-training keeps Chinchilla's 20 per parameter: 20 x 7e9 = 1.4e11 */
    cr_expect_float_eq(answers_num(&plan("model_kind=llm model_params=7e9")->answers, ANS_TOKENS), 1.4e11, 1);
}

/* The line a bad assignment or combination gives (empty when it is taken). */
static const char *refusal(const char *sets)
{
    struct answers a;
    err[0] = '\0';
    if (ts_answers_sets(&a, sets, err, sizeof err) != 0) return err;
    answers_fill_defaults(&a);
    if (answers_check_combination(&a, err, sizeof err) != 0) return err;
    return "";
}

Test(job, bad_values_and_combinations_name_the_keys)
{
    cr_expect(strstr(refusal("job=train"), "'job'"), "%s", err);
    cr_expect(strstr(refusal("epochs=0"), "'epochs'"), "%s", err);
    cr_expect(strstr(refusal("dataset_tokens=-5"), "'dataset_tokens'"), "%s", err);
    cr_expect_str_eq(refusal("dataset_tokens=1 epochs=0.5"), "", "just above zero is taken");
    cr_expect(strstr(refusal("epochs=2"), "keys 'epochs' and 'dataset_tokens'"), "%s", err);
    cr_expect(strstr(refusal("tokens=1e9 dataset_tokens=1e7"), "keys 'tokens' and 'dataset_tokens'"), "%s", err);
    cr_expect(strstr(refusal("job=pretrain dataset_tokens=1e7"), "keys 'dataset_tokens' and 'job'"), "%s", err);
    cr_expect(strstr(refusal("job=serve epochs=2 dataset_tokens=1e7"), "'job'"), "%s", err);
    cr_expect_str_eq(refusal("job=finetune dataset_tokens=1e7 epochs=2"), "");
}

Test(job, the_command_line_exits_3_naming_the_key)
{
    char db[512];
    snprintf(db, sizeof db, "--db=%s/job-kb.sqlite3", fx.kb.dir);
    struct ts_run r;
    cr_assert_eq(ts_run(&r, NULL, NULL, (const char *const[]){db, "recommend", "--probe", "none", "--set", "job=train", NULL}), 0);
    cr_expect_eq(r.status, 3, "%s", r.err);
    cr_expect(strstr(r.err, "job"), "%s", r.err);
    ts_run_free(&r);
}

Test(job, the_text_of_serving_only_puts_the_serving_plan_first)
{
    char db[512];
    snprintf(db, sizeof db, "--db=%s/job-kb.sqlite3", fx.kb.dir);
    struct ts_run r;
    cr_assert_eq(ts_run(&r, NULL, NULL, (const char *const[]){db, "recommend", "--probe", "none", "--set", "model_kind=llm",
                                                                "--set", "model_params=70B", "--set", "accelerator=h100-sxm",
                                                                "--set", "devices=8", "--set", "deploy=server", NULL}),
                 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    const char *serving = strstr(r.out, "Serving plan (job serve: no training planned)"), *ranking = strstr(r.out, "Ranking");
    cr_expect(serving && ranking && serving < ranking, "%s", r.out);
    cr_expect(!strstr(r.out, "Distributed training:") && !strstr(r.out, "Time:") && !strstr(r.out, "Offload"), "%s", r.out);
    cr_expect(strstr(r.out, "Training: none: job serve"), "%s", r.out);
    ts_run_free(&r);
}

/* 70B QLoRA on one 24 GB card with seq_len 512 plans ZeRO-3 with offload, whose ds_config.json
 * held gradient_accumulation_steps 7813 (4e6 tokens / 512 = 7812.5) from the pre-training batch. */
#define QLORA_70B "model_kind=llm model_params=7e10 finetune=qlora hardware=nvidia devices=1 device_memory_gb=24 seq_len=512"

Test(job, a_fine_tune_steps_on_16_sequences)
{
    const struct adv_result *r = plan(QLORA_70B " dataset_tokens=1e7");
    cr_assert_str_eq(r->memory.strategy, "zero3-offload");
    /* 16 sequences (the Guanaco runs: 4 per device x 4 accumulated) x 512 tokens = 8192 tokens */
    cr_expect_float_eq(r->batch_sequences, 16, 1e-9);
    cr_expect_float_eq(r->memory.layout.batch_tokens, 8192, 1e-6);
    /* 16 sequences / (micro-batch 1 x dp 1) = 16 micro-batches per step */
    cr_expect_float_eq(r->memory.layout.micro_batches, 16, 1e-9);
    /* ceil(1e7 / 8192) = ceil(1220.7) = 1221 optimizer steps */
    cr_expect_float_eq(r->optimizer_steps, 1221, 1e-9);
    struct launch_files f;
    cr_assert_eq(launch_files_make(fx.akb, r, NULL, &f, err, sizeof err), 0, "%s", err);
    int found = 0;
    for (int i = 0; i < f.count; i++) {
        if (strcmp(f.files[i].name, "ds_config.json") != 0) continue;
        cJSON *doc = cJSON_Parse(f.files[i].text);
        cr_assert_not_null(doc);
        cr_expect_eq(cJSON_GetObjectItem(doc, "gradient_accumulation_steps")->valueint, 16, "was 7813");
        cr_expect_null(cJSON_GetObjectItem(doc, "train_batch_size"), "DeepSpeed derives it from the world size");
        cr_expect_eq(cJSON_GetObjectItem(doc, "train_micro_batch_size_per_gpu")->valueint, 1);
        cJSON_Delete(doc);
        found = 1;
    }
    cr_expect(found, "a ds_config.json for zero3-offload");
    launch_files_free(&f);
}

Test(job, pre_training_keeps_its_batch_in_tokens)
{
    /* the same answers as a pre-training run: 4e6 tokens / 512 = 7812.5 micro-batches, no steps shown */
    const struct adv_result *r = plan(QLORA_70B " job=pretrain tokens=1e7");
    cr_expect_float_eq(r->batch_sequences, 0, 1e-9);
    cr_expect_float_eq(r->memory.layout.micro_batches, 7812.5, 1e-6);
    cr_expect_float_eq(r->optimizer_steps, 0, 1e-9, "steps are a fine-tune's figure");
}

Test(job, serving_only_has_no_training_plan)
{
    const struct adv_result *r = plan("model_kind=llm model_params=7e10 deploy=server hardware=nvidia devices=8");
    cr_assert_eq(r->job, ADV_JOB_SERVE);
    cr_expect(!r->has_hours, "no training time");
    cr_expect_float_eq(r->memory.total_gb, 0, 1e-12, "no training memory");
    cr_expect_float_eq(r->memory.cpu_gb, 0, 1e-12, "no offload");
    cr_expect_eq(r->nwarnings, 0, "no training warning (a 20-tokens-per-parameter run, offload)");
    cr_expect(r->inference.planned);
    /* 140 GB of bf16 weights on 80 GB cards: tensor parallel 4 (35 GB each) */
    cr_expect_eq(r->inference.tensor_parallel, 4);
    char verdict[400];
    adv_plan_verdict(r, verdict, sizeof verdict);
    cr_expect(strncmp(verdict, "Serving only", 12) == 0, "%s", verdict);
    cr_expect(!strstr(verdict, "Time:"), "%s", verdict);

    cJSON *doc = adv_report_json(fx.akb, r, "2026-12-02T00:00:00Z");
    cr_assert_not_null(doc);
    const cJSON *p = cJSON_GetObjectItem(doc, "plan"), *tr = cJSON_GetObjectItem(p, "training");
    cr_expect(cJSON_IsNull(cJSON_GetObjectItem(p, "memory")));
    cr_expect(cJSON_IsNull(cJSON_GetObjectItem(p, "time")));
    cr_expect_str_eq(cJSON_GetObjectItem(p, "job")->valuestring, "serve");
    cr_expect(cJSON_IsFalse(cJSON_GetObjectItem(tr, "planned")));
    cr_expect(cJSON_IsString(cJSON_GetObjectItem(tr, "reason")));
    struct html h;
    memset(&h, 0, sizeof h);
    cr_assert_eq(adv_report_html(doc, &h), 0);
    cr_expect(strstr(h.data, "<section id=\"training\">"), "the page says there is no training plan");
    cr_expect(!strstr(h.data, "<section id=\"memory\">") && !strstr(h.data, "<section id=\"time\">"));
    cr_expect(strstr(h.data, "<section id=\"inference\">") < strstr(h.data, "<section id=\"ranking\">"), "serving first");
    html_free(&h);
    cJSON_Delete(doc);
}

Test(job, the_same_answers_with_tokens_plan_training)
{
    const struct adv_result *r = plan("model_kind=llm model_params=7e10 deploy=server hardware=nvidia devices=8 tokens=1e9");
    cr_expect_eq(r->job, ADV_JOB_PRETRAIN);
    cr_expect(r->has_hours);
    cr_expect_gt(r->memory.total_gb, 0);
    cJSON *doc = adv_report_json(fx.akb, r, "2026-12-02T00:00:00Z");
    const cJSON *p = cJSON_GetObjectItem(doc, "plan");
    cr_expect(cJSON_IsObject(cJSON_GetObjectItem(p, "memory")));
    cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(p, "training"), "planned")));
    cJSON_Delete(doc);
}

/* A framework's "Cannot fit" reason (the ranking's coarse check), or NULL. */
static const struct adv_reason *cannot_fit(const struct adv_result *r, const char *framework)
{
    for (int i = 0; i < r->ranking.count; i++) {
        const struct adv_framework *f = &r->ranking.items[i];
        if (strcmp(f->id, framework) != 0) continue;
        for (int k = 0; k < f->nreasons; k++)
            if (strncmp(f->reasons[k].label, "Cannot fit", 10) == 0) return &f->reasons[k];
    }
    return NULL;
}

Test(job, ranking_counts_no_training_states_for_serving_and_the_frozen_base_for_qlora)
{
    /* 70B on one 80 GB card: training states of 16 bytes x 70e9 = 1120 GB do not fit ... */
    cr_expect_not_null(cannot_fit(plan("model_kind=llm model_params=7e10 hardware=nvidia devices=1 job=pretrain"), "pytorch"));
    /* ... serving it trains nothing */
    cr_expect_null(cannot_fit(plan("model_kind=llm model_params=7e10 hardware=nvidia devices=1 deploy=server"), "pytorch"));
    /* QLoRA's frozen base: 70e9 x 4.127 / 8 bytes = 36.1 GB fits 80 GB (it counted 140 GB), not 24 GB */
    cr_expect_null(cannot_fit(plan("model_kind=llm model_params=7e10 hardware=nvidia devices=1 finetune=qlora"), "pytorch"));
    cr_expect_not_null(cannot_fit(plan(QLORA_70B), "pytorch"));
}

Test(job, qlora_back_end_by_hardware)
{
    /* NVIDIA: bitsandbytes' own back-end, the plan as asked */
    const struct adv_result *r = plan("model_kind=llm model_params=7e9 finetune=qlora hardware=nvidia");
    cr_expect_float_eq(r->method_support, 1, 1e-9);
    cr_expect_eq(r->in.finetune, ADV_QLORA);
    cr_expect_eq(r->nwarnings, 0);
    /* Apple: 4-bit layers on slow MPS fallbacks: kept as QLoRA, with a warning naming MLX-LM's route */
    r = plan("model_kind=llm model_params=7e9 finetune=qlora hardware=apple");
    cr_expect_float_eq(r->method_support, 0.5, 1e-9);
    cr_expect_eq(r->in.finetune, ADV_QLORA);
    cr_expect(!r->method_replanned);
    cr_expect_str_eq(r->method_also, "mlx-lm-lora");
    /* TPU v5e with JAX: no 4-bit back-end, re-planned as LoRA, so its states are LoRA's to the byte */
    r = plan("model_kind=llm model_params=7e9 finetune=qlora accelerator=tpu-v5e team=jax");
    cr_expect_float_eq(r->method_support, 0, 1e-9);
    cr_expect_eq(r->in.finetune, ADV_LORA);
    cr_expect(r->method_replanned);
    double replanned = r->memory.model_states_gb;
    r = plan("model_kind=llm model_params=7e9 finetune=lora accelerator=tpu-v5e team=jax");
    cr_expect_float_eq(replanned, r->memory.model_states_gb, 1e-9);
    cr_expect_float_eq(r->method_support, -1, 1e-9, "LoRA asks nothing of a 4-bit back-end");
    /* Ascend: no released back-end either */
    cr_expect_eq(plan("model_kind=llm model_params=7e9 finetune=qlora hardware=ascend")->in.finetune, ADV_LORA);
}

Test(job, offload_counts_the_trainable_parameters_only)
{
    const struct adv_result *r = plan(QLORA_70B " dataset_tokens=1e7");
    cr_assert_str_eq(r->memory.strategy, "zero3-offload");
    /* zero3-offload keeps 24 bytes per trainable parameter in host memory, 24 x the adapters, not
     * 24 x 70e9 = 1680 GB; and under LoRA it moves the frozen base there too (offload_param, as
     * FSDP + QLoRA's CPU offload): the 4-bit base of the GPT-3-shaped 70B, 70e9 x 4.127 / 8 bytes =
     * 36.11 GB, leaving the device only the adapters' states. */
    double adapters = r->in.adapters, base = 70e9 * 4.127 / 8;
    cr_expect_float_eq(r->memory.cpu_gb, (24 * adapters + base) / 1e9, 1e-6);
    cr_expect_lt(r->memory.cpu_gb, 45);
    /* on the device: the adapters' 16-bit weights, ZeRO-3's 2 sharded bytes a parameter (d = 1) */
    cr_expect_float_eq(r->memory.model_states_gb, 2 * adapters / 1e9, 1e-6, "%g", r->memory.model_states_gb);
}
