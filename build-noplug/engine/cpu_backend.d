build-noplug/engine/cpu_backend.o: engine/cpu_backend.c engine/backend.h \
 /usr/include/x86_64-linux-gnu/openblas-pthread/cblas.h \
 /usr/include/x86_64-linux-gnu/openblas-pthread/openblas_config.h
engine/backend.h:
/usr/include/x86_64-linux-gnu/openblas-pthread/cblas.h:
/usr/include/x86_64-linux-gnu/openblas-pthread/openblas_config.h:
