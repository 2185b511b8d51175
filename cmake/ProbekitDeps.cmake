# Locate probekit's Debian-packaged dependencies (scripts/setup.sh installs them).
find_package(PkgConfig REQUIRED)
pkg_check_modules(PCRE2 REQUIRED IMPORTED_TARGET libpcre2-8)
pkg_check_modules(JANSSON REQUIRED IMPORTED_TARGET jansson)
pkg_check_modules(INIH REQUIRED IMPORTED_TARGET inih)
pkg_check_modules(CMOCKA REQUIRED IMPORTED_TARGET cmocka)

# libclang: through llvm-config (Debian's llvm-14-dev), then find_library.
find_program(LLVM_CONFIG NAMES llvm-config-14 llvm-config
  PATHS /usr/lib/llvm-14/bin NO_DEFAULT_PATH)
find_program(LLVM_CONFIG NAMES llvm-config-14 llvm-config)
if(LLVM_CONFIG)
  execute_process(COMMAND ${LLVM_CONFIG} --libdir OUTPUT_VARIABLE LLVM_LIBDIR OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${LLVM_CONFIG} --includedir OUTPUT_VARIABLE LLVM_INCLUDEDIR OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${LLVM_CONFIG} --prefix OUTPUT_VARIABLE LLVM_PREFIX OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()
find_library(LIBCLANG_LIBRARY NAMES clang libclang clang-14
  HINTS ${LLVM_LIBDIR} /usr/lib/llvm-14/lib REQUIRED)
find_path(LIBCLANG_INCLUDE_DIR clang-c/Index.h
  HINTS ${LLVM_INCLUDEDIR} /usr/lib/llvm-14/include REQUIRED)
# clang's own resource dir (stddef.h and friends) for parsing without a compiler driver
execute_process(COMMAND ${LLVM_PREFIX}/bin/clang -print-resource-dir
  OUTPUT_VARIABLE LIBCLANG_RESOURCE_DIR OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
message(STATUS "libclang: ${LIBCLANG_LIBRARY} (resource dir ${LIBCLANG_RESOURCE_DIR})")
