#include "probes/sysfs.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void sysfs_path(const char *path, char *out, size_t n)
{
    const char *root = getenv("FWADVISOR_SYSROOT");
    snprintf(out, n, "%s%s", root && *root ? root : "", path);
}

int sysfs_exists(const char *path)
{
    char full[1024];
    sysfs_path(path, full, sizeof full);
    return access(full, F_OK) == 0;
}

int sysfs_count(const char *dir, const char *prefix, int digit_next, char *first, size_t firstsz)
{
    char path[1024];
    sysfs_path(dir, path, sizeof path);
    DIR *d = opendir(path);
    if (!d) return 0;
    int n = 0;
    size_t plen = strlen(prefix);
    char best[256] = "";
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || strncmp(e->d_name, prefix, plen) != 0) continue;
        if (digit_next && !isdigit((unsigned char)e->d_name[plen])) continue;
        /* the smallest name, so "first" does not depend on directory order */
        if (n == 0 || strcmp(e->d_name, best) < 0) snprintf(best, sizeof best, "%s", e->d_name);
        n++;
    }
    closedir(d);
    if (first && firstsz) snprintf(first, firstsz, "%s", best);
    return n;
}

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t')) s[--n] = '\0';
}

int sysfs_field(const char *file, const char *key, char *out, size_t n)
{
    char path[1024], line[512];
    sysfs_path(file, path, sizeof path);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t klen = strlen(key);
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        if (strncmp(line, key, klen) != 0) continue;
        char *v = line + klen;
        while (*v == ' ' || *v == '\t') v++;
        if (*v != ':') continue;
        v++;
        while (*v == ' ' || *v == '\t') v++;
        trim(v);
        snprintf(out, n, "%s", v);
        found = 1;
    }
    fclose(f);
    return found;
}

int sysfs_line(const char *file, char *out, size_t n)
{
    char path[1024];
    sysfs_path(file, path, sizeof path);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int ok = fgets(out, (int)n, f) != NULL;
    fclose(f);
    if (ok) trim(out);
    return ok;
}

int sysfs_keyval(const char *file, const char *key, long long *out)
{
    char path[1024], line[256];
    sysfs_path(file, path, sizeof path);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t klen = strlen(key);
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        if (strncmp(line, key, klen) == 0 && line[klen] == ' ') {
            *out = strtoll(line + klen + 1, NULL, 10);
            found = 1;
        }
    }
    fclose(f);
    return found;
}
