build-noplug/probes/cpu_cores.o: probes/cpu_cores.c probes/cpu_cores.h
probes/cpu_cores.h:
