/* libFuzzer target for the safetensors reader and its check against a model (make fuzz). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "engine/tensor_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct eng_model *model;
    static struct eng_st_file file;
    char err[256];
    if (!model) {
        struct eng_config c;
        eng_config_defaults(&c);
        eng_parse_layers(&c, "3,4,2", err, sizeof err);
        c.batch = 1;
        if (eng_model_create(&c, eng_cpu_backend(), &model, err, sizeof err) != ENG_OK) abort();
    }
    if (eng_st_parse(data, size, "fuzz.safetensors", &file, err, sizeof err) == ENG_OK)
        eng_st_apply(&file, "fuzz.safetensors", model, err, sizeof err);
    return 0;
}
