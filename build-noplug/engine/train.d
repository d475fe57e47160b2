build-noplug/engine/train.o: engine/train.c engine/engine.h \
 engine/backend.h
engine/engine.h:
engine/backend.h:
