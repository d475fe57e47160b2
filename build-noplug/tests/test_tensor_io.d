build-noplug/tests/test_tensor_io.o: tests/test_tensor_io.c \
 engine/tensor_io.h engine/engine.h engine/backend.h tests/support.h
engine/tensor_io.h:
engine/engine.h:
engine/backend.h:
tests/support.h:
