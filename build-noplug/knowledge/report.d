build-noplug/knowledge/report.o: knowledge/report.c \
 knowledge/advisor_kb.h knowledge/advisor.h knowledge/answers.h \
 knowledge/answer_keys.h knowledge/kb.h
knowledge/advisor_kb.h:
knowledge/advisor.h:
knowledge/answers.h:
knowledge/answer_keys.h:
knowledge/kb.h:
