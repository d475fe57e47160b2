#include "engine/plugin.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Written by the Makefile: where `make install` puts plug-ins, and the build tree's binary and
 * plug-in folder. */
#include "build_paths.h"
#ifndef FWADVISOR_PLUGIN_DIR
#define FWADVISOR_PLUGIN_DIR "/usr/local/lib/fwadvisor"
#endif
#ifndef FWADVISOR_BUILD_BIN
#define FWADVISOR_BUILD_BIN ""
#endif
#ifndef FWADVISOR_BUILD_DIR
#define FWADVISOR_BUILD_DIR ""
#endif

typedef const void *(*entry_fn)(void);

static enum eng_plugin_status try_open(const char *path, const char *symbol, int global, eng_plugin_check check,
                                       const void **api, char *err, size_t errsz)
{
    char real[PATH_MAX], why[PATH_MAX + 128];
    if (eng_plugin_path_safe(path, real, sizeof real, why, sizeof why) != 0) {
        snprintf(err, errsz, "not loading the plug-in %s: %s", path, why);
        return ENG_PLUGIN_REFUSED;
    }
    /* The checked path, free of links, is what gets opened. */
    void *h = dlopen(real, RTLD_NOW | (global ? RTLD_GLOBAL : RTLD_LOCAL));
    if (!h) {
        const char *e = dlerror();
        snprintf(err, errsz, "%s", e ? e : real);
        return ENG_PLUGIN_FAILED;
    }
    void *sym = dlsym(h, symbol);
    entry_fn fn;
    memcpy(&fn, &sym, sizeof fn); /* object pointer to function pointer, as POSIX allows */
    *api = sym ? fn() : NULL;
    if (!*api) {
        snprintf(err, errsz, "%s has no %s", real, symbol);
        dlclose(h);
        return ENG_PLUGIN_FAILED;
    }
    if (check(*api, real, err, errsz) != 0) {
        *api = NULL;
        dlclose(h);
        return ENG_PLUGIN_REFUSED;
    }
    return ENG_PLUGIN_OK;
}

enum eng_plugin_status eng_plugin_open(const char *env_var, const char *file, const char *symbol, int global,
                                       eng_plugin_check check, const void **api, char *err, size_t errsz)
{
    *api = NULL;
    const char *env = getenv(env_var);
    if (env && *env) return try_open(env, symbol, global, check, api, err, errsz);
    /* The build tree only for the very binary that build made; any other copy uses the
     * installed plug-ins. */
    const char *dir = FWADVISOR_PLUGIN_DIR;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0 && *FWADVISOR_BUILD_BIN) {
        exe[n] = '\0';
        if (strcmp(exe, FWADVISOR_BUILD_BIN) == 0) dir = FWADVISOR_BUILD_DIR;
    }
    char path[PATH_MAX + 96];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (access(path, F_OK) != 0) {
        snprintf(err, errsz, "this build has no %s (looked in %s)", file, dir);
        return ENG_PLUGIN_ABSENT;
    }
    return try_open(path, symbol, global, check, api, err, errsz);
}
