build-noplug/probes/mpi_loader.o: probes/mpi_loader.c probes/mpi/plugin.h
probes/mpi/plugin.h:
