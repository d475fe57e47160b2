#include "engine/plugin.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef const void *(*entry_fn)(void);

static const void *try_open(const char *path, const char *symbol, int global, eng_plugin_check check, char *why,
                            size_t whysz)
{
    void *h = dlopen(path, RTLD_NOW | (global ? RTLD_GLOBAL : RTLD_LOCAL));
    if (!h) {
        const char *e = dlerror();
        snprintf(why, whysz, "%s", e ? e : path);
        return NULL;
    }
    void *sym = dlsym(h, symbol);
    entry_fn fn;
    memcpy(&fn, &sym, sizeof fn); /* object pointer to function pointer, as POSIX allows */
    const void *api = sym ? fn() : NULL;
    if (!api) snprintf(why, whysz, "%s has no %s", path, symbol);
    else if (check(api, path, why, whysz) != 0) api = NULL;
    if (!api) dlclose(h);
    return api;
}

const void *eng_plugin_open(const char *env_var, const char *file, const char *symbol, int global,
                            eng_plugin_check check, char *err, size_t errsz)
{
    const char *env = getenv(env_var);
    if (env && *env) return try_open(env, symbol, global, check, err, errsz);
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        snprintf(err, errsz, "cannot find the program's own folder");
        return NULL;
    }
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) *slash = 0;
    static const char *const dirs[] = {"", "build/", "../lib/fwadvisor/"};
    int found = 0;
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        char path[PATH_MAX + 96], why[512];
        snprintf(path, sizeof path, "%s/%s%s", exe, dirs[i], file);
        if (access(path, F_OK) != 0) continue;
        const void *api = try_open(path, symbol, global, check, why, sizeof why);
        if (api) return api;
        if (!found++) snprintf(err, errsz, "%s", why); /* the first candidate's reason */
    }
    if (!found) snprintf(err, errsz, "this build has no %s", file);
    return NULL;
}
