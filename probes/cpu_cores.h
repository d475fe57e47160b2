/* cpu_cores: the machine's physical cores through hwloc (the default thread count of the engine). */
#ifndef FWADVISOR_PROBES_CPU_CORES_H
#define FWADVISOR_PROBES_CPU_CORES_H

/* Physical cores available to this process; logical CPUs when hwloc cannot tell; at least 1. */
int probe_physical_cores(void);

#endif
