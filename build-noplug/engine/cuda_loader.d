build-noplug/engine/cuda_loader.o: engine/cuda_loader.c \
 engine/cuda/plugin.h engine/backend.h
engine/cuda/plugin.h:
engine/backend.h:
