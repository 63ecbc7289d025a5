# gt_cuda.m4 - find the CUDA Toolkit: cuda.h, nvrtc.h and libnvrtc.
#
# gputune compiles kernels with NVRTC and opens the driver (libcuda.so.1)
# itself at run time, so only the headers and NVRTC are needed to build.
# The search order is --with-cuda, $CUDA_HOME, $CUDA_PATH, /usr/local/cuda.
# Sets CUDA_HOME, CUDA_CPPFLAGS, NVRTC_LIBS, CUDA_VERSION_STRING and NVCC.

AC_DEFUN([GT_CHECK_CUDA], [
  AC_ARG_WITH([cuda],
    [AS_HELP_STRING([--with-cuda=DIR], [CUDA Toolkit prefix (default: $CUDA_HOME, $CUDA_PATH or /usr/local/cuda)])],
    [CUDA_HOME="$withval"],
    [AS_IF([test "x$CUDA_HOME" = x], [CUDA_HOME="$CUDA_PATH"])
     AS_IF([test "x$CUDA_HOME" = x], [CUDA_HOME=/usr/local/cuda])])
  AS_IF([test ! -d "$CUDA_HOME"],
    [AC_MSG_ERROR([no CUDA Toolkit at $CUDA_HOME: install the CUDA Toolkit or pass --with-cuda=DIR])])
  CUDA_LIBDIR="$CUDA_HOME/lib64"
  AS_IF([test ! -d "$CUDA_LIBDIR"], [CUDA_LIBDIR="$CUDA_HOME/lib"])
  CUDA_CPPFLAGS="-I$CUDA_HOME/include"
  gt_save_CPPFLAGS="$CPPFLAGS"
  gt_save_LIBS="$LIBS"
  CPPFLAGS="$CPPFLAGS $CUDA_CPPFLAGS"
  AC_CHECK_HEADER([cuda.h], [],
    [AC_MSG_ERROR([cuda.h not found under $CUDA_HOME/include: install the CUDA Toolkit (cuda-toolkit) or pass --with-cuda=DIR])])
  AC_CHECK_HEADER([nvrtc.h], [],
    [AC_MSG_ERROR([nvrtc.h not found under $CUDA_HOME/include: install the CUDA Toolkit's NVRTC (cuda-nvrtc-dev)])])
  LIBS="-L$CUDA_LIBDIR $LIBS"
  AC_CHECK_LIB([nvrtc], [nvrtcCreateProgram], [],
    [AC_MSG_ERROR([libnvrtc not found in $CUDA_LIBDIR: install the CUDA Toolkit's NVRTC (cuda-nvrtc)])])
  AC_MSG_CHECKING([for the CUDA version])
  AC_COMPUTE_INT([gt_cuda_version], [CUDA_VERSION], [#include <cuda.h>], [gt_cuda_version=0])
  CUDA_VERSION_STRING="$(( gt_cuda_version / 1000 )).$(( (gt_cuda_version % 1000) / 10 ))"
  AC_MSG_RESULT([$CUDA_VERSION_STRING])
  CPPFLAGS="$gt_save_CPPFLAGS"
  LIBS="$gt_save_LIBS"
  # The run path lets an installed gputune find libnvrtc without LD_LIBRARY_PATH.
  NVRTC_LIBS="-L$CUDA_LIBDIR -Wl,-rpath,$CUDA_LIBDIR -lnvrtc"
  AC_PATH_PROG([NVCC], [nvcc], [], [$CUDA_HOME/bin$PATH_SEPARATOR$PATH])
  AC_SUBST([CUDA_HOME])
  AC_SUBST([CUDA_CPPFLAGS])
  AC_SUBST([NVRTC_LIBS])
  AC_SUBST([NVCC])
  AM_CONDITIONAL([HAVE_NVCC], [test "x$NVCC" != x])
])
