build-noplug/tests/test_cli_train.o: tests/test_cli_train.c \
 engine/tensor_io.h engine/engine.h engine/backend.h tests/support.h
engine/tensor_io.h:
engine/engine.h:
engine/backend.h:
tests/support.h:
