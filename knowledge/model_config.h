/* model_config: a model's shape from a Hugging Face config.json (the fields `accelerate
 * estimate-memory` and the transformers configs share), and the shapes of common open models
 * shipped as such files in data/models/ (each with its config's source and the date it was read),
 * compiled into the binary. The answers take a shape through model_answers.h. */
#ifndef FWADVISOR_MODEL_CONFIG_H
#define FWADVISOR_MODEL_CONFIG_H

#include "knowledge/model_shape.h"

#include <stddef.h>

/* The largest config file read: Hugging Face's are a few kilobytes. */
#define MODEL_CONFIG_MAX_BYTES ((size_t)1 << 20)

/* Reads hidden_size, intermediate_size, num_hidden_layers, num_attention_heads,
 * num_key_value_heads, vocab_size, tie_word_embeddings, num_local_experts or n_routed_experts,
 * num_experts_per_tok, moe_intermediate_size, n_shared_experts, first_k_dense_replace and
 * max_position_embeddings; other fields are ignored. More than one expert makes the family moe,
 * else llama. 0, or -1 with one line naming `name` and the field in err (not JSON, a wrong type,
 * a number out of range, heads that do not divide hidden_size, kv heads that do not divide the
 * heads, more experts per token than experts). Nothing of the file's text reaches err. */
int model_config_parse(const char *text, size_t len, const char *name, struct model_shape *out, char *err,
                       size_t errsz);

/* The shipped models: how many, the name of model i (its file name without .json), its source
 * (the config's URL) and the date it was read, its one-line description. */
size_t model_known_count(void);
const char *model_known_name(size_t i, char *buf, size_t bufsz);
const char *model_known_source(size_t i, char *buf, size_t bufsz);
const char *model_known_read(size_t i, char *buf, size_t bufsz);
const char *model_known_description(size_t i, char *buf, size_t bufsz);
/* Index by name (exact, lower case), or -1. */
int model_known_find(const char *name);
/* The known names, comma-separated, into buf. */
const char *model_known_list(char *buf, size_t bufsz);
/* The shape of model i (parsed as a config file). 0, or -1 with err. */
int model_known_shape(size_t i, struct model_shape *out, char *err, size_t errsz);

#endif
