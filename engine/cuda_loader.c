/* Finds and loads the CUDA plug-in (engine/cuda/plugin.h). The main binary links no CUDA
 * library: the plug-in is opened with dlopen on first use, so a machine without the toolkit or
 * driver runs everything else and is told why the GPU back-end is missing. */
#include "engine/cuda/plugin.h"
#include "engine/plugin.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifndef FWADVISOR_VERSION
#define FWADVISOR_VERSION "unknown"
#endif

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const struct eng_cuda_plugin *loaded;
static char load_error[512];
static int tried, refused;

static int check_plugin(const void *api, const char *path, char *why, size_t whysz)
{
    const struct eng_cuda_plugin *p = api;
    if (p->abi != ENG_CUDA_ABI) {
        snprintf(why, whysz, "%s speaks interface %d, this program %d: rebuild it", path, p->abi, ENG_CUDA_ABI);
        return -1;
    }
    if (!p->version || strcmp(p->version, FWADVISOR_VERSION) != 0) {
        snprintf(why, whysz, "%s is from version %s, this program is %s: rebuild it", path,
                 p->version ? p->version : "?", FWADVISOR_VERSION);
        return -1;
    }
    const struct eng_cuda_sizes mine = ENG_CUDA_SIZES;
    if (memcmp(&p->sizes, &mine, sizeof mine) != 0) {
        snprintf(why, whysz, "%s was built from other headers (interface struct %zu bytes, this program's %zu): rebuild it",
                 path, p->sizes.plugin, mine.plugin);
        return -1;
    }
    return 0;
}

static void load(void)
{
    const void *api;
    enum eng_plugin_status st = eng_plugin_open("FWADVISOR_CUDA_PLUGIN", "fwadvisor-cuda.so", "fwadvisor_cuda_plugin",
                                                0, check_plugin, &api, load_error, sizeof load_error);
    loaded = api;
    refused = st == ENG_PLUGIN_REFUSED;
    if (st == ENG_PLUGIN_ABSENT)
        snprintf(load_error, sizeof load_error, "this build has no CUDA plug-in (fwadvisor-cuda.so; build with nvcc)");
}

const char *eng_cuda_load_warning(void)
{
    pthread_mutex_lock(&lock);
    const char *w = tried && refused ? load_error : NULL;
    pthread_mutex_unlock(&lock);
    return w;
}

const struct eng_cuda_plugin *eng_cuda_load(char *err, size_t errsz)
{
    pthread_mutex_lock(&lock);
    if (!tried) {
        tried = 1;
        load();
    }
    const struct eng_cuda_plugin *p = loaded;
    if (!p && err) snprintf(err, errsz, "%s", load_error);
    pthread_mutex_unlock(&lock);
    return p;
}

int eng_device_parse(const char *device, int *index, char *err, size_t errsz)
{
    if (strcasecmp(device, "cpu") == 0) {
        *index = -1;
        return 0;
    }
    if (strcasecmp(device, "cuda") == 0) {
        *index = 0;
        return 0;
    }
    if (strncasecmp(device, "cuda:", 5) == 0) {
        char *end;
        long n = strtol(device + 5, &end, 10);
        if (device[5] >= '0' && device[5] <= '9' && !*end && n >= 0 && n < 1024) {
            *index = (int)n;
            return 0;
        }
    }
    snprintf(err, errsz, "--device %s: expected cpu, cuda or cuda:N", device);
    return -1;
}

static const char *const precision_names[] = {"fp32", "tf32", "bf16", "fp16"};

int eng_precision_parse(const char *name, enum eng_precision *out)
{
    for (int i = 0; i < 4; i++)
        if (strcasecmp(name, precision_names[i]) == 0) {
            *out = (enum eng_precision)i;
            return 0;
        }
    return -1;
}

const char *eng_precision_name(enum eng_precision p) { return (unsigned)p < 4 ? precision_names[p] : "?"; }

static const struct eng_cuda_plugin *opened;

const struct eng_backend *eng_device_open(int index, enum eng_precision precision, struct eng_cuda_device *info,
                                          char *err, size_t errsz)
{
    if (index < 0) {
        if (precision != ENG_PREC_FP32) {
            snprintf(err, errsz, "the CPU back-end computes in fp32 only (--precision %s needs a GPU)",
                     eng_precision_name(precision));
            return NULL;
        }
        return eng_cpu_backend();
    }
    char why[512];
    const struct eng_cuda_plugin *p = eng_cuda_load(why, sizeof why);
    if (!p) {
        snprintf(err, errsz, "no CUDA back-end: %s", why);
        return NULL;
    }
    if (p->open(index, precision, info, why, sizeof why) != 0) {
        snprintf(err, errsz, "no CUDA back-end: %s", why);
        return NULL;
    }
    opened = p;
    return p->backend;
}

const char *eng_device_error(void) { return opened ? opened->last_error() : NULL; }

void eng_device_close(void)
{
    if (opened) opened->close();
    opened = NULL;
}
