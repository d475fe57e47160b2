/* libFuzzer target for the answers readers (make fuzz): a JSON answers document, or, when the
 * input starts with '=', a --set KEY=VALUE argument; what is read is then resolved as the advisor
 * would. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "knowledge/answers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    struct answers a;
    answers_init(&a);
    if (size > 0 && data[0] == '=') {
        char *arg = malloc(size);
        if (!arg) return 0;
        memcpy(arg, data + 1, size - 1);
        arg[size - 1] = '\0';
        answers_set(&a, arg, err, sizeof err);
        free(arg);
    } else if (answers_parse_json(&a, (const char *)data, size, "fuzz.json", err, sizeof err) != 0) {
        return 0;
    }
    answers_fill_defaults(&a);
    for (int i = 0; i < ANS_KEY_COUNT; i++) {
        if (!answers_has(&a, (enum ans_index)i)) continue;
        if (ans_keys[i].type == ANS_ENUM && !answers_str(&a, (enum ans_index)i)) abort();
        if (ans_keys[i].type == ANS_INT || ans_keys[i].type == ANS_NUMBER) {
            double v = answers_num(&a, (enum ans_index)i);
            if (!(v >= ans_keys[i].min && v <= ANS_MAX_NUMBER)) abort(); /* what validation promises */
        }
    }
    return 0;
}
