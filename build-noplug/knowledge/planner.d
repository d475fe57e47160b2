build-noplug/knowledge/planner.o: knowledge/planner.c knowledge/planner.h
knowledge/planner.h:
