build-noplug/probes/accel.o: probes/accel.c probes/probe.h probes/sysfs.h
probes/probe.h:
probes/sysfs.h:
