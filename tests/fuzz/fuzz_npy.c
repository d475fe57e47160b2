/* libFuzzer target for the .npy reader (make fuzz). */
#include <stddef.h>
#include <stdint.h>

#include "engine/tensor_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    struct eng_array a;
    if (eng_npy_parse(data, size, "fuzz.npy", &a, err, sizeof err) == ENG_OK) {
        /* Use what was read, as training would. */
        struct eng_data d;
        int in = a.ndim == 2 && a.shape[1] > 0 && a.shape[1] < 4096 ? (int)a.shape[1] : 1;
        if (eng_data_from_arrays(&d, &a, &a, in, in, ENG_LOSS_MSE, "x", "y", err, sizeof err) == ENG_OK)
            eng_data_free(&d);
        eng_array_free(&a);
    }
    return 0;
}
