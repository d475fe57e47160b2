build-noplug/knowledge/advisor_plan.o: knowledge/advisor_plan.c \
 knowledge/advisor_kb.h knowledge/advisor.h knowledge/answers.h \
 knowledge/answer_keys.h knowledge/kb.h knowledge/planner.h
knowledge/advisor_kb.h:
knowledge/advisor.h:
knowledge/answers.h:
knowledge/answer_keys.h:
knowledge/kb.h:
knowledge/planner.h:
