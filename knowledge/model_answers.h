/* model_answers: the model shape and the answers. A shape read from a config file or named by the
 * `model` key fills the shape keys the answers leave out (the answers given win), and the
 * parameters follow from the shape when model_params is not answered; the shape keys are checked
 * against each other; the planner's shape is built from the answers. */
#ifndef FWADVISOR_MODEL_ANSWERS_H
#define FWADVISOR_MODEL_ANSWERS_H

#include "knowledge/answers.h"
#include "knowledge/model_shape.h"

#include <stddef.h>

/* The answers' own shape keys over s (arch, hidden, layers, heads, kv_heads, ffn_hidden, vocab,
 * experts, top_k, shared_experts, expert_ffn_hidden, dense_layers), then every shape key the
 * answers lack from s, model_kind llm when absent, and model_params (and for a mixture of
 * experts active_params) from the merged shape when absent. */
void model_answers_fill(struct answers *a, const struct model_shape *s);

/* The `model` key: the shipped model it names fills the answers as model_answers_fill does.
 * 0 (also without the key), or -1 with one line naming the key and the known models. */
int model_answers_apply_known(struct answers *a, char *err, size_t errsz);

/* An answered shape (arch given, with hidden, layers and heads) without model_params: the
 * parameters (and active ones) from the shape; embeddings only with vocab. */
void model_answers_shape_params(struct answers *a);

/* The shape keys against each other: top_k, shared_experts, expert_ffn_hidden and dense_layers
 * need experts above 1; top_k at most experts; dense_layers below layers; ffn_hidden needs hidden;
 * arch moe needs experts above 1 and experts above 1 needs arch moe. 0, or -1 with one line
 * naming the keys. */
int model_answers_check(const struct answers *a, char *err, size_t errsz);

/* The family the answers describe: arch when set, else moe with experts above 1, else llama with
 * ffn_hidden, else gpt3. */
enum shape_arch model_answers_arch(const struct answers *a);
/* The shape of resolved answers (hidden, layers, heads set), with top_k defaulting to
 * default_top_k for a mixture of experts. */
void model_answers_shape(const struct answers *a, double default_top_k, struct model_shape *out);

#endif
