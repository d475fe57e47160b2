#include "knowledge/model_config.h"
#include "knowledge/presets.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

extern const char *const models_names[];
extern const char *const models_texts[];
extern const size_t models_count;

/* One number of the file: where it goes, whether it must be there, its range. */
static const struct field {
    const char *name;
    size_t offset;
    int required;
    double min, max;
} fields[] = {
    {"hidden_size", offsetof(struct model_shape, hidden), 1, 1, 1e6},
    {"intermediate_size", offsetof(struct model_shape, ffn), 1, 1, 1e7},
    {"num_hidden_layers", offsetof(struct model_shape, layers), 1, 1, 1e4},
    {"num_attention_heads", offsetof(struct model_shape, heads), 1, 1, 1e5},
    {"num_key_value_heads", offsetof(struct model_shape, kv_heads), 0, 1, 1e5},
    {"vocab_size", offsetof(struct model_shape, vocab), 1, 1, 1e8},
    {"num_local_experts", offsetof(struct model_shape, experts), 0, 1, 1e5},
    {"n_routed_experts", offsetof(struct model_shape, experts), 0, 1, 1e5},
    {"num_experts_per_tok", offsetof(struct model_shape, top_k), 0, 1, 1e5},
    {"moe_intermediate_size", offsetof(struct model_shape, expert_ffn), 0, 1, 1e7},
    {"n_shared_experts", offsetof(struct model_shape, shared_experts), 0, 0, 1e4},
    {"first_k_dense_replace", offsetof(struct model_shape, dense_layers), 0, 0, 1e4},
    {"max_position_embeddings", offsetof(struct model_shape, positions), 0, 1, 1e9},
};

static int read_field(const cJSON *doc, const struct field *f, struct model_shape *out, const char *name, char *err,
                      size_t errsz)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, f->name);
    if (!v || cJSON_IsNull(v)) {
        if (!f->required) return 0;
        snprintf(err, errsz, "%s: field '%s' is missing (a Hugging Face config.json of a transformer)", name, f->name);
        return -1;
    }
    double x = cJSON_IsNumber(v) ? v->valuedouble : NAN;
    if (!cJSON_IsNumber(v) || !isfinite(x) || x != floor(x) || x < f->min || x > f->max) {
        snprintf(err, errsz, "%s: field '%s' must be a whole number from %g to %g", name, f->name, f->min, f->max);
        return -1;
    }
    *(double *)(void *)((char *)out + f->offset) = x;
    return 0;
}

/* The fields' agreement with each other. */
static int check_shape(const struct model_shape *s, const char *name, char *err, size_t errsz)
{
    if (fmod(s->hidden, s->heads) != 0)
        snprintf(err, errsz, "%s: field 'num_attention_heads' (%g) does not divide hidden_size (%g)", name, s->heads,
                 s->hidden);
    else if (s->kv_heads > 0 && fmod(s->heads, s->kv_heads) != 0)
        snprintf(err, errsz, "%s: field 'num_key_value_heads' (%g) does not divide num_attention_heads (%g)", name,
                 s->kv_heads, s->heads);
    else if (s->experts > 1 && s->top_k <= 0)
        snprintf(err, errsz, "%s: field 'num_experts_per_tok' is missing (a mixture of %g experts)", name, s->experts);
    else if (s->experts > 1 && s->top_k > s->experts)
        snprintf(err, errsz, "%s: field 'num_experts_per_tok' (%g) is more than the %g experts", name, s->top_k,
                 s->experts);
    else if (s->dense_layers >= s->layers && s->experts > 1)
        snprintf(err, errsz, "%s: field 'first_k_dense_replace' (%g) leaves no layer of experts of %g", name,
                 s->dense_layers, s->layers);
    else
        return 0;
    return -1;
}

int model_config_parse(const char *text, size_t len, const char *name, struct model_shape *out, char *err,
                       size_t errsz)
{
    memset(out, 0, sizeof *out);
    cJSON *doc = cJSON_ParseWithLength(text, len);
    if (!cJSON_IsObject(doc)) {
        snprintf(err, errsz, "%s: not a JSON object (a Hugging Face config.json)", name);
        cJSON_Delete(doc);
        return -1;
    }
    int bad = 0;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0] && !bad; i++) bad = read_field(doc, &fields[i], out, name, err, errsz);
    const cJSON *tied = cJSON_GetObjectItemCaseSensitive(doc, "tie_word_embeddings");
    if (!bad && tied && !cJSON_IsBool(tied) && !cJSON_IsNull(tied)) {
        snprintf(err, errsz, "%s: field 'tie_word_embeddings' must be true or false", name);
        bad = 1;
    }
    out->tied = cJSON_IsTrue(tied);
    cJSON_Delete(doc);
    if (bad) return -1;
    out->arch = out->experts > 1 ? SHAPE_MOE : SHAPE_LLAMA;
    if (out->experts <= 1) out->experts = 0, out->top_k = 0, out->shared_experts = 0, out->expert_ffn = 0, out->dense_layers = 0;
    return check_shape(out, name, err, errsz);
}

size_t model_known_count(void) { return models_count; }

const char *model_known_name(size_t i, char *buf, size_t bufsz) { return embedded_stem(models_names[i], buf, bufsz); }

static const char *known_text(size_t i, const char *key, char *buf, size_t bufsz)
{
    cJSON *doc = cJSON_Parse(models_texts[i]);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, key);
    snprintf(buf, bufsz, "%s", cJSON_IsString(v) ? v->valuestring : "");
    cJSON_Delete(doc);
    return buf;
}

const char *model_known_source(size_t i, char *buf, size_t bufsz) { return known_text(i, "source", buf, bufsz); }
const char *model_known_read(size_t i, char *buf, size_t bufsz) { return known_text(i, "read", buf, bufsz); }
const char *model_known_description(size_t i, char *buf, size_t bufsz) { return known_text(i, "description", buf, bufsz); }

int model_known_find(const char *name)
{
    char buf[128];
    for (size_t i = 0; name && i < models_count; i++)
        if (strcmp(model_known_name(i, buf, sizeof buf), name) == 0) return (int)i;
    return -1;
}

const char *model_known_list(char *buf, size_t bufsz)
{
    size_t used = 0;
    char name[128];
    buf[0] = '\0';
    for (size_t i = 0; i < models_count && used < bufsz; i++)
        used += (size_t)snprintf(buf + used, bufsz - used, "%s%s", i ? ", " : "", model_known_name(i, name, sizeof name));
    return buf;
}

int model_known_shape(size_t i, struct model_shape *out, char *err, size_t errsz)
{
    char name[160];
    snprintf(name, sizeof name, "data/models/%s", models_names[i]);
    return model_config_parse(models_texts[i], strlen(models_texts[i]), name, out, err, errsz);
}
