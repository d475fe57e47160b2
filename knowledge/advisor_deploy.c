/* Checks of where the model runs: how many devices one node holds (a host's GPUs, a TPU host's
 * chips, one Apple GPU a Mac), and whether the model's weights fit the deployment target's memory
 * (a phone's share for one app, an edge board's RAM, a browser tab, a CPU server's RAM) in bf16,
 * int8 or int4, with the largest model that fits when none does. The figures are knowledge-base
 * facts: devices_per_node, deploy_memory_gb, deploy_share and <runtime>_weight_bits. */
#include "knowledge/advisor_kb.h"
#include "common/units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define GB 1e9

int adv_check_topology(const struct adv_kb *akb, struct adv_result *r, char *err, size_t errsz)
{
    struct answers *a = &r->answers;
    double per = 0;
    int rule = -1;
    if (!adv_fact(akb, a, "devices_per_node", &per, &rule) || per < 1) return KB_OK;
    double devices = answers_num(a, ANS_DEVICES), nodes = answers_num(a, ANS_NODES);
    if (nodes < 1 || devices / nodes <= per) return KB_OK;
    /* The fewest nodes of at most `per` devices each that share the devices evenly. */
    double fewest = ceil(devices / per);
    while (fmod(devices, fewest) != 0) fewest++;
    const char *why = akb->rules[rule].title, *source = akb->rules[rule].source;
    if (a->v[ANS_NODES].given) {
        snprintf(err, errsz,
                 "keys 'devices' and 'nodes': devices %g on nodes %g is %g a node, more than the %g one node holds (%s [%s]); "
                 "set nodes to %g or more",
                 devices, nodes, devices / nodes, per, why, source, fewest);
        return KB_ERR_INPUT;
    }
    answers_set_num(a, ANS_NODES, fewest);
    adv_assume(r, "nodes: %g, the fewest that hold devices %g at no more than %g a node (%s [%s]); set nodes", fewest,
               devices, per, why, source);
    return KB_OK;
}

static const struct { const char *name; double bytes; } formats[ADV_WEIGHT_FORMATS] = {
    [ADV_WEIGHTS_BF16] = {"bf16", 2}, [ADV_WEIGHTS_INT8] = {"int8", 1}, [ADV_WEIGHTS_INT4] = {"int4", 0.5}};
static const int format_bits[ADV_WEIGHT_FORMATS] = {16, 8, 4};

/* The device a deploy_device of auto stands for. */
static const char *usual_device(const char *deploy, const char *deploy_hardware)
{
    if (strcmp(deploy, "mobile") == 0) return "phone";
    if (strcmp(deploy, "edge") == 0) return strcmp(deploy_hardware, "nvidia") == 0 ? "jetson-orin-nano" : "rpi5-8gb";
    if (strcmp(deploy, "browser") == 0) return "browser";
    return "host";
}

static const char *device_label(const char *device)
{
    const struct ans_key *k = &ans_keys[ANS_DEPLOY_DEVICE];
    int i = ans_key_value_index(k, device);
    return i >= 0 ? k->choices[i].label : device;
}

/* The device's memory: the fact for it, or for a CPU server its RAM. 0 when not known. */
static double device_memory(const struct adv_kb *akb, struct adv_result *r, const char **source)
{
    const struct answers *a = &r->answers;
    double memory = 0;
    int rule = -1;
    if (strcmp(answers_str(a, ANS_DEPLOY_DEVICE), "host") != 0) {
        if (adv_fact(akb, a, "deploy_memory_gb", &memory, &rule)) *source = akb->rules[rule].source;
        return memory;
    }
    if (answers_has(a, ANS_HOST_MEMORY_GB)) return answers_num(a, ANS_HOST_MEMORY_GB);
    if (r->hw.host_memory_gb > 0) {
        adv_assume(r, "Serving host: this machine's %.0f GB of memory (set host_memory_gb for the server's)",
                   r->hw.host_memory_gb);
        return r->hw.host_memory_gb;
    }
    adv_assume(r, "Serving host's memory unknown: the model's size is not checked against it (set host_memory_gb)");
    return 0;
}

/* Room for one more reason at the head of the runtime's, the others moved down; NULL when full. */
static struct adv_reason *first_reason(struct adv_result *r)
{
    int n = r->nruntime_reasons;
    if (n == (int)(sizeof r->runtime_reasons / sizeof r->runtime_reasons[0])) return NULL;
    memmove(&r->runtime_reasons[1], &r->runtime_reasons[0], (size_t)n * sizeof r->runtime_reasons[0]);
    r->nruntime_reasons = 0;
    struct adv_reason *rs = adv_push_reason(r->runtime_reasons, &r->nruntime_reasons, 1, 0, NULL, r->deploy_fit.source);
    r->nruntime_reasons = n + 1;
    return rs;
}

/* What the chosen runtime says to the quantisation that fits. */
static void runtime_words(const struct adv_result *r, int format, int local, char *out, size_t n)
{
    const struct adv_deploy_fit *f = &r->deploy_fit;
    if (f->runtime_bits <= 0)
        ADV_TEXTF(local, out, n, "; the knowledge base does not say whether %s runs %s weights", r->runtime_name,
                  formats[format].name);
    else if (f->runtime_bits <= format_bits[format])
        ADV_TEXTF(local, out, n, "; %s runs %s weights", r->runtime_name, formats[format].name);
    else
        ADV_TEXTF(local, out, n, "; %s runs no fewer than %d bits a weight", r->runtime_name, f->runtime_bits);
}

static void fit_reason(struct adv_result *r)
{
    const struct adv_deploy_fit *f = &r->deploy_fit;
    const char *label = device_label(f->device);
    char params[32], largest[32], words[96];
    units_short(answers_num(&r->answers, ANS_MODEL_PARAMS), params, sizeof params);
    struct adv_reason *rs = first_reason(r);
    if (f->fits == ADV_WEIGHTS_BF16) {
        if (rs)
            ADV_REASONF(NULL, rs, "Fits %s: the weights take %.3g GB in bf16 of a %.3g GB budget (%g GB x %g)", label,
                        f->weights_gb[ADV_WEIGHTS_BF16], f->budget_gb, f->memory_gb, f->share);
        return;
    }
    if (f->fits > ADV_WEIGHTS_BF16) {
        if (rs) {
            ADV_REASONF(NULL, rs,
                        "Fits %s only quantised: %s parameters take %.3g GB in bf16, more than the %.3g GB budget (%g GB x %g); "
                        "in %s they take %.3g GB",
                        label, params, f->weights_gb[ADV_WEIGHTS_BF16], f->budget_gb, f->memory_gb, f->share,
                        formats[f->fits].name, f->weights_gb[f->fits]);
            /* what the runtime says to it, in each language */
            runtime_words(r, f->fits, 0, words, sizeof words);
            size_t used = strlen(rs->label);
            snprintf(rs->label + used, sizeof rs->label - used, "%s", words);
            adv_utf8_trim(rs->label);
            if (rs->label_local[0]) {
                runtime_words(r, f->fits, 1, words, sizeof words);
                used = strlen(rs->label_local);
                snprintf(rs->label_local + used, sizeof rs->label_local - used, "%s", words);
                adv_utf8_trim(rs->label_local);
            }
        }
        return;
    }
    units_short(f->largest_params, largest, sizeof largest);
    if (rs)
        ADV_REASONF(NULL, rs,
                    "Does not fit %s: %s parameters take %.3g GB even in int4, more than the %.3g GB budget (%g GB x %g); the "
                    "largest model that fits is about %s parameters in int4",
                    label, params, f->weights_gb[ADV_WEIGHTS_INT4], f->budget_gb, f->memory_gb, f->share, largest);
    adv_warn(r, "The model does not fit %s: %.3g GB of weights even in int4 against a %.3g GB budget; about %s parameters "
                "fit in int4 (a smaller or distilled model, or serve it from a server)",
             label, f->weights_gb[ADV_WEIGHTS_INT4], f->budget_gb, largest);
}

void adv_check_deploy_size(const struct adv_kb *akb, struct adv_result *r)
{
    struct answers *a = &r->answers;
    struct adv_deploy_fit *f = &r->deploy_fit;
    memset(f, 0, sizeof *f);
    f->fits = -1;
    const char *deploy = answers_str(a, ANS_DEPLOY), *dh = answers_str(a, ANS_DEPLOY_HARDWARE);
    if (!deploy || strcmp(deploy, "none") == 0) return;
    /* A server's accelerators are the inference plan's (tensor and pipeline parallel). */
    if (strcmp(deploy, "server") == 0 && strcmp(dh, "cpu") != 0) return;
    if (strcmp(answers_str(a, ANS_DEPLOY_DEVICE), "auto") == 0) {
        answers_set_str(a, ANS_DEPLOY_DEVICE, usual_device(deploy, dh));
        adv_assume(r, "deploy_device: auto -> %s (%s), the usual %s device; set deploy_device", answers_str(a, ANS_DEPLOY_DEVICE),
                   device_label(answers_str(a, ANS_DEPLOY_DEVICE)), deploy);
    }
    f->device = answers_str(a, ANS_DEPLOY_DEVICE);
    f->memory_gb = device_memory(akb, r, &f->source);
    int rule = -1;
    if (f->memory_gb <= 0 || !adv_fact(akb, a, "deploy_share", &f->share, &rule) || f->share <= 0) return;
    if (!f->source) f->source = akb->rules[rule].source;
    f->checked = 1;
    f->budget_gb = f->memory_gb * f->share;
    double params = answers_num(a, ANS_MODEL_PARAMS);
    for (int i = ADV_WEIGHT_FORMATS - 1; i >= 0; i--) {
        f->weights_gb[i] = params * formats[i].bytes / GB;
        if (f->weights_gb[i] <= f->budget_gb) f->fits = i;
    }
    f->largest_params = floor(f->budget_gb * GB / formats[ADV_WEIGHTS_INT4].bytes);
    char fact[64];
    double bits = 0;
    snprintf(fact, sizeof fact, "%s_weight_bits", r->runtime);
    if (adv_fact(akb, a, fact, &bits, NULL)) f->runtime_bits = (int)bits;
    fit_reason(r);
}
