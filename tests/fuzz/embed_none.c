/* embed_none.c - an empty built-in rules table for the fuzz targets: they
 * read rules/ from disk (PROBEKIT_RULES_DIR), so the generated table that
 * the CMake build embeds is not needed to link tool/embed.c. */
#include "embed.h"

const struct pk_embedded pk_embedded_files[] = {{0, 0, 0}};
