/* Quick hardware detection from device nodes and driver files. */
#include "probes/quick.h"
#include "probes/sysfs.h"
#include "probes/probe.h"

#include <hwloc.h>

#include <ctype.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What the NUMA nodes hold together (MemTotal of each node under /sys/devices/system/node),
 * 0 when unknown. */
static uint64_t numa_sum_bytes(void)
{
    char dir[512];
    sysfs_path("/sys/devices/system/node", dir, sizeof dir);
    DIR *d = opendir(dir);
    if (!d) return 0;
    uint64_t sum = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, "node", 4) != 0 || !isdigit((unsigned char)e->d_name[4])) continue;
        char file[800], line[256];
        snprintf(file, sizeof file, "%s/%s/meminfo", dir, e->d_name);
        FILE *f = fopen(file, "r");
        if (!f) continue;
        while (fgets(line, sizeof line, f)) {
            char *at = strstr(line, "MemTotal:"); /* "Node 0 MemTotal:  16384000 kB" */
            if (at) sum += (uint64_t)strtoull(at + 9, NULL, 10) * 1024;
        }
        fclose(f);
    }
    closedir(d);
    return sum;
}

uint64_t probe_memory_bytes(uint64_t numa_sum)
{
    uint64_t os_total = 0;
    char value[64];
    if (sysfs_field("/proc/meminfo", "MemTotal", value, sizeof value)) os_total = (uint64_t)strtoull(value, NULL, 10) * 1024;
    if (!os_total && !getenv("FWADVISOR_SYSROOT")) { /* a recorded machine's total is not this one's */
        long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        if (pages > 0 && page > 0) os_total = (uint64_t)pages * (uint64_t)page;
    }
    return os_total > numa_sum ? os_total : numa_sum;
}

void quick_detect(struct quick_hw *out, int cpu_model)
{
    memset(out, 0, sizeof *out);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    out->cpu_threads = cpus > 0 ? (int)cpus : 1;
    out->host_memory_gb = (double)probe_memory_bytes(numa_sum_bytes()) / 1e9;

    for (int v = 0; v < quick_nvendors; v++)
        if (quick_vendors[v].quick(out)) {
            snprintf(out->kind, sizeof out->kind, "%s", quick_vendors[v].kind);
            return;
        }
    snprintf(out->kind, sizeof out->kind, "cpu");
    /* The CPU's model as hwloc knows it (HWLOC_XMLFILE for a recorded machine). */
    hwloc_topology_t topo;
    if (cpu_model && hwloc_topology_init(&topo) == 0) {
        if (hwloc_topology_load(topo) == 0) {
            hwloc_obj_t pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0);
            const char *model = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUModel") : NULL;
            if (model) snprintf(out->name, sizeof out->name, "%s", model);
        }
        hwloc_topology_destroy(topo);
    }
    snprintf(out->evidence, sizeof out->evidence, "no accelerator device nodes found");
}

double quick_memory_available_bytes(void)
{
    char value[64];
    /* "MemAvailable:   12345678 kB": what can be allocated without swapping (Linux 3.14+) */
    if (sysfs_field("/proc/meminfo", "MemAvailable", value, sizeof value)) {
        char *end;
        double kb = strtod(value, &end);
        if (end != value && kb > 0) return kb * 1024;
    }
    long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (double)pages * (double)page : 0;
}
