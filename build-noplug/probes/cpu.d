build-noplug/probes/cpu.o: probes/cpu.c probes/probe.h probes/sysfs.h
probes/probe.h:
probes/sysfs.h:
