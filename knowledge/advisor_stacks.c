/* FP8 training needs a software stack, not only a device rate: the fp8_stack_<framework> facts
 * (60_rules.sql) say which framework has one on the planned device, and the fp8_stacks_known fact
 * marks the devices whose stacks the knowledge base lists completely (NVIDIA's of compute capability
 * 8.9 and newer, AMD Instinct MI300 and newer, Gaudi 3). There, a framework with no stack (TensorFlow's own APIs, MLX, MindSpore) is
 * refused naming precision and the device; elsewhere the device's FP8 rate alone decides (A100 and
 * TPU v5e have none: refused by resolve_precision). */
#include "knowledge/advisor_kb.h"

#include <stdio.h>
#include <string.h>

int adv_check_fp8_stack(const struct adv_kb *akb, struct adv_result *r, int fw, char *err, size_t errsz)
{
    const struct answers *a = &r->answers;
    if (fw < 0 || r->accelerator < 0 || r->in.precision != PLAN_FP8 || r->job == ADV_JOB_SERVE) return KB_OK;
    double known = 0, stack = 0;
    char fact[64];
    snprintf(fact, sizeof fact, "fp8_stack_%s", akb->fw[fw].id);
    int stated = adv_fact(akb, a, fact, &stack, NULL);
    if (stated && stack > 0) {
        adv_assume(r, "FP8 training: %s has an FP8 training stack on %s (%s)", akb->fw[fw].name, akb->acc[r->accelerator].id,
                   "rules fp8-stack-nvidia, fp8-stack-amd, fp8-stack-gaudi: Transformer Engine, its ROCm and Gaudi ports, "
                   "torchao float8, Keras float8, PaddlePaddle FP8");
        return KB_OK;
    }
    if (!adv_fact(akb, a, "fp8_stacks_known", &known, NULL) || known <= 0) return KB_OK;
    snprintf(err, errsz,
             "keys 'precision' and '%s': no FP8 training stack for %s on %s (%s): Transformer Engine serves PyTorch and "
             "JAX, torchao PyTorch, Keras and PaddlePaddle have their own; use bf16",
             a->v[ANS_ACCELERATOR].given ? "accelerator" : "hardware", akb->fw[fw].name, akb->acc[r->accelerator].id,
             akb->acc[r->accelerator].name);
    return KB_ERR_INPUT;
}
