build-noplug/knowledge/advisor.o: knowledge/advisor.c \
 knowledge/advisor_kb.h knowledge/advisor.h knowledge/answers.h \
 knowledge/answer_keys.h knowledge/kb.h knowledge/kb_internal.h \
 knowledge/kb_tables.h knowledge/planner.h
knowledge/advisor_kb.h:
knowledge/advisor.h:
knowledge/answers.h:
knowledge/answer_keys.h:
knowledge/kb.h:
knowledge/kb_internal.h:
knowledge/kb_tables.h:
knowledge/planner.h:
