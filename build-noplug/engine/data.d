build-noplug/engine/data.o: engine/data.c engine/engine.h \
 engine/backend.h
engine/engine.h:
engine/backend.h:
