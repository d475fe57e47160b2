/* probe_store: probe runs kept in the knowledge base, one row per run holding its whole
 * fwadvisor.probe/1 document. Saving and deleting are single transactions. */
#ifndef FWADVISOR_PROBE_STORE_H
#define FWADVISOR_PROBE_STORE_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "knowledge/kb.h"

/* Stores a run document (its "id" must be new). */
int kb_probe_save(kb *k, const cJSON *doc, char *err, size_t errsz);
/* A free id based on `base` ("base", "base-2", ...). */
int kb_probe_free_id(kb *k, const char *base, char *out, size_t outsz, char *err, size_t errsz);
/* [{id, started_at, duration_s, interrupted, summary}], newest first. Caller frees. */
int kb_probe_list(kb *k, cJSON **rows, char *err, size_t errsz);
/* The document of run `id`, or of the newest run for "latest". *doc stays NULL with KB_OK when
 * "latest" finds no run; an unknown id is KB_ERR_INPUT. Caller frees. */
int kb_probe_get(kb *k, const char *id, cJSON **doc, char *err, size_t errsz);
int kb_probe_delete(kb *k, const char *id, char *err, size_t errsz);

#endif
