/* The wizard: one question per screen for the answers that matter, each choice explained from
 * the seed articles, with a side panel that reranks the frameworks as the selection moves. */
#include "common/file.h"
#include "common/i18n.h"
#include "common/units.h"
#include "knowledge/model_answers.h"
#include "knowledge/model_config.h"
#include "knowledge/config_file.h"
#include "tui/app.h"
#include "tui/crt.h"
#include "tui/layout.h"
#include "common/text.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The options that leave out a key whose row offers none: the planner's choice, or a default. */
static const struct ans_choice by_size = {
    NULL, N_("Described by its size (asked next)"), N_("No known shape: the next question asks the parameters; the shape follows from them.")};
static const struct ans_choice per_parameter = {
    NULL, N_("Left out: 20 per parameter for an LLM"),
    N_("Chinchilla's 20 tokens per parameter (Hoffmann et al. 2022) for an LLM; other models get no time estimate.")};
static const struct ans_choice no_data_set = {
    NULL, N_("Not known yet"), N_("Without the data set's size the plan gives the memory and the layout, not the time.")};
static const struct ans_choice one_pass = {NULL, N_("One pass"), N_("Each token of the data set is seen once.")};
static const struct ans_choice planner_seq = {
    NULL, N_("The planner's (2,048)"), N_("Left out: the knowledge base's default sequence length, 2,048 tokens (GPT-3's).")};
static const struct ans_choice planner_precision = {
    NULL, N_("The device's best (auto)"), N_("Left out: BF16 where the device has it, else FP16; FP32 on CPUs.")};
static const struct ans_choice planner_top_k = {
    NULL, N_("The knowledge base's (top-2)"), N_("Left out: the knowledge base's moe_top_k, 2 experts per token (GShard's, Mixtral's).")};
static const struct ans_choice from_size = {
    NULL, N_("Derived from the size"), N_("Left out: the hidden size, layers and heads follow from the parameters (asked next only when a hidden size is typed).")};
static const struct ans_choice from_size_too = {
    NULL, N_("Derived from the size"), N_("Left out: follows from the parameters and the hidden size.")};
static const struct ans_choice as_heads = {
    NULL, N_("As many as the heads"), N_("Left out: multi-head attention, a key and a value head per query head.")};
static const struct ans_choice family_ffn = {
    NULL, N_("The architecture's"), N_("Left out: 4h for GPT-3 style, 8h/3 rounded up to 256 for Llama style and experts.")};
static const struct ans_choice as_ffn = {
    NULL, N_("As the dense MLP's"), N_("Left out: each expert is as wide as ffn_hidden (or the architecture's width).")};
static const struct ans_choice no_shared = {NULL, N_("None"), N_("Left out: every expert is routed (Mixtral); DeepSeek-V3 has 1 shared.")};
static const struct ans_choice all_moe = {NULL, N_("None"), N_("Left out: every layer has experts (Mixtral); DeepSeek-V3 keeps 3 dense.")};
static const struct ans_choice kb_vocab = {
    NULL, N_("The knowledge base's (32,000)"), N_("Left out: the knowledge base's vocab fact, Llama 2's 32,000 tokens.")};
static const struct ans_choice no_positions = {
    NULL, N_("Not known"), N_("Left out: a serving context is not checked against the model's longest.")};

static int fine_tunes(const struct app *a);
static int pretrains(const struct app *a);
static int trains(const struct app *a);
static int is_llm(const struct app *a);
static int size_not_given(const struct app *a);
static int adapters(const struct app *a);
static int shape_asked(const struct app *a);
static int experts_asked(const struct app *a);
static int shape_detailed(const struct app *a);
static int experts_detailed(const struct app *a);
static int deployed(const struct app *a);
static int on_a_mac(const struct app *a);
static int deployed_on_a_device(const struct app *a);

/* The order of the questions and when each is asked; their options are their keys' rows. */
const struct wiz_question wiz_questions[] = {
    {ANS_STAGE, N_("Project stage"), NULL, NULL, 0},
    {ANS_HARDWARE, N_("Hardware you train on"), NULL, NULL, 0},
    {ANS_ACCELERATOR, N_("Device model (memory)"), NULL, NULL, 0},
    {ANS_DEVICE_MEMORY_GB, N_("Memory of this Mac (GB, the CPU's and GPU's)"), on_a_mac, NULL, 0},
    {ANS_OS, N_("Operating system"), NULL, NULL, 0},
    {ANS_DEVICES, N_("Accelerators in total"), NULL, NULL, 0},
    {ANS_NODES, N_("Machines (nodes)"), NULL, NULL, 0},
    {ANS_MODEL_KIND, N_("Kind of model"), NULL, NULL, 0},
    {ANS_JOB, N_("What the job is"), NULL, NULL, 0},
    {ANS_FINETUNE, N_("Fine-tuning method"), fine_tunes, NULL, 0},
    {ANS_LORA_TARGETS, N_("Layers the adapters go on"), adapters, NULL, 0},
    {ANS_MODEL, N_("The model (shipped, or a config.json)"), is_llm, &by_size, 1},
    {ANS_MODEL_PARAMS, N_("Model size (parameters)"), size_not_given, NULL, 0},
    {ANS_ARCH, N_("Architecture of the model"), shape_asked, NULL, 1},
    {ANS_EXPERTS, N_("Experts per layer (mixture of experts)"), experts_asked, NULL, 0},
    {ANS_TOP_K, N_("Experts each token is routed to (top_k)"), experts_asked, &planner_top_k, 1},
    {ANS_HIDDEN, N_("Hidden size (optional: the shape one by one)"), shape_asked, &from_size, 0},
    {ANS_LAYERS, N_("Layers"), shape_detailed, &from_size_too, 0},
    {ANS_HEADS, N_("Attention heads"), shape_detailed, &from_size_too, 0},
    {ANS_KV_HEADS, N_("Key-value heads (grouped-query attention)"), shape_detailed, &as_heads, 0},
    {ANS_FFN_HIDDEN, N_("MLP width (ffn_hidden)"), shape_detailed, &family_ffn, 0},
    {ANS_EXPERT_FFN_HIDDEN, N_("Each expert's MLP width"), experts_detailed, &as_ffn, 0},
    {ANS_SHARED_EXPERTS, N_("Shared experts (always active)"), experts_detailed, &no_shared, 0},
    {ANS_DENSE_LAYERS, N_("Leading layers without experts"), experts_detailed, &all_moe, 0},
    {ANS_VOCAB, N_("Vocabulary size"), shape_detailed, &kb_vocab, 0},
    {ANS_MAX_POSITIONS, N_("Longest context the model takes"), shape_detailed, &no_positions, 0},
    {ANS_DATASET_TOKENS, N_("Fine-tuning data set (tokens)"), fine_tunes, &no_data_set, 0},
    {ANS_EPOCHS, N_("Passes over the data set (epochs)"), fine_tunes, &one_pass, 0},
    {ANS_TOKENS, N_("Training tokens (the run's total)"), pretrains, &per_parameter, 0},
    {ANS_SEQ_LEN, N_("Sequence length (tokens)"), trains, &planner_seq, 0},
    {ANS_PRECISION, N_("Precision"), NULL, &planner_precision, 1},
    {ANS_TEAM, N_("What the team knows (Space to tick several)"), NULL, NULL, 0},
    {ANS_FUNCTIONAL, N_("At home in functional programming?"), NULL, NULL, 0},
    {ANS_HIGHER_ORDER_GRAD, N_("Gradients of gradients (meta-learning)?"), NULL, NULL, 0},
    {ANS_DEPLOY, N_("Where the model runs"), NULL, NULL, 0},
    {ANS_DEPLOY_HARDWARE, N_("Hardware the model is served on"), deployed, NULL, 0},
    {ANS_DEPLOY_DEVICE, N_("Device the model must fit on"), deployed_on_a_device, NULL, 0},
    {ANS_PRIORITY, N_("What matters most"), NULL, NULL, 0},
    {ANS_PRICE_PER_DEVICE_HOUR, N_("Price per device-hour (optional)"), NULL, NULL, 0},
};
const int wiz_question_count = (int)(sizeof wiz_questions / sizeof wiz_questions[0]);
_Static_assert(sizeof wiz_questions / sizeof wiz_questions[0] <= sizeof ((struct app *)0)->sel / sizeof(int),
               "each question has its selection in struct app");

static const struct ans_key *key_of(int q) { return &ans_keys[wiz_questions[q].key]; }
/* team: several may be chosen, the frameworks of the knowledge base after the key's own words */
static int is_multi(int q) { return key_of(q)->type == ANS_ID_LIST; }
/* any number may be typed (K, M, B, T suffixes) besides the options */
static int is_numeric(int q) { return key_of(q)->type == ANS_INT || key_of(q)->type == ANS_NUMBER; }
/* The option before the key's choices that leaves the key out: its row's, else the question's. */
static const struct ans_choice *unset_of(int q) { return key_of(q)->unset ? key_of(q)->unset : wiz_questions[q].leave_out; }
static int unset_count(int q) { return unset_of(q) != NULL; }

int wizard_own_count(int q) { return unset_count(q) + key_of(q)->nchoices; }

const struct ans_choice *wizard_own_option(int q, int i)
{
    return i < unset_count(q) ? unset_of(q) : &key_of(q)->choices[i - unset_count(q)];
}

int wizard_default_option(int q)
{
    const struct ans_key *key = key_of(q);
    int choice = answers_default_choice(wiz_questions[q].key);
    if (choice >= 0) return unset_count(q) + choice;
    for (int i = 0; key->default_number > 0 && i < key->nchoices; i++)
        if (strtod(key->choices[i].value, NULL) == key->default_number) return unset_count(q) + i;
    return unset_count(q) ? 0 : -1;
}

static int question(enum ans_index key)
{
    for (int q = 0; q < wiz_question_count; q++)
        if (wiz_questions[q].key == key) return q;
    return -1;
}

/* The hardware choices, "auto" first: the vendors the catalog's devices are listed by. */
static const struct ans_key *const vendors = &ans_keys[ANS_HARDWARE];

/* The hardware the accelerator list follows: the hardware question's choice (tentative_sel when
 * that question is being previewed); NULL for auto, which lists every vendor's devices. */
static const char *chosen_hardware(const struct app *a, int tentative_q, int tentative_sel)
{
    int q = question(ANS_HARDWARE);
    int sel = q == tentative_q ? tentative_sel : a->sel[q];
    const char *v = sel < wizard_own_count(q) ? wizard_own_option(q, sel)->value : a->custom[q];
    return v && strcmp(v, "auto") == 0 ? NULL : v;
}

/* The device-model question lists the catalog's devices after its own option. */
static int is_catalog(int q) { return wiz_questions[q].key == ANS_ACCELERATOR; }

/* The order devices are listed in: by vendor as the hardware question lists them, then the
 * catalog's order. Returns the catalog entry of the k-th device of that hardware (NULL: all),
 * or -1. */
static int catalog_device(const struct app *a, const char *hardware, int k)
{
    const char *vendor;
    for (int v = 1; v < vendors->nchoices; v++) {
        if (hardware && strcmp(hardware, vendors->choices[v].value) != 0) continue;
        for (int i = 0; adv_kb_accelerator(a->akb, i, NULL, &vendor, NULL); i++)
            if (strcmp(vendor, vendors->choices[v].value) == 0 && k-- == 0) return i;
    }
    return -1;
}

/* How many devices catalog_device lists: one pass over the catalog per vendor. */
static int catalog_count(const struct app *a, int q, const char *hardware)
{
    if (!is_catalog(q)) return 0;
    const char *vendor;
    int n = 0;
    for (int v = 1; v < vendors->nchoices; v++) {
        if (hardware && strcmp(hardware, vendors->choices[v].value) != 0) continue;
        for (int i = 0; adv_kb_accelerator(a->akb, i, NULL, &vendor, NULL); i++) n += strcmp(vendor, vendors->choices[v].value) == 0;
    }
    return n;
}

/* The model question lists the shipped models after its own option, and a config.json file. */
static int is_model(int q) { return wiz_questions[q].key == ANS_MODEL; }

/* The options of question q, in order: its own, the catalog's devices or the shipped models, a
 * value loaded or typed that is none of them, the config.json read, and for a numeric question
 * "Another number..." (for the model "A config.json file..."). */
struct option_layout {
    int own, catalog, frameworks, models, custom, config, other; /* index of the first of each, -1 when absent */
    int count;
};

/* A multi-select question (team) offers its own choices and every framework of the knowledge base. */
_Static_assert(ADV_MAX_FRAMEWORKS + 2 <= 64, "a multi-select question's options fit its bits");

static struct option_layout layout_of(const struct app *a, int q)
{
    struct option_layout l = {0, -1, -1, -1, -1, -1, -1, wizard_own_count(q)};
    int ncat = catalog_count(a, q, chosen_hardware(a, -1, 0));
    if (ncat) l.catalog = l.count, l.count += ncat;
    if (is_multi(q)) l.frameworks = l.count, l.count += adv_kb_framework_count(a->akb);
    if (is_model(q)) l.models = l.count, l.count += (int)model_known_count();
    if (a->custom[q][0]) l.custom = l.count++;
    if (is_model(q) && a->config_path[0]) l.config = l.count++;
    if (is_numeric(q) || is_model(q)) l.other = l.count++;
    return l;
}

int wizard_option_count(const struct app *a, int q) { return layout_of(a, q).count; }

/* A given number as the options write theirs: "70B", "2,048", "2.5". */
static void number_label(const char *value, char *out, size_t n)
{
    double v;
    if (units_parse(value, &v)) snprintf(out, n, "%s", value);
    else if (v >= 1e5) units_short(v, out, n);
    else units_thousands(v, v == floor(v) ? 0 : 2, out, n);
}

/* How catalog device d is offered: "NVIDIA H100 SXM, 80 GB". */
static const char *device_label(const struct app *a, int d, char *buf, size_t n)
{
    const char *name;
    double mem;
    adv_kb_accelerator(a->akb, d, &name, NULL, &mem);
    snprintf(buf, n, "%s, %g GB", name, mem);
    return buf;
}

/* How shipped model m is offered: "llama-3.1-8b, 8.03B parameters". */
static const char *model_label(size_t m, char *buf, size_t n)
{
    char name[128], size[32], err[256];
    struct model_shape shape;
    model_known_name(m, name, sizeof name);
    if (model_known_shape(m, &shape, err, sizeof err)) snprintf(buf, n, "%s", name);
    else snprintf(buf, n, _("%s, %s parameters"), name, units_short(shape_total_params(&shape), size, sizeof size));
    return buf;
}

/* The config.json read, as its option: "config.json: PATH, 13B parameters (given)". */
static const char *config_label(const struct app *a, char *buf, size_t n)
{
    char size[32];
    snprintf(buf, n, _("%s, %s parameters (given)"), a->config_path, units_short(shape_total_params(&a->config), size, sizeof size));
    return buf;
}

const char *wizard_option_label(const struct app *a, int q, int i, char *buf, size_t n)
{
    struct option_layout l = layout_of(a, q);
    if (i < wizard_own_count(q)) return _(wizard_own_option(q, i)->label);
    if (i == l.other && is_model(q)) return _("A Hugging Face config.json file... (type its path)");
    if (i == l.other) return _("Another number... (type it: K, M, B, T allowed)");
    if (i == l.config) return config_label(a, buf, n);
    if (l.models >= 0 && i >= l.models && i < l.models + (int)model_known_count()) return model_label((size_t)(i - l.models), buf, n);
    if (l.frameworks >= 0 && i >= l.frameworks) return adv_kb_framework_name(a->akb, i - l.frameworks);
    if (i == l.custom) {
        char num[48];
        if (is_numeric(q)) number_label(a->custom[q], num, sizeof num);
        else snprintf(num, sizeof num, "%s", a->custom[q]);
        snprintf(buf, n, _("%s (given)"), num);
        return buf;
    }
    return device_label(a, catalog_device(a, chosen_hardware(a, -1, 0), i - l.catalog), buf, n);
}

const char *wizard_option_help(const struct app *a, int q, int i, char *buf, size_t n)
{
    struct option_layout l = layout_of(a, q);
    if (i < wizard_own_count(q)) return _(wizard_own_option(q, i)->help);
    if (i == l.other && is_model(q))
        return _("Enter opens a field for the path; its hidden_size, layers, heads, KV heads and experts give the shape.");
    if (i == l.other) return _("Enter, or a digit, opens a field: 2000, 2,048, 30B, 1.5T.");
    if (i == l.custom) return _("The value given in the answers file, or typed here.");
    if (i == l.config) return _("The shape read from this file (as recommend --model-config reads it).");
    if (l.models >= 0 && i >= l.models && i < l.models + (int)model_known_count()) {
        char source[256], text[200];
        model_known_description((size_t)(i - l.models), text, sizeof text);
        snprintf(buf, n, "%s (%s)", text, model_known_source((size_t)(i - l.models), source, sizeof source));
        return buf;
    }
    if (l.frameworks >= 0 && i >= l.frameworks) return adv_kb_local(a->akb, adv_kb_framework_summary(a->akb, i - l.frameworks));
    snprintf(buf, n, _("Planned with its memory, dense peaks and links (fwadvisor kb show %s)."),
             adv_kb_accelerator(a->akb, catalog_device(a, chosen_hardware(a, -1, 0), i - l.catalog), NULL, NULL, NULL));
    return buf;
}

/* The answer value of option i (NULL: leave the key to its default). */
static const char *option_value(const struct app *a, int q, int i, const char *hardware)
{
    struct option_layout l = layout_of(a, q);
    if (i < wizard_own_count(q)) return wizard_own_option(q, i)->value;
    if (i == l.custom) return a->custom[q];
    if (l.frameworks >= 0 && i >= l.frameworks) return adv_kb_framework_id(a->akb, i - l.frameworks);
    if (l.models >= 0 && i >= l.models && i < l.models + (int)model_known_count()) {
        static char name[128]; /* the interface runs on one thread */
        return model_known_name((size_t)(i - l.models), name, sizeof name);
    }
    if (i == l.other || l.catalog < 0) return NULL;
    int d = catalog_device(a, hardware, i - l.catalog);
    return d >= 0 ? adv_kb_accelerator(a->akb, d, NULL, NULL, NULL) : NULL;
}

int wizard_asked(const struct app *a, int q) { return !wiz_questions[q].asked || wiz_questions[q].asked(a); }

/* The value chosen for key: its question's option when that question is asked, NULL when it is
 * left out (or not asked). */
static const char *chosen(const struct app *a, enum ans_index key)
{
    int q = question(key);
    return q >= 0 && wizard_asked(a, q) ? option_value(a, q, a->sel[q], chosen_hardware(a, -1, 0)) : NULL;
}

static int chosen_is(const struct app *a, enum ans_index key, const char *value)
{
    const char *v = chosen(a, key);
    return v && strcmp(v, value) == 0;
}

/* The questions asked only for some jobs. */
static int for_a_job(int q)
{
    int (*asked)(const struct app *) = wiz_questions[q].asked;
    return asked == fine_tunes || asked == pretrains || asked == trains || asked == adapters;
}

static void build_one(const struct app *a, struct answers *out, int q, int sel, const char *hardware, char *err,
                      size_t errsz, int *refused);

/* The job in effect: the one chosen, else the one the answers derive (answers_derived_job) from
 * the loaded answers and the questions asked whatever the job (the deployment among them). */
static const char *job_in_effect(const struct app *a)
{
    const char *job = chosen(a, ANS_JOB);
    if (job) return job;
    struct answers built = a->base;
    char err[256];
    int refused = 0;
    for (int q = 0; q < wiz_question_count; q++)
        if (!for_a_job(q) && wiz_questions[q].key != ANS_JOB && wizard_asked(a, q))
            build_one(a, &built, q, a->sel[q], chosen_hardware(a, -1, 0), err, sizeof err, &refused);
    return answers_derived_job(&built);
}

static int fine_tunes(const struct app *a) { return strcmp(job_in_effect(a), "finetune") == 0; }
/* A Mac's memory is the machine's, not the chip's: asked on Apple Silicon only */
static int on_a_mac(const struct app *a)
{
    const char *hw = chosen_hardware(a, -1, 0);
    return hw && strcmp(hw, "apple") == 0;
}
static int pretrains(const struct app *a) { return strcmp(job_in_effect(a), "pretrain") == 0; }
static int trains(const struct app *a) { return strcmp(job_in_effect(a), "serve") != 0; }
static int is_llm(const struct app *a) { return chosen_is(a, ANS_MODEL_KIND, "llm"); }
/* The size is asked unless a shipped model or a config.json gives it. */
static int size_not_given(const struct app *a)
{
    int q = question(ANS_MODEL);
    return q < 0 || !wizard_asked(a, q) || a->sel[q] < wizard_own_count(q) || a->sel[q] == layout_of(a, q).other;
}
/* The adapters' layers: for a LoRA or QLoRA fine-tune. */
static int adapters(const struct app *a)
{
    return fine_tunes(a) && (chosen_is(a, ANS_FINETUNE, "lora") || chosen_is(a, ANS_FINETUNE, "qlora"));
}
/* The architecture: for an LLM known only by its size (a shipped model or a config.json says its own). */
static int shape_asked(const struct app *a) { return is_llm(a) && size_not_given(a); }
/* The experts and their routing: for a mixture of experts, chosen or derived from the loaded answers. */
static int experts_asked(const struct app *a)
{
    int q = question(ANS_ARCH);
    if (!wizard_asked(a, q)) return 0;
    const char *arch = chosen(a, ANS_ARCH);
    return arch ? strcmp(arch, "moe") == 0 : model_answers_arch(&a->base) == SHAPE_MOE;
}
/* The shape's other keys one by one, once a hidden size is typed for an LLM known by its size. */
static int shape_detailed(const struct app *a) { return shape_asked(a) && chosen(a, ANS_HIDDEN) != NULL; }
static int experts_detailed(const struct app *a) { return experts_asked(a) && shape_detailed(a); }
static int deployed(const struct app *a) { return !chosen_is(a, ANS_DEPLOY, "none"); }
/* A target of a known size: phones, edge boards, browsers, and servers without accelerators. */
static int deployed_on_a_device(const struct app *a)
{
    return chosen_is(a, ANS_DEPLOY, "mobile") || chosen_is(a, ANS_DEPLOY, "edge") || chosen_is(a, ANS_DEPLOY, "browser") ||
           (chosen_is(a, ANS_DEPLOY, "server") && chosen_is(a, ANS_DEPLOY_HARDWARE, "cpu"));
}

/* A refusal of the answers, added to the ones already said in err ("; " between them). */
static void refused_also(char *err, size_t errsz, int *refused, const char *why)
{
    size_t used = *refused ? strlen(err) : 0;
    if (used < errsz) snprintf(err + used, errsz - used, "%s%s", *refused ? "; " : "", why);
    ++*refused;
}

/* Sets question q's answer from option sel: a choice by its index, a number or an id as given. */
static void build_one(const struct app *a, struct answers *out, int q, int sel, const char *hardware, char *err,
                      size_t errsz, int *refused)
{
    const struct ans_key *key = key_of(q);
    enum ans_index k = wiz_questions[q].key;
    char assign[256], why[256];
    if (is_multi(q)) {
        const char *ids[64];
        int n = 0;
        for (int i = 0; i < wizard_option_count(a, q); i++)
            if ((a->multi[q] >> i) & 1u) ids[n++] = option_value(a, q, i, hardware);
        if (answers_set_ids(out, k, ids, n, why, sizeof why)) refused_also(err, errsz, refused, why);
        return;
    }
    if ((key->type == ANS_ENUM || key->type == ANS_BOOL) && sel < wizard_own_count(q)) {
        if (sel >= unset_count(q)) answers_choose(out, k, sel - unset_count(q));
        return;
    }
    const char *value = option_value(a, q, sel, hardware);
    if (!value) return;
    if (is_catalog(q) && hardware) { /* only a device of the hardware chosen: the list follows it */
        const char *vendor;
        int d = adv_accelerator_index(a->akb, value);
        if (d >= 0 && adv_kb_accelerator(a->akb, d, NULL, &vendor, NULL) && strcmp(vendor, hardware) != 0) return;
    }
    snprintf(assign, sizeof assign, "%s=%s", key->name, value);
    if (answers_set(out, assign, why, sizeof why)) refused_also(err, errsz, refused, why);
}

/* The answers of the wizard's choices, over the loaded ones; tentative_q >= 0 uses
 * tentative_sel for that question (the side panel's preview). Every refusal is said in err. */
int wizard_build(const struct app *a, struct answers *out, int tentative_q, int tentative_sel, char *err, size_t errsz)
{
    int refused = 0;
    *out = a->base;
    for (int q = 0; q < wiz_question_count; q++) {
        if (!wizard_asked(a, q)) continue;
        int sel = q == tentative_q ? tentative_sel : a->sel[q];
        build_one(a, out, q, sel, chosen_hardware(a, tentative_q, tentative_sel), err, errsz, &refused);
        if (is_model(q) && sel == layout_of(a, q).config) model_answers_fill(out, &a->config);
    }
    /* The choices are made one at a time: the OS defaults to this machine's, which may not run
     * the hardware picked later (macOS with NVIDIA GPUs); the hardware and target win. Other
     * contradictions (a phone for an edge target) stay for the question to refuse. */
    char why[512];
    while ((answers_conflict(out, why, sizeof why) & (ANS_KEY_BIT(ANS_OS) | ANS_KEY_BIT(ANS_DEPLOY_HARDWARE))) &&
           answers_drop_contradiction(out)) {
    }
    return refused ? -1 : 0;
}

/* The option a loaded answer selects: a choice by its index, a number or an id among the
 * options; else the loaded value becomes the question's given option. */
static void select_loaded(struct app *a, int q, const struct answers *loaded)
{
    enum ans_index k = wiz_questions[q].key;
    const struct ans_key *key = key_of(q);
    if (key->type == ANS_ID_LIST) { /* the options the loaded ids name; those none offers are said */
        a->multi[q] = 0;
        char missing[160] = "";
        int nmissing = 0, options = wizard_option_count(a, q);
        for (int j = 0; j < answers_id_count(loaded, k); j++) {
            int found = 0;
            for (int i = 0; i < options; i++)
                if (strcmp(answers_id(loaded, k, j), option_value(a, q, i, NULL)) == 0) a->multi[q] |= 1ull << i, found = 1;
            size_t used = strlen(missing);
            if (!found && used < sizeof missing)
                snprintf(missing + used, sizeof missing - used, "%s'%s'", nmissing++ ? ", " : "", answers_id(loaded, k, j));
        }
        if (nmissing)
            ui_message(a, 1,
                       nmissing == 1 ? _("key '%s': %s is not offered here (fwadvisor kb list frameworks); left out")
                                     : _("key '%s': %s are not offered here (fwadvisor kb list frameworks); left out"),
                       key->name, missing);
        return;
    }
    if (key->type == ANS_ENUM || key->type == ANS_BOOL) {
        a->sel[q] = unset_count(q) + answers_choice(loaded, k);
        return;
    }
    char text[40];
    if (key->type == ANS_ID) snprintf(text, sizeof text, "%s", answers_str(loaded, k));
    else snprintf(text, sizeof text, "%.10g", answers_num(loaded, k));
    int found = -1;
    for (int i = 0; i < wizard_option_count(a, q); i++) {
        const char *ov = option_value(a, q, i, chosen_hardware(a, -1, 0));
        if (!ov) continue;
        if (key->type == ANS_ID ? !strcmp(ov, text) : atof(ov) == answers_num(loaded, k)) found = i;
    }
    if (found >= 0) a->sel[q] = found;
    else {
        snprintf(a->custom[q], sizeof a->custom[q], "%s", text);
        a->sel[q] = layout_of(a, q).custom;
    }
}

void wizard_start(struct app *a, const struct answers *loaded)
{
    answers_init(&a->base);
    memset(a->custom, 0, sizeof a->custom);
    a->config_path[0] = '\0';
    for (int q = 0; q < wiz_question_count; q++) {
        int d = wizard_default_option(q);
        a->sel[q] = d >= 0 ? d : 0;
        a->multi[q] = 0;
    }
    /* the config file's [answers] beneath what is loaded (a preset, an answers file), as recommend
     * puts them beneath its own: the wizard opens with the team's defaults chosen */
    struct answers merged;
    if (a->team_config) {
        merged = a->team_config->answers;
        for (int k = 0; loaded && k < ANS_KEY_COUNT; k++)
            if (loaded->v[k].given) merged.v[k] = loaded->v[k];
        loaded = &merged;
    }
    if (loaded) {
        a->base = *loaded;
        for (int q = 0; q < wiz_question_count; q++)
            if (loaded->v[wiz_questions[q].key].given) select_loaded(a, q, loaded);
    }
    a->q = 0;
    a->answered = 0;
    a->wiz_vp.top = 0;
    a->screen = SCR_WIZARD;
}

static void side_panel(struct app *a, int x, int w)
{
    struct answers ans;
    char err[256];
    int status = wizard_build(a, &ans, a->q, a->sel[a->q], err, sizeof err) ? KB_ERR_INPUT
                 : adv_recommend(a->akb, &ans, &a->hw, a->preview, err, sizeof err);
    crt_box(1, x, LINES - 3, w);
    if (status != KB_OK) { /* answers that contradict each other or the catalog */
        ui_wrap(2, x + 2, w - 4, LINES - 6, err, crt_attr(PAIR_BAD));
        return;
    }
    ui_text(2, x + 2, w - 4, _("Top frameworks now"), A_BOLD);
    int y = 4;
    for (int i = 0; i < 3 && i < a->preview->ranking.count; i++) {
        const struct adv_framework *f = &a->preview->ranking.items[i];
        char line[64], bar[128];
        snprintf(line, sizeof line, "%d %-12s %5.1f", i + 1, f->name, f->score_tenths / 10.0);
        ui_text(y, x + 2, w - 4, line, i == 0 ? A_BOLD : A_NORMAL);
        tui_bar(bar, sizeof bar, f->score_tenths / 1000.0, w - 6, a->utf8);
        ui_text(y + 1, x + 4, w - 6, bar, i == 0 ? crt_attr(PAIR_GOOD) : A_NORMAL);
        y += 3;
    }
    char line[160];
    snprintf(line, sizeof line, _("Strategy: %s"), a->preview->strategy ? a->preview->strategy : "-");
    ui_text(y++, x + 2, w - 4, line, A_NORMAL);
    snprintf(line, sizeof line, _("Runtime: %s"), a->preview->runtime ? a->preview->runtime : "-");
    ui_text(y++, x + 2, w - 4, line, A_NORMAL);
    /* The verdict is wrapped, never cut. */
    const struct adv_memory *m = &a->preview->memory;
    snprintf(line, sizeof line,
             m->fits                      ? _("Memory: %.1f GB per device, fits")
             : m->device_memory_gb > 0    ? _("Memory: %.1f GB per device, DOES NOT FIT")
                                          : _("Memory: %.1f GB per device"),
             m->total_gb);
    ui_wrap(y, x + 2, w - 4, LINES - 3 - y, line, m->fits || m->device_memory_gb <= 0 ? A_NORMAL : crt_attr(PAIR_BAD) | A_BOLD);
}

/* Step k of n among the questions asked with the choices so far. */
static void step_of(const struct app *a, int *k, int *n)
{
    *k = *n = 0;
    for (int q = 0; q < wiz_question_count; q++)
        if (wizard_asked(a, q)) {
            ++*n;
            if (q <= a->q) ++*k;
        }
}

/* Option i of the question on screen, as one entry of the pane. */
static void option_entry(struct app *a, const struct option_layout *l, int i, const char *text)
{
    char line[200];
    const char *mark = is_multi(a->q) ? (((a->multi[a->q] >> i) & 1u) ? "[x] " : "[ ] ") : (i == a->sel[a->q] ? "(*) " : "( ) ");
    if (i == l->other) mark = "    ";
    snprintf(line, sizeof line, "%s%s", text, i == wizard_default_option(a->q) ? _("  (default)") : "");
    if (vp_matches(&a->wiz_vp, line))
        pane_wrap(&a->wiz_pane, i, l->catalog >= 0 && i >= l->catalog ? 3 : 1, A_NORMAL, mark, A_NORMAL, line);
}

/* The options as a pane: the catalog's devices under a heading per vendor, in catalog_device's
 * order, one pass over the catalog per vendor (however long the catalog). */
static void build_options(struct app *a, int width)
{
    struct option_layout l = layout_of(a, a->q);
    const char *hardware = chosen_hardware(a, -1, 0);
    char label[128];
    pane_reset(&a->wiz_pane, width);
    for (int i = 0; i < l.count; i++) {
        if (i != l.catalog) {
            option_entry(a, &l, i, wizard_option_label(a, a->q, i, label, sizeof label));
            continue;
        }
        const char *vendor;
        for (int v = 1; v < vendors->nchoices; v++) {
            if (hardware && strcmp(hardware, vendors->choices[v].value) != 0) continue;
            int heading = 0;
            for (int d = 0; adv_kb_accelerator(a->akb, d, NULL, &vendor, NULL); d++) {
                if (strcmp(vendor, vendors->choices[v].value) != 0) continue;
                if (!heading++) pane_add(&a->wiz_pane, -1, 1, A_BOLD | A_UNDERLINE, _(vendors->choices[v].label));
                option_entry(a, &l, i++, device_label(a, d, label, sizeof label));
            }
        }
        i--; /* the loop's step moves past the last device */
    }
}

void wizard_draw(struct app *a)
{
    const struct wiz_question *wq = &wiz_questions[a->q];
    char title[128];
    int k, n;
    step_of(a, &k, &n);
    snprintf(title, sizeof title, _("Step %d of %d"), k, n);
    ui_title(a, title);
    struct tui_split sp = tui_wizard_split(COLS);
    int help_rows = 3, top = 4, rows = ui_content_rows(top) - help_rows - 1;
    ui_text(2, 2, sp.left_w - 3, _(wq->title), A_BOLD);
    build_options(a, sp.left_w - 4);
    a->wiz_vp.cursor = a->sel[a->q];
    vp_draw(&a->wiz_vp, &a->wiz_pane, top, 2, rows, sp.left_w - 3, a->utf8);
    a->sel[a->q] = a->wiz_vp.cursor >= 0 ? a->wiz_vp.cursor : a->sel[a->q];
    ui_pane(a, &a->wiz_vp, &a->wiz_pane);
    ui_searchable(a, &a->wiz_vp);
    char help_buf[200];
    const char *help = wizard_option_help(a, a->q, a->sel[a->q], help_buf, sizeof help_buf);
    ui_wrap(top + rows + 1, 3, sp.left_w - 4, help_rows, help, crt_attr(PAIR_ACCENT));
    side_panel(a, sp.right_x, sp.right_w);
    ui_footer(a, is_multi(a->q) ? _(" Space: tick  Enter: next  Esc: back  /: search  ?: help  q: quit")
                 : is_numeric(a->q) ? _(" Up/Down: choose  0-9: type a number  Enter: next  Esc: back  ?: help  q: quit")
                               : _(" Up/Down: choose  Enter: next  Esc: back  /: search  ?: help  q: quit"));
}

/* A typed number: checked as the answer's own value, then the option that has it, else kept as
 * the question's given option. */
static void number_typed(struct app *a, const char *text)
{
    const struct wiz_question *wq = &wiz_questions[a->q];
    struct answers scratch;
    char assign[160], err[300];
    answers_init(&scratch);
    snprintf(assign, sizeof assign, "%s=%s", ans_keys[wq->key].name, text);
    if (answers_set(&scratch, assign, err, sizeof err)) {
        ui_message(a, 1, "%s", err);
        return;
    }
    double typed = answers_num(&scratch, wq->key);
    for (int i = 0; i < wizard_own_count(a->q); i++) {
        const char *v = wizard_own_option(a->q, i)->value;
        char *end;
        if (v && strtod(v, &end) == typed && end != v && *end == '\0') {
            a->sel[a->q] = i; /* already a choice: chosen, not added again */
            return;
        }
    }
    snprintf(a->custom[a->q], sizeof a->custom[a->q], "%.10g", typed);
    a->sel[a->q] = layout_of(a, a->q).custom;
}

static void open_number(struct app *a, const char *initial)
{
    char title[192];
    snprintf(title, sizeof title, _("%s: a number (K, M, B, T allowed: 2000, 30B)"), _(wiz_questions[a->q].title));
    ui_begin_input(a, title, initial, 0, number_typed);
}

/* A config.json's path: read as recommend --model-config reads it; a bad file is said in one line
 * and the question stays. */
static void config_typed(struct app *a, const char *path)
{
    unsigned char *data;
    size_t len;
    char err[1024];
    struct model_shape shape;
    if (file_read_regular(path, MODEL_CONFIG_MAX_BYTES, &data, &len, err, sizeof err) != FILE_OK) {
        ui_message(a, 1, "%s", err);
        return;
    }
    int bad = model_config_parse((const char *)data, len, path, &shape, err, sizeof err);
    free(data);
    if (bad) {
        ui_message(a, 1, "%s", err);
        return;
    }
    a->config = shape;
    snprintf(a->config_path, sizeof a->config_path, "%s", path);
    a->sel[a->q] = layout_of(a, a->q).config;
}

/* A later question asked only with some answers, whose choice contradicts question q's answer,
 * starts again from its default (a phone left chosen when the target becomes an edge board). */
static void reset_dependents(struct app *a, int q)
{
    ans_key_set both = ANS_KEY_BIT(wiz_questions[q].key);
    for (int r = q + 1; r < wiz_question_count; r++) {
        struct answers ans;
        char err[512];
        int d = wizard_default_option(r) >= 0 ? wizard_default_option(r) : 0;
        if (!wiz_questions[r].asked || a->sel[r] == d || !wizard_asked(a, r) || wizard_build(a, &ans, -1, 0, err, sizeof err))
            continue;
        ans_key_set c = answers_conflict(&ans, err, sizeof err);
        if ((c & both) && (c & ANS_KEY_BIT(wiz_questions[r].key))) a->sel[r] = d;
    }
}

/* A question the advisor checks (advisor_checked): 1 with the advisor's line in err when it
 * refuses this choice and would take the key left out. */
static int advisor_refuses(struct app *a, char *err, size_t errsz)
{
    int q = a->q;
    if (!wiz_questions[q].advisor_checked || a->sel[q] < unset_count(q)) return 0;
    struct adv_result *r = malloc(sizeof *r);
    struct answers with, without;
    char other[256];
    int refused = 0;
    if (r && !wizard_build(a, &with, -1, 0, err, errsz) && adv_recommend(a->akb, &with, &a->hw, r, err, errsz) == KB_ERR_INPUT &&
        !wizard_build(a, &without, q, 0, other, sizeof other))
        refused = adv_recommend(a->akb, &without, &a->hw, r, other, sizeof other) == KB_OK;
    free(r);
    return refused;
}

/* The operating system follows the hardware until the user answers it: macOS on Apple Silicon
 * (the only one that runs it), else the question's default. */
static void os_follows_hardware(struct app *a)
{
    int qo = question(ANS_OS);
    if (qo < 0 || (a->answered >> qo & 1) || a->base.v[ANS_OS].given) return;
    const char *hw = chosen_hardware(a, -1, 0);
    int d = wizard_default_option(qo);
    a->sel[qo] = d >= 0 ? d : 0;
    for (int i = 0; hw && strcmp(hw, "apple") == 0 && i < wizard_own_count(qo); i++)
        if (wizard_own_option(qo, i)->value && strcmp(wizard_own_option(qo, i)->value, "macos") == 0) a->sel[qo] = i;
}

/* To the next question asked, after checking the answers so far agree with each other. */
static void advance(struct app *a)
{
    struct answers ans;
    char err[512];
    if (wiz_questions[a->q].key == ANS_HARDWARE) os_follows_hardware(a);
    reset_dependents(a, a->q);
    if (wizard_build(a, &ans, -1, 0, err, sizeof err)) {
        ui_message(a, 1, "%s", err);
        return;
    }
    /* A contradiction about this question keeps it; one about other keys is said on the way. */
    ans_key_set conflict = answers_conflict(&ans, err, sizeof err);
    if (conflict & ANS_KEY_BIT(wiz_questions[a->q].key)) {
        ui_message(a, 1, "%s", err);
        return;
    }
    char refusal[512];
    if (advisor_refuses(a, refusal, sizeof refusal)) {
        ui_message(a, 1, "%s", refusal);
        return;
    }
    a->answered |= 1ull << a->q;
    int q = a->q + 1;
    while (q < wiz_question_count && !wizard_asked(a, q)) q++;
    if (q >= wiz_question_count) {
        results_compute(a);
        return;
    }
    a->q = q;
    a->wiz_vp.top = 0;
    a->wiz_vp.query[0] = '\0';
    /* The device list follows the hardware chosen: keep the choice within it. */
    if (a->sel[a->q] >= wizard_option_count(a, a->q)) a->sel[a->q] = 0;
    if (conflict) ui_message(a, 1, "%s", err);
}

static void go_back(struct app *a)
{
    int q = a->q - 1;
    while (q >= 0 && !wizard_asked(a, q)) q--;
    if (q < 0) {
        app_home(a);
        return;
    }
    a->q = q;
    a->wiz_vp.top = 0;
    a->wiz_vp.query[0] = '\0';
}

void wizard_key(struct app *a, int ch)
{
    struct option_layout l = layout_of(a, a->q);
    a->wiz_vp.cursor = a->sel[a->q];
    if (vp_key(&a->wiz_vp, &a->wiz_pane, ch)) {
        a->sel[a->q] = a->wiz_vp.cursor;
        return;
    }
    if (is_numeric(a->q) && ch < 256 && (isdigit(ch) || ch == '.')) {
        char first[2] = {(char)ch, 0};
        open_number(a, first);
        return;
    }
    switch (ch) {
    case ' ':
        if (is_multi(a->q)) {
            unsigned long long bit = 1ull << a->sel[a->q], words = (1ull << wizard_own_count(a->q)) - 1;
            a->multi[a->q] ^= bit;
            /* "None yet" (the key's own word) excludes the frameworks, and the reverse. */
            if ((bit & words) && (a->multi[a->q] & bit)) a->multi[a->q] = bit;
            else if (!(bit & words)) a->multi[a->q] &= ~words;
        }
        break;
    case KEY_LEFT: case 'h': case KEY_BACKSPACE: case 127: case 8: case 27: go_back(a); break;
    case '\n': case '\r': case KEY_ENTER: case KEY_RIGHT: case 'l':
        if (a->sel[a->q] == l.other && is_model(a->q))
            ui_begin_input(a, _("A Hugging Face config.json (recommend --model-config reads the same)"), "", 1, config_typed);
        else if (a->sel[a->q] == l.other) open_number(a, "");
        else advance(a);
        break;
    }
}
