/* Quick hardware detection from device nodes and driver files. */
#include "probes/quick.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void rooted(const char *path, char *out, size_t n)
{
    const char *root = getenv("FWADVISOR_SYSROOT");
    snprintf(out, n, "%s%s", root && *root ? root : "", path);
}

/* Entries of dir whose names start with prefix and continue with a digit (or anything when
 * digit_next is 0). */
static int count_entries(const char *dir, const char *prefix, int digit_next, char *first, size_t firstsz)
{
    char path[512];
    rooted(dir, path, sizeof path);
    DIR *d = opendir(path);
    if (!d) return 0;
    int n = 0;
    size_t plen = strlen(prefix);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || strncmp(e->d_name, prefix, plen) != 0) continue;
        if (digit_next && !isdigit((unsigned char)e->d_name[plen])) continue;
        if (n == 0 && first) snprintf(first, firstsz, "%s", e->d_name);
        n++;
    }
    closedir(d);
    return n;
}

/* The value after "key:" on the first line of a file that has it, trimmed. */
static int read_field(const char *file, const char *key, char *out, size_t n)
{
    char path[512], line[512];
    rooted(file, path, sizeof path);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t klen = strlen(key);
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        if (strncmp(line, key, klen) != 0) continue;
        char *v = strchr(line + klen, ':');
        if (!v) continue;
        v++;
        while (*v == ' ' || *v == '\t') v++;
        v[strcspn(v, "\r\n")] = '\0';
        snprintf(out, n, "%s", v);
        found = 1;
    }
    fclose(f);
    return found;
}

void quick_detect(struct quick_hw *out)
{
    memset(out, 0, sizeof *out);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    out->cpu_threads = cpus > 0 ? (int)cpus : 1;
    out->host_memory_gb = pages > 0 && page > 0 ? (double)pages * (double)page / 1e9 : 0;

    char first[256];
    int n;
    /* NVIDIA: the driver lists each GPU under /proc/driver/nvidia/gpus; device nodes otherwise. */
    if ((n = count_entries("/proc/driver/nvidia/gpus", "", 0, first, sizeof first)) > 0) {
        char info[512];
        snprintf(info, sizeof info, "/proc/driver/nvidia/gpus/%s/information", first);
        read_field(info, "Model", out->name, sizeof out->name);
        snprintf(out->kind, sizeof out->kind, "nvidia");
        out->count = n;
        snprintf(out->evidence, sizeof out->evidence, "/proc/driver/nvidia/gpus (%d)", n);
        return;
    }
    if ((n = count_entries("/dev", "nvidia", 1, NULL, 0)) > 0) {
        snprintf(out->kind, sizeof out->kind, "nvidia");
        out->count = n;
        snprintf(out->evidence, sizeof out->evidence, "/dev/nvidia* (%d)", n);
        return;
    }
    /* AMD: the kernel fusion driver's topology has one node per CPU and GPU; GPUs have SIMDs. */
    char path[512];
    rooted("/dev/kfd", path, sizeof path);
    if (access(path, F_OK) == 0) {
        int gpus = 0;
        int nodes = count_entries("/sys/class/kfd/kfd/topology/nodes", "", 0, NULL, 0);
        for (int i = 0; i < nodes && i < 256; i++) {
            char props[160], simd[32];
            snprintf(props, sizeof props, "/sys/class/kfd/kfd/topology/nodes/%d/properties", i);
            /* properties lines are "key value"; read_field wants "key:" so scan by hand. */
            char full[512], line[256];
            rooted(props, full, sizeof full);
            FILE *f = fopen(full, "r");
            if (!f) continue;
            while (fgets(line, sizeof line, f))
                if (sscanf(line, "simd_count %31s", simd) == 1 && atoi(simd) > 0) gpus++;
            fclose(f);
        }
        snprintf(out->kind, sizeof out->kind, "amd");
        out->count = gpus > 0 ? gpus : 1;
        snprintf(out->evidence, sizeof out->evidence, "/dev/kfd (%d GPU nodes)", gpus);
        return;
    }
    /* TPU VMs expose /dev/accel* (or vfio) and name the slice in TPU_ACCELERATOR_TYPE. */
    const char *tpu_type = getenv("TPU_ACCELERATOR_TYPE");
    if ((n = count_entries("/dev", "accel", 1, NULL, 0)) > 0 || (tpu_type && *tpu_type)) {
        snprintf(out->kind, sizeof out->kind, "tpu");
        out->count = n > 0 ? n : 1;
        if (tpu_type) snprintf(out->name, sizeof out->name, "%s", tpu_type);
        snprintf(out->evidence, sizeof out->evidence, "/dev/accel* (%d)%s", n, tpu_type ? ", TPU_ACCELERATOR_TYPE" : "");
        return;
    }
    if ((n = count_entries("/dev", "davinci", 1, NULL, 0)) > 0) {
        snprintf(out->kind, sizeof out->kind, "ascend");
        out->count = n;
        snprintf(out->evidence, sizeof out->evidence, "/dev/davinci* (%d)", n);
        return;
    }
#if defined(__APPLE__) && defined(__aarch64__)
    snprintf(out->kind, sizeof out->kind, "apple");
    out->count = 1;
    snprintf(out->evidence, sizeof out->evidence, "Apple Silicon build");
    return;
#endif
    snprintf(out->kind, sizeof out->kind, "cpu");
    read_field("/proc/cpuinfo", "model name", out->name, sizeof out->name);
    snprintf(out->evidence, sizeof out->evidence, "no accelerator device nodes found");
}
