/* Whole files in and out of memory, for the host tools (ember-compress, ember-fw). */
#ifndef EMBER_TOOLS_HOST_FILE_H
#define EMBER_TOOLS_HOST_FILE_H

#include <stddef.h>
#include <stdint.h>

/* The contents of path in a new buffer (free() it), its length in *size; NULL when the file
 * cannot be opened or read, or memory runs out. */
uint8_t *host_file_read(const char *path, size_t *size);

/* Writes data[0..size) to path, replacing it; 0, or -1 when any step fails. */
int host_file_write(const char *path, const uint8_t *data, size_t size);

#endif
