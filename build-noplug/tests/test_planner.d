build-noplug/tests/test_planner.o: tests/test_planner.c \
 knowledge/planner.h
knowledge/planner.h:
