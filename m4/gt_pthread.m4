# gt_pthread.m4 - pthreads the simple way: the compiler's -pthread flag.
#
# Every compiler gputune supports (gcc, clang) takes -pthread; the check
# only confirms that a program using pthread_create links with it.

AC_DEFUN([GT_CHECK_PTHREAD], [
  AC_MSG_CHECKING([whether $CC -pthread links pthread_create])
  gt_save_CFLAGS="$CFLAGS"
  CFLAGS="$CFLAGS -pthread"
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <pthread.h>
static void *f(void *p) { return p; }]], [[pthread_t t; pthread_create(&t, 0, f, 0);]])],
    [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no]); AC_MSG_ERROR([pthreads are required (the -pthread flag did not link)])])
  CFLAGS="$gt_save_CFLAGS"
  PTHREAD_CFLAGS="-pthread"
  AC_SUBST([PTHREAD_CFLAGS])
])
