build-noplug/cli/cmd_train.o: cli/cmd_train.c cli/cli.h tui/text.h \
 engine/cuda/plugin.h engine/backend.h engine/engine.h engine/tensor_io.h \
 probes/cpu_cores.h
cli/cli.h:
tui/text.h:
engine/cuda/plugin.h:
engine/backend.h:
engine/engine.h:
engine/tensor_io.h:
probes/cpu_cores.h:
