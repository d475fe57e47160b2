build-noplug/probes/quick.o: probes/quick.c probes/quick.h probes/sysfs.h
probes/quick.h:
probes/sysfs.h:
