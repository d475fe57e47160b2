#include "probes/cpu_cores.h"

#include <hwloc.h>
#include <unistd.h>

int probe_physical_cores(void)
{
    hwloc_topology_t topo;
    int cores = -1;
    if (hwloc_topology_init(&topo) == 0) {
        if (hwloc_topology_load(topo) == 0) cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
        hwloc_topology_destroy(topo);
    }
    if (cores < 1) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        cores = n > 0 ? (int)n : 1;
    }
    return cores;
}
