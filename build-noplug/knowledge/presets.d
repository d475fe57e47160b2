build-noplug/knowledge/presets.o: knowledge/presets.c knowledge/presets.h
knowledge/presets.h:
