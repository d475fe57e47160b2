#include "knowledge/answer_keys.h"

#include <string.h>

static const char *const stages[] = {"learning", "research", "prototype", "production", NULL};
static const char *const hardware[] = {"auto", "nvidia", "amd", "tpu", "apple", "intel", "ascend", "cpu", NULL};
static const char *const oses[] = {"linux", "windows", "macos", NULL};
const char *const ans_model_kinds[] = {"vision", "nlp", "llm", "recsys", "rl", "diffusion", "tabular", "other", NULL};
static const char *const teams[] = {"pytorch", "tensorflow", "jax", "keras", "none", NULL};
static const char *const deploys[] = {"none", "server", "mobile", "edge", "browser", NULL};
static const char *const priorities[] = {"iteration", "cost", "stability", NULL};
const char *const ans_deploy_hardware[] = {"auto", "cpu", "nvidia", "amd", "apple", "qualcomm", "intel", "tpu", "ascend", NULL};
static const char *const precisions[] = {"bf16", "fp16", "fp8", "fp32", NULL};
static const char *const finetunes[] = {"full", "lora", "qlora", NULL};
static const char *const recomputes[] = {"auto", "none", "selective", "full", NULL};
static const char *const kv_precisions[] = {"bf16", "fp8", "int8", NULL};

const struct ans_key ans_keys[] = {
    {"stage", ANS_ENUM, stages, 0, 0},
    {"hardware", ANS_ENUM, hardware, 0, 0},
    {"os", ANS_ENUM, oses, 0, 0},
    {"devices", ANS_INT, NULL, 1, 0},
    {"nodes", ANS_INT, NULL, 1, 0},
    {"device_memory_gb", ANS_NUMBER, NULL, 0, 1},
    {"model_kind", ANS_ENUM, ans_model_kinds, 0, 0},
    {"model_params", ANS_NUMBER, NULL, 1, 0},
    {"tokens", ANS_NUMBER, NULL, 0, 1},
    {"seq_len", ANS_INT, NULL, 1, 0},
    {"hidden", ANS_INT, NULL, 1, 0},
    {"layers", ANS_INT, NULL, 1, 0},
    {"heads", ANS_INT, NULL, 1, 0},
    {"team", ANS_ENUM_LIST, teams, 0, 0},
    {"functional", ANS_BOOL, NULL, 0, 0},
    {"higher_order_grad", ANS_BOOL, NULL, 0, 0},
    {"deploy", ANS_ENUM, deploys, 0, 0},
    {"priority", ANS_ENUM, priorities, 0, 0},
    {"price_per_device_hour", ANS_NUMBER, NULL, 0, 0},
    {"deploy_hardware", ANS_ENUM, ans_deploy_hardware, 0, 0},
    {"accelerator", ANS_ID, NULL, 0, 0},
    {"precision", ANS_ENUM, precisions, 0, 0},
    {"finetune", ANS_ENUM, finetunes, 0, 0},
    {"lora_rank", ANS_INT, NULL, 1, 0},
    {"recompute", ANS_ENUM, recomputes, 0, 0},
    {"host_memory_gb", ANS_NUMBER, NULL, 0, 1},
    {"active_params", ANS_NUMBER, NULL, 1, 0},
    {"experts", ANS_INT, NULL, 1, 0},
    {"serve_context", ANS_INT, NULL, 1, 0},
    {"serve_batch", ANS_INT, NULL, 1, 0},
    {"kv_heads", ANS_INT, NULL, 1, 0},
    {"kv_precision", ANS_ENUM, kv_precisions, 0, 0},
};
const int ans_key_count = (int)(sizeof ans_keys / sizeof ans_keys[0]);
_Static_assert(sizeof ans_keys / sizeof ans_keys[0] == ANS_KEY_COUNT, "ans_keys and enum ans_index differ");

const struct ans_key *ans_key_find(const char *name)
{
    for (int i = 0; i < ans_key_count; i++)
        if (strcmp(ans_keys[i].name, name) == 0) return &ans_keys[i];
    return NULL;
}

int ans_key_index(const char *name)
{
    const struct ans_key *k = ans_key_find(name);
    return k ? (int)(k - ans_keys) : -1;
}

int ans_key_value_index(const struct ans_key *key, const char *value)
{
    for (int i = 0; value && key->allowed && key->allowed[i]; i++)
        if (strcmp(key->allowed[i], value) == 0) return i;
    return -1;
}

int ans_key_allows(const struct ans_key *key, const char *value) { return ans_key_value_index(key, value) >= 0; }

const char *ans_key_nearest(const char *name)
{
    struct suggest s;
    suggest_init(&s, name);
    for (int i = 0; i < ans_key_count; i++) suggest_offer(&s, ans_keys[i].name);
    const struct ans_key *key = suggest_result(&s) ? ans_key_find(suggest_result(&s)) : NULL;
    return key ? key->name : NULL;
}
