/* Where a shared object may be loaded from (libpath.h): the file and each directory above it. */
#include "engine/libpath.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int unsafe(const char *what, const struct stat *st, char *why, size_t whysz)
{
    uid_t me = geteuid();
    if (st->st_uid != 0 && st->st_uid != me) {
        snprintf(why, whysz, "%s belongs to user %ld, not to root or you", what, (long)st->st_uid);
        return 1;
    }
    int sticky_root_dir = S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX) && st->st_uid == 0;
    if ((st->st_mode & S_IWOTH) && !sticky_root_dir) {
        snprintf(why, whysz, "%s is writable by every user", what);
        return 1;
    }
    if ((st->st_mode & S_IWGRP) && st->st_gid != 0 && !sticky_root_dir) {
        snprintf(why, whysz, "%s is writable by group %ld", what, (long)st->st_gid);
        return 1;
    }
    return 0;
}

int eng_plugin_path_safe(const char *path, char *real, size_t realsz, char *why, size_t whysz)
{
    char resolved[PATH_MAX];
    if (!realpath(path, resolved)) {
        snprintf(why, whysz, "%s: %s", path, strerror(errno));
        return -1;
    }
    snprintf(real, realsz, "%s", resolved);
    struct stat st;
    if (stat(resolved, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(why, whysz, "%s is not a regular file", resolved);
        return -1;
    }
    char what[PATH_MAX + 16];
    snprintf(what, sizeof what, "%s", resolved);
    if (unsafe(what, &st, why, whysz)) return -1;
    /* Every directory above it, up to the root. */
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", resolved);
    for (char *slash = strrchr(dir, '/'); slash; slash = strrchr(dir, '/')) {
        if (slash == dir) slash[1] = '\0';
        else *slash = '\0';
        if (stat(dir, &st) != 0) {
            snprintf(why, whysz, "%s: %s", dir, strerror(errno));
            return -1;
        }
        snprintf(what, sizeof what, "folder %s", dir);
        if (unsafe(what, &st, why, whysz)) return -1;
        if (strcmp(dir, "/") == 0) break;
    }
    return 0;
}

int eng_env_library(const char *env_var, const char *name, char *path, size_t pathsz, char *why, size_t whysz)
{
    const char *given = getenv(env_var);
    if (!given || !*given) {
        snprintf(path, pathsz, "%s", name);
        return 0;
    }
    char reason[PATH_MAX + 128];
    if (eng_plugin_path_safe(given, path, pathsz, reason, sizeof reason) != 0) {
        snprintf(why, whysz, "not loading the library %s (%s): %s", given, env_var, reason);
        return -1;
    }
    return 0;
}
