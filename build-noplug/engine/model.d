build-noplug/engine/model.o: engine/model.c engine/engine.h \
 engine/backend.h
engine/engine.h:
engine/backend.h:
