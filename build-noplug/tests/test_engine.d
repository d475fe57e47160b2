build-noplug/tests/test_engine.o: tests/test_engine.c engine/engine.h \
 engine/backend.h
engine/engine.h:
engine/backend.h:
