/* libFuzzer target for kb import (make fuzz): any document against one in-memory knowledge base
 * made from the built-in facts. A document that passes validation is imported, so later inputs
 * meet its rows too; every import is one transaction, so a failing one must leave no trace. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "knowledge/kb.h"

static kb *k;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    char err[512];
    if (kb_open_memory(&k, err, sizeof err) != KB_OK) {
        fprintf(stderr, "fuzz_import: %s\n", err);
        abort();
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024];
    struct kb_import_stats stats;
    int status = kb_import(k, (const char *)data, size, "fuzz.json", &stats, err, sizeof err);
    if (status != KB_OK && status != KB_ERR_INPUT && status != KB_ERR_DB) abort();
    if (status != KB_OK && (stats.added || stats.changed || stats.unchanged)) abort(); /* all or nothing */
    return 0;
}
