/* FP8 training needs a software stack, not only a device rate: the fp8_stack_<framework> facts
 * (60_rules.sql) say which framework has one on the planned device, and the fp8_stacks_known fact
 * marks the devices whose stacks the knowledge base lists completely (NVIDIA's of compute capability
 * 8.9 and newer, AMD Instinct MI300 and newer, Gaudi 3). There, a framework with no stack (TensorFlow's own APIs, MLX, MindSpore) is
 * refused naming precision and the device; elsewhere the device's FP8 rate alone decides (A100 and
 * TPU v5e have none: refused by resolve_precision). */
#include "knowledge/advisor_kb.h"

#include <stdio.h>
#include <string.h>

/* Whether framework f has an FP8 stack on the planned device, and the rule that says so. */
static int has_stack(const struct adv_kb *akb, const struct answers *a, int f, int *rule)
{
    char fact[64];
    double stack = 0;
    snprintf(fact, sizeof fact, "fp8_stack_%s", akb->fw[f].id);
    return adv_fact(akb, a, fact, &stack, rule) && stack > 0;
}

int adv_check_fp8_stack(const struct adv_kb *akb, struct adv_result *r, int fw, char *err, size_t errsz)
{
    const struct answers *a = &r->answers;
    if (fw < 0 || r->accelerator < 0 || r->in.precision != PLAN_FP8 || r->job == ADV_JOB_SERVE) return KB_OK;
    double known = 0;
    int rule = -1;
    const char *device = akb->acc[r->accelerator].id;
    if (has_stack(akb, a, fw, &rule)) {
        adv_assume(r, "FP8 training: %s has an FP8 training stack on %s (%s) [%s]", akb->fw[fw].name, device,
                   akb->rules[rule].title, akb->rules[rule].source);
        return KB_OK;
    }
    if (!adv_fact(akb, a, "fp8_stacks_known", &known, NULL) || known <= 0) return KB_OK;
    /* The frameworks that do have one here, from the same facts. */
    char others[256] = "";
    size_t used = 0;
    for (int f = 0; f < akb->nfw && used < sizeof others; f++)
        if (f != fw && has_stack(akb, a, f, NULL))
            used += (size_t)snprintf(others + used, sizeof others - used, "%s%s", used ? ", " : "", akb->fw[f].name);
    snprintf(err, errsz, "keys 'precision' and '%s': no FP8 training stack for %s on %s (%s)%s%s; use bf16",
             a->v[ANS_ACCELERATOR].given ? "accelerator" : "hardware", akb->fw[fw].name, device,
             akb->acc[r->accelerator].name, others[0] ? ": it has one for " : "", others);
    return KB_ERR_INPUT;
}
