/* quick: a fast look at what accelerators this machine has, without running anything: device
 * nodes and driver files only. The advisor uses it for `hardware: auto` when no probe run is
 * stored. Every path is read under $FWADVISOR_SYSROOT when set, so tests feed recorded trees. */
#ifndef FWADVISOR_PROBES_QUICK_H
#define FWADVISOR_PROBES_QUICK_H

struct quick_hw {
    char kind[16];       /* nvidia, amd, tpu, ascend, trainium, gaudi, apple or cpu */
    int count;           /* accelerators found (0 for cpu) */
    char name[128];      /* accelerator or CPU model when known, else "" */
    char evidence[160];  /* what was found, e.g. "/proc/driver/nvidia/gpus (8 entries)" */
    int cpu_threads;     /* logical CPUs online */
    double host_memory_gb;
};

struct probe_hw;

/* One accelerator vendor's detection, both ways: `quick` looks at device nodes and driver files
 * only and, when the vendor is there, fills count, name (when known) and evidence and returns 1;
 * `full` adds the vendor's accelerators to hw (probe_detect). The rows are in precedence order:
 * quick_detect reports the first vendor found, probe_detect every one. A new vendor is a row
 * here plus its two functions (probes/accel.c). */
struct quick_vendor {
    const char *kind; /* quick_hw.kind and probe_accel.kind */
    int (*quick)(struct quick_hw *out);
    void (*full)(struct probe_hw *hw);
};
extern const struct quick_vendor quick_vendors[];
extern const int quick_nvendors;

/* Fills *out; never fails (an unreadable tree reads as a CPU-only machine). cpu_model asks
 * hwloc for the CPU's model too, which costs a topology load (milliseconds). */
void quick_detect(struct quick_hw *out, int cpu_model);

/* Bytes of memory that can be allocated now without swapping (MemAvailable), 0 when unknown. */
double quick_memory_available_bytes(void);

#endif
