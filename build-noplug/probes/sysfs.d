build-noplug/probes/sysfs.o: probes/sysfs.c probes/sysfs.h
probes/sysfs.h:
