build-noplug/engine/tensor_io.o: engine/tensor_io.c engine/tensor_io.h \
 engine/engine.h engine/backend.h
engine/tensor_io.h:
engine/engine.h:
engine/backend.h:
