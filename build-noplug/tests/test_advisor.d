build-noplug/tests/test_advisor.o: tests/test_advisor.c \
 knowledge/advisor.h knowledge/answers.h knowledge/answer_keys.h \
 knowledge/kb.h knowledge/presets.h tests/support.h
knowledge/advisor.h:
knowledge/answers.h:
knowledge/answer_keys.h:
knowledge/kb.h:
knowledge/presets.h:
tests/support.h:
