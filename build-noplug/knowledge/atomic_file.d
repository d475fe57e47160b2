build-noplug/knowledge/atomic_file.o: knowledge/atomic_file.c \
 knowledge/atomic_file.h
knowledge/atomic_file.h:
