/* rake-capi-test: drives the C API (include/Rake-c/Rake.h) as a C program
   would, for test/CAPI/capi.test.

     rake-capi-test print FILE         parse, print (or the diagnostics)
     rake-capi-test check FILE         the synchronization check
     rake-capi-test pipeline FILE P    run pass pipeline P, print the result
     rake-capi-test ptx FILE CHIP      compile to PTX
   Each diagnostic prints as "SEVERITY at LOCATION: MESSAGE"; the exit
   status is 0 on success, 1 on a reported failure, 2 on bad usage. */
#include "Rake-c/Rake.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void diagnostic(void *user, RakeSeverity severity, const char *location,
                       const char *message) {
  static const char *names[] = {"error", "warning", "note", "remark"};
  (void)user;
  printf("%s at %s: %s\n", names[severity], location[0] ? location : "?",
         message);
}

static void print(void *user, const char *data, size_t length) {
  (void)user;
  fwrite(data, 1, length, stdout);
}

static char *readAll(const char *path, size_t *length) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)n + 1);
  *length = fread(text, 1, (size_t)n, f);
  text[*length] = '\0';
  fclose(f);
  return text;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: rake-capi-test print|check|pipeline|ptx|abi FILE [ARG]\n");
    return 2;
  }
  printf("api version %d\n", rakeApiVersion());
  size_t length = 0;
  char *text = readAll(argv[2], &length);
  if (!text) {
    fprintf(stderr, "cannot read %s\n", argv[2]);
    return 2;
  }
  RakeContext *context = rakeContextCreate();
  RakeModule *module =
      rakeModuleParse(context, text, length, argv[2], diagnostic, NULL);
  free(text);
  int status = 1;
  if (module) {
    if (!strcmp(argv[1], "print")) {
      rakeModulePrint(module, 0, print, NULL);
      status = 0;
    } else if (!strcmp(argv[1], "check")) {
      status = rakeModuleCheck(module, diagnostic, NULL);
      if (status == 0)
        printf("check passed\n");
    } else if (!strcmp(argv[1], "pipeline") && argc > 3) {
      status = rakeModuleRunPipeline(module, argv[3], diagnostic, NULL);
      if (status == 0)
        rakeModulePrint(module, 0, print, NULL);
    } else if (!strcmp(argv[1], "abi") && argc > 3) {
      status = rakeModuleKernelABI(module, argv[3], print, NULL, diagnostic,
                                   NULL);
    } else if (!strcmp(argv[1], "ptx") && argc > 3) {
      status = rakeModuleToPtx(module, argv[3], print, NULL, diagnostic, NULL);
    } else {
      fprintf(stderr, "unknown command %s\n", argv[1]);
      status = 2;
    }
    rakeModuleDestroy(module);
  }
  rakeContextDestroy(context);
  printf("status %d\n", status);
  return status;
}
