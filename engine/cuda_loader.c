/* Finds and loads the CUDA plug-in (engine/cuda/plugin.h). The main binary links no CUDA
 * library: the plug-in is opened with dlopen on first use, so a machine without the toolkit or
 * driver runs everything else and is told why the GPU back-end is missing. */
#include "engine/cuda/plugin.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef FWADVISOR_VERSION
#define FWADVISOR_VERSION "unknown"
#endif

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const struct eng_cuda_plugin *loaded;
static char load_error[512];
static int tried;

static const struct eng_cuda_plugin *try_open(const char *path, char *why, size_t whysz)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(why, whysz, "%s", e ? e : path);
        return NULL;
    }
    eng_cuda_plugin_fn fn;
    void *sym = dlsym(h, "fwadvisor_cuda_plugin");
    memcpy(&fn, &sym, sizeof fn); /* object pointer to function pointer, as POSIX allows */
    const struct eng_cuda_plugin *p = sym ? fn() : NULL;
    if (!p) {
        snprintf(why, whysz, "%s has no fwadvisor_cuda_plugin", path);
    } else if (p->abi != ENG_CUDA_ABI) {
        snprintf(why, whysz, "%s speaks interface %d, this program %d: rebuild it", path, p->abi, ENG_CUDA_ABI);
        p = NULL;
    } else if (!p->version || strcmp(p->version, FWADVISOR_VERSION) != 0) {
        snprintf(why, whysz, "%s is from version %s, this program is %s: rebuild it", path,
                 p->version ? p->version : "?", FWADVISOR_VERSION);
        p = NULL;
    }
    if (!p) dlclose(h);
    return p; /* stays open for the life of the process */
}

static void load(void)
{
    const char *env = getenv("FWADVISOR_CUDA_PLUGIN");
    if (env && *env) {
        if (!(loaded = try_open(env, load_error, sizeof load_error))) return;
        return;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        snprintf(load_error, sizeof load_error, "cannot find the program's own folder");
        return;
    }
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) *slash = 0;
    static const char *const rel[] = {"fwadvisor-cuda.so", "build/fwadvisor-cuda.so", "../lib/fwadvisor/fwadvisor-cuda.so"};
    char first_error[512] = "";
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        char path[PATH_MAX + 64];
        snprintf(path, sizeof path, "%s/%s", exe, rel[i]);
        if (access(path, F_OK) != 0) continue;
        if ((loaded = try_open(path, load_error, sizeof load_error))) return;
        if (!first_error[0]) snprintf(first_error, sizeof first_error, "%s", load_error);
    }
    if (first_error[0]) snprintf(load_error, sizeof load_error, "%s", first_error);
    else snprintf(load_error, sizeof load_error, "this build has no CUDA plug-in (fwadvisor-cuda.so; build with nvcc)");
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
    if (strcmp(device, "cpu") == 0) {
        *index = -1;
        return 0;
    }
    if (strcmp(device, "cuda") == 0) {
        *index = 0;
        return 0;
    }
    if (strncmp(device, "cuda:", 5) == 0) {
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
        if (strcmp(name, precision_names[i]) == 0) {
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
