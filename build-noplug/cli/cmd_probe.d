build-noplug/cli/cmd_probe.o: cli/cmd_probe.c cli/cli.h tui/text.h \
 engine/cuda/plugin.h engine/backend.h knowledge/probe_store.h \
 knowledge/kb.h probes/dist.h probes/mpi/plugin.h probes/probe.h
cli/cli.h:
tui/text.h:
engine/cuda/plugin.h:
engine/backend.h:
knowledge/probe_store.h:
knowledge/kb.h:
probes/dist.h:
probes/mpi/plugin.h:
probes/probe.h:
