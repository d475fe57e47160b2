/* The wizard asks what the job is: the job, the fine-tuning method and data set, the tokens, the
 * sequence length, the precision and the model (shipped, or a config.json), each only where it
 * applies, and the plan it gives is the one the command line gives for the same answers. No
 * terminal: the wizard's state is set as its keys would set it. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knowledge/model_config.h"
#include "tests/support.h"
#include "tui/app.h"

static int question_of(enum ans_index key)
{
    for (int q = 0; q < wiz_question_count; q++)
        if (wiz_questions[q].key == key) return q;
    cr_assert_fail("no question asks %s", ans_keys[key].name);
    return -1;
}

/* The own option of question q whose value is value (NULL: the one that leaves the key out). */
static int option_of(int q, const char *value)
{
    for (int i = 0; i < wizard_own_count(q); i++) {
        const char *v = wizard_own_option(q, i)->value;
        if (value ? v && strcmp(v, value) == 0 : !v) return i;
    }
    cr_assert_fail("question %s has no option %s", ans_keys[wiz_questions[q].key].name, value ? value : "(left out)");
    return -1;
}

static void choose(struct app *a, enum ans_index key, const char *value) { a->sel[question_of(key)] = option_of(question_of(key), value); }

static int asked(const struct app *a, enum ans_index key) { return wizard_asked(a, question_of(key)); }

/* The plan of the wizard's answers, into r. */
static void plan_of(struct app *a, struct adv_result *r)
{
    struct answers ans;
    char err[1024] = "";
    cr_assert_eq(wizard_build(a, &ans, -1, 0, err, sizeof err), 0, "%s", err);
    cr_assert_eq(adv_recommend(a->akb, &ans, &a->hw, r, err, sizeof err), KB_OK, "%s", err);
}

static void open_with(struct ts_wizard *t, const char *sets)
{
    struct answers loaded;
    char err[512] = "";
    cr_assert_eq(ts_answers_sets(&loaded, sets, err, sizeof err), 0, "%s", err);
    cr_assert_eq(ts_wizard_open(t, &loaded, err, sizeof err), 0, "%s", err);
}

/* The case: a 13B LLM on 8 H100s, fine-tuned with LoRA on a data set of 1B tokens. Left as
 * the wizard starts, the job is pre-training (20 tokens per parameter, months); with the job, the
 * method and the data set asked, the plan is the fine-tune the command line gives:
 *   tokens = dataset_tokens x 1 epoch = 1e9; a step is 16 sequences of 2,048 = 32,768 tokens,
 *   so ceil(1e9 / 32,768) = ceil(30,517.6) = 30,518 optimizer steps;
 *   FLOPs = (4 x 13e9 frozen + 6 x 60.5M adapters + 5.16e9 attention) x 1e9 = 5.75e19 over
 *   8 x 989.4 TFLOP/s x 50% = 3.958e15 FLOP/s: 14,530 s = 4.04 hours, 32.3 device-hours. */
Test(wizard_job, a_13b_fine_tuned_on_8_h100_gets_the_fine_tuning_plan)
{
    struct ts_wizard t;
    open_with(&t, "accelerator=h100-sxm devices=8 model_kind=llm model_params=13B");
    struct app *a = t.app;
    struct adv_result *r = calloc(1, sizeof *r);
    cr_assert_not_null(r);
    cr_expect(asked(a, ANS_JOB) && asked(a, ANS_TOKENS) && asked(a, ANS_SEQ_LEN) && asked(a, ANS_PRECISION));
    cr_expect(!asked(a, ANS_FINETUNE) && !asked(a, ANS_DATASET_TOKENS) && !asked(a, ANS_EPOCHS), "derived: pre-training");
    plan_of(a, r);
    cr_expect_eq(r->job, ADV_JOB_PRETRAIN);
    cr_expect_eq(answers_num(&r->answers, ANS_TOKENS), 20 * 13e9, "Chinchilla's 20 per parameter: 2.6e11");
    cr_expect_gt(r->hours, 24 * 30, "a pre-training run of months: %g h", r->hours);

    choose(a, ANS_JOB, "finetune");
    cr_expect(asked(a, ANS_FINETUNE) && asked(a, ANS_DATASET_TOKENS) && asked(a, ANS_EPOCHS) && asked(a, ANS_SEQ_LEN));
    cr_expect(!asked(a, ANS_TOKENS), "tokens are asked for pre-training only");
    choose(a, ANS_FINETUNE, "lora");
    choose(a, ANS_DATASET_TOKENS, "1e9");
    plan_of(a, r);
    cr_expect_eq(r->job, ADV_JOB_FINETUNE);
    cr_expect_eq(r->job_derived, 0, "the job as answered");
    cr_expect_eq(r->in.finetune, ADV_LORA);
    cr_expect_eq(answers_num(&r->answers, ANS_TOKENS), 1e9);
    cr_expect_eq(r->optimizer_steps, 30518);
    cr_expect(r->has_hours && fabs(r->hours - 4.04) < 0.01, "%g hours", r->hours);
    cr_expect(fabs(r->device_hours - 32.3) < 0.1, "%g device-hours", r->device_hours);

    /* Two epochs: twice the tokens and the steps (ceil(2e9 / 32,768) = 61,036). */
    choose(a, ANS_EPOCHS, "2");
    plan_of(a, r);
    cr_expect_eq(answers_num(&r->answers, ANS_TOKENS), 2e9);
    cr_expect_eq(r->optimizer_steps, 61036);
    free(r);
    ts_wizard_close(&t);
}

/* Serving only: no training questions; fine-tuning and pre-training ask their own. */
Test(wizard_job, each_question_is_asked_only_where_it_applies)
{
    struct ts_wizard t;
    open_with(&t, "model_kind=vision");
    struct app *a = t.app;
    cr_expect(!asked(a, ANS_MODEL), "shipped models are LLMs");
    cr_expect(asked(a, ANS_MODEL_PARAMS));
    cr_expect(!asked(a, ANS_DEPLOY_HARDWARE) && !asked(a, ANS_DEPLOY_DEVICE), "deploy none");
    choose(a, ANS_JOB, "serve");
    cr_expect(!asked(a, ANS_TOKENS) && !asked(a, ANS_SEQ_LEN) && !asked(a, ANS_FINETUNE) && !asked(a, ANS_DATASET_TOKENS));
    cr_expect(asked(a, ANS_PRECISION));
    choose(a, ANS_DEPLOY, "server");
    cr_expect(asked(a, ANS_DEPLOY_HARDWARE) && !asked(a, ANS_DEPLOY_DEVICE), "a GPU server's memory is the device's");
    choose(a, ANS_DEPLOY_HARDWARE, "cpu");
    cr_expect(asked(a, ANS_DEPLOY_DEVICE), "a CPU server's RAM");
    choose(a, ANS_DEPLOY, "mobile");
    cr_expect(asked(a, ANS_DEPLOY_DEVICE));
    /* The device is asked for every target of a known size, each on its own: a phone, a board,
     * a browser tab, a CPU server; not for a GPU server nor without a target. */
    static const struct {
        const char *deploy, *hardware;
        int device_asked;
    } targets[] = {
        {"mobile", "cpu", 1}, {"edge", "cpu", 1},    {"browser", "cpu", 1}, {"server", "cpu", 1},
        {"server", "nvidia", 0}, {"none", "cpu", 0}, {"edge", "nvidia", 1},
    };
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        choose(a, ANS_DEPLOY, targets[i].deploy);
        if (strcmp(targets[i].deploy, "none") != 0) choose(a, ANS_DEPLOY_HARDWARE, targets[i].hardware);
        cr_expect_eq(asked(a, ANS_DEPLOY_DEVICE), targets[i].device_asked, "deploy %s on %s", targets[i].deploy,
                     targets[i].hardware);
    }
    ts_wizard_close(&t);

    /* Left derived, the job follows the answers: a deployment without tokens is serving only,
     * a LoRA method loaded is a fine-tune. */
    open_with(&t, "deploy=server");
    cr_expect(!asked(t.app, ANS_TOKENS) && !asked(t.app, ANS_SEQ_LEN) && !asked(t.app, ANS_FINETUNE));
    choose(t.app, ANS_DEPLOY, "none");
    cr_expect(asked(t.app, ANS_TOKENS) && !asked(t.app, ANS_FINETUNE), "no target: pre-training");
    ts_wizard_close(&t);
    open_with(&t, "finetune=qlora model_kind=llm");
    cr_expect(asked(t.app, ANS_FINETUNE) && asked(t.app, ANS_DATASET_TOKENS) && !asked(t.app, ANS_TOKENS));
    cr_expect_eq(t.app->sel[question_of(ANS_FINETUNE)], option_of(question_of(ANS_FINETUNE), "qlora"), "the loaded method");
    ts_wizard_close(&t);
}

/* The wizard on an LLM planned on H100s, at the model question. */
static int at_the_model_question(struct ts_wizard *t)
{
    open_with(t, "model_kind=llm accelerator=h100-sxm");
    int q = question_of(ANS_MODEL);
    t->app->q = q;
    cr_expect(asked(t->app, ANS_MODEL) && asked(t->app, ANS_MODEL_PARAMS), "no model chosen yet: the size is asked");
    return q;
}

/* A shipped model gives the shape and the size: the size question is not asked, and the plan
 * counts the model's parameters (Llama 3.1 8B: 8.03B, as tests/test_model_shape.c pins). */
Test(wizard_job, a_shipped_model_replaces_the_size_question)
{
    struct ts_wizard t;
    int q = at_the_model_question(&t);
    struct app *a = t.app;
    cr_assert_eq(wizard_option_count(a, q), 1 + (int)model_known_count() + 1, "left out, the models, a config.json file");
    char buf[256];
    int m = model_known_find("llama-3.1-8b");
    cr_assert_geq(m, 0);
    cr_expect_str_eq(wizard_option_label(a, q, 1 + m, buf, sizeof buf), "llama-3.1-8b, 8.03B parameters");
    cr_expect_str_eq(wizard_option_label(a, q, wizard_option_count(a, q) - 1, buf, sizeof buf),
                     "A Hugging Face config.json file... (type its path)");
    a->sel[q] = 1 + m;
    cr_expect(!asked(a, ANS_MODEL_PARAMS), "the model gives the size");
    struct adv_result *r = calloc(1, sizeof *r);
    cr_assert_not_null(r);
    plan_of(a, r);
    cr_expect_str_eq(answers_str(&r->answers, ANS_MODEL), "llama-3.1-8b");
    cr_expect(fabs(answers_num(&r->answers, ANS_MODEL_PARAMS) - 8.03e9) < 0.01e9, "%g", answers_num(&r->answers, ANS_MODEL_PARAMS));
    cr_expect_eq(answers_num(&r->answers, ANS_LAYERS), 32);
    free(r);
    ts_wizard_close(&t);
}

/* The wizard refuses what the validator refuses, on the question it is about: an epoch count
 * without a data set, FP8 on a device without it, a phone for an edge target. */
Test(wizard_job, the_new_questions_refuse_what_the_answers_refuse)
{
    struct ts_wizard t;
    open_with(&t, "model_kind=llm accelerator=a100-sxm4-80gb job=finetune");
    struct app *a = t.app;
    a->q = question_of(ANS_EPOCHS);
    choose(a, ANS_EPOCHS, "3");
    wizard_key(a, '\n');
    cr_expect_eq(a->q, question_of(ANS_EPOCHS), "kept: %s", a->message);
    cr_expect(strstr(a->message, "keys 'epochs' and 'dataset_tokens'") != NULL, "'%s'", a->message);
    choose(a, ANS_DATASET_TOKENS, "1e8");
    a->message[0] = '\0';
    wizard_key(a, '\n');
    cr_expect_neq(a->q, question_of(ANS_EPOCHS), "with a data set it goes on: %s", a->message);

    a->q = question_of(ANS_PRECISION);
    choose(a, ANS_PRECISION, "fp8");
    wizard_key(a, '\n');
    cr_expect_eq(a->q, question_of(ANS_PRECISION), "A100 has no FP8: kept");
    cr_expect(strstr(a->message, "keys 'precision' and 'accelerator'") != NULL, "'%s'", a->message);
    choose(a, ANS_PRECISION, "bf16");
    wizard_key(a, '\n');
    cr_expect_neq(a->q, question_of(ANS_PRECISION), "%s", a->message);

    choose(a, ANS_DEPLOY, "edge");
    a->q = question_of(ANS_DEPLOY_DEVICE);
    choose(a, ANS_DEPLOY_DEVICE, "phone");
    a->message[0] = '\0';
    wizard_key(a, '\n');
    cr_expect_eq(a->q, question_of(ANS_DEPLOY_DEVICE), "a phone for an edge target: kept");
    cr_expect(strstr(a->message, "keys 'deploy_device' and 'deploy'") != NULL, "'%s'", a->message);
    struct answers out;
    char err[512];
    cr_assert_eq(wizard_build(a, &out, -1, 0, err, sizeof err), 0, "%s", err);
    cr_expect_str_eq(answers_str(&out, ANS_DEPLOY), "edge", "the target is not dropped for the device");
    /* The target changed back there: the device that no longer goes with it starts again. */
    a->q = question_of(ANS_DEPLOY);
    wizard_key(a, '\n');
    cr_expect_eq(a->q, question_of(ANS_DEPLOY_HARDWARE), "%s", a->message);
    cr_expect_eq(a->sel[question_of(ANS_DEPLOY_DEVICE)], option_of(question_of(ANS_DEPLOY_DEVICE), "auto"));
    ts_wizard_close(&t);
}

/* A config.json path: read with the command line's reader; a bad file is said in one line and
 * the question stays; a good one gives the shape (Llama 2 13B's 40 layers, 13.0B parameters:
 * 40 x (4 x 5120^2 + 3 x 5120 x 13824) + 2 x 32000 x 5120 + norms = 13.016B). */
Test(wizard_job, a_config_file_gives_the_shape_and_a_bad_one_keeps_the_question)
{
    struct ts_wizard t;
    int q = at_the_model_question(&t);
    struct app *a = t.app;
    a->sel[q] = wizard_option_count(a, q) - 1; /* the config.json file... */
    char *dir = ts_tmpdir(), *bad = ts_path(dir, "bad.json"), *good = ts_path(dir, "config.json");
    ts_write_str(bad, "{\"hidden_size\": 5120}");
    ts_write_str(good, "{\"hidden_size\": 5120, \"intermediate_size\": 13824, \"num_hidden_layers\": 40, "
                       "\"num_attention_heads\": 40, \"num_key_value_heads\": 40, \"vocab_size\": 32000}");
    wizard_key(a, '\n');
    cr_assert(a->prompt.open, "Enter opens the path field");
    a->prompt.done(a, bad);
    cr_expect(a->message_bad && strstr(a->message, "field 'intermediate_size' is missing") != NULL, "'%s'", a->message);
    cr_expect(!strchr(a->message, '\n'), "one line");
    cr_expect_eq(a->q, q, "the question stays");
    cr_expect(asked(a, ANS_MODEL_PARAMS), "no shape read");
    a->prompt.done(a, good);
    cr_expect_eq(a->sel[q], wizard_option_count(a, q) - 2, "the file read is chosen");
    cr_expect(!asked(a, ANS_MODEL_PARAMS), "the file gives the size");
    struct adv_result *r = calloc(1, sizeof *r);
    cr_assert_not_null(r);
    plan_of(a, r);
    cr_expect_eq(answers_num(&r->answers, ANS_LAYERS), 40);
    cr_expect(fabs(answers_num(&r->answers, ANS_MODEL_PARAMS) - 13.016e9) < 0.001e9, "%g", answers_num(&r->answers, ANS_MODEL_PARAMS));
    free(r);
    ts_rmtree(dir);
    free(bad), free(good), free(dir);
    ts_wizard_close(&t);
}

/* The adapters' layers are asked for LoRA and QLoRA only, and the plan counts the adapters on
 * the layers chosen (Llama 3.1 8B, rank 16, 32 layers of hidden 4,096, KV 1,024, MLP 14,336):
 *   Q and V: 16 x ((4,096 + 4,096) + (4,096 + 1,024)) x 32 = 6,815,744;
 *   every linear layer: 16 x (2 x 8,192 + 2 x 5,120 + 3 x 18,432) x 32 = 41,943,040. */
Test(wizard_job, the_adapters_layers_are_asked_for_lora_and_counted)
{
    struct ts_wizard t;
    open_with(&t, "model_kind=llm accelerator=h100-sxm devices=8 model=llama-3.1-8b job=finetune");
    struct app *a = t.app;
    cr_expect(asked(a, ANS_FINETUNE) && !asked(a, ANS_LORA_TARGETS), "a full fine-tune has no adapters");
    choose(a, ANS_FINETUNE, "lora");
    cr_expect(asked(a, ANS_LORA_TARGETS));
    choose(a, ANS_FINETUNE, "qlora");
    cr_expect(asked(a, ANS_LORA_TARGETS));
    choose(a, ANS_JOB, "pretrain");
    cr_expect(!asked(a, ANS_LORA_TARGETS), "pre-training has no adapters");
    choose(a, ANS_JOB, "finetune");
    choose(a, ANS_FINETUNE, "lora");
    cr_expect_eq(a->sel[question_of(ANS_LORA_TARGETS)], option_of(question_of(ANS_LORA_TARGETS), "all"), "the key's default");
    struct adv_result *r = calloc(1, sizeof *r);
    cr_assert_not_null(r);
    plan_of(a, r);
    cr_expect_eq(r->in.adapters, 41943040, "%.0f", r->in.adapters);
    choose(a, ANS_LORA_TARGETS, "qv");
    plan_of(a, r);
    cr_expect_eq(r->in.adapters, 6815744, "%.0f", r->in.adapters);
    free(r);
    ts_wizard_close(&t);
}

/* The architecture is asked for an LLM known by its size only; the experts and their routing for
 * a mixture of experts only, chosen or loaded. */
Test(wizard_job, the_shape_is_asked_for_an_llm_by_its_size_and_experts_for_moe)
{
    struct ts_wizard t;
    open_with(&t, "model_kind=vision");
    cr_expect(!asked(t.app, ANS_ARCH) && !asked(t.app, ANS_EXPERTS) && !asked(t.app, ANS_TOP_K), "not an LLM");
    ts_wizard_close(&t);
    int q = at_the_model_question(&t);
    struct app *a = t.app;
    cr_expect(asked(a, ANS_ARCH), "an LLM by its size");
    cr_expect_eq(a->sel[question_of(ANS_ARCH)], option_of(question_of(ANS_ARCH), NULL), "derived by default");
    cr_expect(!asked(a, ANS_EXPERTS) && !asked(a, ANS_TOP_K), "derived: a dense model");
    choose(a, ANS_ARCH, "llama");
    cr_expect(!asked(a, ANS_EXPERTS) && !asked(a, ANS_TOP_K));
    choose(a, ANS_ARCH, "moe");
    cr_expect(asked(a, ANS_EXPERTS) && asked(a, ANS_TOP_K));
    a->sel[q] = 1 + model_known_find("llama-3.1-8b");
    cr_expect(!asked(a, ANS_ARCH) && !asked(a, ANS_EXPERTS) && !asked(a, ANS_TOP_K), "the shipped model says its own shape");
    a->sel[q] = wizard_option_count(a, q) - 1;
    cr_expect(asked(a, ANS_ARCH) && asked(a, ANS_EXPERTS), "no file read yet: the size and the shape are asked");
    ts_wizard_close(&t);
    open_with(&t, "model_kind=llm experts=64 top_k=8");
    cr_expect(asked(t.app, ANS_EXPERTS) && asked(t.app, ANS_TOP_K), "loaded experts derive moe");
    cr_expect_eq(t.app->sel[question_of(ANS_EXPERTS)], option_of(question_of(ANS_EXPERTS), "64"));
    cr_expect_eq(t.app->sel[question_of(ANS_TOP_K)], option_of(question_of(ANS_TOP_K), "8"));
    ts_wizard_close(&t);
}

/* Mixtral's size (46.7B) on 8 H100s, as a mixture of 8 experts. */
static struct app *eight_experts(struct ts_wizard *t)
{
    open_with(t, "model_kind=llm accelerator=h100-sxm devices=8 model_params=4.67e10");
    choose(t->app, ANS_ARCH, "moe");
    choose(t->app, ANS_EXPERTS, "8");
    return t->app;
}

/* top_k above experts is refused on the top_k question, both keys named; a gpt3 architecture with
 * experts loaded is refused on the architecture's. */
Test(wizard_job, the_routing_refuses_more_experts_per_token_than_there_are)
{
    struct ts_wizard t;
    struct app *a = eight_experts(&t);
    a->q = question_of(ANS_TOP_K);
    wizard_key(a, '1');
    cr_assert(a->prompt.open, "a digit opens the number field");
    a->prompt.done(a, "16");
    a->message[0] = '\0';
    wizard_key(a, '\n');
    cr_expect_eq(a->q, question_of(ANS_TOP_K), "kept: %s", a->message);
    cr_expect(a->message_bad && strstr(a->message, "keys 'top_k' and 'experts'") != NULL, "'%s'", a->message);
    choose(a, ANS_EXPERTS, "16");
    a->message[0] = '\0';
    wizard_key(a, '\n');
    cr_expect_neq(a->q, question_of(ANS_TOP_K), "16 of 16 goes on: %s", a->message);
    ts_wizard_close(&t);

    open_with(&t, "model_kind=llm accelerator=h100-sxm model_params=4.67e10 experts=8");
    a = t.app;
    a->q = question_of(ANS_ARCH);
    choose(a, ANS_ARCH, "gpt3");
    wizard_key(a, '\n');
    cr_expect_eq(a->q, question_of(ANS_ARCH), "kept: %s", a->message);
    cr_expect(strstr(a->message, "keys 'arch' and 'experts'") != NULL, "'%s'", a->message);
    ts_wizard_close(&t);
}

/* Mixtral's size as a mixture of 8 experts, top-2, on 8 H100s, pre-trained: the plan routes
 * top-2 of 8 and takes Chinchilla's 20 tokens per parameter, 20 x 4.67e10 = 9.34e11. */
Test(wizard_job, a_mixture_of_experts_by_its_size_is_planned)
{
    struct ts_wizard t;
    struct app *a = eight_experts(&t);
    choose(a, ANS_TOP_K, "2");
    struct adv_result *r = calloc(1, sizeof *r);
    cr_assert_not_null(r);
    plan_of(a, r);
    cr_expect_str_eq(answers_str(&r->answers, ANS_ARCH), "moe");
    cr_expect_eq(r->in.experts, 8);
    cr_expect_eq(r->in.top_k, 2);
    cr_expect_eq(r->in.params, 4.67e10);
    cr_expect_eq(answers_num(&r->answers, ANS_TOKENS), 9.34e11, "%g", answers_num(&r->answers, ANS_TOKENS));
    /* By its size alone: 29.78% of it active, the share of the Mixtral-proportioned shape
     * (tests/test_model_shape.c derived_mixture_by_size): 4.67e10 x 13,769,445,376 /
     * 46,233,358,336 = 1.3908e10, and the experts beyond it split by expert parallelism. */
    cr_expect_float_eq(r->in.active, 1.39084e10, 1e6, "%.6g", r->in.active);
    cr_expect_float_eq(r->in.expert_params, 4.67e10 - r->in.active, 1, "%.6g", r->in.expert_params);
    choose(a, ANS_TOP_K, NULL);
    plan_of(a, r);
    cr_expect_eq(r->in.top_k, 2, "left out: the knowledge base's top-2");
    free(r);
    ts_wizard_close(&t);
}

/* A typed value for question `key`, as the number field takes it. */
static void type_in(struct app *a, enum ans_index key, const char *text)
{
    a->q = question_of(key);
    wizard_key(a, text[0]);
    cr_assert(a->prompt.open, "a digit opens the number field of %s", ans_keys[key].name);
    a->prompt.done(a, text);
}

/* The shape one by one: nothing beyond the hidden size is asked until one is typed; then the
 * layers, heads, key-value heads, MLP width, vocabulary and longest context, and for a mixture
 * each expert's width, the shared experts and the dense layers. Mixtral 8x7B typed in (hidden 4096,
 * 32 layers, 32 heads, 8 key-value heads, experts of 14,336, vocabulary 32,000) at its 46.7B: the
 * shape holds model_params, so expert parallelism splits its routed experts,
 * 32 x 8 x 3 x 4096 x 14336 = 45,097,156,608 parameters. */
