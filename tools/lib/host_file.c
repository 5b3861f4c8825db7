/* Whole files in and out of memory: include/ember/tools/host_file.h. */
#include <ember/tools/host_file.h>

#include <stdio.h>
#include <stdlib.h>

uint8_t *host_file_read(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		/* One byte at least, so an empty file is a buffer, not a failure. */
		buf = malloc(len ? (size_t)len : 1);
		if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
			free(buf);
			buf = NULL;
		}
		*size = (size_t)len;
	}
	fclose(f);
	return buf;
}

int host_file_write(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	int ok = f && fwrite(data, 1, size, f) == size;

	/* A full disk may only show when the buffered data is flushed. */
	if (f && fclose(f) != 0)
		ok = 0;
	return ok ? 0 : -1;
}