Test(wizard_job, the_shape_is_asked_one_by_one_once_a_hidden_size_is_typed)
{
    static const enum ans_index detail[] = {ANS_LAYERS, ANS_HEADS, ANS_KV_HEADS, ANS_FFN_HIDDEN, ANS_VOCAB, ANS_MAX_POSITIONS};
    static const enum ans_index experts_detail[] = {ANS_EXPERT_FFN_HIDDEN, ANS_SHARED_EXPERTS, ANS_DENSE_LAYERS};
    struct ts_wizard t;
    struct app *a = eight_experts(&t);
    cr_expect(asked(a, ANS_HIDDEN), "an LLM by its size is offered its hidden size");
    for (size_t i = 0; i < sizeof detail / sizeof detail[0]; i++)
        cr_expect(!asked(a, detail[i]), "%s waits for a hidden size", ans_keys[detail[i]].name);
    for (size_t i = 0; i < sizeof experts_detail / sizeof experts_detail[0]; i++)
        cr_expect(!asked(a, experts_detail[i]), "%s waits for a hidden size", ans_keys[experts_detail[i]].name);
    type_in(a, ANS_HIDDEN, "4096");
    for (size_t i = 0; i < sizeof detail / sizeof detail[0]; i++)
        cr_expect(asked(a, detail[i]), "%s asked", ans_keys[detail[i]].name);
    for (size_t i = 0; i < sizeof experts_detail / sizeof experts_detail[0]; i++)
        cr_expect(asked(a, experts_detail[i]), "%s asked for a mixture", ans_keys[experts_detail[i]].name);
    type_in(a, ANS_LAYERS, "32");
    type_in(a, ANS_HEADS, "32");
    type_in(a, ANS_KV_HEADS, "8");
    type_in(a, ANS_FFN_HIDDEN, "14336");
    type_in(a, ANS_EXPERT_FFN_HIDDEN, "14336");
    type_in(a, ANS_VOCAB, "32000");
    choose(a, ANS_TOP_K, "2");
    struct adv_result *r = calloc(1, sizeof *r);
    cr_assert_not_null(r);
    plan_of(a, r);
    cr_expect_eq(r->hidden, 4096);
    cr_expect_eq(r->layers, 32);
    cr_expect_float_eq(r->in.shape.kv_heads, 8, 0);
    cr_expect_float_eq(r->in.shape.expert_ffn, 14336, 0);
    cr_expect_float_eq(r->in.expert_params, 45097156608.0, 1, "%.0f", r->in.expert_params);
    free(r);
    ts_wizard_close(&t);

    /* A dense Llama: no expert questions, whatever the hidden size. */
    open_with(&t, "model_kind=llm accelerator=h100-sxm devices=8 model_params=13B");
    a = t.app;
    choose(a, ANS_ARCH, "llama");
    type_in(a, ANS_HIDDEN, "5120");
    cr_expect(asked(a, ANS_FFN_HIDDEN) && !asked(a, ANS_EXPERT_FFN_HIDDEN) && !asked(a, ANS_DENSE_LAYERS));
    ts_wizard_close(&t);
}

/* A typed number that is one of the choices selects that choice; another number becomes the
 * question's given option. */
Test(wizard_job, a_typed_number_that_is_a_choice_selects_it)
{
    struct ts_wizard t;
    struct app *a = eight_experts(&t);
    int q = question_of(ANS_EXPERTS);
    a->custom[q][0] = '\0';
    type_in(a, ANS_EXPERTS, "16");
    cr_expect_eq(a->sel[q], option_of(q, "16"), "the option 16");
    cr_expect_str_eq(a->custom[q], "", "nothing given beside it");
    type_in(a, ANS_EXPERTS, "12");
    cr_expect_str_eq(a->custom[q], "12");
    cr_expect_geq(a->sel[q], wizard_own_count(q), "12 is no choice: the given option");
    ts_wizard_close(&t);
}

/* A Mac's memory is the machine's: asked on Apple Silicon only, and a 16 GB MacBook with an M5
 * plans against 16 GB (Apple's GPU working-set cap below it), not the chip's largest 32 GB; the
 * catalog's figure when left at its default. */
Test(wizard_job, a_mac_is_asked_its_memory_and_planned_with_it)
{
    struct ts_wizard t;
    open_with(&t, "model_kind=llm model_params=1B");
    struct app *a = t.app;
    struct adv_result *r = calloc(1, sizeof *r);
    cr_assert_not_null(r);
    choose(a, ANS_HARDWARE, "nvidia");
    cr_expect(!asked(a, ANS_DEVICE_MEMORY_GB), "NVIDIA: the device model says the memory");
    choose(a, ANS_HARDWARE, "apple");
    cr_expect(asked(a, ANS_DEVICE_MEMORY_GB));
    choose(a, ANS_OS, "macos");
    a->sel[question_of(ANS_ACCELERATOR)] = 0; /* the usual one, assumed */
    plan_of(a, r);
    double catalog = r->memory.device_memory_gb;
    cr_expect_gt(catalog, 16, "left at the catalog's: %g", catalog);
    choose(a, ANS_DEVICE_MEMORY_GB, "16");
    plan_of(a, r);
    cr_expect_float_eq(r->memory.device_memory_gb, 16, 1e-9);
    cr_expect_lt(r->memory.usable_gb, 16, "Apple's GPU working set below the machine's memory");
    free(r);
    ts_wizard_close(&t);
}
